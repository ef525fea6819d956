"""What bots and the computer levels need beside the ladder's use cases: the levels and
their reserved handles, the events cursor, the repeated-pairing rule's numbers, and the bell
that wakes a waiting events poll.

Plain values and the standard library: the ladder's use cases (app/ladder/bots_and_events.py,
queue.py) use them, and the routes wait on :class:`Bell`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from app.ladder.errors import InvalidCursor, ReservedHandle


@dataclass(frozen=True, slots=True)
class Level:
    """A computer level: a built-in agent (engine/agents) with a bot account of its own."""

    name: str
    """Its id in bodies: ``beginner`` ... ``hard``."""
    title: str
    agent: str
    handle: str
    """Its account's handle, reserved: no account made through the API starts with
    :data:`RESERVED_PREFIX`."""


RESERVED_PREFIX: Final = "ai_"
"""Handles starting with this (ignoring case) are the levels' own."""

LEVELS: Final = (
    Level("beginner", "Beginner", "random", "AI_Beginner"),
    Level("easy", "Easy", "bold", "AI_Easy"),
    Level("medium", "Medium", "probabilist", "AI_Medium"),
    Level("hard", "Hard", "bayesian", "AI_Hard"),
)
"""Weakest first: docs/strength.md measures each against the others with ``blef
tournament`` (two players: every level beats the one before it in most games)."""

KIND_AGENTS: Final = {
    "economancy": {
        "beginner": "random",
        "easy": "greedy_points",
        "medium": "greedy_attack",
        "hard": "planner",
    },
    "figgie": {
        "beginner": "random",
        "easy": "conservative",
        "medium": "fairvalue",
        "hard": "ours",
    },
}
"""Who plays a computer level at another game than Blef: the same level accounts (one
rating per pool, as everyone's) seated as that game's built-in agent (engine/match_agents.py
names them; app/service/matches.py refuses a name it does not know)."""


def level_agent(level: Level, kind: str) -> str:
    """The built-in agent that plays ``level`` at a table of ``kind``."""
    return level.agent if kind == "blef" else KIND_AGENTS[kind][level.name]


FILL_MAX_SECONDS: Final = 300
"""The longest fill wait one may ask for: past five minutes the matcher's window covers the
whole rating scale, so a longer wait would seat nobody differently."""

PAIR_LIMIT: Final = 10
"""How many settled tables two accounts may share in :data:`PAIR_WINDOW_SECONDS` and still
be rated: from the next one on, neither of the pair is rated in it (the game is played)."""
PAIR_WINDOW_SECONDS: Final = 24 * 3600.0

WAIT_DEFAULT: Final = 20
WAIT_MAX: Final = 25
"""An events poll waits at most this many seconds (under API Gateway's 29 s)."""
RECHECK_SECONDS: Final = 5.0
"""A waiting poll looks at the store again this often even if nothing woke it (a change
made by another process rings no bell here)."""
EVENT_HISTORY: Final = 50
"""How many of the account's settled games a poll looks back through for game overs not
yet told."""


def refuse_reserved(handle: str) -> None:
    """Refuse a handle that starts with :data:`RESERVED_PREFIX` in any case, or that looks
    like a computer level's (app/ladder/handles.py: full-width or Cyrillic letters, a small
    L for the I): the rule ``computer`` of app/ladder/handle_rules.json."""
    from app.ladder.handle_rules import rules  # noqa: PLC0415
    from app.ladder.handles import look_key  # noqa: PLC0415 (the table loads on first use)

    looks = look_key(handle)
    if handle.casefold().startswith(RESERVED_PREFIX) or any(
        looks == look_key(level.handle) for level in LEVELS
    ):
        raise ReservedHandle("computer", rules()["messages"]["computer"])


# ---------------------------------------------------------------------- the events cursor


@dataclass(frozen=True, slots=True)
class Cursor:
    """What a poller has been told: the newest game over (its table), the newest game
    started (its table), and the version of that game at which it was told it is to move
    (0: not yet). Sent signed for one account (:func:`cursor_key`): a cursor is only taken
    back from the account it was given to."""

    over: str | None = None
    table: str | None = None
    turn: int = 0

    def encode(self, key: bytes) -> str:
        body = f"{self.over or '-'}.{self.table or '-'}.{self.turn}"
        return f"{body}.{_tag(key, body)}"


def cursor_key(account_id: str, secret_hash: str, created_at: float) -> bytes:
    """The key an account's cursors are signed with, derived from the account's stored
    data (its id, the stored hash of its first secret and its creation time), so that every
    process signs alike and a cursor signed for one account fails for every other. (Its
    holder could work out its own key from what it knows: that would let it forge cursors
    for itself alone, which tell it nothing it may not poll for.)"""
    material = "\0".join(("blef-events-cursor", account_id, secret_hash, repr(float(created_at))))
    return hashlib.sha256(material.encode()).digest()


def _tag(key: bytes, body: str) -> str:
    """HMAC-SHA256 of the cursor's body, its first 128 bits in base64url."""
    digest = hmac.new(key, body.encode(), hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


_ID = r"(-|[A-Za-z0-9_]{1,64})"
_CURSOR = re.compile(rf"({_ID}\.{_ID}\.(0|[1-9][0-9]{{0,8}}))\.([A-Za-z0-9_-]{{22}})")


def parse_cursor(value: object, key: bytes) -> Cursor | None:
    """The cursor a poll sends back (None: the first poll), or :class:`InvalidCursor`:
    malformed, or not one the service gave the account whose ``key`` it is."""
    if value is None:
        return None
    match = _CURSOR.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise InvalidCursor(
            "after", value, "Send back the cursor of your last answer (or none at first)"
        )
    body, over, table, turn, tag = match.groups()
    if not hmac.compare_digest(tag, _tag(key, body)):
        raise InvalidCursor(
            "after",
            value,
            "This cursor was not given to this account: send back the cursor of your last"
            " answer (or none at first)",
        )
    return Cursor(None if over == "-" else over, None if table == "-" else table, int(turn))


def parse_wait(value: object) -> int:
    if value is None:
        return WAIT_DEFAULT
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= WAIT_MAX:
        return value
    from app.service.errors import InvalidParameter  # noqa: PLC0415

    raise InvalidParameter("wait", value, f"Must be an integer between 0 and {WAIT_MAX}")


# ---------------------------------------------------------------------- the bell


class Bell:
    """Wakes waiting polls: each listens on keys (its account id, its game's UUID); the
    ladder rings a game's UUID on each of its changes and an account's id when it is
    seated or its table settled. A ring calls the listeners of its keys (in the ringing
    thread: they must be quick, e.g. ``loop.call_soon_threadsafe``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[str, set[Callable[[], None]]] = {}

    def listen(self, keys: Iterable[str], callback: Callable[[], None]) -> None:
        with self._lock:
            for key in keys:
                self._listeners.setdefault(key, set()).add(callback)

    def forget(self, keys: Iterable[str], callback: Callable[[], None]) -> None:
        with self._lock:
            for key in keys:
                listeners = self._listeners.get(key)
                if listeners is not None:
                    listeners.discard(callback)
                    if not listeners:
                        del self._listeners[key]

    def ring(self, *keys: str) -> None:
        with self._lock:
            called = {c for key in keys for c in self._listeners.get(key, ())}
        for callback in called:
            try:
                callback()
            except Exception:  # a listener gone away (its loop closed): nothing to wake
                continue

    def listening(self) -> int:
        """How many keys have a listener (for tests: nothing is left behind)."""
        with self._lock:
            return len(self._listeners)
