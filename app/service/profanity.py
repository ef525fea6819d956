"""Whether a new human nickname is profane: the glin-profanity library, its word lists shipped
inside the package (nothing is fetched at run time).

The filter is built on first use and kept for the process (:func:`_filter`), and the library
is imported only then: importing app.entrypoints.http (a Lambda cold start) loads none of it.
Importing and building it takes about a quarter of a second, once; each check about a
millisecond.

How a nickname is read:

- whole words only (``word_boundaries``), so a clean name holding a rude substring passes:
  ``Scunthorpe``, ``Essex``, ``Cassandra``, ``Assassin``, ``Therapist``, ``Shitake``;
- leetspeak folded (``sh1t``, ``b1tch``), look-alike letters of other scripts and full-width
  forms folded (``fuсk`` with a Cyrillic ``с``, ``ＦＵＣＫ``) by the library;
- the name three ways: its underscores as spaces (``Fuck_You``, ``f_u_c_k`` with the
  library's spaced-letter folding), without them (``sh_i_t``), and split where a small letter
  meets a capital and at digits (``KurwaMac``, ``kurwa123``); any of them rude refuses it;
- the languages of :data:`LANGUAGES`: English and Polish first, then the ones players of a
  Polish card game are likeliest to write in.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Final

from app.service.errors import ProfaneNickname

if TYPE_CHECKING:
    from glin_profanity import Filter

LANGUAGES: Final = (
    "english",
    "polish",
    "german",
    "czech",
    "russian",
    "french",
    "spanish",
    "italian",
    "portuguese",
    "dutch",
)

_CAMEL: Final = re.compile(r"(?<=[^\W\d_])(?=[A-Z])")
_DIGITS: Final = re.compile(r"\d+")


@cache
def _filter() -> Filter:
    """The one filter of this process, built on first use."""
    from glin_profanity import Filter  # noqa: PLC0415 (loaded on first use, not at cold start)

    return Filter(
        {
            "languages": list(LANGUAGES),
            "word_boundaries": True,
            "detect_leetspeak": True,
            "leetspeak_level": "moderate",
            "normalize_unicode": True,
            "obfuscation": {"separators": True},
        }
    )


def _short_digits(part: str) -> str:
    """A part of a name with fewer than three letters loses its digits: read as leetspeak,
    ``p15`` would be a rude word, but it is a letter and a number (players' generated names)."""
    letters = "".join(c for c in part if not c.isdigit())
    return letters if len(letters) < 3 else part


def readings(name: str) -> tuple[str, ...]:
    """The ways ``name`` is read for rude words (see the module's text)."""
    name = "_".join(_short_digits(part) for part in name.split("_"))
    spaced = name.replace("_", " ")
    return (spaced, name.replace("_", ""), _CAMEL.sub(" ", _DIGITS.sub(" ", spaced)))


def is_profane(name: str) -> bool:
    profane = _filter().is_profane
    return any(profane(reading) for reading in readings(name))


def refuse_profane(name: str) -> None:
    """Raise :class:`ProfaneNickname` (HTTP 422) if ``name`` reads as rude."""
    if is_profane(name):
        raise ProfaneNickname
