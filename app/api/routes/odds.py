"""The probability aid: ``GET /games/{game_uuid}/odds`` with the player's Bearer token."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.blocking import BlockingRoute
from app.api.deps import BearerDep, ServiceDep
from app.api.routes.common import Body, errors
from app.api.schemas import Odds

router = APIRouter(tags=["play"], route_class=BlockingRoute)


@router.get(
    "/games/{game_uuid}/odds",
    response_model=Odds,
    response_model_exclude_none=True,
    responses=errors(400, 401),
    summary="The chance each set exists, given your own hand (Bearer only)",
)
def game_odds(game_uuid: str, service: ServiceDep, bearer: BearerDep) -> Body:
    """For a seated player of a running game: the exact probability that each of the 88
    sets exists among all cards in play, given their own hand and the others' card counts.
    The credential is read from the ``Authorization`` header only, never from the URL."""
    return service.odds(game_uuid, bearer)
