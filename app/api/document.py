"""The OpenAPI document, corrected to say what the server does.

The handlers read their established query parameters as optional so that a missing one gets
the established answer (``400 {"code": "missing_parameter", "error": "Nickname missing -
please supply it"}``), never FastAPI's 422; FastAPI would therefore document them as
optional. This module states the truth in the document instead, in one place:

- the parameters and body fields a route cannot do without are ``required`` (and not
  blank); action ids and time limits in the query are bounded integers;
- UUIDs (the game in the path, the player or admin in the query) are ``format: uuid``: the
  server refuses anything that is not a UUID;
- ``limit`` on ``GET /games`` is bounded by the configured ``max_listed_games`` (the value
  when the document is generated), not by the hard cap FastAPI validates.

- the admin's UUID, and the player's on a move, are ``required`` query parameters. They may
  come as a Bearer token instead, which OpenAPI cannot express as "one of" with a query
  parameter; the description says so. (The player's UUID on a state read stays optional: a
  spectator reads without one.)
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from app.config.settings import Settings
from app.service.parse import MAX_TEAM, MAX_TIME_LIMIT
from engine.rules import (
    DECK_SIZES,
    MAX_BLANKS,
    MAX_COMMON,
    MAX_HAND,
    MAX_JOKERS,
    Rules,
)

CHECK_32 = Rules(deck_size=32).check

REQUIRED_QUERY: dict[str, tuple[str, ...]] = {
    "/games/{game_uuid}/join": ("nickname",),
    "/games/{game_uuid}/invite-aiagent": ("agent_name",),
    "/games/{game_uuid}/set-time-limit": ("time_limit",),
    "/games/{game_uuid}/play": ("action_id",),
    "/games/{game_uuid}/remove-player": ("nickname",),
    "/games/{game_uuid}/set-readiness": ("ready",),
}
"""Query parameters the GET form of a route requires (the POST forms take them in the body)."""

CREDENTIAL_DESCRIPTION = (
    "Required, unless the same UUID is sent as `Authorization: Bearer <UUID>`"
    " (then this is ignored)"
)

UUID_PARAMETERS = frozenset(
    {"game_uuid", "player_uuid", "admin_uuid", "previous_game_uuid", "previous_player_uuid"}
)


QUERY_INTEGERS: dict[str, dict[str, Any]] = {
    "action_id": {"type": "integer", "minimum": 0, "maximum": CHECK_32},
    "time_limit": {"type": "integer", "minimum": 0, "maximum": MAX_TIME_LIMIT},
    "team": {"type": "integer", "minimum": 0, "maximum": MAX_TEAM},
    "deck_size": {"type": "integer", "enum": list(DECK_SIZES)},
    "jokers": {"type": "integer", "minimum": 0, "maximum": MAX_JOKERS},
    "blanks": {"type": "integer", "minimum": 0, "maximum": MAX_BLANKS},
    "common_cards": {"type": "integer", "minimum": -2, "maximum": MAX_COMMON},
    "max_cards": {"type": "integer", "minimum": 0, "maximum": MAX_HAND},
    "ready": {"type": "string", "enum": ["True", "False", "true", "false"]},
}
"""Query parameters the server reads as whole numbers in these bounds (and refuses others),
or as one of a few words. (An action id above the game's check, 88 with 24 cards, is refused
by the game, not the form.)"""

REQUIRED_FIELDS = {
    "JoinRequest": "nickname",
    "InviteRequest": "agent_name",
    "TimeLimitRequest": "time_limit",
    "PlayRequest": "action_id",
    "NicknameRequest": "nickname",
    "ReadyRequest": "ready",
    "AutoStartRequest": "auto_start",
    "MaxCardsRequest": "max_cards",
    "ReactRequest": "reaction",
    "AccountRequest": "handle",
    "QueueRequest": "pool",
}
"""The body field each POST form cannot do without."""


def _non_null(parameter: dict[str, Any]) -> dict[str, Any]:
    """The parameter's schema without its ``null`` branch: a query string is never JSON
    null (FastAPI documents ``str | None`` as ``anyOf: [string, null]``)."""
    schema: dict[str, Any] = parameter.get("schema", {})
    branches = [s for s in schema.get("anyOf", [schema]) if s.get("type") != "null"]
    kept = {k: v for k, v in schema.items() if k != "anyOf"}
    return {**kept, **branches[0]} if len(branches) == 1 else schema


BEARER_ONLY = frozenset(
    {
        "/games/{game_uuid}/odds",
        *(
            f"/games/{{game_uuid}}/{action}"
            for action in (
                "leave",
                "resign",
                "remove",
                "ready",
                "set-auto-start",
                "set-max-cards",
                "react",
                "report",
                "move-seat",
            )
        ),
    }
)
"""Routes that take the credential from the ``Authorization`` header only."""
PLAYER_ROUTES = frozenset(
    f"/games/{{game_uuid}}/{action}"
    for action in ("play", "change-rules", "set-readiness", "remove-player", "change-team")
)
"""Routes whose GET form takes a player's (or the admin's) UUID in the query, or a Bearer
token."""
BEARER_ON_POST = PLAYER_ROUTES - {"/games/{game_uuid}/play"}
"""Of those, the ones whose POST form takes the Bearer token only."""
ACCOUNT_ROUTES = frozenset(
    {
        "/ladder/me",
        "/ladder/me/bot",
        "/ladder/events",
        "/ladder/me/secret",
        "/ladder/queue",
        "/ladder/passkeys",
        "/ladder/passkeys/register",
        "/ladder/passkeys/register/options",
    }
)
"""Routes that take an account's secret from the ``Authorization`` header only."""
BEARER_SECRET = "^Bearer [A-Za-z0-9_-]{20,128}$"
BEARER_UUID = "^Bearer [0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"


def _parameter(path: str, method: str, parameter: dict[str, Any], settings: Settings) -> None:
    name = parameter["name"]
    schema = parameter["schema"] = _non_null(parameter)
    bearer_only = path in BEARER_ONLY or (method == "post" and path in BEARER_ON_POST)
    if name == "authorization" and path in ACCOUNT_ROUTES:
        parameter["required"] = True
        schema["pattern"] = BEARER_SECRET
    if name == "authorization" and bearer_only:
        parameter["required"] = True
        schema["pattern"] = BEARER_UUID
    if name in UUID_PARAMETERS:
        schema["format"] = "uuid"
    if method == "get" and name in REQUIRED_QUERY.get(path, ()):
        parameter["required"] = True
    if name == "admin_uuid" or (name == "player_uuid" and path in PLAYER_ROUTES):
        parameter["required"] = True
        parameter["description"] = CREDENTIAL_DESCRIPTION
    if name in QUERY_INTEGERS and parameter["in"] == "query":
        parameter["schema"] = {"title": schema.get("title", name), **QUERY_INTEGERS[name]}
    elif parameter.get("required") and schema.get("type") == "string":
        schema["minLength"] = 1  # blank is missing
    if path == "/games" and name == "limit":
        schema["maximum"] = settings.max_listed_games


def correct(document: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """Make ``document`` (FastAPI's) say what the server does; see the module docstring."""
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            for parameter in operation.get("parameters", []):
                _parameter(path, method, parameter, settings)
    schemas = document["components"]["schemas"]
    for model, field in REQUIRED_FIELDS.items():
        schemas[model]["required"] = [field]
        if schemas[model]["properties"][field].get("type") == "string":
            schemas[model]["properties"][field]["minLength"] = 1
    return document


def install(app: FastAPI, settings: Settings) -> None:
    """Serve (and cache) the corrected document as the app's ``/openapi.json``."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title,
                version=app.version,
                openapi_version=app.openapi_version,
                description=app.description,
                routes=app.routes,
            )
            app.openapi_schema = correct(document, settings)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
