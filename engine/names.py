"""Human nicknames: their one canonical form and, for a name that breaks the rule, the reason.

A nickname is taken in Unicode's composed form (NFC), so ``"Zoe\\u0301"`` (an ``e`` and a
combining acute accent) and ``"Zoé"`` are one name. Then it must be:

- a Unicode letter first (any script: ``Łukasz``, ``Zoé``, ``Ёжик``, ``李``);
- then Unicode letters and decimal digits, with single underscores between the parts: no
  underscore leading, doubled (``a__b``) or trailing (``name_``);
- 1 to :data:`~engine.facts.MAX_NICKNAME_LENGTH` characters, counted after composing.

Anything else (spaces, punctuation, symbols, emoji, combining marks left over after
composing, control, format and private-use characters such as zero-width joiners and
right-to-left marks) is refused. Uniqueness in a game is the game's business: names are
compared ignoring case (:meth:`str.casefold`).

>>> canonical("Zoe\\u0301") == "Zoé", problem("Zoé") is None
(True, True)
>>> problem("a__b")
'no doubled underscores'

Pure standard library, like the rest of the engine; whether a name is *polite* is not a rule
of the game and is judged by the service.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from engine.facts import MAX_NICKNAME_LENGTH

RULE: Final = (
    "Nickname must start with a letter, then only letters, digits and single underscores"
    f" between them (at most {MAX_NICKNAME_LENGTH} characters)"
)
"""The rule in words, the first line of every refusal (the established wording begins
``Nickname must start with a letter``)."""


def canonical(name: str) -> str:
    """``name`` in Unicode's composed form (NFC), the form in which it is checked and kept."""
    return unicodedata.normalize("NFC", name)


def _is_letter(char: str) -> bool:
    return unicodedata.category(char).startswith("L")


def _is_digit(char: str) -> bool:
    return unicodedata.category(char) == "Nd"


def problem(name: str) -> str | None:
    """What is wrong with ``name`` (already :func:`canonical`), in a few words; None if it
    is a valid nickname."""
    if not name:
        return "it is empty"
    if len(name) > MAX_NICKNAME_LENGTH:
        return f"it has {len(name)} characters"
    if not _is_letter(name[0]):
        return "the first character is not a letter"
    if "__" in name:
        return "no doubled underscores"
    if name.endswith("_"):
        return "no underscore at the end"
    for char in name:
        if not (char == "_" or _is_letter(char) or _is_digit(char)):
            return f"{_describe(char)} is not allowed"
    return None


def _describe(char: str) -> str:
    """A refused character as a reader can tell it apart, even an invisible one."""
    code = f"U+{ord(char):04X}"
    label = unicodedata.name(char, "")
    visible = char.isprintable() and not char.isspace() and unicodedata.category(char)[0] != "M"
    if visible and label:
        return f"{char!r} ({code} {label})"
    return f"{code} {label}".rstrip() if label else code
