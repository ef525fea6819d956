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
- an English word's plural is as rude as the word (``n1gg45``, ``sh1ts``): the library's
  English list with ``s`` and ``z`` after every word, and ``es`` after a hissing end
  (``bitches``), through its documented ``custom_words`` (:func:`english_plurals`), with
  the few English slurs its list lacks (:data:`MORE_WORDS`);
- the name three ways: its underscores as spaces (``Fuck_You``, ``f_u_c_k`` with the
  library's spaced-letter folding), without them (``sh_i_t``), and split where a small letter
  meets a capital and before digits that end a part (``KurwaMac``, ``kurwa123``,
  ``Bitch1``); any of them rude refuses it. A part that is all digits is a number,
  never letters (``Brave_450`` is not ``Brave aso``). Digits among letters are read as
  letters, never as a break: ``Th3rapist`` is ``Therapist``, not ``rapist``
  (tests/api/test_nicknames.py holds it as a property). The price of reading digits at
  the end as a number as well: ``Sp1c35`` reads as ``Spic 35`` and is refused;
- the languages of :data:`LANGUAGES`: English and Polish first, then the ones players of a
  Polish card game are likeliest to write in;
- a person's name is not a rude word: the library's lists hold words of one language that are
  names in another (Italian ``regina`` and ``mona``, Spanish ``concha``, Portuguese
  ``pinto``), or become one once folded (``Péter`` without its accent, ``Johnny`` with its
  doubled letter collapsed to ``johny``). The names it would refuse are its safe words (the
  library's documented ``whitelist``: a match lying wholly inside one is dropped, so
  ``Peter_Fuck`` is still refused), read from :data:`NAMES_FILE` beside this module when the
  filter is built. That file is generated, never edited: ``PYTHONPATH=$PWD .venv/bin/python
  -m tests.support.names_not_insults`` takes every first and last name of Faker's locales for
  these languages (Faker is a dev dependency, never imported here), keeps those the filter
  without safe words refuses, leaves out the few names that are insults too (``Dick``,
  ``Kike``: that module says why each), and writes them sorted. Its tests
  (tests/service/test_names_not_insults.py) hold that every such name is accepted and that
  the file is what the generator writes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from importlib.resources import files
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

NAMES_FILE: Final = "names_not_insults.txt"
"""People's names the filter would refuse though they are not insults: its safe words, one a
line after the ``#`` lines of the header (generated: see the module's text)."""

MORE_WORDS: Final = ("whore", "wanker", "chink", "gook", "fag", "fags")
"""English slurs and insults the library's English list lacks (checked against 4.1.0)."""

_CAMEL: Final = re.compile(r"(?<=[^\W\d_])(?=[A-Z])")
_BREAKING_DIGITS: Final = re.compile(r"\d+(?=_|$)")
_LETTERS_THEN_NUMBER: Final = re.compile(r"([^\W\d_]{1,2})\d+")
_HISSING: Final = ("s", "x", "z", "ch", "sh")


def english_plurals(words: Iterable[str]) -> list[str]:
    """Each single word of ``words`` followed by ``s`` and ``z`` (``niggaz``), and by ``es``
    after a hissing end (``bitches``, never ``spices`` from a shorter word). Not for a word
    of three letters or fewer, nor for an ``-ing`` form: their plurals are surnames as often
    as insults (``Hoes``, ``Cummings``)."""
    plurals: list[str] = []
    for word in words:
        if not word.isalpha() or len(word) <= 3 or word.endswith("ing"):
            continue
        plurals += [word + "s", word + "z"]
        if word.endswith(_HISSING):
            plurals.append(word + "es")
    return plurals


def names_not_insults() -> list[str]:
    """The safe words of :data:`NAMES_FILE`, in the file's order."""
    text = files("app.service").joinpath(NAMES_FILE).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def build_filter(safe_words: Iterable[str] = ()) -> Filter:
    """A filter of the languages and options this module describes, with ``safe_words`` as
    the library's ``whitelist`` (none: the library's lists as they are, which the generator of
    :data:`NAMES_FILE` checks names against)."""
    from glin_profanity import Filter  # noqa: PLC0415 (loaded on first use, not at cold start)
    from glin_profanity.data.dictionary import dictionary  # noqa: PLC0415 (as above)

    english = [*dictionary.get_words("english"), *MORE_WORDS]
    return Filter(
        {
            "languages": list(LANGUAGES),
            "custom_words": [*MORE_WORDS, *english_plurals(w.lower() for w in english)],
            "whitelist": list(safe_words),
            "word_boundaries": True,
            "detect_leetspeak": True,
            "leetspeak_level": "moderate",
            "normalize_unicode": True,
            "obfuscation": {"separators": True},
        }
    )


@cache
def _filter() -> Filter:
    """The one filter of this process, built on first use, with people's names safe."""
    return build_filter(names_not_insults())


def _short_digits(part: str) -> str:
    """A part of a name that is one or two letters then a number loses its number: read as
    leetspeak, ``p15`` would be a rude word, but it is a letter and a number (players'
    generated names). Digits among letters (``B4551s7``) stay, to be read as letters."""
    short = _LETTERS_THEN_NUMBER.fullmatch(part)
    return short[1] if short else part


def readings(name: str) -> tuple[str, ...]:
    """The ways ``name`` is read for rude words (see the module's text)."""
    parts = [_short_digits(part) for part in name.split("_")]
    name = "_".join(parts)
    # A part that is a number is a number, never letters in disguise (``Brave_450``
    # is not ``Brave aso``); joined to letters it is still read (``n1gg_45``: ``n1gg45``).
    spaced = " ".join(part for part in parts if not part.isdigit())
    return (
        spaced,
        name.replace("_", ""),
        _CAMEL.sub(" ", _BREAKING_DIGITS.sub(" ", name)).replace("_", " "),
    )


def reads_as_rude(name: str, words: Filter) -> bool:
    """Whether any reading of ``name`` holds a rude word of the filter ``words``."""
    return any(words.is_profane(reading) for reading in dict.fromkeys(readings(name)))


def is_profane(name: str) -> bool:
    return reads_as_rude(name, _filter())


def refuse_profane(name: str) -> None:
    """Raise :class:`ProfaneNickname` (HTTP 422) if ``name`` reads as rude."""
    if is_profane(name):
        raise ProfaneNickname
