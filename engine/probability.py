"""How likely each of the 88 sets is, seen from one player's hand: exact and in closed form.

A player holds ``hand`` (k cards) and knows that the other players hold ``unknown`` (m) cards
in total. Those m cards are, from the player's point of view, a uniformly random m-subset of
the N = 24 - k cards not in the hand. :func:`set_probabilities` gives, for every set, the
exact probability that it exists among the pooled cards (the hand and those m cards).

**How it is computed.** Every set's requirement depends on the hand only through a few
counts, and the unseen cards of each kind are counted by hypergeometric sums:

* high card, pair, three and four of a kind of value v: with h of the four v cards in hand,
  r = 4 - h are unseen, and the set exists when at least ``need - h`` of them are drawn:
  ``sum over d >= need - h of C(r, d) C(N - r, m - d)`` draws out of ``C(N, m)``;
* two pair and full house on values x, y: the same with two values at once (a bivariate
  hypergeometric sum over at most 5 x 5 terms);
* straights: with j of the needed values absent from the hand (each then has all 4 cards
  unseen), inclusion-exclusion over the values that are *not* drawn:
  ``sum over i of (-1)^i C(j, i) C(N - 4i, m)``;
* flush of colour c: with h cards of c in hand, at least ``5 - h`` of the ``6 - h`` unseen;
* four of a kind and straight flushes name exact cards: with j of them unseen, all j must be
  drawn: ``C(N - j, m - j)``.

So the 88 answers for a hand need only its 6 value counts, its 4 colour counts and 12
straight-flush overlaps, looked up in small tables of favourable-draw counts that are built
once per (k, m) from precomputed binomials. No hand is ever enumerated. Results are cached by
(hand mask, m); :func:`set_probabilities_uncached` skips that cache (the tables, and a
cache of the 72 value-only sets by the hand's value counts, stay).

>>> from engine.facts import Card, Value, Colour
>>> p = set_probabilities([Card(Value.ACE, Colour.HEARTS)], 1)
>>> p[5], p[11]                     # high card A: certain; pair of aces: 3 aces among 23 cards
(1.0, 0.13043478260869565)
>>> exact_set_probabilities([Card(Value.ACE, Colour.HEARTS)], 1)[11]
Fraction(3, 23)
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import cache, lru_cache
from math import comb
from typing import Final, NamedTuple

from engine.facts import COLOUR_MASKS, N_BETS, N_CARDS, N_COLOURS, N_VALUES, Card, mask_of
from engine.sets import FIRST_FLUSH, FIRST_STRAIGHT_FLUSH, SETS, SetKind


def _binomials() -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(comb(n, k) for k in range(N_CARDS + 1)) for n in range(N_CARDS + 1))


_C: Final = _binomials()
"""``_C[n][k]`` is the binomial coefficient C(n, k) for 0 <= n, k <= 24 (0 when k > n)."""


def _binom(n: int, k: int) -> int:
    if k < 0 or n < 0 or k > n:
        return 0
    return _C[n][k]


_VALUE_SIZE: Final = N_COLOURS  # cards of each value
_COLOUR_SIZE: Final = N_VALUES  # cards of each colour
_FLUSH_SIZE: Final = 5


class _Counts(NamedTuple):
    """Favourable-draw counts for one (N, m), all over the denominator ``total = C(N, m)``.

    ``single[need][h]``: at least ``need`` cards of one value in the pool, ``h`` of them held.
    ``double22[hx * 5 + hy]`` and ``double32[hx * 5 + hy]``: at least two (three) of value x
    and at least two of value y, hx and hy of them held.
    ``straight[j]``: every one of j absent values drawn at least once.
    ``flush[h]``: at least five of one colour, h of them held.
    ``exact[j]``: j named unseen cards all drawn.
    """

    total: int
    single: tuple[tuple[int, ...], ...]
    double22: tuple[int, ...]
    double32: tuple[int, ...]
    straight: tuple[int, ...]
    flush: tuple[int, ...]
    exact: tuple[int, ...]


def _at_least(need: int, held: int, size: int, n: int, m: int) -> int:
    """Draws of m from n unseen cards that bring a group of ``size`` cards, ``held`` of which
    are in hand, to at least ``need``."""
    unseen = size - held
    return sum(
        _binom(unseen, d) * _binom(n - unseen, m - d) for d in range(max(0, need - held), m + 1)
    )


def _both_at_least(nx: int, ny: int, hx: int, hy: int, n: int, m: int) -> int:
    rx, ry = _VALUE_SIZE - hx, _VALUE_SIZE - hy
    rest = n - rx - ry
    return sum(
        _binom(rx, dx) * _binom(ry, dy) * _binom(rest, m - dx - dy)
        for dx in range(max(0, nx - hx), rx + 1)
        for dy in range(max(0, ny - hy), ry + 1)
    )


@cache
def _counts(k: int, m: int) -> _Counts:
    """The count tables for a hand of k cards and m unseen cards drawn from 24 - k."""
    n = N_CARDS - k
    span = range(_VALUE_SIZE + 1)
    single = tuple(
        tuple(_at_least(need, h, _VALUE_SIZE, n, m) for h in span)
        for need in range(_VALUE_SIZE + 1)
    )
    double22 = tuple(_both_at_least(2, 2, hx, hy, n, m) for hx in span for hy in span)
    double32 = tuple(_both_at_least(3, 2, hx, hy, n, m) for hx in span for hy in span)
    straight = tuple(
        sum((-1) ** i * _binom(j, i) * _binom(n - _VALUE_SIZE * i, m) for i in range(j + 1))
        for j in range(N_VALUES + 1)
    )
    flush = tuple(_at_least(_FLUSH_SIZE, h, _COLOUR_SIZE, n, m) for h in range(_COLOUR_SIZE + 1))
    exact = tuple(_binom(n - j, m - j) for j in range(N_VALUES + 1))
    return _Counts(_binom(n, m), single, double22, double32, straight, flush, exact)


@cache
def _float_tables(k: int, m: int) -> tuple[tuple[float, ...], ...]:
    """The tables of :func:`_counts` as probabilities, laid out for :func:`_evaluate`."""
    c = _counts(k, m)
    t = c.total

    def norm(row: tuple[int, ...]) -> tuple[float, ...]:
        return tuple(x / t for x in row)

    return (*(norm(row) for row in c.single), *map(norm, c[2:]))


@cache
def _exact_tables(k: int, m: int) -> tuple[tuple[Fraction, ...], ...]:
    c = _counts(k, m)
    t = c.total

    def norm(row: tuple[int, ...]) -> tuple[Fraction, ...]:
        return tuple(Fraction(x, t) for x in row)

    return (*(norm(row) for row in c.single), *map(norm, c[2:]))


# Table layout shared by the float and exact tables: rows 0..4 are ``single[need]``, then
# double22, double32, straight, flush, exact.
_DOUBLE22: Final = 5
_DOUBLE32: Final = 6
_STRAIGHT: Final = 7
_FLUSH: Final = 8
_EXACT: Final = 9

_SINGLE_NEED: Final = {
    SetKind.HIGH_CARD: 1,
    SetKind.PAIR: 2,
    SetKind.THREE_OF_A_KIND: 3,
    SetKind.FOUR_OF_A_KIND: 4,
}

_NIBBLE: Final = 15
_POP: Final = tuple(i.bit_count() for i in range(64))
_CLUBS, _DIAMONDS, _HEARTS, _SPADES = COLOUR_MASKS


class _Feature(NamedTuple):
    """How one set reads the hand: which table row, and which count indexes it.

    ``source`` 0: the value count of ``a``; 1: the pair index ``count(a) * 5 + count(b)``;
    2: the number of the values in ``values`` absent from the hand; 3: the colour count of
    colour ``a``; 4: the number of cards of ``mask`` not in the hand.
    """

    row: int
    source: int
    a: int
    b: int
    values: tuple[int, ...]
    mask: int


def _feature(action_id: int) -> _Feature:
    s = SETS[action_id]
    kind = s.kind
    if s.required_mask:
        return _Feature(_EXACT, 4, 0, 0, (), s.required_mask)
    if kind in _SINGLE_NEED:
        return _Feature(_SINGLE_NEED[kind], 0, s.values[0], 0, (), 0)
    if kind is SetKind.TWO_PAIR:
        return _Feature(_DOUBLE22, 1, s.values[0], s.values[1], (), 0)
    if kind is SetKind.FULL_HOUSE:
        return _Feature(_DOUBLE32, 1, s.values[0], s.values[1], (), 0)
    if kind is SetKind.FLUSH:
        assert s.colour is not None
        return _Feature(_FLUSH, 3, s.colour, 0, (), 0)
    return _Feature(_STRAIGHT, 2, 0, 0, tuple(int(v) for v in s.values), 0)


_FEATURES: Final[tuple[_Feature, ...]] = tuple(_feature(i) for i in range(N_BETS))


def _feature_value(f: _Feature, mask: int) -> int:
    src = f.source
    if src == 0:
        return _POP[mask >> (f.a * N_COLOURS) & _NIBBLE]
    if src == 1:
        return (
            _POP[mask >> (f.a * N_COLOURS) & _NIBBLE] * 5
            + _POP[mask >> (f.b * N_COLOURS) & _NIBBLE]
        )
    if src == 2:
        return sum(1 for v in f.values if not mask >> (v * N_COLOURS) & _NIBBLE)
    if src == 3:
        return (mask & COLOUR_MASKS[f.a]).bit_count()
    return (f.mask & ~mask).bit_count()


def hand_features(mask: int) -> tuple[int, ...]:
    """For each set, the index into its table row that the hand ``mask`` selects.

    Two hands of the same size with the same features have the same 88 probabilities:
    set ``i`` has, for a hand of k cards, the probability in its table row for (k, m) at
    index ``features[i]``. This generic path gives the exact fractions; the float path
    (:func:`_evaluate`) is the same lookup unrolled.
    """
    return tuple(_feature_value(f, mask) for f in _FEATURES)


def _evaluate(mask: int, k: int, m: int) -> tuple[float, ...]:
    """The 88 probabilities of a hand from its tables.

    The 72 sets on values alone (all but flushes and straight flushes) depend only on the
    hand's six value counts, so they are looked up by those counts (:func:`_by_values`); the
    16 on colours are read from the flush and exact-cards tables.
    """
    pop = _POP
    by_values = _by_values(
        pop[mask & 15]
        | pop[mask >> 4 & 15] << 3
        | pop[mask >> 8 & 15] << 6
        | pop[mask >> 12 & 15] << 9
        | pop[mask >> 16 & 15] << 12
        | pop[mask >> 20 & 15] << 15,
        k,
        m,
    )
    tables = _float_tables(k, m)
    flush, exact = tables[_FLUSH], tables[_EXACT]
    missing = ~mask
    return (
        *by_values[:FIRST_FLUSH],
        flush[(mask & _CLUBS).bit_count()],
        flush[(mask & _DIAMONDS).bit_count()],
        flush[(mask & _HEARTS).bit_count()],
        flush[(mask & _SPADES).bit_count()],
        *by_values[FIRST_FLUSH:],
        *[exact[(req & missing).bit_count()] for req in _STRAIGHT_FLUSH_MASKS],
    )


@lru_cache(maxsize=1 << 13)
def _by_values(counts: int, k: int, m: int) -> tuple[float, ...]:
    """The probabilities of the 72 sets on values alone (ids 0..65 and 70..75), for a hand
    of ``k`` cards whose value counts are packed three bits each in ``counts``."""
    tables = _float_tables(k, m)
    h0, h1, h2, h3, h4, h5 = hv = tuple(counts >> (3 * v) & 7 for v in range(N_VALUES))
    one, two, three = tables[1], tables[2], tables[3]
    d22, d32, straight, exact = (
        tables[_DOUBLE22],
        tables[_DOUBLE32],
        tables[_STRAIGHT],
        tables[_EXACT],
    )
    # Values absent from the hand, for the straights.
    a0, a5 = (not h0), (not h5)
    inner = (not h1) + (not h2) + (not h3) + (not h4)
    return (
        *[one[h] for h in hv],
        *[two[h] for h in hv],
        *[d22[hv[x] * 5 + hv[y]] for x, y in _TWO_PAIRS],
        straight[a0 + inner],
        straight[inner + a5],
        straight[a0 + inner + a5],
        *[three[h] for h in hv],
        *[d32[hv[x] * 5 + hv[y]] for x, y in _FULL_HOUSES],
        *[exact[4 - h] for h in hv],
    )


_TWO_PAIRS: Final = tuple(
    (int(s.values[0]), int(s.values[1])) for s in SETS if s.kind is SetKind.TWO_PAIR
)
_FULL_HOUSES: Final = tuple(
    (int(s.values[0]), int(s.values[1])) for s in SETS if s.kind is SetKind.FULL_HOUSE
)
_STRAIGHT_FLUSH_MASKS: Final = tuple(s.required_mask for s in SETS[FIRST_STRAIGHT_FLUSH:])


def _hand_mask(hand: int | Iterable[Card]) -> int:
    if isinstance(hand, int):
        if not 0 <= hand < 1 << N_CARDS:
            raise ValueError(f"a hand mask has 24 bits, not {hand:#x}")
        return hand
    return mask_of(list(hand))


def _check(mask: int, unknown: int) -> int:
    k = mask.bit_count()
    if not 0 <= unknown <= N_CARDS - k:
        raise ValueError(
            f"with {k} cards in hand, 0..{N_CARDS - k} cards are unseen, not {unknown}"
        )
    return k


def set_probabilities_uncached(mask: int, unknown: int) -> tuple[float, ...]:
    """:func:`set_probabilities` for a hand mask, without the per-hand cache (for timing
    and testing; results are equal)."""
    k = _check(mask, unknown)
    return _evaluate(mask, k, unknown)


@lru_cache(maxsize=1 << 13)
def _cached(mask: int, unknown: int) -> tuple[float, ...]:
    return _evaluate(mask, mask.bit_count(), unknown)


def set_probabilities(hand: int | Iterable[Card], unknown: int) -> tuple[float, ...]:
    """The probability that each of the 88 sets exists, for a player holding ``hand``.

    ``hand`` is a 24-bit mask (bit ``value * 4 + colour`` per card) or the cards themselves;
    ``unknown`` is the number of cards the other players hold in total. Element ``i`` of the
    result is the probability for the set of action id ``i``.
    """
    mask = _hand_mask(hand)
    _check(mask, unknown)
    return _cached(mask, unknown)


def exact_set_probabilities(hand: int | Iterable[Card], unknown: int) -> tuple[Fraction, ...]:
    """:func:`set_probabilities` as exact fractions."""
    mask = _hand_mask(hand)
    k = _check(mask, unknown)
    tables = _exact_tables(k, unknown)
    return tuple(tables[f.row][x] for f, x in zip(_FEATURES, hand_features(mask), strict=True))


def set_probability(action_id: int, hand: int | Iterable[Card], unknown: int) -> float:
    """The probability for one set only (see :func:`set_probabilities`)."""
    mask = _hand_mask(hand)
    k = _check(mask, unknown)
    f = _FEATURES[action_id]
    return _float_tables(k, unknown)[f.row][_feature_value(f, mask)]


__all__ = [
    "exact_set_probabilities",
    "hand_features",
    "set_probabilities",
    "set_probabilities_uncached",
    "set_probability",
]
