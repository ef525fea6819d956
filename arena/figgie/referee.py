"""One Figgie game on the simulator, with its transcript: hands, trades by tick, payouts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.dealing import commitment
from engine.figgie.agents import make_agent
from engine.figgie.decks import DECKS, GOAL, SUITS
from engine.figgie.sim import TICKS, Simulation, agent_rng


def referee(names: Sequence[str], seed: bytes, ticks: int = TICKS) -> dict[str, Any]:
    """Play ``names`` (seat order) from ``seed``; the game as JSON."""
    agents = [make_agent(name) for name in names]
    sim = Simulation(seed, len(agents), ticks)
    market = sim.market
    initial = [list(hand) for hand in market.hands]
    for seat, agent in enumerate(agents):
        agent.reset(seat, len(agents), list(market.hands[seat]), agent_rng(seed, seat))
    observations = [sim.observation(seat) for seat in range(len(agents))]
    trades = []
    while not sim.done:
        tick = sim.tick
        for observation in observations:
            observation.tick = tick
        actions = [agent.act(obs) for agent, obs in zip(agents, observations, strict=True)]
        for trade in sim.step(actions):
            trades.append({"tick": tick, **trade.to_dict()})
    state = sim.state
    assert state.payouts is not None
    return {
        "agents": list(names),
        "commitment": commitment(seed),
        "seed": seed.hex(),
        "deck": dict(zip(SUITS, DECKS[state.deck], strict=True)),
        "goal_suit": SUITS[GOAL[state.deck]],
        "initial_hands": [dict(zip(SUITS, hand, strict=True)) for hand in initial],
        "final_hands": [dict(zip(SUITS, hand, strict=True)) for hand in market.hands],
        "trades": trades,
        "stale_actions": sim.stale,
        "payouts": list(state.payouts),
        "profits": sim.profits(),
    }


def render(game: dict[str, Any]) -> str:
    """The game as text for people."""
    names = game["agents"]
    lines = [
        f"Deal {game['commitment'][:16]}: goal suit {game['goal_suit']} "
        + f"(deck {', '.join(f'{n} {s}' for s, n in game['deck'].items())})"
    ]
    for seat, name in enumerate(names):
        hand = ", ".join(f"{n} {s}" for s, n in game["initial_hands"][seat].items())
        lines.append(f"  seat {seat} {name}: {hand}")
    lines.append(f"{len(game['trades'])} trades:")
    for trade in game["trades"]:
        lines.append(
            f"  tick {trade['tick']:3d}: {names[trade['buyer']]} (seat {trade['buyer']}) buys "
            f"{trade['suit']} from {names[trade['seller']]} (seat {trade['seller']}) "
            f"at {trade['price']}"
        )
    lines.append("Settlement:")
    goal = game["goal_suit"]
    for seat, name in enumerate(names):
        lines.append(
            f"  seat {seat} {name}: {game['final_hands'][seat][goal]} {goal}, "
            f"paid {game['payouts'][seat]}, profit {game['profits'][seat]:+d}"
        )
    lines.append(f"Seed {game['seed']}")
    return "\n".join(lines)
