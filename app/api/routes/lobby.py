"""Creating games, joining, inviting AI players, visibility, starting: GET (established) and
POST (JSON body, Bearer credentials, Idempotency-Key) forms of each."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.blocking import BlockingRoute
from app.api.deps import BearerDep, IdempotencyKeyDep, ServiceDep
from app.api.routes.common import Body, credential, errors, join_errors
from app.api.schemas import (
    CreatedGame,
    CreateRequest,
    InviteRequest,
    JoinedPlayer,
    JoinRequest,
    Message,
    TimeLimitRequest,
)
from app.service import parse
from app.service.errors import InvalidParameter

router = APIRouter(tags=["lobby"], route_class=BlockingRoute)

AdminQuery = Annotated[
    str | None, Query(description="The admin's player UUID (or send it as a Bearer token)")
]


OptionalText = Annotated[str | None, Query()]


@router.get(
    "/games/create",
    response_model=CreatedGame,
    response_model_exclude_none=True,
    responses=join_errors(400, 403, 409),
    summary="Create a game (and join it, with a nickname; or the rematch of a finished one)",
)
def create_game(
    service: ServiceDep,
    nickname: Annotated[
        str | None, Query(description="Create and join as this player (answers both UUIDs)")
    ] = None,
    team: Annotated[str | None, Query(description="Your team, 1..8 (with a nickname)")] = None,
    previous_game_uuid: Annotated[
        str | None, Query(description="A finished game: ask for the next game of its table")
    ] = None,
    previous_player_uuid: Annotated[
        str | None, Query(description="Your player UUID in that finished game")
    ] = None,
) -> Body:
    """Without parameters, an empty game (`{"game_uuid"}`). With `nickname`, the game with
    you seated as its admin (`{"game_uuid", "player_uuid"}`). With `previous_game_uuid` and
    `previous_player_uuid`, the rematch: the next game of that table, made by the first to
    ask (same rules, same AI players) and joined by everyone who asks after. A rematch is
    never rated, even of a rated (ladder) game: a rated game comes only from the queue
    (`POST /ladder/queue`), which pairs players by rating."""
    return _create(service, None, nickname, team, previous_game_uuid, previous_player_uuid)


@router.post(
    "/games/create",
    response_model=CreatedGame,
    response_model_exclude_none=True,
    responses=join_errors(400, 403, 409, 410, 413, 422),
    summary="Create a game (POST form; retry-safe with Idempotency-Key)",
)
def create_game_post(
    service: ServiceDep, key: IdempotencyKeyDep, body: CreateRequest | None = None
) -> Body:
    """The body is optional: the same fields as the GET form's query (a rematch, with
    `previous_game_uuid`, is never rated, even of a rated game)."""
    body = body or CreateRequest()
    previous = (body.previous_game_uuid, body.previous_player_uuid)
    return _create(service, key, _text("nickname", body.nickname), body.team, *previous)


def _create(
    service: ServiceDep,
    key: str | None,
    nickname: str | None,
    team: object,
    previous_game_uuid: object,
    previous_player_uuid: object,
) -> Body:
    if previous_game_uuid is not None or previous_player_uuid is not None:
        return service.rematch(
            _text("previous_game_uuid", previous_game_uuid),
            _text("previous_player_uuid", previous_player_uuid),
            nickname,
            team,
            idempotency_key=key,
        )
    return service.create_game(idempotency_key=key, nickname=nickname, team=team)


@router.get(
    "/games/{game_uuid}/join",
    response_model=JoinedPlayer,
    responses=join_errors(400, 403, 409),
    summary="Join a game with a nickname",
)
def join(
    game_uuid: str,
    service: ServiceDep,
    nickname: OptionalText = None,
    team: Annotated[str | None, Query(description="Your team, 1..8; absent: on your own")] = None,
) -> Body:
    return service.join(game_uuid, nickname, team=team)


@router.post(
    "/games/{game_uuid}/join",
    response_model=JoinedPlayer,
    responses=join_errors(400, 403, 409, 413, 422),
    summary="Join a game (POST form)",
)
def join_post(
    game_uuid: str, body: JoinRequest, service: ServiceDep, key: IdempotencyKeyDep
) -> Body:
    nickname = _text("nickname", body.nickname)
    return service.join(game_uuid, nickname, idempotency_key=key, team=body.team)


@router.get(
    "/games/{game_uuid}/start",
    response_model=Message,
    responses=errors(400, 403, 409),
    status_code=202,
    summary="Start the game (admin only)",
)
def start(
    game_uuid: str, service: ServiceDep, bearer: BearerDep, admin_uuid: AdminQuery = None
) -> Body:
    return service.start(game_uuid, credential(bearer, admin_uuid))


@router.post(
    "/games/{game_uuid}/start",
    response_model=Message,
    responses=errors(400, 403, 409, 413, 422),
    status_code=202,
    summary="Start the game (POST form)",
)
def start_post(
    game_uuid: str,
    service: ServiceDep,
    bearer: BearerDep,
    key: IdempotencyKeyDep,
    admin_uuid: AdminQuery = None,
) -> Body:
    admin = credential(bearer, admin_uuid)
    return service.start(game_uuid, admin, idempotency_key=key)


@router.get(
    "/games/{game_uuid}/make-public",
    response_model=Message,
    responses=errors(400, 403, 409),
    summary="Make the game public (admin only, before the start)",
)
def make_public(
    game_uuid: str, service: ServiceDep, bearer: BearerDep, admin_uuid: AdminQuery = None
) -> Body:
    return service.set_public(game_uuid, credential(bearer, admin_uuid), True)


@router.post(
    "/games/{game_uuid}/make-public",
    response_model=Message,
    responses=errors(400, 403, 409, 413, 422),
    summary="Make the game public (admin only, before the start) (POST)",
)
def make_public_post(
    game_uuid: str,
    service: ServiceDep,
    bearer: BearerDep,
    key: IdempotencyKeyDep,
    admin_uuid: AdminQuery = None,
) -> Body:
    admin = credential(bearer, admin_uuid)
    return service.set_public(game_uuid, admin, True, idempotency_key=key)


@router.get(
    "/games/{game_uuid}/make-private",
    response_model=Message,
    responses=errors(400, 403, 409),
    summary="Make the game private (admin only, before the start)",
)
def make_private(
    game_uuid: str, service: ServiceDep, bearer: BearerDep, admin_uuid: AdminQuery = None
) -> Body:
    return service.set_public(game_uuid, credential(bearer, admin_uuid), False)


@router.post(
    "/games/{game_uuid}/make-private",
    response_model=Message,
    responses=errors(400, 403, 409, 413, 422),
    summary="Make the game private (admin only, before the start) (POST)",
)
def make_private_post(
    game_uuid: str,
    service: ServiceDep,
    bearer: BearerDep,
    key: IdempotencyKeyDep,
    admin_uuid: AdminQuery = None,
) -> Body:
    admin = credential(bearer, admin_uuid)
    return service.set_public(game_uuid, admin, False, idempotency_key=key)


@router.get(
    "/games/{game_uuid}/invite-aiagent",
    response_model=Message,
    responses=errors(400, 403, 409),
    summary="Seat a built-in AI player (admin only, before the start)",
)
def invite_ai(
    game_uuid: str,
    service: ServiceDep,
    bearer: BearerDep,
    admin_uuid: AdminQuery = None,
    agent_name: Annotated[str | None, Query()] = None,
) -> Body:
    return service.invite_ai(game_uuid, credential(bearer, admin_uuid), agent_name)


@router.post(
    "/games/{game_uuid}/invite-aiagent",
    response_model=Message,
    responses=errors(400, 403, 409, 413, 422),
    summary="Seat a built-in AI player (POST form)",
)
def invite_ai_post(
    game_uuid: str,
    body: InviteRequest,
    service: ServiceDep,
    bearer: BearerDep,
    key: IdempotencyKeyDep,
    admin_uuid: AdminQuery = None,
) -> Body:
    admin = credential(bearer, admin_uuid)
    agent = _text("agent_name", body.agent_name)
    return service.invite_ai(game_uuid, admin, agent, idempotency_key=key)


@router.get(
    "/games/{game_uuid}/set-time-limit",
    response_model=Message,
    responses=errors(400, 403, 409),
    summary="Set the move time limit (admin only, before the start)",
)
def set_time_limit(
    game_uuid: str,
    service: ServiceDep,
    bearer: BearerDep,
    admin_uuid: AdminQuery = None,
    time_limit: Annotated[
        str | None, Query(description="Seconds each move may take: 0 for none, or 1..300")
    ] = None,
) -> Body:
    return service.set_time_limit(game_uuid, credential(bearer, admin_uuid), time_limit)


@router.post(
    "/games/{game_uuid}/set-time-limit",
    response_model=Message,
    responses=errors(400, 403, 409, 413, 422),
    summary="Set the move time limit (POST form)",
)
def set_time_limit_post(
    game_uuid: str,
    body: TimeLimitRequest,
    service: ServiceDep,
    bearer: BearerDep,
    key: IdempotencyKeyDep,
    admin_uuid: AdminQuery = None,
) -> Body:
    admin = credential(bearer, admin_uuid)
    if isinstance(body.time_limit, str):  # JSON carries numbers as numbers
        raise InvalidParameter("time_limit", body.time_limit, "Must be an integer")
    return service.set_time_limit(game_uuid, admin, body.time_limit, idempotency_key=key)


def _text(name: str, value: object) -> str | None:
    """A body field that must be text (or absent, which the service reports as missing)."""
    if value is None:
        return value
    if isinstance(value, str):
        return parse.text(name, value)
    raise InvalidParameter(name, value, f"'{name}' must be a string")
