"""Engine benchmark: whole random-bot games per second, and set-existence checks per second.

Games are played by :func:`engine.play.play_game` between seeded
:class:`~engine.agents.RandomAgent` players (2, 4 and 8 of them), game after game with seeds
0, 1, 2, ..., for a bounded time each. As in a tournament, the agents are made once per table
size and play every game (seeding a fresh Mersenne Twister per player per game would cost
about a fifth of a 4-player game, and measure the random module rather than the engine).

Checks are single ``engine.sets.exists(action_id, mask)`` calls over a fixed table of varied
pools (2 to 24 cards) and bets (0..87).

One core, no parallelism. Rates are per second of this process's CPU time, so that other
work on a shared machine lowers them less; each figure runs for a bounded wall-clock time,
and the share of a core the process got is printed beside it. Prints readable lines, then
one JSON line with every figure.

    .venv/bin/python benchmarks/engine_bench.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.agents import RandomAgent  # noqa: E402
from engine.play import play_game  # noqa: E402
from engine.sets import exists  # noqa: E402

NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal")
GAME_BATCH = 20  # games between two looks at the clock
CHECK_TABLE = 4096  # (action, mask) pairs cycled through by the check benchmark


def bench_games(n_players: int, seconds: float) -> dict[str, float]:
    """Plays seeded games between ``n_players`` random agents for about ``seconds``."""
    agents = {name: RandomAgent(i) for i, name in enumerate(NAMES[:n_players])}
    for seed in range(20):  # warm-up
        play_game(agents, seed=f"warm-up {seed}")
    games = rounds = moves = 0
    seed = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(GAME_BATCH):
            result = play_game(agents, seed=seed)
            rounds += len(result.rounds)
            moves += sum(len(r.seats_history) - 1 for r in result.rounds)  # bets and checks
            games += 1
            seed += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    cpu = time.process_time() - cpu_start
    return {
        "games": games,
        "seconds": now - start,
        "core_share": cpu / (now - start),
        "games_per_s": games / cpu,
        "rounds_per_game": rounds / games,
        "moves_per_game": moves / games,
        "moves_per_s": moves / cpu,
    }


def check_table() -> list[tuple[int, int]]:
    """Varied (action, mask) pairs: pools of 2..24 random cards, bets across the table."""
    rng = random.Random(2024)
    pairs = []
    for _ in range(CHECK_TABLE):
        cards = rng.sample(range(24), rng.randint(2, 24))
        pairs.append((rng.randrange(88), sum(1 << card for card in cards)))
    return pairs


def bench_checks(seconds: float) -> dict[str, float]:
    pairs = check_table()
    check = exists
    found = sum(check(action, mask) for action, mask in pairs)  # warm-up, and a sanity figure
    calls = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while True:
        for action, mask in pairs:
            check(action, mask)
        calls += len(pairs)
        now = time.perf_counter()
        if now >= deadline:
            break
    cpu = time.process_time() - cpu_start
    return {
        "calls": calls,
        "seconds": now - start,
        "core_share": cpu / (now - start),
        "checks_per_s": calls / cpu,
        "share_existing": found / len(pairs),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="time spent on each figure (default 3)"
    )
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}, one core")
    print(f"{args.seconds:g} s per figure")
    figures: dict[str, int] = {}
    for n in (2, 4, 8):
        r = bench_games(n, args.seconds)
        figures[f"games_per_s_{n}p"] = round(r["games_per_s"])
        print(
            f"{n} players: {r['games_per_s']:>9,.0f} games/s "
            f"({r['games']:,} games in {r['seconds']:.2f} s at {r['core_share']:.0%} of a core; "
            f"{r['rounds_per_game']:.1f} rounds and {r['moves_per_game']:.1f} moves a game, "
            f"{r['moves_per_s']:,.0f} moves/s)"
        )
    c = bench_checks(args.seconds)
    figures["checks_per_s"] = round(c["checks_per_s"])
    print(
        f"checks:    {c['checks_per_s']:>9,.0f} exists(action_id, mask) calls/s "
        f"({c['calls']:,} calls in {c['seconds']:.2f} s at {c['core_share']:.0%} of a core; "
        f"{c['share_existing']:.0%} of the table's sets exist)"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
