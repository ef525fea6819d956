"""The bidding model the bayesian agent reads bets through, and its fast existence test."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.agents._hands import existence_bits
from engine.agents.bidding_model import DEFAULT_MODEL, RANDOM_MODEL, BidModel, model_grid
from engine.facts import CHECK, N_BETS, N_CARDS
from engine.probability import set_probabilities
from engine.sets import exists

MODELS = [DEFAULT_MODEL, *model_grid()]


@st.composite
def situations(draw: st.DrawFn) -> tuple[tuple[float, ...], int]:
    cards = draw(st.sets(st.integers(0, N_CARDS - 1), min_size=1, max_size=11))
    mask = sum(1 << c for c in cards)
    unknown = draw(st.integers(1, N_CARDS - len(cards)))
    low = draw(st.integers(0, N_BETS))
    return set_probabilities(mask, unknown), low


@given(situations())
def test_every_model_gives_a_probability_distribution_over_the_legal_actions(
    situation: tuple[tuple[float, ...], int],
) -> None:
    p, low = situation
    legal = [*range(low, N_BETS), *([CHECK] if low else [])]
    for model in MODELS:
        total = sum(model.likelihood(p, low, action) for action in legal)
        assert math.isclose(total, 1.0, abs_tol=1e-9), model


@given(situations())
def test_a_random_player_is_equally_likely_to_take_any_legal_action(
    situation: tuple[tuple[float, ...], int],
) -> None:
    p, low = situation
    legal = [*range(low, N_BETS), *([CHECK] if low else [])]
    assert {RANDOM_MODEL.likelihood(p, low, a) for a in legal} == {1 / len(legal)}


def test_a_careful_player_is_most_likely_to_bet_the_most_senior_set_it_believes() -> None:
    careful = BidModel(0.7, 0.9, 0.3, 0.0)
    p = set_probabilities(0b1111 << 20, 3)  # four aces in hand, 3 cards unseen
    favourite = max(b for b in range(N_BETS) if p[b] >= 0.8)
    shares = [careful.likelihood(p, 0, b) for b in range(N_BETS)]
    assert favourite == 75  # four aces
    assert max(range(N_BETS), key=shares.__getitem__) == favourite


@pytest.mark.parametrize(("p_last", "expected"), [(0.0, True), (1.0, False)])
def test_a_player_checks_unlikely_bets_and_raises_over_likely_ones(
    p_last: float, expected: bool
) -> None:
    assert (DEFAULT_MODEL.check_probability(p_last, 10) > 0.5) is expected


@given(st.integers(0, (1 << N_CARDS) - 1))
def test_the_fast_existence_bits_agree_with_the_rules_for_every_set(mask: int) -> None:
    bits = existence_bits(mask)
    assert [bool(bits >> i & 1) for i in range(N_BETS)] == [exists(i, mask) for i in range(N_BETS)]
