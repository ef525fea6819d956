"""Creating games, joining, inviting AI players, visibility, starting: GET (established) and
POST (JSON body, Bearer credentials, Idempotency-Key) forms of each."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from app.api.deps import BearerDep, IdempotencyKeyDep, ServiceDep
from app.api.routes.common import credential, errors, reply
from app.api.schemas import (
    CreatedGame,
    InviteRequest,
    JoinedPlayer,
    JoinRequest,
    Message,
    TimeLimitRequest,
)
from app.service import parse
from app.service.errors import InvalidParameter

router = APIRouter(tags=["lobby"])

AdminQuery = Annotated[
    str | None, Query(description="The admin's player UUID (or send it as a Bearer token)")
]


@router.get(
    "/games/create",
    response_model=None,
    responses={200: {"model": CreatedGame}, **errors(409)},
    summary="Create a game",
)
def create_game(service: ServiceDep) -> JSONResponse:
    return reply(service.create_game())


@router.post(
    "/games/create",
    response_model=None,
    responses={200: {"model": CreatedGame}, **errors(400, 409, 410, 413)},
    summary="Create a game (POST form; retry-safe with Idempotency-Key)",
)
def create_game_post(service: ServiceDep, key: IdempotencyKeyDep) -> JSONResponse:
    return reply(service.create_game(idempotency_key=key))


@router.get(
    "/games/{game_uuid}/join",
    response_model=None,
    responses={200: {"model": JoinedPlayer}, **errors(400, 403, 409)},
    summary="Join a game with a nickname",
)
def join(
    game_uuid: str, service: ServiceDep, nickname: Annotated[str | None, Query()] = None
) -> JSONResponse:
    return reply(service.join(game_uuid, nickname))


@router.post(
    "/games/{game_uuid}/join",
    response_model=None,
    responses={200: {"model": JoinedPlayer}, **errors(400, 403, 409, 413, 422)},
    summary="Join a game (POST form)",
)
def join_post(
    game_uuid: str, body: JoinRequest, service: ServiceDep, key: IdempotencyKeyDep
) -> JSONResponse:
    return reply(service.join(game_uuid, _text("nickname", body.nickname), idempotency_key=key))


@router.get(
    "/games/{game_uuid}/start",
    response_model=None,
    responses={202: {"model": Message}, **errors(400, 403, 409)},
    status_code=202,
    summary="Start the game (admin only)",
)
def start(
    game_uuid: str, service: ServiceDep, bearer: BearerDep, admin_uuid: AdminQuery = None
) -> JSONResponse:
    return reply(service.start(game_uuid, credential(bearer, admin_uuid)), 202)


@router.post(
    "/games/{game_uuid}/start",
    response_model=None,
    responses={202: {"model": Message}, **errors(400, 403, 409, 413, 422)},
    status_code=202,
    summary="Start the game (POST form)",
)
def start_post(
    game_uuid: str,
    service: ServiceDep,
    bearer: BearerDep,
    key: IdempotencyKeyDep,
    admin_uuid: AdminQuery = None,
) -> JSONResponse:
    admin = credential(bearer, admin_uuid)
    return reply(service.start(game_uuid, admin, idempotency_key=key), 202)


def _visibility(public: bool, post: bool) -> None:
    word = "public" if public else "private"
    path = f"/games/{{game_uuid}}/make-{word}"
    statuses = (400, 403, 409, 413, 422) if post else (400, 403, 409)
    responses = {200: {"model": Message}, **errors(*statuses)}
    summary = f"Make the game {word} (admin only, before the start)"

    if post:

        @router.post(path, response_model=None, responses=responses, summary=summary + " (POST)")
        def change_post(
            game_uuid: str,
            service: ServiceDep,
            bearer: BearerDep,
            key: IdempotencyKeyDep,
            admin_uuid: AdminQuery = None,
        ) -> JSONResponse:
            admin = credential(bearer, admin_uuid)
            return reply(service.set_public(game_uuid, admin, public, idempotency_key=key))

        change_post.__name__ = f"make_{word}_post"
    else:

        @router.get(path, response_model=None, responses=responses, summary=summary)
        def change(
            game_uuid: str, service: ServiceDep, bearer: BearerDep, admin_uuid: AdminQuery = None
        ) -> JSONResponse:
            return reply(service.set_public(game_uuid, credential(bearer, admin_uuid), public))

        change.__name__ = f"make_{word}"


for _public in (True, False):
    for _post in (False, True):
        _visibility(_public, _post)


@router.get(
    "/games/{game_uuid}/invite-aiagent",
    response_model=None,
    responses={200: {"model": Message}, **errors(400, 403, 409)},
    summary="Seat a built-in AI player (admin only, before the start)",
)
def invite_ai(
    game_uuid: str,
    service: ServiceDep,
    bearer: BearerDep,
    admin_uuid: AdminQuery = None,
    agent_name: Annotated[str | None, Query()] = None,
) -> JSONResponse:
    return reply(service.invite_ai(game_uuid, credential(bearer, admin_uuid), agent_name))


@router.post(
    "/games/{game_uuid}/invite-aiagent",
    response_model=None,
    responses={200: {"model": Message}, **errors(400, 403, 409, 413, 422)},
    summary="Seat a built-in AI player (POST form)",
)
def invite_ai_post(
    game_uuid: str,
    body: InviteRequest,
    service: ServiceDep,
    bearer: BearerDep,
    key: IdempotencyKeyDep,
    admin_uuid: AdminQuery = None,
) -> JSONResponse:
    admin = credential(bearer, admin_uuid)
    agent = _text("agent_name", body.agent_name)
    return reply(service.invite_ai(game_uuid, admin, agent, idempotency_key=key))


@router.get(
    "/games/{game_uuid}/set-time-limit",
    response_model=None,
    responses={200: {"model": Message}, **errors(400, 403, 409)},
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
) -> JSONResponse:
    return reply(service.set_time_limit(game_uuid, credential(bearer, admin_uuid), time_limit))


@router.post(
    "/games/{game_uuid}/set-time-limit",
    response_model=None,
    responses={200: {"model": Message}, **errors(400, 403, 409, 413, 422)},
    summary="Set the move time limit (POST form)",
)
def set_time_limit_post(
    game_uuid: str,
    body: TimeLimitRequest,
    service: ServiceDep,
    bearer: BearerDep,
    key: IdempotencyKeyDep,
    admin_uuid: AdminQuery = None,
) -> JSONResponse:
    admin = credential(bearer, admin_uuid)
    if isinstance(body.time_limit, str):  # JSON carries numbers as numbers
        raise InvalidParameter("time_limit", body.time_limit, "Must be an integer")
    return reply(service.set_time_limit(game_uuid, admin, body.time_limit, idempotency_key=key))


def _text(name: str, value: object) -> str | None:
    """A body field that must be text (or absent, which the service reports as missing)."""
    if value is None:
        return value
    if isinstance(value, str):
        return parse.text(name, value)
    raise InvalidParameter(name, value, f"'{name}' must be a string")
