"""Blef behind the game protocol (:mod:`engine.protocol`): its definition, :data:`GAME`.

The state is :class:`~engine.blef.state.BlefState`, the rounds of a started game; a move is
an action id (a bet 0 .. n_bets - 1, or the check). Seats are Blef's seating order, which
the start draws from the first round's seed (a rule of the game), so seat 0 is not always
the first to join: the view names each seat (``names``). Blef's own established format
(nicknames, the lobby's choices) is :func:`engine.views.view_for` on a
:class:`~engine.game.Game`, the table and its state together.

>>> from engine.dealing import seed_sequence
>>> state = GAME.setup(GAME.default_rules(), 3, seed_sequence(1))
>>> state.turn().seats, state.legal_moves(state.current_seat)[:3]
(frozenset({0}), [0, 1, 2])
>>> [event.kind for event in state.apply(0, GAME.parse_move(5))]
['bet']
>>> GAME.parse_move("5")
Traceback (most recent call last):
...
engine.protocol.MalformedMove: A Blef move is an action id: an integer
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from engine import errors
from engine.blef.state import BlefState
from engine.dealing import SeedSource, random_seed
from engine.facts import MAX_PLAYERS, MIN_PLAYERS
from engine.protocol import InvalidRules, Json, MalformedMove
from engine.rules import CLASSIC, Rules

__all__ = ["GAME", "BlefDefinition", "BlefState"]


class BlefDefinition:
    """What Blef declares: 2 to 8 seats, :class:`~engine.rules.Rules` (the classic game by
    default), an action id as the move."""

    name: Final = "blef"
    title: Final = "Blef"
    min_seats: Final = MIN_PLAYERS
    max_seats: Final = MAX_PLAYERS
    record: Final = "rounds"

    def default_rules(self) -> Rules:
        return CLASSIC

    def rules_from_dict(self, data: Mapping[str, Json]) -> Rules:
        try:
            return Rules.from_dict(data)
        except errors.InvalidRules as error:
            raise InvalidRules(error.message) from None

    def rules_to_dict(self, rules: Rules) -> dict[str, Json]:
        return rules.to_dict()

    def setup(self, rules: Rules, n_seats: int, seeds: SeedSource, now: float = 0.0) -> BlefState:
        """A game of ``n_seats`` players called ``Seat_1`` ... in the order given (each
        on their own), seated and dealt round 1 by Blef's rules."""
        names = [f"Seat_{i + 1}" for i in range(n_seats)]
        nobody: list[Any] = [None] * n_seats
        state, _order = BlefState.start(rules, names, nobody, nobody, seeds)
        return state

    def parse_move(self, data: Json) -> int:
        if type(data) is not int:
            raise MalformedMove("A Blef move is an action id: an integer")
        return data

    def move_to_json(self, move: int) -> Json:
        return move

    def restore(self, data: Mapping[str, Json], seeds: SeedSource | None = None) -> BlefState:
        from engine.game import Game  # noqa: PLC0415 (the game is made of this package)

        state = Game.from_dict(dict(data), seeds or random_seed).state
        if state is None:
            raise errors.InvalidState("Invalid game state: a Blef state is of a started game")
        return state


GAME: Final = BlefDefinition()
