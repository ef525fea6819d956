"""Blef's standings: the places of a finished game, from its rounds as they ended.

A player goes out in the round whose loss is theirs and after which they hold no card (a
check lost past the maximum, a timeout past it, a resignation or a removal alike); the last
out is second, the one left the winner. Seats are positions, so a name changed during the
game (a nickname hidden after a report) changes nothing.

>>> from engine.records import RoundRecord
>>> def ended(loser: int, cards: tuple[int, ...]) -> RoundRecord:
...     return RoundRecord(1, ("a", "b", "c"), cards, (None,) * 3, [], [], b"", loser, 5, False)
>>> blef_result([ended(1, (2, 5, 3)), ended(0, (5, 0, 4))]).places
(2, 3, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.protocol import Result
from engine.records import RoundRecord


def blef_result(rounds: Sequence[RoundRecord]) -> Result:
    """The places of a finished game (1 the winner), seat by seat, from its every round in
    order; ValueError unless the rounds leave exactly one player."""
    if not rounds:
        raise ValueError("a finished game has at least one round")
    n = len(rounds[0].n_cards)
    out: list[int] = []
    for i, ended in enumerate(rounds):
        loser = ended.loser_seat
        final = i == len(rounds) - 1
        if (final or rounds[i + 1].n_cards[loser] == 0) and loser not in out:
            out.append(loser)
    places = [0] * n
    for k, seat in enumerate(out):
        places[seat] = n - k
    remaining = [seat for seat in range(n) if seat not in out]
    if len(remaining) != 1:
        raise ValueError(f"a finished game leaves one player; these rounds leave {remaining}")
    places[remaining[0]] = 1
    return Result(tuple(places), "last_standing")
