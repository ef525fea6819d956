"""Figgie simulator benchmark: whole games per CPU second against a lean loop, and a
tournament's games per second with 1 and 2 jobs.

**Simulator against a lean loop.** Both sides play the same 4-player games (the engine's
deal from the same seeds) between the same baseline agents (FairValue, Conservative,
MarketMaker, Bayesian; made afresh per game, seeded per seat as the simulator seeds them),
240 ticks each. The simulator side is :func:`engine.figgie.sim.play` (the engine's
:class:`~engine.figgie.game.FiggieState`, every order through ``Market.refusal`` then
``Market.execute``). The lean side, :func:`lean_game`, is the same rules written for this
benchmark on bare lists: the order within a tick from the same generator, legality checked
inline, no events, no state object, no seed commitment. The two must give the same
profits, game by game (checked). ``--rounds`` rounds each time both sides on ``--games``
games in a shuffled order; the median of the per-round ratios is printed (goal: the
simulator at 0.8x the lean loop or better).

**Tournament.** ``--tournament N`` games of :func:`arena.figgie.tournament.run` with 1,
then 2, jobs (interleaved twice), games per wall-clock second and their ratio.

    .venv/bin/python benchmarks/figgie_sim.py [--rounds 5] [--games 40] [--tournament 400]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from conditions import conditions  # noqa: E402

from arena.figgie.tournament import FiggieTournament, run  # noqa: E402
from engine.figgie.agents import make_agent  # noqa: E402
from engine.figgie.deal import deal  # noqa: E402
from engine.figgie.decks import BONUS, GOAL  # noqa: E402
from engine.figgie.sim import DECODE, ORDER_TAG, agent_rng, game_seeds, play  # noqa: E402

LINE_UP = ("fairvalue", "conservative", "marketmaker", "bayesian")


class LeanMarket:
    """The book on bare lists, with what the agents read (as the simulator's market)."""

    def __init__(self, hands: list[list[int]]) -> None:
        self.n_seats = 4
        self.hands = hands
        self.chips = [300] * 4
        self.bids = [[0] * 4 for _ in range(4)]
        self.asks = [[0] * 4 for _ in range(4)]
        self.bid_order = [[0] * 4 for _ in range(4)]
        self.ask_order = [[0] * 4 for _ in range(4)]
        self.sequence = 0
        self.tape: list[tuple[int, int, int, int]] = []

    def best_bid(self, suit: int, exclude: int = -1) -> tuple[int, int] | None:
        best = None
        for seat in range(4):
            price = self.bids[seat][suit]
            if price and seat != exclude:
                key = (price, -self.bid_order[seat][suit])
                if best is None or key > best[0]:
                    best = (key, seat)
        return None if best is None else (best[0][0], best[1])

    def best_ask(self, suit: int, exclude: int = -1) -> tuple[int, int] | None:
        best = None
        for seat in range(4):
            price = self.asks[seat][suit]
            if price and seat != exclude:
                key = (price, self.ask_order[seat][suit])
                if best is None or key < best[0]:
                    best = (key, seat)
        return None if best is None else (best[0][0], best[1])


class LeanObservation:
    """What the agents read, over a :class:`LeanMarket`."""

    def __init__(self, market: LeanMarket, seat: int) -> None:
        self._market = market
        self.seat = seat
        self.tick = 0
        self.ticks = 240
        self.n_seats = 4

    @property
    def hand(self) -> list[int]:
        return self._market.hands[self.seat]

    @property
    def bids(self) -> list[list[int]]:
        return self._market.bids

    @property
    def asks(self) -> list[list[int]]:
        return self._market.asks

    @property
    def tape(self) -> list[tuple[int, int, int, int]]:
        return self._market.tape

    @property
    def card_counts(self) -> list[int]:
        return [sum(h) for h in self._market.hands]

    def best_bid(self, suit: int, others_only: bool = False) -> tuple[int, int] | None:
        return self._market.best_bid(suit, self.seat if others_only else -1)

    def best_ask(self, suit: int, others_only: bool = False) -> tuple[int, int] | None:
        return self._market.best_ask(suit, self.seat if others_only else -1)


def lean_game(seed: bytes) -> tuple[int, ...]:
    """One game of the line-up by the lean loop; the profits."""
    deck, hands = deal(seed, 4)
    m = LeanMarket(hands)
    agents = [make_agent(name) for name in LINE_UP]
    for seat, agent in enumerate(agents):
        agent.reset(seat, 4, list(hands[seat]), agent_rng(seed, seat))
    observations = [LeanObservation(m, seat) for seat in range(4)]
    order_rng = random.Random(hashlib.sha256(ORDER_TAG + seed).digest())
    order = [0, 1, 2, 3]
    for tick in range(240):
        for obs in observations:
            obs.tick = tick
        actions = [a.act(o) for a, o in zip(agents, observations, strict=True)]  # type: ignore[arg-type]
        order_rng.shuffle(order)
        for seat in order:
            kind, suit, price = DECODE[actions[seat]]
            if kind is None:
                continue
            hand = m.hands[seat]
            if kind == 0:  # bid
                low = m.best_ask(suit)
                if low is None or price < low[0]:
                    m.sequence += 1
                    m.bids[seat][suit] = price
                    m.bid_order[seat][suit] = m.sequence
                    continue
            elif kind == 1:  # ask
                high = m.best_bid(suit)
                if hand[suit] and (high is None or price > high[0]):
                    m.sequence += 1
                    m.asks[seat][suit] = price
                    m.ask_order[seat][suit] = m.sequence
                    continue
            elif kind == 2:
                if m.bids[seat][suit]:
                    m.bids[seat][suit] = 0
                    continue
            elif kind == 3:
                if m.asks[seat][suit]:
                    m.asks[seat][suit] = 0
                    continue
            else:
                if kind == 4:
                    best = m.best_ask(suit, seat)
                    trade = None if best is None else (seat, best[1], suit, best[0])
                else:
                    best = m.best_bid(suit, seat) if hand[suit] else None
                    trade = None if best is None else (best[1], seat, suit, best[0])
                if trade is not None:
                    buyer, seller, _, paid = trade
                    m.hands[buyer][suit] += 1
                    m.hands[seller][suit] -= 1
                    m.chips[buyer] -= paid
                    m.chips[seller] += paid
                    m.tape.append(trade)
                    m.bids = [[0] * 4 for _ in range(4)]
                    m.asks = [[0] * 4 for _ in range(4)]
                    continue
    goal = GOAL[deck]
    counts = [h[goal] for h in m.hands]
    leaders = [s for s in range(4) if counts[s] == max(counts)]
    share, left = divmod(BONUS[deck], len(leaders))
    for rank, seat in enumerate(leaders):
        m.chips[seat] += share + (rank < left)
    return tuple(m.chips[s] + 10 * counts[s] - 350 for s in range(4))


def _simulator(seeds: list[bytes]) -> list[tuple[int, ...]]:
    return [play([make_agent(n) for n in LINE_UP], seed).profits for seed in seeds]


def _lean(seeds: list[bytes]) -> list[tuple[int, ...]]:
    return [lean_game(seed) for seed in seeds]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--tournament", type=int, default=400)
    args = parser.parse_args()
    load = os.getloadavg()
    shuffle = random.Random(0)
    ratios, sim_rates, lean_rates = [], [], []
    for r in range(args.rounds):
        seeds = game_seeds(1000 + r, args.games)
        sides = [("simulator", _simulator), ("lean", _lean)]
        shuffle.shuffle(sides)
        rates, results = {}, {}
        for name, side in sides:
            started = time.process_time()
            results[name] = side(seeds)
            rates[name] = args.games / (time.process_time() - started)
        if results["simulator"] != results["lean"]:
            raise SystemExit("the lean loop and the simulator disagree: not the same rules")
        ratios.append(rates["simulator"] / rates["lean"])
        sim_rates.append(rates["simulator"])
        lean_rates.append(rates["lean"])
        print(
            f"round {r + 1}: simulator {rates['simulator']:.1f} games/CPU s, lean "
            f"{rates['lean']:.1f}, ratio {ratios[-1]:.3f}"
        )
    print(
        f"median: simulator {statistics.median(sim_rates):.1f}, lean "
        f"{statistics.median(lean_rates):.1f} games/CPU s; ratio {statistics.median(ratios):.3f} "
        f"(min {min(ratios):.3f}, max {max(ratios):.3f})"
    )
    tournament_rates: dict[int, list[float]] = {1: [], 2: []}
    for repeat in range(2):
        for jobs in (1, 2) if repeat == 0 else (2, 1):
            config = FiggieTournament(LINE_UP, args.tournament, 5000 + repeat)
            started = time.perf_counter()
            run(config, jobs=jobs)
            tournament_rates[jobs].append(args.tournament / (time.perf_counter() - started))
    one, two = (statistics.mean(tournament_rates[j]) for j in (1, 2))
    print(
        f"tournament of {args.tournament} games: 1 job {one:.1f} games/s, 2 jobs {two:.1f} "
        f"games/s (wall clock), ratio {two / one:.2f}"
    )
    print(
        json.dumps(
            {
                "simulator_over_lean": statistics.median(ratios),
                "ratios": [round(x, 4) for x in ratios],
                "tournament_games_per_s": {"1": one, "2": two},
                "conditions": conditions(load),
            }
        )
    )


if __name__ == "__main__":
    main()
