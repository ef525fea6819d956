"""What two handles must not share: their case-folded form (``handle_key``, as before) and
their look (``look_key``): the confusable skeleton of Unicode's Technical Standard #39, so
that a full-width or Cyrillic ``А``, or a small ``l`` for an ``I``, cannot pass as someone
else, nor as a computer level.

The skeleton follows TR39's definition (section 4): the handle in NFD, each character
replaced by its prototype in Unicode's table of confusables, NFD again. The table is the one
the ``confusable_homoglyphs`` package keeps (pinned in pyproject.toml), loaded on the first
handle made, never at import. That package stores each pair of the table both ways: a
character with one look-alike maps to it, one with several is itself a prototype.

The look key is the skeleton of the handle in capitals, case-folded, skeletoned again: in
capitals ``I`` is an ``l`` (so ``AI``, ``Al``, ``A1`` and ``al`` share a key), and folding
after the skeleton keeps ``Kasia`` and ``KASIA`` together. A handle whose key matches a
taken one is refused whatever its case. What looks alike only in small letters (``rn``
and ``m``) is not caught: the capitals decide.

>>> look_key("AI_Easy") == look_key("Al_Easy") == look_key("ＡＩ_Easy")
True
>>> look_key("AI_Easy") == look_key("\\u0410I_Easy")  # a Cyrillic A
True
>>> look_key("Kasia") == look_key("KASlA") == look_key("K\\u0430sia")
True
>>> look_key("Bolek") == look_key("Lolek")
False
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Any

_MARKS = "\u200e\u200f"
"""Direction marks the package wraps some right-to-left look-alikes in (not part of them)."""


@functools.cache
def _table() -> dict[str, Any]:
    from confusable_homoglyphs import confusables  # noqa: PLC0415 (a 1 MB table: on first use)

    table: dict[str, Any] = confusables.confusables_data
    return table


def _look_alikes(char: str) -> list[str]:
    return [entry["c"].strip(_MARKS) for entry in _table().get(char, [])]


@functools.cache
def prototype(char: str) -> str:
    """The prototype of ``char`` in the table (itself if it has none): a character whose
    only look-alike is ``target`` maps to it, unless ``target``'s only look-alike is
    ``char`` too (a pair), where both map to the smaller code point."""
    alikes = _look_alikes(char)
    if len(alikes) != 1 or not alikes[0]:
        return char
    target = alikes[0]
    if len(target) == 1 and _look_alikes(target) == [char]:
        return min(char, target)
    return target


def skeleton(text: str) -> str:
    """TR39's skeleton of ``text`` (NFD, each character to its prototype, NFD)."""
    mapped = "".join(prototype(char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def look_key(handle: str) -> str:
    """What a handle looks like, whatever its case: two handles with one look key are
    confusable (see the module docstring)."""
    return skeleton(skeleton(unicodedata.normalize("NFKC", handle).upper()).casefold())
