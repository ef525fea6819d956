"""The table as people use it: leave, resign, remove, readiness, auto start, the maximum of
cards, reactions, reports. POST only, credentials in ``Authorization: Bearer`` only (these
routes are new: no established client sends them in the URL).

Every route has one shape: the game, the caller's Bearer credential, an optional body field,
an optional ``Idempotency-Key``; it calls one service method and answers its message. So the
routes are declared as a table (:data:`ROUTES`) and registered by :func:`_register`.
"""

# No ``from __future__ import annotations`` here: FastAPI reads each handler's body model
# from its annotation, which must be the model class itself, bound when the handler is made.

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from app.api.deps import IdempotencyKeyDep, RequiredBearerDep, ServiceDep
from app.api.routes.common import errors, reply
from app.api.schemas import (
    AutoStartRequest,
    MaxCardsRequest,
    Message,
    NicknameRequest,
    ReactRequest,
    ReadyRequest,
)
from app.service import GameService

router = APIRouter(tags=["table"])


@dataclass(frozen=True)
class TableRoute:
    action: str
    """The path's last part: ``/games/{game_uuid}/<action>``."""
    method: Callable[[GameService], Callable[..., dict[str, Any]]]
    """The service method it calls, as ``(game_uuid, credential, [field], idempotency_key=)``."""
    summary: str
    description: str
    body: type[BaseModel] | None = None
    field: str = ""
    """The body's one field, passed to the service method after the credential."""


ROUTES = (
    TableRoute(
        "leave",
        lambda s: s.leave,
        "Leave the lobby (your seat and nickname are freed)",
        "Before the start only (a running game is left by resigning). If the admin leaves, the"
        " human who joined next becomes admin; the last human out empties the game.",
    ),
    TableRoute(
        "resign",
        lambda s: s.resign,
        "Resign: leave a running game, out at once",
        "As a forfeit: the round ends with your lost-round event (89), its snapshot is kept,"
        " and the game goes on with a new round, or ends if one player is left.",
    ),
    TableRoute(
        "remove",
        lambda s: s.remove_player,
        "Remove a player or an AI from the lobby (admin only)",
        "A removed human's UUID stops working. The admin cannot remove themselves.",
        NicknameRequest,
        "nickname",
    ),
    TableRoute(
        "ready",
        lambda s: s.set_ready,
        "Say you are ready (or not) to start",
        "With auto start on, the request that makes every human ready (two or more seated)"
        ' starts the game; its message then ends with "Game started".',
        ReadyRequest,
        "ready",
    ),
    TableRoute(
        "set-auto-start",
        lambda s: s.set_auto_start,
        "Start by itself once every human is ready (admin only)",
        "Turning it on starts the game at once if every human already is ready.",
        AutoStartRequest,
        "auto_start",
    ),
    TableRoute(
        "set-max-cards",
        lambda s: s.set_max_cards,
        "Choose the maximum of cards (admin only, before the start)",
        "1 to the rule's maximum for the players seated; capped again at the start.",
        MaxCardsRequest,
        "max_cards",
    ),
    TableRoute(
        "react",
        lambda s: s.react,
        "Send a reaction to the table",
        "Any player, in any state of the game. A few per player every few seconds; past that,"
        " 429 `too_many_reactions` with `Retry-After`.",
        ReactRequest,
        "reaction",
    ),
    TableRoute(
        "report",
        lambda s: s.report,
        "Report another player's nickname as offensive",
        "Kept for the operator. Once every other human at the table has reported a nickname,"
        " it is shown as `Player_<seat>` from then on.",
        NicknameRequest,
        "nickname",
    ),
)

_ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {"model": Message},
    **errors(400, 401, 403, 409, 413, 422),
}


def _register(route: TableRoute) -> None:
    path = f"/games/{{game_uuid}}/{route.action}"
    declare = router.post(
        path,
        response_model=None,
        responses=_ANSWERS,
        summary=route.summary,
        description=route.description,
    )
    model = route.body
    if model is None:

        def plain(
            game_uuid: str, bearer: RequiredBearerDep, service: ServiceDep, key: IdempotencyKeyDep
        ) -> JSONResponse:
            return reply(route.method(service)(game_uuid, bearer, idempotency_key=key))

        handler: Callable[..., JSONResponse] = plain
    else:

        def with_body(
            game_uuid: str,
            bearer: RequiredBearerDep,
            body: model,  # type: ignore[valid-type]
            service: ServiceDep,
            key: IdempotencyKeyDep,
        ) -> JSONResponse:
            value = getattr(body, route.field)
            return reply(route.method(service)(game_uuid, bearer, value, idempotency_key=key))

        handler = with_body
    handler.__name__ = route.action.replace("-", "_")
    declare(handler)


for _route in ROUTES:
    _register(_route)
