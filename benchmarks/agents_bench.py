"""Built-in agents benchmark: decision times, probability timings, head-to-head win rates.

For each pair ``A:B`` it plays ``--games`` two-player games of :func:`engine.play.play_game`.
Games come in pairs on the same seed with the join order swapped: the seating is drawn from
the seed, so in the second game of a pair each agent takes the other's seat and faces the
same first deal. Game seeds are ``"<seed>/<k>"`` (the same for every pair of agents), and
each agent is seeded from the benchmark seed and the game number, so a run is reproducible.
Games are split between at most two worker processes.

Every ``act`` call is timed (wall clock and this thread's CPU time; on a shared machine the
CPU time is the steadier figure) and reported per agent as median and 95th percentile over
all its decisions in all pairs. The win rate of ``A`` comes with its standard error and a
95% Wilson interval. The exact set probabilities (:mod:`engine.probability`) are timed per
call too: cold (tables not yet built), uncached (tables built, no per-hand cache) and cached.
Prints readable lines, then one JSON line with every figure.

    .venv/bin/python benchmarks/agents_bench.py --games 4000 \\
        --pairs bayesian:random bayesian:probabilist [--procs 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.agents import Agent, make_agent  # noqa: E402
from engine.game import RoundRecord  # noqa: E402
from engine.observation import Observation  # noqa: E402
from engine.play import play_game  # noqa: E402

Z95 = 1.959963984540054
MAX_PROCS = 2
DEFAULT_PAIRS = ("bayesian:random", "bayesian:probabilist")


class Timed(Agent):
    """Wraps an agent and records how long each of its decisions takes."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.wall: list[int] = []
        self.cpu: list[int] = []

    def act(self, obs: Observation) -> int:
        wall, cpu = time.perf_counter_ns(), time.thread_time_ns()
        action = self.inner.act(obs)
        self.cpu.append(time.thread_time_ns() - cpu)
        self.wall.append(time.perf_counter_ns() - wall)
        return action

    def round_ended(self, record: RoundRecord) -> None:
        self.inner.round_ended(record)


def agent_seed(seed: int, game: int, slot: int) -> int:
    return (seed * 1_000_003 + game) * 2 + slot


def play_chunk(task: tuple[str, str, int, list[int]]) -> dict[str, Any]:
    """Plays the listed games of one pair; returns wins, rounds and decision times."""
    name_a, name_b, seed, games = task
    wins = rounds = 0
    times: dict[str, dict[str, list[int]]] = {
        name_a: {"wall": [], "cpu": []},
        name_b: {"wall": [], "cpu": []},
    }
    for game in games:
        a = Timed(make_agent(name_a, agent_seed(seed, game, 0)))
        b = Timed(make_agent(name_b, agent_seed(seed, game, 1)))
        # Nicknames must differ even when an agent plays itself.
        agents = {"A": a, "B": b} if game % 2 == 0 else {"B": b, "A": a}
        result = play_game(agents, seed=f"{seed}/{game // 2}")
        wins += result.winner == "A"
        rounds += len(result.rounds)
        for name, timed in ((name_a, a), (name_b, b)):
            times[name]["wall"].extend(timed.wall)
            times[name]["cpu"].extend(timed.cpu)
    return {"wins": wins, "games": len(games), "rounds": rounds, "times": times}


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``wins / n``."""
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return centre - half, centre + half


def quantile_ms(values: list[int], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, int(q * len(ordered)))
    return ordered[index] / 1e6


def time_probabilities(samples: int = 2000) -> dict[str, float]:
    """Microseconds per call of the 88 exact probabilities: cold, uncached, cached."""
    from engine import probability

    rng = random.Random(0)
    cases = []
    for _ in range(samples):
        k = rng.randint(1, 11)
        mask = sum(1 << c for c in rng.sample(range(24), k))
        cases.append((mask, rng.randint(1, 24 - k)))
    # Cold: every (k, m) table rebuilt, as in a fresh process.
    cold = []
    for k in range(1, 12):
        for m in (1, 5, 11):
            probability._counts.cache_clear()
            probability._float_tables.cache_clear()
            mask = (1 << k) - 1
            start = time.perf_counter_ns()
            probability.set_probabilities_uncached(mask, m)
            cold.append(time.perf_counter_ns() - start)
    for mask, m in cases:  # build every table these cases need
        probability.set_probabilities_uncached(mask, m)
    uncached = []
    for mask, m in cases:
        start = time.perf_counter_ns()
        probability.set_probabilities_uncached(mask, m)
        uncached.append(time.perf_counter_ns() - start)
    cached = []
    for mask, m in cases:
        probability.set_probabilities(mask, m)
    for mask, m in cases:
        start = time.perf_counter_ns()
        probability.set_probabilities(mask, m)
        cached.append(time.perf_counter_ns() - start)
    return {
        "cold_median_us": statistics.median(cold) / 1e3,
        "uncached_median_us": statistics.median(uncached) / 1e3,
        "uncached_p95_us": quantile_ms(uncached, 0.95) * 1e3,
        "cached_median_us": statistics.median(cached) / 1e3,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per pair (even)")
    parser.add_argument("--pairs", nargs="+", default=list(DEFAULT_PAIRS), metavar="A:B")
    parser.add_argument("--procs", type=int, default=MAX_PROCS, choices=range(1, MAX_PROCS + 1))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    games = args.games + args.games % 2
    pairs = [tuple(p.split(":", 1)) for p in args.pairs]
    for pair in pairs:
        if len(pair) != 2:
            parser.error(f"a pair is A:B, not {pair[0]!r}")
        for name in pair:
            make_agent(name, 0)  # fails early on an unknown name

    started = time.perf_counter()
    prob = time_probabilities()
    print(
        "probabilities of all 88 sets, per call: "
        f"cold {prob['cold_median_us']:.0f} us, uncached {prob['uncached_median_us']:.1f} us "
        f"(p95 {prob['uncached_p95_us']:.1f}), cached {prob['cached_median_us']:.1f} us"
    )

    tasks = [
        (a, b, args.seed, list(range(i, games, args.procs)))
        for a, b in pairs
        for i in range(args.procs)
    ]
    with Pool(args.procs) as pool:
        chunks = pool.map(play_chunk, tasks)

    times: dict[str, dict[str, list[int]]] = {}
    matches = []
    for index, (a, b) in enumerate(pairs):
        mine = chunks[index * args.procs : (index + 1) * args.procs]
        wins = sum(c["wins"] for c in mine)
        rounds = sum(c["rounds"] for c in mine)
        for chunk in mine:
            for name, t in chunk["times"].items():
                slot = times.setdefault(name, {"wall": [], "cpu": []})
                slot["wall"].extend(t["wall"])
                slot["cpu"].extend(t["cpu"])
        rate = wins / games
        se = math.sqrt(rate * (1 - rate) / games)
        low, high = wilson(wins, games)
        matches.append(
            {
                "a": a,
                "b": b,
                "games": games,
                "wins_a": wins,
                "rate_a": rate,
                "se": se,
                "wilson95": [low, high],
                "rounds_per_game": rounds / games,
            }
        )
        print(
            f"{a} vs {b}: {a} won {wins}/{games} = {rate:.1%} (se {se:.1%}, "
            f"95% Wilson {low:.1%}..{high:.1%}), {rounds / games:.1f} rounds a game"
        )

    timing = {}
    for name, t in sorted(times.items()):
        timing[name] = {
            "decisions": len(t["wall"]),
            "median_ms": quantile_ms(t["wall"], 0.5),
            "p95_ms": quantile_ms(t["wall"], 0.95),
            "cpu_median_ms": quantile_ms(t["cpu"], 0.5),
            "cpu_p95_ms": quantile_ms(t["cpu"], 0.95),
        }
        row = timing[name]
        print(
            f"{name}: {row['decisions']} decisions, median {row['median_ms']:.3f} ms, "
            f"p95 {row['p95_ms']:.3f} ms (CPU time: median {row['cpu_median_ms']:.3f} ms, "
            f"p95 {row['cpu_p95_ms']:.3f} ms)"
        )
    report = {
        "benchmark": "agents",
        "seed": args.seed,
        "games_per_pair": games,
        "procs": args.procs,
        "python": platform.python_version(),
        "seconds": round(time.perf_counter() - started, 1),
        "probabilities": prob,
        "timing": timing,
        "matches": matches,
    }
    print(json.dumps(report, sort_keys=True))
    return report


if __name__ == "__main__":
    main()
