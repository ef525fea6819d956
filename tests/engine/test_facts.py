"""The facts declared once in engine.facts: the deck, the limits, the maximum-cards rule."""

from __future__ import annotations

import pytest

from engine.facts import (
    CHECK,
    DECK,
    LOST_ROUND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    N_BETS,
    Card,
    Colour,
    Value,
    card_from_index,
    cards_of,
    mask_of,
    max_cards,
)


def test_the_deck_holds_24_distinct_cards_in_index_order() -> None:
    assert len(DECK) == len(set(DECK)) == 24
    assert [card.index for card in DECK] == list(range(24))
    assert all(card_from_index(card.index) is card for card in DECK)


def test_a_card_index_is_value_times_four_plus_colour() -> None:
    card = Card(Value.QUEEN, Colour.HEARTS)
    assert (int(Value.QUEEN), int(Colour.HEARTS)) == (3, 2)
    assert card.index == 14
    assert card.bit == 1 << 14
    assert card.to_dict() == {"value": 3, "colour": 2}


def test_values_and_colours_are_encoded_in_rising_seniority() -> None:
    assert [v.symbol for v in Value] == ["9", "10", "J", "Q", "K", "A"]
    assert [int(v) for v in Value] == list(range(6))
    assert [c.name for c in Colour] == ["CLUBS", "DIAMONDS", "HEARTS", "SPADES"]
    assert [int(c) for c in Colour] == list(range(4))


def test_masks_and_card_lists_convert_both_ways() -> None:
    hand = (DECK[0], DECK[7], DECK[23])
    assert mask_of(hand) == 1 | 1 << 7 | 1 << 23
    assert cards_of(mask_of(hand)) == hand
    assert cards_of(0) == ()


def test_the_special_action_ids_follow_the_88_bets() -> None:
    assert (N_BETS, CHECK, LOST_ROUND) == (88, 88, 89)
    assert (MIN_PLAYERS, MAX_PLAYERS) == (2, 8)


@pytest.mark.parametrize(
    ("players", "cards"), [(2, 11), (3, 8), (4, 6), (5, 4), (6, 4), (7, 3), (8, 3)]
)
def test_the_maximum_cards_follow_the_reference_table(players: int, cards: int) -> None:
    assert max_cards(players) == cards


def test_all_hands_at_the_maximum_never_need_more_than_the_deck() -> None:
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        assert players * max_cards(players) <= 24
    assert 2 * max_cards(2) < 24  # two full hands never hold the whole deck


@pytest.mark.parametrize("players", [-1, 0, 1, 9, 24])
def test_the_maximum_cards_are_refused_outside_two_to_eight_players(players: int) -> None:
    with pytest.raises(ValueError, match=r"2\.\.8 players"):
        max_cards(players)
