"""Exact set probabilities from one hand, checked against counting every unseen deal.

The brute force enumerates every set of ``m`` cards the other players could hold
(``itertools.combinations`` over the cards not in the hand) and asks the engine's own
existence test (:func:`engine.sets.existing_sets`) about each pool; the closed form must agree
exactly, as a fraction, for all 88 sets.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.facts import DECK, N_BETS, N_CARDS, Card, Colour, Value, mask_of
from engine.probability import (
    exact_set_probabilities,
    set_probabilities,
    set_probabilities_uncached,
    set_probability,
)
from engine.sets import SETS, SetKind, existing_sets

MAX_DEALS = 50_000  # random hands: each case takes under a second
MAX_SHAPED_DEALS = 5_000  # the shaped hands, many cases each


def brute_force(mask: int, m: int) -> list[Fraction]:
    unseen = [i for i in range(N_CARDS) if not mask >> i & 1]
    counts = [0] * N_BETS
    deals = 0
    for drawn in itertools.combinations(unseen, m):
        pool = mask
        for index in drawn:
            pool |= 1 << index
        deals += 1
        for action_id, present in enumerate(existing_sets(pool)):
            counts[action_id] += present
    return [Fraction(c, deals) for c in counts]


def random_hand(rng: random.Random, k: int) -> int:
    return mask_of([DECK[i] for i in rng.sample(range(N_CARDS), k)])


def hand_of(*cards: tuple[Value, Colour]) -> int:
    return mask_of([Card(v, c) for v, c in cards])


V, C = Value, Colour
# Hands that reach the rarer rows of the tables: suited runs, quads, a colour near a flush.
SHAPED_HANDS = {
    "hearts 9 to Q": hand_of(
        (V.NINE, C.HEARTS), (V.TEN, C.HEARTS), (V.JACK, C.HEARTS), (V.QUEEN, C.HEARTS)
    ),
    "four kings": hand_of(*((V.KING, c) for c in Colour)),
    "three aces, two nines": hand_of(
        (V.ACE, C.CLUBS),
        (V.ACE, C.HEARTS),
        (V.ACE, C.SPADES),
        (V.NINE, C.CLUBS),
        (V.NINE, C.SPADES),
    ),
    "spades 10 to A": hand_of(*((v, C.SPADES) for v in list(Value)[1:])),
    "one of each value": hand_of(*((v, Colour(v % 4)) for v in Value)),
}


def small_cases() -> list[tuple[str, int, int]]:
    """Random hands of 0..5 cards and big hands of 12..24 cards, with every number of
    unseen cards whose deals can be counted quickly; then the shaped hands."""
    rng = random.Random(20240601)
    cases = []
    for k in (0, 1, 2, 3, 4, 5, 12, 16, 19, 20, 22, 24):
        for m in range(N_CARDS - k + 1):
            if comb(N_CARDS - k, m) > MAX_DEALS:
                break
            cases.append((f"{k} cards, {m} unseen", random_hand(rng, k), m))
    for name, mask in SHAPED_HANDS.items():
        k = mask.bit_count()
        for m in range(N_CARDS - k + 1):
            if comb(N_CARDS - k, m) > MAX_SHAPED_DEALS:
                break
            cases.append((f"{name}, {m} unseen", mask, m))
    return cases


CASES = small_cases()


@pytest.mark.parametrize(("mask", "m"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_exact_probabilities_equal_counting_every_possible_deal_for_all_88_sets(
    mask: int, m: int
) -> None:
    expected = brute_force(mask, m)
    assert list(exact_set_probabilities(mask, m)) == expected
    assert list(set_probabilities_uncached(mask, m)) == [float(f) for f in expected]


def test_the_brute_force_cases_put_every_kind_of_set_strictly_between_0_and_1() -> None:
    between: set[SetKind] = set()
    for _, mask, m in CASES:
        for s, p in zip(SETS, set_probabilities(mask, m), strict=True):
            if 0.0 < p < 1.0:
                between.add(s.kind)
    assert between == {s.kind for s in SETS}


def test_a_hand_of_the_ace_of_hearts_against_one_card_has_known_odds() -> None:
    p = exact_set_probabilities([Card(V.ACE, C.HEARTS)], 1)
    assert p[5] == 1  # high card ace: held
    assert p[11] == Fraction(3, 23)  # pair of aces: the other card is one of 3 aces
    assert p[0] == Fraction(4, 23)  # high card nine
    assert p[6] == 0  # pair of nines: one unseen card cannot make it


hands = st.sets(st.integers(0, N_CARDS - 1), max_size=N_CARDS).map(
    lambda cards: sum(1 << c for c in cards)
)


@st.composite
def hand_and_unknown(draw: st.DrawFn) -> tuple[int, int]:
    mask = draw(hands)
    return mask, draw(st.integers(0, N_CARDS - mask.bit_count()))


@given(hand_and_unknown())
def test_every_probability_is_between_0_and_1_and_the_cache_changes_nothing(
    case: tuple[int, int],
) -> None:
    mask, m = case
    p = set_probabilities(mask, m)
    assert len(p) == N_BETS
    assert all(0.0 <= x <= 1.0 for x in p)
    assert p == set_probabilities_uncached(mask, m)
    assert p == tuple(float(f) for f in exact_set_probabilities(mask, m))
    assert p[17] == set_probability(17, mask, m)


@given(hand_and_unknown())
def test_a_set_already_in_the_hand_is_certain_and_with_nothing_unseen_the_hand_decides(
    case: tuple[int, int],
) -> None:
    mask, m = case
    p = set_probabilities(mask, m)
    own = existing_sets(mask)
    assert all(x == 1.0 for x, held in zip(p, own, strict=True) if held)
    if m == 0:
        assert p == tuple(float(held) for held in own)


@given(hand_and_unknown())
def test_more_unseen_cards_never_make_a_set_less_likely(case: tuple[int, int]) -> None:
    mask, m = case
    if m + mask.bit_count() >= N_CARDS:
        return
    fewer, more = exact_set_probabilities(mask, m), exact_set_probabilities(mask, m + 1)
    assert all(a <= b for a, b in zip(fewer, more, strict=True))


@given(hand_and_unknown())
def test_a_set_that_implies_another_is_never_more_likely(case: tuple[int, int]) -> None:
    mask, m = case
    p = exact_set_probabilities(mask, m)
    for v in range(6):
        assert p[24 + 6 + v] <= p[6 + v] <= p[v]  # three <= pair <= high card
        assert p[70 + v] <= p[30 + v]  # four <= three
    assert p[29] <= min(p[27], p[28])  # the great straight contains both others
    for c in range(4):
        assert p[84 + c] <= min(p[76 + c], p[80 + c]) <= p[66 + c]  # straight flushes, flush
    for s in SETS:
        if s.kind is SetKind.FULL_HOUSE:
            x, y = s.values
            assert p[s.action_id] <= min(p[30 + x], p[6 + y])


def test_cards_and_masks_name_the_same_hand() -> None:
    cards = [Card(V.QUEEN, C.SPADES), Card(V.NINE, C.CLUBS)]
    assert set_probabilities(cards, 7) == set_probabilities(mask_of(cards), 7)


@pytest.mark.parametrize(
    ("hand", "unknown"),
    [(0, -1), (0, 25), ((1 << 11) - 1, 14), (1 << 24, 0), (-1, 0)],
    ids=[
        "negative unseen",
        "more than the deck",
        "more than the rest",
        "25th bit",
        "negative mask",
    ],
)
def test_impossible_hands_and_counts_are_refused(hand: int, unknown: int) -> None:
    with pytest.raises(ValueError, match=r"24 bits|unseen"):
        set_probabilities(hand, unknown)
