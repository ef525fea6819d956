"""Economancy's :class:`~engine.protocol.GameDefinition`: rules, set-up, moves as JSON.

**Moves as JSON.** The protocol's move is a one-element array: ``[3]``, ``["Ghost"]``,
``["Pass"]``. :meth:`EconomancyGame.parse_move` also takes what some player programs write
instead, so that the format never costs a game that the rules would allow:

- the bare value, ``3`` or ``"Ghost"`` (the course referee's first version read those);
- a string of digits for a number, ``["3"]`` (no card is named by digits), and an integer
  written as a JSON float, ``[3.0]``;
- a card name in any case and with spaces around it, ``["ghost "]`` (the exact name is
  then used); ``Pass`` likewise.

Everything else (an empty or longer array, ``true``, an object, ``null``, a fraction, a
string that is neither a number nor a word) is :class:`~engine.protocol.MalformedMove`.
Whether the move is legal now is the state's to judge.

>>> GAME.parse_move([3]), GAME.parse_move(["ghost"]), GAME.parse_move("Pass")
(3, 'Ghost', 'Pass')
>>> GAME.move_to_json("Ghost")
['Ghost']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Final

from engine.dealing import SeedSource
from engine.economancy.cards import CARDS, PASS
from engine.economancy.rules import EconomancyRules
from engine.economancy.state import EconomancyState, Move
from engine.protocol import InvalidRules, Json, MalformedMove, RecordStyle

_CANONICAL: Final[dict[str, str]] = {c.name.casefold(): c.name for c in CARDS if c.cost}
_CANONICAL[PASS.casefold()] = PASS


def parse_move(data: Json) -> Move:
    """A move from JSON (see the module docstring); :class:`MalformedMove` says why not."""
    value = data
    if isinstance(data, list):
        if len(data) != 1:
            raise MalformedMove(
                f'a move is a one-element array such as [0] or ["Pass"], not {len(data)} elements'
            )
        value = data[0]
    if isinstance(value, bool):
        raise MalformedMove("a move is a number or a card name, not true or false")
    if isinstance(value, int):
        number = value
    elif isinstance(value, float):
        if not value.is_integer():
            raise MalformedMove(f"a move's number is whole, not {value!r}")
        number = int(value)
    elif isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.lstrip("-").isdigit() and text.count("-") <= 1:
            number = int(text)
        else:
            name = _CANONICAL.get(text.casefold())
            if name is not None:
                return name
            if not text:
                raise MalformedMove("an empty string names no card")
            return text[:100]  # a name the state refuses as not in this game's shop
    else:
        raise MalformedMove(
            "a move is a one-element array of a number or a card name, such as [2] or "
            f'["Ghost"], not {type(value).__name__}'
        )
    return number


class EconomancyGame:
    """The definition the registry returns for ``"economancy"``."""

    name: ClassVar[str] = "economancy"
    title: ClassVar[str] = "Economancy"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    record: ClassVar[RecordStyle] = "log"

    def default_rules(self) -> EconomancyRules:
        return EconomancyRules()

    def rules_from_dict(self, data: Mapping[str, Json]) -> EconomancyRules:
        return EconomancyRules.from_dict(data)

    def rules_to_dict(self, rules: EconomancyRules) -> dict[str, Json]:
        return rules.to_dict()

    def setup(
        self,
        rules: EconomancyRules,
        n_seats: int,
        seeds: SeedSource | None = None,
        now: float = 0.0,
    ) -> EconomancyState:
        """A new game. Economancy deals nothing: ``seeds`` is never called, and seats are
        played in the order given (a tournament rotates them)."""
        if not self.min_seats <= n_seats <= self.max_seats:
            raise InvalidRules(f"Economancy is played by 2 to 4 players, not {n_seats}")
        return EconomancyState.new(rules, n_seats)

    def parse_move(self, data: Json) -> Move:
        return parse_move(data)

    def move_to_json(self, move: Move) -> Json:
        return [move]

    def restore(self, data: Mapping[str, Json], seeds: SeedSource | None = None) -> EconomancyState:
        return EconomancyState.from_dict(data)


GAME: Final = EconomancyGame()
