"""The sets (bets) of Blef, in rising seniority, and whether each exists among some cards.

The classic deck of 24 cards has 88 sets: action id ``i`` for ``0 <= i < 88`` is the bet on
``SETS[i]``. The deck of 32 cards (7 to A) has 140, in the same order of kinds
(:func:`table_for`). Existence is decided on a *mask*: the set of pooled cards, bit
``value * 4 + colour`` per card (see :func:`engine.facts.mask_of`), and, with jokers, on
how many wild cards the bettor may use: a set exists when the cards it lacks number at most
the jokers (:meth:`SetTable.exists_with`).

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
from functools import cache
from typing import Final

from engine.facts import N_BETS, N_COLOURS, Card, mask_of


class SetKind(Enum):
    """The kinds of set, in rising seniority (the 24-card deck has three straights, the
    32-card deck four straights of five values)."""

    HIGH_CARD = "high card"
    PAIR = "pair"
    TWO_PAIR = "two pair"
    SMALL_STRAIGHT = "small straight"
    BIG_STRAIGHT = "big straight"
    GREAT_STRAIGHT = "great straight"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three of a kind"
    FULL_HOUSE = "full house"
    FLUSH = "flush"
    FOUR_OF_A_KIND = "four of a kind"
    SMALL_STRAIGHT_FLUSH = "small straight flush"
    BIG_STRAIGHT_FLUSH = "big straight flush"
    GREAT_STRAIGHT_FLUSH = "great straight flush"
    STRAIGHT_FLUSH = "straight flush"


_SYMBOLS: Final = {
    24: ("9", "10", "J", "Q", "K", "A"),
    32: ("7", "8", "9", "10", "J", "Q", "K", "A"),
}
_PLURALS: Final = {
    24: ("nines", "tens", "jacks", "queens", "kings", "aces"),
    32: ("sevens", "eights", "nines", "tens", "jacks", "queens", "kings", "aces"),
}
_COLOUR_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")


@dataclass(frozen=True, slots=True)
class BetSet:
    """One set: what it is called and what it needs.

    A set exists among some cards when, for every value ``v``, there are at least
    ``value_needs[v]`` cards of that value, every card of ``required_mask`` is present, and,
    for a flush, at least five cards are of ``colour``. ``values`` are the deck's value
    codes (0 is a nine in the 24-card deck, a seven in the 32-card deck).
    """

    action_id: int
    kind: SetKind
    values: tuple[int, ...]
    colour: int | None
    value_needs: tuple[int, ...]
    required_mask: int
    name: str

    def exists_in(self, cards: Iterable[Card]) -> bool:
        return self.missing(mask_of(list(cards))) == 0

    def missing(self, mask: int) -> int:
        """How many cards the set lacks among ``mask`` (0: it exists without jokers)."""
        if self.required_mask:
            return (self.required_mask & ~mask).bit_count()
        if self.kind is SetKind.FLUSH:
            assert self.colour is not None
            colour_bits = sum(1 << (v * N_COLOURS + self.colour) for v in range(self.n_values))
            return max(0, 5 - (mask & colour_bits).bit_count())
        return sum(
            max(0, need - (mask >> (v * N_COLOURS) & 15).bit_count())
            for v, need in enumerate(self.value_needs)
            if need
        )

    @property
    def n_values(self) -> int:
        return len(self.value_needs)

    def __repr__(self) -> str:
        return f"BetSet({self.action_id}: {self.name})"


def _straights(deck_size: int) -> tuple[tuple[SetKind, SetKind, tuple[int, ...]], ...]:
    """Each straight: its kind, the kind of its straight flush, and its values."""
    if deck_size == 24:
        return (
            (SetKind.SMALL_STRAIGHT, SetKind.SMALL_STRAIGHT_FLUSH, (0, 1, 2, 3, 4)),
            (SetKind.BIG_STRAIGHT, SetKind.BIG_STRAIGHT_FLUSH, (1, 2, 3, 4, 5)),
            (SetKind.GREAT_STRAIGHT, SetKind.GREAT_STRAIGHT_FLUSH, (0, 1, 2, 3, 4, 5)),
        )
    return tuple(
        (SetKind.STRAIGHT, SetKind.STRAIGHT_FLUSH, tuple(range(i, i + 5))) for i in range(4)
    )


def _build_sets(deck_size: int) -> tuple[BetSet, ...]:
    n_values = deck_size // N_COLOURS
    symbol, plural = _SYMBOLS[deck_size], _PLURALS[deck_size]
    values = range(n_values)
    sets: list[BetSet] = []

    def needs(pairs: Iterable[tuple[int, int]]) -> tuple[int, ...]:
        counts = [0] * n_values
        for value, count in pairs:
            counts[value] = count
        return tuple(counts)

    def add(
        kind: SetKind,
        vals: tuple[int, ...],
        name: str,
        need: tuple[int, ...] | None = None,
        colour: int | None = None,
        required: int = 0,
    ) -> None:
        need = need or (0,) * n_values
        sets.append(BetSet(len(sets), kind, vals, colour, need, required, name))

    def straight_name(kind: SetKind, vals: tuple[int, ...]) -> str:
        if deck_size == 24:
            return kind.value
        return f"{kind.value} {symbol[vals[0]]}-{symbol[vals[-1]]}"

    for v in values:
        add(SetKind.HIGH_CARD, (v,), f"high card {symbol[v]}", needs([(v, 1)]))
    for v in values:
        add(SetKind.PAIR, (v,), f"pair of {plural[v]}", needs([(v, 2)]))
    for x in values:
        for y in range(x):
            name = f"two pair, {plural[x]} and {plural[y]}"
            add(SetKind.TWO_PAIR, (x, y), name, needs([(x, 2), (y, 2)]))
    straights = _straights(deck_size)
    for kind, _, vals in straights:
        add(kind, vals, straight_name(kind, vals), needs((v, 1) for v in vals))
    for v in values:
        add(SetKind.THREE_OF_A_KIND, (v,), f"three {plural[v]}", needs([(v, 3)]))
    for x in values:
        for y in values:
            if y != x:
                name = f"full house, {plural[x]} over {plural[y]}"
                add(SetKind.FULL_HOUSE, (x, y), name, needs([(x, 3), (y, 2)]))
    for c in range(N_COLOURS):
        add(SetKind.FLUSH, (), f"flush of {_COLOUR_NAMES[c]}", colour=c)
    for v in values:
        every_colour = sum(1 << (v * N_COLOURS + c) for c in range(N_COLOURS))
        name = f"four {plural[v]}"
        add(SetKind.FOUR_OF_A_KIND, (v,), name, needs([(v, 4)]), required=every_colour)
    for _, kind, vals in straights:
        for c in range(N_COLOURS):
            add(
                kind,
                vals,
                f"{straight_name(kind, vals)} of {_COLOUR_NAMES[c]}",
                needs((v, 1) for v in vals),
                colour=c,
                required=sum(1 << (v * N_COLOURS + c) for v in vals),
            )
    return tuple(sets)


_POP4: Final = tuple(bin(n).count("1") for n in range(16))


def _predicate(bet: BetSet) -> Callable[[int], bool]:
    """A fast test of one set on a mask, specialised to the shape of its requirement."""
    if bet.required_mask:
        required = bet.required_mask
        return lambda m: m & required == required
    if bet.kind is SetKind.FLUSH:
        assert bet.colour is not None
        colour_mask = sum(1 << (v * N_COLOURS + bet.colour) for v in range(bet.n_values))
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


class SetTable:
    """The sets of one deck, in rising seniority: bet ``i`` names ``sets[i]``; the check
    is ``len(sets)``, the lost-round event the id after it."""

    __slots__ = ("check", "deck_size", "lost_round", "n_bets", "n_values", "predicates", "sets")

    def __init__(self, deck_size: int) -> None:
        self.deck_size = deck_size
        self.n_values = deck_size // N_COLOURS
        self.sets = _build_sets(deck_size)
        self.n_bets = len(self.sets)
        self.check = self.n_bets
        self.lost_round = self.n_bets + 1
        self.predicates = tuple(_predicate(s) for s in self.sets)

    def first_of(self, kind: SetKind) -> int:
        """The action id of the lowest set of ``kind`` (sets of a kind are consecutive)."""
        return next(s.action_id for s in self.sets if s.kind is kind)

    def exists(self, action_id: int, mask: int) -> bool:
        """Whether bet ``action_id``'s set is among the cards of ``mask`` (no joker)."""
        return self.predicates[action_id](mask)

    def exists_with(self, action_id: int, mask: int, jokers: int) -> bool:
        """Whether the set exists among ``mask`` when ``jokers`` wild cards may each stand
        for one card it lacks."""
        if self.predicates[action_id](mask):
            return True
        return bool(jokers) and self.sets[action_id].missing(mask) <= jokers

    def name(self, action_id: int) -> str:
        return self.sets[action_id].name


@cache
def table_for(deck_size: int) -> SetTable:
    """The set table of the 24- or 32-card deck (built once)."""
    if deck_size not in _SYMBOLS:
        raise ValueError(f"a deck has 24 or 32 cards, not {deck_size}")
    return SetTable(deck_size)


CLASSIC_TABLE: Final = table_for(24)
SETS: Final[tuple[BetSet, ...]] = CLASSIC_TABLE.sets
"""The 88 sets of the classic deck; ``SETS[action_id]`` is the set that bet names."""
assert len(SETS) == N_BETS
_PREDICATES: Final = CLASSIC_TABLE.predicates


def first_of(kind: SetKind) -> int:
    """The action id of the lowest classic set of ``kind``."""
    return CLASSIC_TABLE.first_of(kind)


FIRST_FLUSH: Final = first_of(SetKind.FLUSH)
FIRST_STRAIGHT_FLUSH: Final = first_of(SetKind.SMALL_STRAIGHT_FLUSH)
"""Every set from here up is a straight flush (small, big, great, each in four colours)."""


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
