"""The 88 sets: the action-id table in the reference's order, and when each set exists.

The engine's answers are checked against a plain brute-force implementation written from the
reference table (tests/engine/reference.py), on edge cases and on random subsets of the deck.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.facts import DECK, N_BETS, Card, Colour, Value, mask_of
from engine.sets import SETS, SetKind, existing_sets, exists, highest_existing
from tests.engine.reference import (
    describe,
    mask_from,
    minimal_cards,
    pair_of,
    set_exists,
)

V = Value
C = Colour
NINE, TEN, JACK, QUEEN, KING, ACE = range(6)
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)


def mask(*cards: tuple[int, int]) -> int:
    return mask_from(cards)


def of_value(value: int, n: int) -> list[tuple[int, int]]:
    """``n`` cards of ``value`` (clubs first)."""
    return [(value, colour) for colour in range(n)]


# ---------------------------------------------------------------- the table


def test_there_are_88_sets_numbered_by_their_position() -> None:
    assert len(SETS) == N_BETS == 88
    assert [s.action_id for s in SETS] == list(range(88))


@pytest.mark.parametrize(
    ("ids", "kind"),
    [
        (range(0, 6), SetKind.HIGH_CARD),
        (range(6, 12), SetKind.PAIR),
        (range(12, 27), SetKind.TWO_PAIR),
        ([27], SetKind.SMALL_STRAIGHT),
        ([28], SetKind.BIG_STRAIGHT),
        ([29], SetKind.GREAT_STRAIGHT),
        (range(30, 36), SetKind.THREE_OF_A_KIND),
        (range(36, 66), SetKind.FULL_HOUSE),
        (range(66, 70), SetKind.FLUSH),
        (range(70, 76), SetKind.FOUR_OF_A_KIND),
        (range(76, 80), SetKind.SMALL_STRAIGHT_FLUSH),
        (range(80, 84), SetKind.BIG_STRAIGHT_FLUSH),
        (range(84, 88), SetKind.GREAT_STRAIGHT_FLUSH),
    ],
)
def test_each_kind_of_set_holds_its_block_of_action_ids(ids: range, kind: SetKind) -> None:
    assert [SETS[i].kind for i in ids] == [kind] * len(ids)


def test_every_set_names_the_values_and_colour_the_reference_table_gives_it() -> None:
    for action_id in range(88):
        _, values, colour = describe(action_id)
        bet = SETS[action_id]
        assert tuple(int(v) for v in bet.values) == values, bet
        assert (None if bet.colour is None else int(bet.colour)) == colour, bet


@pytest.mark.parametrize(
    ("action_id", "name"),
    [
        (0, "high card 9"),
        (5, "high card A"),
        (6, "pair of nines"),
        (11, "pair of aces"),
        (12, "two pair, tens and nines"),
        (13, "two pair, jacks and nines"),
        (14, "two pair, jacks and tens"),
        (26, "two pair, aces and kings"),
        (27, "small straight"),
        (28, "big straight"),
        (29, "great straight"),
        (30, "three nines"),
        (35, "three aces"),
        (36, "full house, nines over tens"),
        (37, "full house, nines over jacks"),
        (40, "full house, nines over aces"),
        (41, "full house, tens over nines"),
        (65, "full house, aces over kings"),
        (66, "flush of clubs"),
        (69, "flush of spades"),
        (70, "four nines"),
        (75, "four aces"),
        (76, "small straight flush of clubs"),
        (79, "small straight flush of spades"),
        (80, "big straight flush of clubs"),
        (83, "big straight flush of spades"),
        (84, "great straight flush of clubs"),
        (87, "great straight flush of spades"),
    ],
)
def test_the_landmarks_of_the_table_are_where_the_reference_puts_them(
    action_id: int, name: str
) -> None:
    assert SETS[action_id].name == name


def test_two_pair_is_ordered_by_the_higher_pair_then_the_lower() -> None:
    pairs = [(int(SETS[i].values[0]), int(SETS[i].values[1])) for i in range(12, 27)]
    assert pairs[0] == (TEN, NINE)
    assert pairs[-1] == (ACE, KING)
    assert all(x > y for x, y in pairs)
    assert pairs == sorted(pairs)
    assert len(set(pairs)) == 15


def test_full_houses_are_ordered_by_the_three_then_the_two() -> None:
    houses = [(int(SETS[i].values[0]), int(SETS[i].values[1])) for i in range(36, 66)]
    assert houses[0] == (NINE, TEN)
    assert houses[4] == (NINE, ACE)
    assert houses[5] == (TEN, NINE)
    assert houses[-1] == (ACE, KING)
    assert all(x != y for x, y in houses)
    assert houses == sorted(houses)
    assert len(set(houses)) == 30


def test_flushes_and_straight_flushes_go_clubs_diamonds_hearts_spades() -> None:
    for first in (66, 76, 80, 84):
        assert [SETS[first + c].colour for c in range(4)] == list(Colour)


@pytest.mark.parametrize("action_id", range(88))
def test_each_set_exists_on_its_minimal_cards_and_not_without_any_one_of_them(
    action_id: int,
) -> None:
    cards = minimal_cards(action_id)
    assert exists(action_id, mask_from(cards))
    for missing in cards:
        rest = [c for c in cards if c != missing]
        assert not exists(action_id, mask_from(rest)), (action_id, missing)


def test_nothing_exists_among_no_cards() -> None:
    assert not any(existing_sets(0))
    assert highest_existing(0) is None


def test_every_set_exists_among_the_whole_deck() -> None:
    whole = mask_of(DECK)
    assert all(existing_sets(whole))
    assert highest_existing(whole) == 87


# ---------------------------------------------------------------- edges, kind by kind


def test_a_high_card_needs_one_card_of_its_value_in_any_colour() -> None:
    for colour in range(4):
        assert exists(3, mask((QUEEN, colour)))
    assert not exists(3, mask((KING, SPADES), (JACK, HEARTS)))


def test_a_pair_needs_two_cards_of_the_same_value() -> None:
    assert exists(6 + ACE, mask((ACE, CLUBS), (ACE, SPADES)))
    assert not exists(6 + ACE, mask((ACE, CLUBS), (KING, CLUBS)))


def test_two_pair_needs_both_values_paired() -> None:
    aces_and_kings = 26
    assert not exists(aces_and_kings, mask(*of_value(ACE, 2), (KING, CLUBS)))
    assert not exists(aces_and_kings, mask(*of_value(ACE, 4)))
    assert exists(aces_and_kings, mask(*of_value(ACE, 2), *of_value(KING, 2)))
    # ... and only those two values: tens and nines are not aces and kings
    assert not exists(aces_and_kings, mask(*of_value(TEN, 2), *of_value(NINE, 2)))
    assert exists(12, mask(*of_value(TEN, 2), *of_value(NINE, 2)))


@pytest.mark.parametrize(
    ("action_id", "values"),
    [(27, (NINE, TEN, JACK, QUEEN, KING)), (28, (TEN, JACK, QUEEN, KING, ACE))],
)
def test_a_straight_needs_each_of_its_values(action_id: int, values: tuple[int, ...]) -> None:
    mixed = [(v, i % 4) for i, v in enumerate(values)]  # colours do not matter
    assert exists(action_id, mask(*mixed))
    for missing in values:
        rest = [card for card in mixed if card[0] != missing]
        assert not exists(action_id, mask(*rest, *of_value(rest[0][0], 4)))


def test_the_great_straight_needs_all_six_values() -> None:
    assert exists(29, mask(*((v, v % 4) for v in range(6))))
    assert not exists(29, mask(*((v, 0) for v in range(5))))  # the small straight only
    assert not exists(29, mask(*((v, 0) for v in range(1, 6))))  # the big straight only


def test_three_of_a_kind_needs_three_cards_of_its_value() -> None:
    assert exists(30 + JACK, mask(*of_value(JACK, 3)))
    assert not exists(30 + JACK, mask(*of_value(JACK, 2), *of_value(QUEEN, 3)))


def test_a_full_house_needs_two_different_values() -> None:
    nines_over_tens, tens_over_nines = 36, 41
    four_nines = of_value(NINE, 4)
    # four of a kind alone is three nines plus a pair of nines, but not a full house
    assert not any(exists(a, mask(*four_nines)) for a in range(36, 66))
    assert not exists(nines_over_tens, mask(*four_nines, (TEN, CLUBS)))
    assert exists(nines_over_tens, mask(*four_nines, *of_value(TEN, 2)))
    assert not exists(tens_over_nines, mask(*four_nines, *of_value(TEN, 2)))


def test_a_four_of_a_kind_is_not_a_full_house_unless_another_pair_exists() -> None:
    four_kings = of_value(KING, 4)
    kings_over_aces = 36 + 5 * KING + 4  # X = kings: 6th row; aces are its 5th Y
    assert SETS[kings_over_aces].name == "full house, kings over aces"
    assert not exists(kings_over_aces, mask(*four_kings, (ACE, HEARTS)))
    assert exists(kings_over_aces, mask(*four_kings, (ACE, HEARTS), (ACE, SPADES)))


def test_a_full_house_needs_three_of_one_value_and_two_of_the_other() -> None:
    queens_over_jacks = next(i for i in range(36, 66) if SETS[i].values == (V.QUEEN, V.JACK))
    assert not exists(queens_over_jacks, mask(*of_value(QUEEN, 2), *of_value(JACK, 2)))
    assert exists(queens_over_jacks, mask(*of_value(QUEEN, 3), *of_value(JACK, 2)))
    # three jacks and three queens make both full houses of the two values
    jacks_over_queens = next(i for i in range(36, 66) if SETS[i].values == (V.JACK, V.QUEEN))
    both = mask(*of_value(QUEEN, 3), *of_value(JACK, 3))
    assert exists(queens_over_jacks, both)
    assert exists(jacks_over_queens, both)


def test_a_flush_needs_five_cards_of_one_colour() -> None:
    four_hearts = [(v, HEARTS) for v in (NINE, JACK, KING, ACE)]
    assert not exists(66 + HEARTS, mask(*four_hearts, (QUEEN, SPADES)))
    five_hearts = mask(*four_hearts, (TEN, HEARTS))
    assert exists(66 + HEARTS, five_hearts)
    assert [exists(66 + c, five_hearts) for c in range(4)] == [False, False, True, False]


def test_four_of_a_kind_needs_all_four_cards_of_its_value() -> None:
    assert not exists(70 + TEN, mask(*of_value(TEN, 3)))
    assert exists(70 + TEN, mask(*of_value(TEN, 4)))


def test_each_straight_flush_needs_its_exact_cards() -> None:
    small_hearts = [(v, HEARTS) for v in range(5)]
    assert exists(76 + HEARTS, mask(*small_hearts))
    # the same values, one of another colour: a straight and no straight flush
    off = [*small_hearts[1:], (NINE, CLUBS)]
    assert exists(27, mask(*off))
    assert not exists(76 + HEARTS, mask(*off))
    assert not any(exists(a, mask(*off)) for a in range(76, 88))
    big_spades = [(v, SPADES) for v in range(1, 6)]
    assert exists(80 + SPADES, mask(*big_spades))
    assert not exists(76 + SPADES, mask(*big_spades))
    assert not exists(84 + SPADES, mask(*big_spades))
    all_diamonds = [(v, DIAMONDS) for v in range(6)]
    found = [a for a in range(76, 88) if exists(a, mask(*all_diamonds))]
    assert found == [76 + DIAMONDS, 80 + DIAMONDS, 84 + DIAMONDS]


def test_a_flush_of_five_in_a_colour_is_not_a_straight_flush_without_the_run() -> None:
    gap = [(v, CLUBS) for v in (NINE, TEN, JACK, QUEEN, ACE)]  # no king
    assert exists(66 + CLUBS, mask(*gap))
    assert not any(exists(a, mask(*gap)) for a in range(76, 88))


def test_bet_sets_test_existence_on_card_objects_too() -> None:
    cards = [Card(V.ACE, C.HEARTS), Card(V.ACE, C.CLUBS)]
    assert SETS[11].exists_in(cards)
    assert not SETS[35].exists_in(cards)


def test_highest_existing_is_the_most_senior_set_present() -> None:
    assert highest_existing(mask((NINE, CLUBS))) == 0
    assert highest_existing(mask(*of_value(ACE, 2), (KING, CLUBS))) == 11
    assert highest_existing(mask(*of_value(NINE, 3), *of_value(ACE, 2))) == 40


# ---------------------------------------------------------------- against brute force

deck_subsets = st.sets(st.integers(0, 23)).map(lambda cards: sum(1 << i for i in cards))
rich_subsets = st.sets(st.integers(0, 23), min_size=8).map(lambda c: sum(1 << i for i in c))
suited_subsets = st.tuples(st.sets(st.integers(0, 5), min_size=4), st.integers(0, 3)).map(
    lambda vc: sum(1 << (v * 4 + vc[1]) for v in vc[0])
)


def brute_force(mask_: int) -> tuple[bool, ...]:
    cards = [pair_of(i) for i in range(24) if mask_ >> i & 1]
    return tuple(set_exists(a, cards) for a in range(88))


@given(st.one_of(deck_subsets, rich_subsets, suited_subsets))
def test_existing_sets_agrees_with_brute_force_on_random_subsets_of_the_deck(mask_: int) -> None:
    expected = brute_force(mask_)
    assert existing_sets(mask_) == expected
    assert tuple(exists(a, mask_) for a in range(88)) == expected
    present = [a for a in range(88) if expected[a]]
    assert highest_existing(mask_) == (max(present) if present else None)


def test_existing_sets_agrees_with_brute_force_on_every_pool_of_up_to_three_cards() -> None:
    checked = 0
    for size in range(4):
        for cards in itertools.combinations(range(24), size):
            mask_ = sum(1 << i for i in cards)
            assert existing_sets(mask_) == brute_force(mask_), cards
            checked += 1
    assert checked == 1 + 24 + 276 + 2024


@pytest.mark.parametrize(
    ("rarer", "commoner", "pool"),
    [(SetKind.FLUSH, SetKind.FULL_HOUSE, n) for n in (6, 8, 10, 12, 14, 16)],
)
def test_a_higher_kind_is_rarer_among_the_cards_in_play_as_the_rules_page_says(
    pool: int, rarer: SetKind, commoner: SetKind
) -> None:
    """What docs/rules.md tells players: why a flush outranks a full house in this deck
    (some set of the kind, among ``pool`` random cards)."""
    rng = random.Random(pool)
    bets = {kind: [s.action_id for s in SETS if s.kind is kind] for kind in (rarer, commoner)}
    found = dict.fromkeys(bets, 0)
    for _ in range(2000):
        mask = sum(1 << card for card in rng.sample(range(24), pool))
        for kind, ids in bets.items():
            found[kind] += any(exists(bet, mask) for bet in ids)
    assert found[rarer] < found[commoner] or found[rarer] == found[commoner] == 2000
