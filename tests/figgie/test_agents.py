"""The posterior, the Bayesian's value tables, the baselines' stated behaviour, and every
agent acting legally."""

from __future__ import annotations

import pytest

from engine.figgie.agents import (
    AGENTS,
    BayesianAgent,
    FairValueAgent,
    MarketMakerAgent,
    majority_values,
    make_agent,
    naive_values,
)
from engine.figgie.decks import GOAL, deck_posterior, goal_probabilities
from engine.figgie.market import ASK, BID, HIT, LIFT, Market
from engine.figgie.ours import bonus_share
from engine.figgie.sim import (
    NO_OP,
    Observation,
    Simulation,
    agent_rng,
    encode,
    game_seeds,
    is_legal,
)


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ((5, 2, 2, 1), (0.185, 0.494, 0.135, 0.185)),
        ((4, 1, 3, 2), (0.146, 0.380, 0.200, 0.275)),
        ((3, 3, 2, 2), (0.289, 0.289, 0.211, 0.211)),
        ((2, 2, 2, 2), (0.25, 0.25, 0.25, 0.25)),
    ],
)
def test_the_goal_posterior_matches_the_worked_examples(hand, expected):
    assert [round(p, 3) for p in goal_probabilities(hand)] == list(expected)


def test_counts_no_deck_can_hold_have_no_posterior():
    with pytest.raises(ValueError, match="no deck"):
        deck_posterior((13, 0, 0, 0))


def test_the_majority_values_match_the_tables_and_sum_to_the_bonus():
    two = majority_values(2.0)
    eight_goal, ten_goal = two[0], two[1]  # deck 0: 8 clubs (bonus 120); deck 1: 10 clubs
    assert [round(v, 2) for v in eight_goal[:6]] == [3.87, 7.74, 15.48, 30.97, 61.94, 0.0]
    assert [round(v, 2) for v in ten_goal[:7]] == [1.59, 3.17, 6.35, 12.70, 25.40, 50.79, 0.0]
    assert round(sum(eight_goal), 9) == 120 and round(sum(ten_goal), 9) == 100
    one_and_half = majority_values(1.5)
    assert [round(v, 2) for v in one_and_half[0][:5]] == [9.10, 13.65, 20.47, 30.71, 46.07]


def test_the_bayesian_value_weighs_the_majority_bonus_by_the_posterior():
    agent = BayesianAgent()
    agent.posterior = deck_posterior((5, 2, 2, 1))
    table = majority_values(2.0)
    expected = sum(m * (10 + table[d][2]) for d, m in enumerate(agent.posterior) if GOAL[d] == 1)
    assert agent.value(1, 2) == pytest.approx(expected)


def observation(hands, bids=None, asks=None, seat=0) -> Observation:
    market = Market(hands, [300] * 4, 30)
    for p, row in enumerate(bids or []):
        for s, price in enumerate(row):
            if price:
                market.execute(p, BID, s, price)
    for p, row in enumerate(asks or []):
        for s, price in enumerate(row):
            if price:
                market.execute(p, ASK, s, price)
    return Observation(market, seat, 0, 240)


HANDS = [[5, 2, 2, 1], [2, 3, 3, 2], [3, 2, 3, 2], [2, 3, 2, 3]]


def test_fairvalue_lifts_an_ask_at_least_its_edge_below_its_value():
    agent = FairValueAgent()
    agent.reset(0, 4, HANDS[0], agent_rng(bytes(32), 0))
    v = naive_values(HANDS[0])[1]  # 4.94: an ask of 2 is 2.94 below
    cheap = observation(HANDS, asks=[[0] * 4, [0, 2, 0, 0]])
    assert agent.act(cheap) == encode(LIFT, 1)
    dear = observation(HANDS, asks=[[0] * 4, [0, int(v - 1), 0, 0]])
    assert agent.act(dear) != encode(LIFT, 1)


def test_fairvalue_hits_a_bid_at_least_its_edge_above_its_value_on_a_suit_it_holds():
    agent = FairValueAgent()
    agent.reset(0, 4, HANDS[0], agent_rng(bytes(32), 0))
    assert agent.act(observation(HANDS, bids=[[0] * 4, [8, 0, 0, 0]])) == encode(HIT, 0)


def test_fairvalue_alternates_a_bid_on_its_best_suit_and_an_ask_on_its_worst():
    agent = FairValueAgent()
    agent.reset(0, 4, HANDS[0], agent_rng(bytes(32), 0))
    obs = observation(HANDS)
    assert agent.act(obs) == encode(BID, 1, 2)  # floor(4.94 - 2)
    obs._market.execute(0, BID, 1, 2)
    assert agent.act(obs) == encode(ASK, 2, 4)  # hearts 1.35: ceil(3.35)


def test_conservative_does_nothing_below_its_gate():
    agent = make_agent("conservative")
    agent.reset(0, 4, [2, 3, 3, 2], agent_rng(bytes(32), 0))
    assert max(goal_probabilities([2, 3, 3, 2])) < 0.4
    assert agent.act(observation(HANDS, asks=[[0] * 4, [1, 1, 1, 1]])) == NO_OP


def test_the_market_maker_fills_its_empty_slots_at_three_either_side_and_never_takes():
    agent = MarketMakerAgent()
    agent.reset(0, 4, HANDS[0], agent_rng(bytes(32), 0))
    obs = observation(HANDS, asks=[[0] * 4, [1, 1, 1, 1]])
    actions = []
    for _ in range(9):
        action = agent.act(obs)
        actions.append(action)
        if action != NO_OP:
            from engine.figgie.sim import decode

            kind, suit, price = decode(action)
            obs._market.execute(0, kind, suit, price)
    assert encode(LIFT, 0) not in actions
    assert actions[0] == NO_OP or actions[0] != encode(LIFT, 0)
    assert encode(ASK, 1, 8) in actions  # clubs: ceil(4.94 + 3)


def test_a_seat_holding_more_than_anyone_can_gets_the_whole_bonus_share():
    assert bonus_share(6, (0, 0, 0), (10, 10, 10), 4) == 1.0
    assert bonus_share(0, (1, 0, 0), (9, 10, 10), 7) == 0.0
    alone = bonus_share(3, (0, 0, 0), (10, 10, 10), 5)
    assert 0 < alone < 1


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_every_agent_acts_legally_all_game(name):
    seed = game_seeds(21, 1)[0]
    sim = Simulation(seed)
    agents = [
        make_agent(name),
        make_agent("fairvalue"),
        make_agent("marketmaker"),
        make_agent("bayesian"),
    ]
    for seat, agent in enumerate(agents):
        agent.reset(seat, 4, list(sim.market.hands[seat]), agent_rng(seed, seat))
    while not sim.done:
        actions = []
        for seat, agent in enumerate(agents):
            action = agent.act(sim.observation(seat))
            assert is_legal(sim.market, seat, action), (name, seat, action)
            actions.append(action)
        sim.step(actions)
    assert sum(sim.profits()) == 0


def test_an_unknown_agent_is_named_with_the_list():
    with pytest.raises(KeyError, match="the agents are"):
        make_agent("oracle")
