"""The 88 sets (bets) of Blef, in rising seniority, and whether each exists among some cards.

Action id ``i`` for ``0 <= i < 88`` is the bet on ``SETS[i]``; the table follows the reference
order exactly. Existence is decided on a *mask*: the 24-bit set of pooled cards, bit
``value * 4 + colour`` per card (see :func:`engine.facts.mask_of`).

>>> SETS[12].name, SETS[65].name, SETS[87].name
('two pair, tens and nines', 'full house, aces over kings', 'great straight flush of spades')
>>> from engine.facts import Card, Value, Colour, mask_of
>>> pool = mask_of([Card(Value.ACE, Colour.HEARTS), Card(Value.ACE, Colour.CLUBS)])
>>> exists(11, pool), exists(35, pool)
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from engine.facts import COLOUR_MASKS, N_BETS, N_COLOURS, N_VALUES, Card, Colour, Value, mask_of


class SetKind(Enum):
    """The thirteen kinds of set, in rising seniority."""

    HIGH_CARD = "high card"
    PAIR = "pair"
    TWO_PAIR = "two pair"
    SMALL_STRAIGHT = "small straight"
    BIG_STRAIGHT = "big straight"
    GREAT_STRAIGHT = "great straight"
    THREE_OF_A_KIND = "three of a kind"
    FULL_HOUSE = "full house"
    FLUSH = "flush"
    FOUR_OF_A_KIND = "four of a kind"
    SMALL_STRAIGHT_FLUSH = "small straight flush"
    BIG_STRAIGHT_FLUSH = "big straight flush"
    GREAT_STRAIGHT_FLUSH = "great straight flush"


_STRAIGHT_VALUES: Final = {
    SetKind.SMALL_STRAIGHT: tuple(Value)[0:5],
    SetKind.BIG_STRAIGHT: tuple(Value)[1:6],
    SetKind.GREAT_STRAIGHT: tuple(Value)[0:6],
    SetKind.SMALL_STRAIGHT_FLUSH: tuple(Value)[0:5],
    SetKind.BIG_STRAIGHT_FLUSH: tuple(Value)[1:6],
    SetKind.GREAT_STRAIGHT_FLUSH: tuple(Value)[0:6],
}


@dataclass(frozen=True, slots=True)
class BetSet:
    """One of the 88 sets: what it is called and what it needs.

    A set exists among some cards when, for every value ``v``, there are at least
    ``value_needs[v]`` cards of that value, every card of ``required_mask`` is present, and,
    for a flush, at least five cards are of ``colour``.
    """

    action_id: int
    kind: SetKind
    values: tuple[Value, ...]
    colour: Colour | None
    value_needs: tuple[int, ...]
    required_mask: int
    name: str

    def exists_in(self, cards: Iterable[Card]) -> bool:
        return _PREDICATES[self.action_id](mask_of(list(cards)))

    def __repr__(self) -> str:
        return f"BetSet({self.action_id}: {self.name})"


def _needs(pairs: Iterable[tuple[Value, int]]) -> tuple[int, ...]:
    needs = [0] * N_VALUES
    for value, count in pairs:
        needs[value] = count
    return tuple(needs)


def _suit_mask(values: Iterable[Value], colour: Colour) -> int:
    return sum(1 << (v * N_COLOURS + colour) for v in values)


def _build_sets() -> tuple[BetSet, ...]:
    sets: list[BetSet] = []

    def add(
        kind: SetKind,
        values: tuple[Value, ...],
        name: str,
        needs: tuple[int, ...] = (0,) * N_VALUES,
        colour: Colour | None = None,
        required: int = 0,
    ) -> None:
        sets.append(BetSet(len(sets), kind, values, colour, needs, required, name))

    for v in Value:
        add(SetKind.HIGH_CARD, (v,), f"high card {v.symbol}", _needs([(v, 1)]))
    for v in Value:
        add(SetKind.PAIR, (v,), f"pair of {v.plural}", _needs([(v, 2)]))
    for x in Value:
        for y in Value:
            if y < x:
                name = f"two pair, {x.plural} and {y.plural}"
                add(SetKind.TWO_PAIR, (x, y), name, _needs([(x, 2), (y, 2)]))
    for kind in (SetKind.SMALL_STRAIGHT, SetKind.BIG_STRAIGHT, SetKind.GREAT_STRAIGHT):
        values = _STRAIGHT_VALUES[kind]
        add(kind, values, kind.value, _needs((v, 1) for v in values))
    for v in Value:
        add(SetKind.THREE_OF_A_KIND, (v,), f"three {v.plural}", _needs([(v, 3)]))
    for x in Value:
        for y in Value:
            if y != x:
                name = f"full house, {x.plural} over {y.plural}"
                add(SetKind.FULL_HOUSE, (x, y), name, _needs([(x, 3), (y, 2)]))
    for c in Colour:
        add(SetKind.FLUSH, (), f"flush of {c.name.lower()}", colour=c)
    for v in Value:
        every_colour = sum(1 << (v * N_COLOURS + c) for c in Colour)
        name = f"four {v.plural}"
        add(SetKind.FOUR_OF_A_KIND, (v,), name, _needs([(v, 4)]), required=every_colour)
    for kind in (
        SetKind.SMALL_STRAIGHT_FLUSH,
        SetKind.BIG_STRAIGHT_FLUSH,
        SetKind.GREAT_STRAIGHT_FLUSH,
    ):
        values = _STRAIGHT_VALUES[kind]
        for c in Colour:
            add(
                kind,
                values,
                f"{kind.value} of {c.name.lower()}",
                _needs((v, 1) for v in values),
                colour=c,
                required=_suit_mask(values, c),
            )
    assert len(sets) == N_BETS
    return tuple(sets)


SETS: Final[tuple[BetSet, ...]] = _build_sets()
"""The 88 sets; ``SETS[action_id]`` is the set that bet names."""

_POP4: Final = tuple(bin(n).count("1") for n in range(16))


def first_of(kind: SetKind) -> int:
    """The action id of the lowest set of ``kind`` (sets of a kind are consecutive)."""
    return next(s.action_id for s in SETS if s.kind is kind)


FIRST_FLUSH: Final = first_of(SetKind.FLUSH)
FIRST_STRAIGHT_FLUSH: Final = first_of(SetKind.SMALL_STRAIGHT_FLUSH)
"""Every set from here up is a straight flush (small, big, great, each in four colours)."""


def _predicate(bet: BetSet) -> Callable[[int], bool]:
    """A fast test of one set on a mask, specialised to the shape of its requirement."""
    if bet.required_mask:
        required = bet.required_mask
        return lambda m: m & required == required
    if bet.kind is SetKind.FLUSH:
        assert bet.colour is not None
        colour_mask = COLOUR_MASKS[bet.colour]
        return lambda m: (m & colour_mask).bit_count() >= 5
    needs = [(v * N_COLOURS, n) for v, n in enumerate(bet.value_needs) if n]
    pop = _POP4
    if len(needs) == 1:
        ((shift, n),) = needs
        if n == 1:
            nibble = 15 << shift
            return lambda m: m & nibble != 0
        return lambda m: pop[m >> shift & 15] >= n
    if len(needs) == 2:
        (s1, n1), (s2, n2) = needs
        return lambda m: pop[m >> s1 & 15] >= n1 and pop[m >> s2 & 15] >= n2
    nibbles = tuple(15 << shift for shift, _ in needs)  # straights: one of each value
    return lambda m: all(m & nibble for nibble in nibbles)


_PREDICATES: Final[tuple[Callable[[int], bool], ...]] = tuple(_predicate(s) for s in SETS)


def exists(action_id: int, mask: int) -> bool:
    """Whether the set of bet ``action_id`` (0..87) exists among the cards of ``mask``."""
    return _PREDICATES[action_id](mask)


def existing_sets(mask: int) -> tuple[bool, ...]:
    """All 88 answers at once: element ``i`` tells whether ``SETS[i]`` exists in ``mask``."""
    return tuple(p(mask) for p in _PREDICATES)


def highest_existing(mask: int) -> int | None:
    """The most senior set present in ``mask`` (None for an empty pool)."""
    for action_id in range(N_BETS - 1, -1, -1):
        if _PREDICATES[action_id](mask):
            return action_id
    return None
