"""The public game list, and a health check."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from app.api.blocking import BlockingRoute
from app.api.deps import ServiceDep
from app.api.routes.common import Body, errors
from app.api.schemas import PublicGameEntry

router = APIRouter(route_class=BlockingRoute)


@router.get(
    "/games",
    response_model=list[PublicGameEntry],
    responses=errors(400),
    tags=["lobby"],
    summary="Public games waiting for players, changed in the last 30 minutes",
)
def list_games(
    service: ServiceDep,
    response: Response,
    limit: Annotated[
        int | None,
        Query(
            ge=1,
            le=1000,
            description="At most this many: 1 to the configured maximum (100 by default);"
            " above it, 400",
        ),
    ] = None,
    cursor: Annotated[
        str | None,
        Query(
            max_length=200,
            description="The next page: the `X-Next-Cursor` header of the previous page,"
            " sent back as is",
        ),
    ] = None,
) -> list[Body]:
    games, following = service.list_public_page(limit, cursor)
    if following is not None:
        response.headers["X-Next-Cursor"] = following
    return games


@router.get("/health", tags=["service"], summary="Liveness check")
def health() -> dict[str, str]:
    return {"status": "ok"}
