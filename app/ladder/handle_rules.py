"""The rules of an account's name (its handle), read from one data file,
:data:`RULES_FILE` beside this module: the service checks them here, the browser checks the
same file's rules as a person types (app/web/static/namerules.js, which reads it from
``GET /ladder/handle-rules``), and tests/ladder/test_handle_rules.py holds the two to the
same verdict on random names.

A handle is checked in its composed form (NFC) and, in order (the first rule broken is the
one told, each a stable id and a sentence):

- ``empty``, ``too_long``: 1 to ``max_length`` characters (``too_short`` comes later, so
  that a single wrong character is named first);
- ``first_letter``: a Unicode letter first; ``space``, ``character``: then only letters,
  decimal digits and ``_``; ``double_underscore``, ``underscore_end``: single underscores
  between the parts;
- ``too_short``: at least ``min_length`` characters;
- ``computer``: not starting with ``AI_`` (the computer levels' accounts are ``AI_Easy``...);
- ``reserved``: no part (between underscores, its trailing digits dropped, digits that look
  like letters read as them: ``4dm1n``) is one of ``reserved_words`` (``admin``, ``root``,
  ``blef``...), compared in compatibility form, small letters (NFKC, lowercase);
- ``computer_name``: the whole name, read the same way without its underscores, is not a
  level's (``Easy``), nor a level's with a computer word (``Easy_AI``, ``BotHard``).

What the browser cannot check the service adds after these, naming a rule of its own:
a part that *looks* like a reserved word in another script (Unicode's confusable skeleton,
app/ladder/handles.py: a Cyrillic ``а`` in ``аdmin``) is ``reserved`` too; a look-alike of a
level's handle is ``computer`` (app/ladder/bots.py); a rude name is ``profane_nickname``
(app/service/profanity.py); a taken one ``handle_taken``. Each passes the rules above.

These are an account's rules; a game's nickname (``POST /games/{uuid}/join``) keeps the
established rule (engine/names.py: 1 to 64 characters, no reserved words), which every
handle also meets (a property test holds it).
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any, Final

RULES_FILE: Final = "handle_rules.json"

_TRAILING_DIGITS: Final = re.compile(r"[0-9]+$")


@dataclass(frozen=True, slots=True)
class Broken:
    """A rule a name breaks: its id and its sentence."""

    rule: str
    sentence: str


@cache
def rules() -> dict[str, Any]:
    """The data file, as published (read once, on first use)."""
    text = files("app.ladder").joinpath(RULES_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _said(rule: str, **words: object) -> Broken:
    data = rules()
    values = {"min_length": data["min_length"], "max_length": data["max_length"], **words}
    return Broken(rule, data["messages"][rule].format(**values))


def _is_letter(char: str) -> bool:
    return unicodedata.category(char).startswith("L")


def _allowed(char: str) -> bool:
    return char == "_" or _is_letter(char) or unicodedata.category(char) == "Nd"


def shown(char: str) -> str:
    """A refused character as a reader can tell it: itself if it shows, else its code."""
    if unicodedata.category(char)[0] in "LMNPS":
        return char
    return f"U+{ord(char):04X}"


def parts(name: str) -> list[str]:
    """The parts of a name as the reserved words are looked for: compatibility form, small
    letters, split at underscores, each without its trailing digits, its other digits read
    as the letters they look like."""
    looks: dict[str, str] = rules()["digit_looks"]
    key = unicodedata.normalize("NFKC", name).lower()
    return [
        "".join(looks.get(c, c) for c in _TRAILING_DIGITS.sub("", part)) for part in key.split("_")
    ]


def problem(value: str) -> Broken | None:
    """The first published rule ``value`` breaks (see the module's text), or None."""
    data = rules()
    name = unicodedata.normalize("NFC", value)
    if not name:
        return _said("empty")
    if len(name) > data["max_length"]:
        return _said("too_long")
    for index, char in enumerate(name):
        if unicodedata.category(char) == "Zs":
            return _said("space")
        if index == 0 and not _is_letter(char):
            return _said("first_letter")
        if not _allowed(char):
            return _said("character", char=shown(char))
    if "__" in name:
        return _said("double_underscore")
    if name.endswith("_"):
        return _said("underscore_end")
    if len(name) < data["min_length"]:
        return _said("too_short")
    key = unicodedata.normalize("NFKC", name).lower()
    if key.startswith(data["computer_prefix"]):
        return _said("computer")
    read = parts(name)
    for part in read:
        if part in data["reserved_words"]:
            return _said("reserved", word=part)
    whole = "".join(read)
    if whole in _computer_names():
        return _said("computer_name", word=name)
    return None


@cache
def _computer_names() -> frozenset[str]:
    data = rules()
    names = set(data["levels"])
    for level in data["levels"]:
        for word in data["computer_words"]:
            names |= {level + word, word + level}
    return frozenset(names)


def looks_reserved(name: str) -> Broken | None:
    """The service's own addition: a part of ``name`` that looks like a reserved word
    (Unicode's confusable skeleton: another script's letters, a small L for an I)."""
    from app.ladder.handles import look_key  # noqa: PLC0415 (the table loads on first use)

    words = rules()["reserved_words"]
    keys = {look_key(word): word for word in words}
    for part in unicodedata.normalize("NFC", name).split("_"):
        word = keys.get(look_key(_TRAILING_DIGITS.sub("", part)))
        if word is not None:
            return _said("reserved", word=word)
    return None
