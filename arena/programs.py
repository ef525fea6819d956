"""What every game's arena says of its players the same way: what a player argument
names (:class:`PlayerSpec`), a player program's name, a label before ``=``, and one label
per entry when several share a name.

>>> program_name(["python3", "examples/bots/lowest_bettor.py"]), program_name(["node"])
('lowest_bettor', 'node')
>>> clean_name("3-in-a-row"), clean_name("3-in-a-row", prefix="p")
('bot_3_in_a_row', 'p_3_in_a_row')
>>> numbered(["random", "me", "random"])
['random#1', 'me', 'random#2']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Final

EXEC_PREFIX: Final = "exec:"
LABEL: Final = re.compile(r"([A-Za-z][A-Za-z0-9_]{0,27})=(.*)", re.DOTALL)
"""``LABEL=rest``: the name an entry is shown under, before what it is."""
_SCRIPT_SUFFIX: Final = re.compile(r"\.[A-Za-z0-9]{1,5}")
_NAME_CHARS: Final = re.compile(r"[^A-Za-z0-9_]+")


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """One player argument, parsed: a built-in agent, or the command of an external program."""

    text: str
    """The argument as written."""
    name: str
    """Its short name: the label if given, else the built-in name or the program's name."""
    builtin: str | None = None
    """The built-in agent's canonical name, for a built-in agent."""
    argv: tuple[str, ...] | None = None
    """The command line, for an external program."""

    @property
    def external(self) -> bool:
        return self.argv is not None


def program_name(argv: Sequence[str]) -> str:
    """A readable name for a command: the stem of its first argument that looks like a
    file with an extension (the script, usually), else of the program itself."""
    for word in argv[1:]:
        path = PurePath(word)
        if not word.startswith("-") and _SCRIPT_SUFFIX.fullmatch(path.suffix):
            return path.stem
    return PurePath(argv[0]).stem


def clean_name(name: str, prefix: str = "bot") -> str:
    """``name`` as letters, digits and underscores, starting with a letter (``prefix_``
    before it otherwise), at most 28 characters."""
    clean = _NAME_CHARS.sub("_", name).strip("_")
    if not clean or not clean[0].isalpha():
        clean = f"{prefix}_{clean}".rstrip("_")
    return clean[:28]


def numbered(names: Iterable[str]) -> list[str]:
    """One label per entry: its name, or ``name#k`` for the k-th of several with one name.
    Each argument is its own entry, so ``random random`` compares two independent copies."""
    names = list(names)
    counts = Counter(names)
    seen: Counter[str] = Counter()
    labels = []
    for name in names:
        if counts[name] == 1:
            labels.append(name)
        else:
            seen[name] += 1
            labels.append(f"{name}#{seen[name]}")
    return labels
