"""The games the engine knows, by kind, each loaded on first use.

A game package (``engine/<kind>/``) exposes its :class:`~engine.protocol.GameDefinition` as
the module attribute ``GAME``; this registry names the module, so that importing the
registry imports no game (a Lambda function serving one kind never loads the others).

>>> KINDS
('blef', 'economancy', 'figgie')
>>> definition("blef").max_seats
8
>>> definition("chess")
Traceback (most recent call last):
...
KeyError: "No game called 'chess': the games are ..."
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any, Final

from engine.protocol import GameDefinition

_MODULES: Final[dict[str, str]] = {
    "blef": "engine.blef",
    "economancy": "engine.economancy",
    "figgie": "engine.figgie",
}

KINDS: Final = tuple(_MODULES)
"""Every game kind, in the order they are listed to people."""


@cache
def definition(kind: str) -> GameDefinition[Any, Any, Any]:
    """The definition of the game ``kind``, importing its package the first time."""
    module = _MODULES.get(kind)
    if module is None:
        raise KeyError(f"No game called {kind!r}: the games are {', '.join(KINDS)}")
    game: GameDefinition[Any, Any, Any] = importlib.import_module(module).GAME
    return game
