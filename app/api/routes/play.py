"""Playing and reading: moves, the state (with ETag/304), round snapshots, the game record.

These routes answer the established state object (or a game's record), which the schemas
in app/api/schemas.py document but do not validate on the way out (``response_model=None``):
its optional keys (``legal_actions``, ``seed``, ``winner``, ``you``, ``loser``) are absent
rather than null, as the established clients read it field by field, and the state is the
most polled answer of the service. The service builds it from the engine's views only; the
tests check every answer against the OpenAPI document's schema instead (schemathesis)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse, Response

from app.api.blocking import BlockingRoute
from app.api.deps import BearerDep, IdempotencyKeyDep, ServiceDep
from app.api.routes.common import credential, errors, finished_reply, reply
from app.api.schemas import GameRecord, GameState, PlayRequest
from app.service.errors import InvalidParameter
from app.service.parse import ACTION_REASON

router = APIRouter(tags=["play"], route_class=BlockingRoute)

PlayerQuery = Annotated[
    str | None, Query(description="The player's UUID (or send it as a Bearer token)")
]


@router.get(
    "/games/{game_uuid}/play",
    response_model=None,
    responses={200: {"model": GameState}, **errors(400, 409)},
    summary="Bet (action_id 0..87) or check (88)",
)
def play(
    game_uuid: str,
    service: ServiceDep,
    bearer: BearerDep,
    player_uuid: PlayerQuery = None,
    action_id: Annotated[str | None, Query(description="0..87 a bet, 88 a check")] = None,
    expected_version: Annotated[
        int | None, Query(ge=1, description="Refuse (409) unless the game is at this version")
    ] = None,
) -> JSONResponse:
    body = service.play(
        game_uuid,
        credential(bearer, player_uuid),
        action_id,
        expected_version=expected_version,
    )
    return reply(body)


@router.post(
    "/games/{game_uuid}/play",
    response_model=None,
    responses={200: {"model": GameState}, **errors(400, 409, 413, 422)},
    summary="Bet or check (POST form; retry-safe with Idempotency-Key)",
)
def play_post(
    game_uuid: str,
    body: PlayRequest,
    service: ServiceDep,
    bearer: BearerDep,
    key: IdempotencyKeyDep,
    player_uuid: PlayerQuery = None,
) -> JSONResponse:
    expected = body.expected_version
    if expected is not None and (type(expected) is not int or expected < 1):
        raise InvalidParameter("expected_version", expected, "Must be a positive integer")
    if isinstance(body.action_id, str):  # JSON carries numbers as numbers
        raise InvalidParameter("action_id", body.action_id, ACTION_REASON)
    result = service.play(
        game_uuid,
        credential(bearer, player_uuid),
        body.action_id,
        expected_version=expected,
        idempotency_key=key,
    )
    return reply(result)


@router.get(
    "/games/{game_uuid}",
    response_model=None,
    responses={
        200: {"model": GameState},
        304: {"description": "Not modified since the ETag sent in If-None-Match"},
        **errors(400),
    },
    summary="The game state, or a finished round's snapshot",
)
def state(
    game_uuid: str,
    service: ServiceDep,
    bearer: BearerDep,
    player_uuid: PlayerQuery = None,
    round_: Annotated[
        str | None,
        Query(alias="round", description="A finished round's number; blank or -1: current"),
    ] = None,
    if_none_match: Annotated[str | None, Header()] = None,
) -> Response:
    result = service.state(game_uuid, credential(bearer, player_uuid), round_)
    headers = {"ETag": result.etag, "Cache-Control": "no-cache"}
    if if_none_match is not None and result.etag in (t.strip() for t in if_none_match.split(",")):
        return Response(status_code=304, headers=headers)
    response = reply(result.body)
    response.headers.update(headers)
    return response


@router.get(
    "/games/{game_uuid}/record",
    response_model=None,
    responses={200: {"model": GameRecord}, **errors(400, 409)},
    summary="A finished game's every round: players, hands, history, seeds",
)
def record(game_uuid: str, service: ServiceDep, request: Request) -> Response:
    # If-None-Match is read from the request, not declared: the established route's
    # document stays as it was (a 304 needs the ETag the client was sent).
    return finished_reply(service.record(game_uuid), request.headers.get("if-none-match"))
