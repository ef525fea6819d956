"""The credentials a watcher sends, and the messages it is sent.

Every message is the envelope the established iOS client parses: a JSON object whose
``statusCode`` is an HTTP status and whose ``body`` is a *string* holding JSON, the state
object (what ``GET /games/{game_uuid}?player_uuid=...`` answers for that viewer) or an error
``{"error": ..., "code": ...}``.

>>> message = json.loads(state_message({"round_number": 2}))
>>> message["statusCode"], json.loads(message["body"])
(200, {'round_number': 2})
>>> credentials({"Game_UUID": "g"}, {"game_uuid": "x", "player_uuid": "p"})
Credentials(game_uuid='g', player_uuid='p')
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from engine.errors import BlefError

if TYPE_CHECKING:
    from app.store.base import GameDoc

GAME_KEY: Final = "game_uuid"
PLAYER_KEY: Final = "player_uuid"


class Credentials(NamedTuple):
    """What a watcher presented (unchecked): ``player_uuid`` is None for an observer."""

    game_uuid: str | None
    player_uuid: str | None


def _lookup(values: Mapping[str, str] | None, key: str, *, any_case: bool) -> str | None:
    if not values:
        return None
    if any_case:
        return next((v for k, v in values.items() if k.lower() == key), None)
    return values.get(key)


def credentials(headers: Mapping[str, str] | None, query: Mapping[str, str] | None) -> Credentials:
    """The game and player UUIDs from the request headers ``game_uuid`` and ``player_uuid``
    (names in any case, as the iOS client sends them; the player's also as ``Authorization:
    Bearer <player_uuid>``, as the tables' routes take it) or else from the query parameters
    of the same names (browsers cannot set headers on a websocket)."""

    def read(key: str) -> str | None:
        value = _lookup(headers, key, any_case=True)
        if (value is None or value == "") and key == PLAYER_KEY:
            value = _bearer(_lookup(headers, "authorization", any_case=True))
        if value is None or value == "":
            value = _lookup(query, key, any_case=False)
        return value

    return Credentials(read(GAME_KEY), read(PLAYER_KEY))


def _bearer(value: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header's value, or None."""
    if not value:
        return None
    scheme, _, token = value.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def envelope(status: int, body: Mapping[str, Any]) -> str:
    """One message: ``body`` serialised to a string, inside ``{"statusCode", "body"}``."""
    return json.dumps({"statusCode": status, "body": json.dumps(body)})


def state_message(state: Mapping[str, Any]) -> str:
    """A state object, as the iOS client expects every update."""
    return envelope(200, state)


def error_message(status: int, error: BlefError) -> str:
    """A refusal, with the same ``error`` text and ``code`` as the HTTP API's."""
    return envelope(status, {"error": error.message, "code": error.code})


def public_game_body(doc: GameDoc) -> dict[str, Any]:
    """What a public-games watcher is told of a game that is, or just stopped being, public:
    no hand, no secret, only what the public list shows (and whether it is still public)."""
    return {
        "game_uuid": doc.game_uuid,
        "room": doc.room,
        "public": "true" if doc.public else "false",
        "last_modified": doc.last_modified,
        "players": doc.nicknames,
    }


def public_game_message(doc: GameDoc) -> str:
    """The message a public-games watcher (a websocket opened with no game) is sent."""
    return envelope(200, public_game_body(doc))
