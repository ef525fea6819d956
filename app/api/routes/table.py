"""The table as people use it: leave, resign, remove, readiness, auto start, the maximum of
cards, reactions, reports, taking a seat to another device. POST only, credentials in
``Authorization: Bearer`` only (these routes are new: no established client sends them in
the URL).

Every route has one shape: the game, the caller's Bearer credential, an optional body field,
an optional ``Idempotency-Key``; it calls one service method and answers its message.
"""

from __future__ import annotations

from fastapi import APIRouter

from app.api.blocking import BlockingRoute
from app.api.deps import IdempotencyKeyDep, RequiredBearerDep, ServiceDep
from app.api.routes.common import Body, errors
from app.api.schemas import (
    AutoStartRequest,
    MaxCardsRequest,
    Message,
    MovedSeat,
    NicknameRequest,
    ReactRequest,
    ReadyRequest,
)

router = APIRouter(tags=["table"], route_class=BlockingRoute)


ANSWERS = errors(400, 401, 403, 409, 413, 422)


@router.post(
    "/games/{game_uuid}/leave",
    response_model=Message,
    responses=ANSWERS,
    summary="Leave the lobby (your seat and nickname are freed)",
)
def leave(
    game_uuid: str, bearer: RequiredBearerDep, service: ServiceDep, key: IdempotencyKeyDep
) -> Body:
    """Before the start only (a running game is left by resigning). If the admin leaves,
    the human who joined next becomes admin; the last human out empties the game."""
    return service.leave(game_uuid, bearer, idempotency_key=key)


@router.post(
    "/games/{game_uuid}/resign",
    response_model=Message,
    responses=ANSWERS,
    summary="Resign: leave a running game, out at once",
)
def resign(
    game_uuid: str, bearer: RequiredBearerDep, service: ServiceDep, key: IdempotencyKeyDep
) -> Body:
    """As a forfeit: the round ends with your lost-round event (89), its snapshot is
    kept, and the game goes on with a new round, or ends if one player is left."""
    return service.resign(game_uuid, bearer, idempotency_key=key)


@router.post(
    "/games/{game_uuid}/remove",
    response_model=Message,
    responses=ANSWERS,
    summary="Remove a player or an AI from the lobby (admin only)",
)
def remove(
    game_uuid: str,
    bearer: RequiredBearerDep,
    body: NicknameRequest,
    service: ServiceDep,
    key: IdempotencyKeyDep,
) -> Body:
    """A removed human's UUID stops working. The admin cannot remove themselves."""
    return service.remove_player(game_uuid, bearer, body.nickname, idempotency_key=key)


@router.post(
    "/games/{game_uuid}/ready",
    response_model=Message,
    responses=ANSWERS,
    summary="Say you are ready (or not) to start",
)
def ready(
    game_uuid: str,
    bearer: RequiredBearerDep,
    body: ReadyRequest,
    service: ServiceDep,
    key: IdempotencyKeyDep,
) -> Body:
    """With auto start on, the request that makes every human ready (two or more seated)
    starts the game; its message then ends with "Game started"."""
    return service.set_ready(game_uuid, bearer, body.ready, idempotency_key=key)


@router.post(
    "/games/{game_uuid}/set-auto-start",
    response_model=Message,
    responses=ANSWERS,
    summary="Start by itself once every human is ready (admin only)",
)
def set_auto_start(
    game_uuid: str,
    bearer: RequiredBearerDep,
    body: AutoStartRequest,
    service: ServiceDep,
    key: IdempotencyKeyDep,
) -> Body:
    """Turning it on starts the game at once if every human already is ready."""
    return service.set_auto_start(game_uuid, bearer, body.auto_start, idempotency_key=key)


@router.post(
    "/games/{game_uuid}/set-max-cards",
    response_model=Message,
    responses=ANSWERS,
    summary="Choose the maximum of cards (admin only, before the start)",
)
def set_max_cards(
    game_uuid: str,
    bearer: RequiredBearerDep,
    body: MaxCardsRequest,
    service: ServiceDep,
    key: IdempotencyKeyDep,
) -> Body:
    """1 to the rule's maximum for the players seated; capped again at the start."""
    return service.set_max_cards(game_uuid, bearer, body.max_cards, idempotency_key=key)


@router.post(
    "/games/{game_uuid}/react",
    response_model=Message,
    responses=ANSWERS,
    summary="Send a reaction to the table",
)
def react(
    game_uuid: str,
    bearer: RequiredBearerDep,
    body: ReactRequest,
    service: ServiceDep,
    key: IdempotencyKeyDep,
) -> Body:
    """Any player, in any state of the game. A few per player every few seconds; past
    that, 429 `too_many_reactions` with `Retry-After`."""
    return service.react(game_uuid, bearer, body.reaction, idempotency_key=key)


@router.post(
    "/games/{game_uuid}/report",
    response_model=Message,
    responses=ANSWERS,
    summary="Report another player's nickname as offensive",
)
def report(
    game_uuid: str,
    bearer: RequiredBearerDep,
    body: NicknameRequest,
    service: ServiceDep,
    key: IdempotencyKeyDep,
) -> Body:
    """Kept for the operator. Once every other human at the table has reported a
    nickname, it is shown as `Player_<seat>` from then on."""
    return service.report(game_uuid, bearer, body.nickname, idempotency_key=key)


@router.post(
    "/games/{game_uuid}/move-seat",
    response_model=MovedSeat,
    responses=ANSWERS,
    summary="Take your seat to another device (a fresh player UUID; the one sent is retired)",
)
def move_seat(
    game_uuid: str, bearer: RequiredBearerDep, service: ServiceDep, key: IdempotencyKeyDep
) -> Body:
    """Sent by the new device with the seat's current UUID (from the device that holds it,
    or from its take-your-seat link). Answers a fresh `player_uuid` for the new device; from
    then on the UUID sent gets 403 `seat_moved` on every request, and its websockets are told
    so and closed. In any state of the game. An `Idempotency-Key` (hard to guess: the reply
    holds a secret) makes a retry of a move whose answer was lost get that answer again."""
    return service.move_seat(game_uuid, bearer, idempotency_key=key)
