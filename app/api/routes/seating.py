"""The lobby requests of the newer established service: change the rules, say you are
ready (everyone ready starts the game), remove a player (the admin anyone, a player
themselves), change teams. Each has its established GET form (credentials in the query)
and a POST form (a JSON body, ``Authorization: Bearer``, an optional ``Idempotency-Key``
where retrying matters).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from app.api.blocking import BlockingRoute
from app.api.deps import BearerDep, IdempotencyKeyDep, RequiredBearerDep, ServiceDep
from app.api.routes.common import Body, credential, errors
from app.api.schemas import Message, NicknameRequest, ReadyRequest, RulesRequest, TeamRequest

router = APIRouter(tags=["lobby"], route_class=BlockingRoute)

GET_ANSWERS = errors(400, 403, 409)
POST_ANSWERS = errors(400, 401, 403, 409, 413, 422)
PlayerQuery = Annotated[
    str | None, Query(description="Your player UUID (or send it as a Bearer token)")
]
AdminQuery = Annotated[
    str | None, Query(description="The admin's player UUID (or send it as a Bearer token)")
]
RULE_QUERY = ("deck_size", "jokers", "blanks", "common_cards", "max_cards", "initial_cards")


@router.get(
    "/games/{game_uuid}/change-rules",
    response_model=Message,
    responses=GET_ANSWERS,
    summary="Change the rules (admin only, before the start)",
)
def change_rules(
    game_uuid: str,
    request: Request,
    service: ServiceDep,
    bearer: BearerDep,
    admin_uuid: AdminQuery = None,
    deck_size: Annotated[str | None, Query(description="24 or 32")] = None,
    jokers: Annotated[str | None, Query(description="0..12 wild cards")] = None,
    blanks: Annotated[str | None, Query(description="0..12 dead cards")] = None,
    common_cards: Annotated[
        str | None, Query(description="0..12, or -1 increasing, -2 slowly increasing")
    ] = None,
    max_cards: Annotated[str | None, Query(description="0 (no preference) or 1..11")] = None,
    initial_cards: Annotated[
        str | None, Query(description="0 (unset), a number, random, or nick:count,...")
    ] = None,
    time_limit: Annotated[str | None, Query(description="0 (none) or 1..300 s")] = None,
) -> Body:
    """Answers `{"message": "Rules updated"}`. Every human is unready after a change."""
    known = {"admin_uuid", *RULE_QUERY, "time_limit"}
    changes: dict[str, object] = {
        name: value for name, value in request.query_params.items() if name != "admin_uuid"
    }
    unknown = sorted(set(request.query_params) - known)
    if unknown:  # named so the refusal says which
        changes = {name: request.query_params[name] for name in unknown}
    return service.change_rules(game_uuid, credential(bearer, admin_uuid), changes)


@router.post(
    "/games/{game_uuid}/change-rules",
    response_model=Message,
    responses=POST_ANSWERS,
    summary="Change the rules (POST form)",
)
def change_rules_post(
    game_uuid: str,
    body: RulesRequest,
    service: ServiceDep,
    bearer: RequiredBearerDep,
    key: IdempotencyKeyDep,
) -> Body:
    changes: dict[str, object] = body.model_dump(exclude_unset=True)
    return service.change_rules(game_uuid, bearer, changes, idempotency_key=key)


@router.get(
    "/games/{game_uuid}/set-readiness",
    response_model=Message,
    responses=GET_ANSWERS,
    summary="Say you are ready (or not); everyone ready starts the game",
)
def set_readiness(
    game_uuid: str,
    service: ServiceDep,
    bearer: BearerDep,
    player_uuid: PlayerQuery = None,
    ready: Annotated[str | None, Query(description="True or False")] = None,
) -> Body:
    """Once every human is ready, with two sides or more seated, the game starts (its
    message then ends with "Game started")."""
    return service.set_readiness(game_uuid, credential(bearer, player_uuid), ready)


@router.post(
    "/games/{game_uuid}/set-readiness",
    response_model=Message,
    responses=POST_ANSWERS,
    summary="Say you are ready (or not) (POST form)",
)
def set_readiness_post(
    game_uuid: str, body: ReadyRequest, service: ServiceDep, bearer: RequiredBearerDep
) -> Body:
    return service.set_readiness(game_uuid, bearer, body.ready)


@router.get(
    "/games/{game_uuid}/remove-player",
    response_model=Message,
    responses=GET_ANSWERS,
    summary="Remove a player before the start (the admin anyone, a player themselves)",
)
def remove_player(
    game_uuid: str,
    service: ServiceDep,
    bearer: BearerDep,
    player_uuid: PlayerQuery = None,
    nickname: Annotated[str | None, Query(description="Whom to remove")] = None,
) -> Body:
    """Anyone else gets 403 `You do not have permission`."""
    return service.remove_by(game_uuid, credential(bearer, player_uuid), nickname)


@router.post(
    "/games/{game_uuid}/remove-player",
    response_model=Message,
    responses=POST_ANSWERS,
    summary="Remove a player before the start (POST form)",
)
def remove_player_post(
    game_uuid: str, body: NicknameRequest, service: ServiceDep, bearer: RequiredBearerDep
) -> Body:
    return service.remove_by(game_uuid, bearer, body.nickname)


@router.get(
    "/games/{game_uuid}/change-team",
    response_model=Message,
    responses=GET_ANSWERS,
    summary="Change a player's team before the start (the admin anyone, a player themselves)",
)
def change_team(
    game_uuid: str,
    service: ServiceDep,
    bearer: BearerDep,
    player_uuid: PlayerQuery = None,
    team: Annotated[str | None, Query(description="1..8; empty or 0: on their own")] = None,
    nickname: Annotated[str | None, Query(description="Whom to move (absent: you)")] = None,
) -> Body:
    """Every human is unready after a change."""
    return service.set_team(game_uuid, credential(bearer, player_uuid), team, nickname)


@router.post(
    "/games/{game_uuid}/change-team",
    response_model=Message,
    responses=POST_ANSWERS,
    summary="Change a player's team (POST form)",
)
def change_team_post(
    game_uuid: str,
    body: TeamRequest,
    service: ServiceDep,
    bearer: RequiredBearerDep,
    key: IdempotencyKeyDep,
) -> Body:
    return service.set_team(game_uuid, bearer, body.team, body.nickname, idempotency_key=key)
