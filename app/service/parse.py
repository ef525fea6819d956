"""Parsing of what clients send, before any rule is looked at: game and player UUIDs,
round numbers, actions, flags, whole numbers, text, nicknames and Idempotency-Keys. Each
function turns one raw value into a typed one or refuses it with a clear 400 naming the
parameter; whether the value is allowed *now* is the engine's and the use cases' business.

UUIDs are accepted in any form Python's :class:`uuid.UUID` reads (upper or lower case,
braces, a ``urn:uuid:`` prefix) and matched in their canonical lower-case form.
"""

from __future__ import annotations

import uuid
from typing import Any

from app.service.errors import InvalidParameter, MissingParameter, WeakIdempotencyKey
from engine import errors as rules
from engine import names
from engine.facts import CHECK
from engine.rules import RULE_NAMES, parse_initial

_MAX_UUID_TEXT = 64


def canonical_uuid(value: str | None, name: str, missing: str, invalid: str) -> str:
    if value is None or value == "":
        raise MissingParameter(name, value, missing)
    if len(value) > _MAX_UUID_TEXT:
        raise InvalidParameter(name, value, invalid)
    try:
        return str(uuid.UUID(value.strip()))
    except ValueError:
        raise InvalidParameter(name, value, invalid) from None


def game_uuid(value: str | None) -> str:
    return canonical_uuid(
        value, "game_uuid", "Game UUID missing - please supply it", "Invalid game UUID"
    )


def player_uuid(value: str | None) -> str:
    return canonical_uuid(
        value, "player_uuid", "Player UUID missing - please supply it", "Invalid player UUID"
    )


def admin_uuid(value: str | None) -> str:
    return canonical_uuid(
        value, "admin_uuid", "Admin UUID missing - please supply it", "Invalid admin UUID"
    )


ACTION_REASON = f"Action ID must be an integer between 0 and {CHECK}"


def action_id(value: object, check: int = CHECK) -> int:
    """An action id from a query string (text) or a JSON body (an integer, never a bool),
    0 to the game's check (88 for 24 cards, 140 for 32)."""
    reason = f"Action ID must be an integer between 0 and {check}"
    return _bounded_number("action_id", value, "Action ID missing", check, reason)


def _bounded_number(name: str, value: object, missing: str, top: int, reason: str) -> int:
    """A whole number from 0 to ``top`` (at most three digits), from a query string (text) or
    a JSON body (an integer, never a bool); ``reason`` says what is allowed."""
    if value is None or value == "":
        raise MissingParameter(name, value, f"{missing} - please supply it")
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.isdigit() and len(text) <= 3:
            number = int(text)
    if number is None or not 0 <= number <= top:
        raise InvalidParameter(name, value, reason)
    return number


_ROUND_REASON = (
    "The round parameter is invalid - must be an integer between 1 and the current round,"
    " or 0, -1 or blank for the current one"
)


def round_number(value: str | None) -> int | None:
    """A requested round: None for the current one (blank, -1, or 0, which the established
    Android app asks for straight after the start and the established service answers with
    the current state), else a positive integer."""
    if value is None or value.strip() in ("", "-1"):
        return None
    text = value.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 6:
        raise InvalidParameter("round", value, _ROUND_REASON)
    return int(text) or None


MAX_TIME_LIMIT = 300
_TIME_LIMIT_REASON = (
    f"The time limit must be a whole number of seconds: 0 for none, or 1 to {MAX_TIME_LIMIT}"
)


def time_limit(value: object) -> int:
    """A move time limit from a query string (text) or a JSON body (an integer)."""
    return _bounded_number(
        "time_limit", value, "Time limit missing", MAX_TIME_LIMIT, _TIME_LIMIT_REASON
    )


MAX_TEAM = 8


def team(value: object) -> int | None:
    """A team, 1 to 8, from a query string or a JSON body; absent (or JSON null) or 0 mean
    on one's own."""
    if value is None or (type(value) is int and not value):
        return None
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        if text == "0":
            return None
        if text.isascii() and text.isdigit() and len(text) <= 2:
            number = int(text)
    if number is None or not 1 <= number <= MAX_TEAM:
        raise rules.InvalidTeam(
            InvalidParameter("team", value, f"A team is a number between 1 and {MAX_TEAM}").message
        )
    return number


def rule_changes(changes: dict[str, object]) -> dict[str, Any]:
    """The rules a change-rules request names (engine/rules.py, and ``time_limit``), each an
    integer from text or JSON (``initial_cards`` also ``random`` or ``nick:count,...``).
    Bounds are the engine's to check; an unknown rule is refused."""
    values: dict[str, Any] = {}
    for name, value in changes.items():
        if name not in RULE_NAMES and name != "time_limit":
            raise InvalidParameter(name, value, f"Unknown rule - the rules are {_RULES}")
        if name == "initial_cards":
            values[name] = parse_initial(value if not isinstance(value, bool) else "bad")
            continue
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str):
            text = value.strip()
            digits = text[1:] if text.startswith("-") else text
            if digits.isascii() and digits.isdigit() and len(digits) <= 3:
                number = int(text)
        if number is None:
            raise rules.InvalidRules(
                InvalidParameter(name, value, "Every rule must be an integer").message
            )
        values[name] = number
    if "time_limit" in values:
        values["time_limit"] = time_limit(values["time_limit"])
    return values


_RULES = ", ".join((*RULE_NAMES, "time_limit"))


def flag(name: str, value: object) -> bool:
    """A JSON ``true`` or ``false`` (nothing else: not 1, not "true")."""
    if value is None:
        raise MissingParameter(name, value, f"'{name}' missing - send true or false")
    if not isinstance(value, bool):
        raise InvalidParameter(name, value, "Must be true or false")
    return value


def truth(name: str, value: object) -> bool:
    """A yes or no from a query string (``True``/``False`` as the newer established clients
    send it, any case, or 1/0) or a JSON boolean."""
    if isinstance(value, bool):
        return value
    if value is None or value == "":
        raise MissingParameter(name, value, f"'{name}' missing - send True or False")
    text = str(value).strip().lower()
    if text in ("true", "1", "yes"):
        return True
    if text in ("false", "0", "no"):
        return False
    raise InvalidParameter(name, value, "Must be True or False")


def whole_number(name: str, value: object) -> int:
    """A JSON integer (never a bool, a float or text); its range is the caller's to check."""
    if value is None:
        raise MissingParameter(name, value, f"'{name}' missing - please supply it")
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidParameter(name, value, "Must be an integer")
    return value


def required_text(name: str, value: object) -> str:
    """A JSON string that is present, not blank, and valid Unicode."""
    if value is None or value == "":
        raise MissingParameter(name, value, f"'{name}' missing - please supply it")
    if not isinstance(value, str):
        raise InvalidParameter(name, value, f"'{name}' must be a string")
    return text(name, value)


def text(name: str, value: str) -> str:
    """``value`` if it is Unicode text that UTF-8 can carry. JSON lets a client send a lone
    surrogate (``"\\ud800"``), which is a Python ``str`` but no text: every later use that
    encodes it (hashing, storing, echoing it in an error) would fail, so it is refused first."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidParameter(
            name, value, "Must be valid Unicode text (no lone surrogate code points)"
        ) from None
    return value


def nickname(value: str | None) -> str:
    """A new human nickname in its canonical (NFC) form, if it keeps the rule of
    engine/names.py; else ``invalid_nickname`` in the established wording, the rule then
    what this name breaks. Whether it is polite is judged apart (app/service/profanity.py)."""
    if value is None or value == "":
        raise MissingParameter("nickname", value, "Nickname missing - please supply it")
    name = names.canonical(text("nickname", value))
    why = names.problem(name)
    if why is not None:
        raise rules.InvalidNickname(
            InvalidParameter("nickname", value, f"{names.RULE}: {why}").message
        )
    return name


def player_name(value: object) -> str:
    """The nickname of a seated player, as a request names them (to remove or report), in the
    canonical form nicknames are kept in, so any spelling of the same name finds them."""
    return names.canonical(required_text("nickname", value))


KEY_MIN_LENGTH = 22
KEY_MIN_DISTINCT = 12
_KEY_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_KEY_REASON = (
    "On create and join, whose replies hold a secret, an Idempotency-Key must be hard to"
    " guess: a UUID, or at least 22 characters of A-Z a-z 0-9 _ - with at least 12 different"
    " characters"
)


def strong_key(value: str) -> str:
    """An Idempotency-Key fit to guard a reply that holds a secret (a new player's UUID, a
    new game's admin seat): a repeat of the key gets that reply, so the key must be as hard
    to guess as a secret. A random UUID has 122 random bits; 22 characters of the URL-safe
    base64 alphabet hold 132 if random. The distinct-character floor refuses the obvious
    non-random long keys (``aaaa...``, ``join-1111...``); it cannot prove randomness, which is
    the client's duty (see api_docs/guide.md)."""
    try:
        parsed = uuid.UUID(value)
    except ValueError:
        parsed = None
    if parsed is not None and len(value) >= 32 and parsed.version == 4:
        return value
    if (
        len(value) >= KEY_MIN_LENGTH
        and set(value) <= _KEY_ALPHABET
        and len(set(value)) >= KEY_MIN_DISTINCT
    ):
        return value
    raise WeakIdempotencyKey("Idempotency-Key", value, _KEY_REASON)
