"""The tick simulator: action numbering, the mask against the market's own rules, ticks,
batches and replay."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.figgie.agents import RandomAgent
from engine.figgie.market import ASK, BID, CANCEL_ASK, CANCEL_BID, HIT, LIFT
from engine.figgie.sim import (
    N_ACTIONS,
    BatchSimulation,
    Simulation,
    action_mask,
    agent_rng,
    decode,
    encode,
    game_seeds,
    is_legal,
    legal_actions,
    play,
)


def test_there_are_257_actions_numbered_as_documented():
    assert N_ACTIONS == 257
    assert encode(BID, 0, 1) == 1 and encode(BID, 3, 30) == 120
    assert encode(ASK, 0, 1) == 121 and encode(ASK, 3, 30) == 240
    assert [encode(k, 2) for k in (CANCEL_BID, CANCEL_ASK, LIFT, HIT)] == [243, 247, 251, 255]
    assert all(
        encode(kind, suit, price) == a
        for a in range(1, N_ACTIONS)
        for kind, suit, price in [decode(a)]
        if kind is not None
    )


def random_position(seed: bytes, ticks: int) -> Simulation:
    sim = Simulation(seed)
    agents = [RandomAgent() for _ in range(4)]
    for seat, agent in enumerate(agents):
        agent.reset(seat, 4, sim.market.hands[seat], agent_rng(seed, seat))
    for _ in range(ticks):
        sim.step([agent.act(sim.observation(s)) for s, agent in enumerate(agents)])
    return sim


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(0, 120))
def test_the_mask_is_exactly_what_the_market_allows(seed, ticks):
    sim = random_position(seed, ticks)
    for seat in range(4):
        mask = action_mask(sim.market, seat)
        assert mask == [is_legal(sim.market, seat, a) for a in range(N_ACTIONS)]
        assert legal_actions(sim.market, seat) == [a for a in range(N_ACTIONS) if mask[a]]


def test_an_action_made_illegal_earlier_in_its_tick_does_nothing():
    sim = Simulation(game_seeds(3, 1)[0])
    hands = sim.market.hands
    seller = next(s for s in range(4) if hands[s][0])
    sim.step([encode(ASK, 0, 5) if s == seller else 0 for s in range(4)])
    lifters = [s for s in range(4) if s != seller][:2]
    trades = sim.step([encode(LIFT, 0) if s in lifters else 0 for s in range(4)])
    assert len(trades) == 1 and trades[0].buyer in lifters
    assert sim.stale == 1


def test_a_game_settles_after_240_ticks_and_conserves_chips():
    record = play([RandomAgent() for _ in range(4)], game_seeds(5, 1)[0])
    assert sum(record.profits) == 0
    assert record.trades > 0


def test_a_game_replays_from_its_seed_and_batches_play_the_same_games():
    seeds = game_seeds(11, 3)
    alone = [play([RandomAgent() for _ in range(4)], seed) for seed in seeds]
    assert alone == [play([RandomAgent() for _ in range(4)], seed) for seed in seeds]
    batch = BatchSimulation(seeds)
    agents = [[RandomAgent() for _ in range(4)] for _ in seeds]
    for g, (seed, hands) in enumerate(zip(seeds, batch.hands(), strict=True)):
        for seat, agent in enumerate(agents[g]):
            agent.reset(seat, 4, hands[seat], agent_rng(seed, seat))
    while not batch.done:
        observations = batch.observations()
        masks = batch.masks()
        actions = [
            [a.act(o) for a, o in zip(agents[g], observations[g], strict=True)] for g in range(3)
        ]
        assert all(masks[g][s][actions[g][s]] for g in range(3) for s in range(4))
        batch.step(actions)
    assert [tuple(p) for p in batch.profits()] == [r.profits for r in alone]


def test_five_players_play_too():
    record = play([RandomAgent() for _ in range(5)], game_seeds(2, 1)[0])
    assert len(record.profits) == 5 and sum(record.profits) == 0


def test_random_picks_uniformly_among_legal_actions():
    sim = random_position(game_seeds(8, 1)[0], 30)
    agent = RandomAgent()
    agent.reset(0, 4, sim.market.hands[0], random.Random(1))
    legal = set(legal_actions(sim.market, 0))
    seen = {agent.act(sim.observation(0)) for _ in range(3000)}
    assert seen <= legal and len(seen) > 0.9 * len(legal)
