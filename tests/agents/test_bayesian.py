"""The bayesian agent's posterior: it agrees with the exact odds until someone speaks, then
moves toward what the bets say."""

from __future__ import annotations

from typing import ClassVar

from engine.agents import BayesianAgent, RandomAgent
from engine.facts import CHECK, Colour, Value
from engine.play import play_game
from engine.probability import set_probabilities
from tests.agents.helpers import Situation, card


class ManyGuesses(BayesianAgent):
    particles: ClassVar[int] = 2048


def test_before_any_bet_the_posterior_is_the_exact_probability_from_its_own_hand() -> None:
    hand = (card(Value.KING, Colour.HEARTS), card(Value.KING, Colour.CLUBS))
    table = Situation(hand, (2, 3))
    posterior = ManyGuesses(seed=1).posterior(table)  # type: ignore[arg-type]
    exact = set_probabilities(hand, 3)
    assert max(abs(a - b) for a, b in zip(posterior, exact, strict=True)) < 0.05


def test_a_bet_makes_the_posterior_believe_the_bettor_holds_its_cards() -> None:
    # I hold a nine; the other player, holding one card, bet "high card ace" (5).
    table = Situation((card(Value.NINE, Colour.CLUBS),), (1, 1), [(1, 5)])
    before = set_probabilities(table.hand, 1)[5]
    after = ManyGuesses(seed=2).posterior(table)[5]  # type: ignore[arg-type]
    assert before < 0.2
    assert after > 0.6


def test_it_checks_a_bet_its_posterior_finds_unlikely_and_raises_one_it_believes() -> None:
    # Four cards in play. Against "pair of aces" with no ace in hand: check. Holding two
    # aces, the bet is true: it must not check.
    no_aces = Situation(
        (card(Value.NINE, Colour.CLUBS), card(Value.TEN, Colour.CLUBS)), (2, 2), [(1, 11)]
    )
    two_aces = Situation(
        (card(Value.ACE, Colour.CLUBS), card(Value.ACE, Colour.SPADES)), (2, 2), [(1, 11)]
    )
    for seed in range(10):
        assert BayesianAgent(seed).act(no_aces) == CHECK  # type: ignore[arg-type]
        assert BayesianAgent(seed).act(two_aces) != CHECK  # type: ignore[arg-type]


def test_finished_rounds_teach_it_which_model_explains_each_opponent() -> None:
    me = BayesianAgent(seed=3)
    result = play_game({"me": me, "rnd": RandomAgent(9)}, seed="learn")
    assert len(result.rounds) > 5
    assert me.model_for(result.seating.index("rnd")).is_random
    assert not me.model_for(result.seating.index("me")).is_random  # it never models itself
