"""Bits shared by the route modules: documented error responses and JSON replies."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from fastapi.responses import JSONResponse, Response

from app.api.schemas import ErrorBody, NicknameRefusedBody

_DESCRIPTIONS = {
    400: "Bad input or a move the rules refuse (see `code`)",
    401: "No `Authorization: Bearer <player UUID>` header where only it is accepted",
    403: "Refused in this state: game started, room full, too few players",
    404: "Nothing by that name (see `code`)",
    408: "The request body did not arrive in time",
    409: "Lost a race or a stale `expected_version`: nothing was applied",
    410: "A keyed create retried after the game it made expired (`game_gone`)",
    413: "Request body too large",
    422: "Idempotency-Key reused for a different request",
    429: "Past a limit of the client's address (`rate_limited`, `too_many_in_flight`,"
    " `too_many_accounts`); see `Retry-After`",
    503: "Not available on this deployment (see `code`)",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the error statuses a route can answer."""
    if 413 in statuses:  # a route that reads a body: it may also time out reading it
        statuses = (*statuses, 408)
    statuses = (*statuses, 429)  # any route, past the address's requests in flight
    return {s: {"model": ErrorBody, "description": _DESCRIPTIONS[s]} for s in sorted(statuses)}


def join_errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """:func:`errors` of a route that takes a new nickname: it may also answer 422
    ``{"reason": "profanity", ...}``."""
    documented = errors(*statuses, 422)
    described = "A profane nickname (`profane_nickname`, `reason` `profanity`)"
    if 422 in statuses:
        described = f"{_DESCRIPTIONS[422]}; or {described[0].lower()}{described[1:]}"
    documented[422] = {"model": NicknameRefusedBody, "description": described}
    return documented


Body = dict[str, Any]
"""What a route returns for FastAPI to check against its ``response_model`` and send."""


def reply(body: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(body, status_code=status)


def credential(header: str | None, query: str | None) -> str | None:
    """The Bearer header if sent, else the established query parameter."""
    return header if header is not None else query


REMATCH_WORDS = (
    "The next table of a finished one: made by the first seat to ask (the same rules and"
    " computer players) and joined by each seat that asks after, which answers its seat there."
    " A rematch is never rated, even of a rated (ladder) table: the next table is an ordinary"
    " one, which the ladder never hears of; a rated game comes only from the queue"
    " (`POST /ladder/queue`), which pairs players by rating."
)
"""What a rematch is, the description of every game's `/rematch` (Blef's `/games/create`
with a previous game says the same in its own words)."""


def etag(body: Any) -> str:
    """The entity tag of a finished game's record: a digest of its JSON, so the same record
    always has the same tag, on every process and store."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return '"r' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


FINISHED_CACHE = "public, max-age=86400, immutable"
"""A finished game's record never changes: a day in any cache, and no revalidation."""


def finished_reply(body: Any, if_none_match: str | None) -> Response:
    """A finished game's record, with its ETag and caching headers; ``304 Not Modified``
    (no body) when ``If-None-Match`` names that ETag. (A refusal, as a game not over yet,
    is sent ``no-store`` by the error handler: it is never cached.)"""
    tag = etag(body)
    headers = {"ETag": tag, "Cache-Control": FINISHED_CACHE}
    sent = if_none_match
    if sent is not None and (sent.strip() == "*" or tag in (t.strip() for t in sent.split(","))):
        return Response(status_code=304, headers=headers)
    return JSONResponse(body, headers=headers)
