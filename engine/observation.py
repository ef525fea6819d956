"""What a player may know when it is their turn: the input every built-in agent decides from.

An :class:`Observation` is a thin, read-only window on a game for one seat. It is cheap to
make (agents are asked thousands of times a second in tournaments) and shows only what the
rules let that player know: their own hand, everyone's card counts, the current round's
moves, and the finished rounds the agent was told about.
"""

from __future__ import annotations

from engine.facts import DECK, Card
from engine.game import Game, Move


class Observation:
    """The view of ``game`` from ``seat``, valid until the next move is applied."""

    __slots__ = ("_game", "seat")

    def __init__(self, game: Game, seat: int) -> None:
        self._game = game
        self.seat = seat

    @property
    def nickname(self) -> str:
        return self._game.nicknames[self.seat]

    @property
    def n_players(self) -> int:
        return len(self._game.nicknames)

    @property
    def hand(self) -> tuple[Card, ...]:
        return tuple(DECK[i] for i in self._game.hand_indices(self.seat))

    @property
    def hand_indices(self) -> tuple[int, ...]:
        """My cards as deck indices (value * 4 + colour), sorted."""
        return self._game.hand_indices(self.seat)

    @property
    def n_cards(self) -> tuple[int, ...]:
        """Cards held by each seat this round (0 for an eliminated player)."""
        return self._game.card_counts

    @property
    def total_cards(self) -> int:
        """All cards in play this round, mine included."""
        return sum(self._game.card_counts)

    @property
    def max_cards(self) -> int:
        return self._game.max_cards

    @property
    def round_number(self) -> int:
        return self._game.round_number

    @property
    def history(self) -> tuple[Move, ...]:
        return self._game.history

    @property
    def seat_history(self) -> list[tuple[int, int]]:
        """The round's moves as (seat, action_id) pairs (a copy)."""
        return self._game.seats_history

    @property
    def min_bet(self) -> int:
        """The lowest legal bet; 88 when only a check is left."""
        return self._game.min_bet

    @property
    def last_bet(self) -> int | None:
        return self._game.last_bet

    @property
    def can_check(self) -> bool:
        return self._game.min_bet > 0

    @property
    def legal_actions(self) -> list[int]:
        return self._game.legal_actions()
