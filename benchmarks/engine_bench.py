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
    .venv/bin/python benchmarks/engine_bench.py --interleaved 9 [--seconds 1]

``--interleaved N`` measures the engine as a ratio instead: N rounds, each running, in a
shuffled order, 4-player games through the engine and through :func:`lean_game`, the
classic lean loop (the same rules and the same random policy on bare lists and one bit
mask: no validation, no records, no seed commitments, no observations), for ``--seconds``
each; it prints the median of each side's moves per CPU second and their ratio, so that
both sides see the same machine load.

    .venv/bin/python benchmarks/engine_bench.py --against /tmp/oldmain --pairs 7 [--seconds 2]

``--against TREE`` compares this checkout's engine with the engine of another checkout
(e.g. ``git worktree add /tmp/oldmain f767776``) on whole games of ``--players`` (4 by
default): ``--pairs`` pairs, each running :func:`bench_games` once per tree, in a shuffled
order, each in a fresh interpreter that imports ``engine`` from its tree (``--tree``); the
agents, seeds and timing loop are this script's for both. It prints each pair's ratio of
games per CPU second (this tree / the other), their median and spread, and the load before
and after.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# ``--tree PATH`` (used by ``--against``) imports the engine from another checkout.
_TREE = sys.argv[sys.argv.index("--tree") + 1] if "--tree" in sys.argv[:-1] else str(ROOT)
sys.path.insert(0, _TREE)

from conditions import conditions  # noqa: E402 (benchmarks/, the script's own folder)

from engine.agents import RandomAgent  # noqa: E402
from engine.facts import max_cards  # noqa: E402
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


def lean_game(n_players: int, rnd: random.Random) -> int:
    """One game of Blef in the classic lean loop; returns its moves (bets and checks).

    The rules of engine.game on bare lists: everyone starts with one card, a lost round
    adds one, past the maximum a player is out; the loser begins the next round (the next
    player if they are out). The policy is RandomAgent's: uniform over the legal actions."""
    r = rnd.random
    cards = [1] * n_players
    limit = max_cards(n_players)
    active = n_players
    first = 0
    moves = 0
    deck = list(range(24))
    while active > 1:
        rnd.shuffle(deck)
        mask = 0
        dealt = 0
        for count in cards:
            for card in deck[dealt : dealt + count]:
                mask |= 1 << card
            dealt += count
        seat, low, last_bet, last_seat = first, 0, 0, first
        while True:
            action = low + int(r() * (89 - low)) if low else int(r() * 88)
            moves += 1
            if action == 88:
                loser = seat if exists(last_bet, mask) else last_seat
                break
            last_bet, last_seat, low = action, seat, action + 1
            seat = (seat + 1) % n_players
            while not cards[seat]:
                seat = (seat + 1) % n_players
        cards[loser] += 1
        first = loser
        if cards[loser] > limit:
            cards[loser] = 0
            active -= 1
            while not cards[first]:
                first = (first + 1) % n_players
    return moves


def bench_lean(n_players: int, seconds: float) -> dict[str, float]:
    """The lean loop's games for about ``seconds``, as :func:`bench_games` measures."""
    rnd = random.Random(7)
    for _ in range(20):
        lean_game(n_players, rnd)
    games = moves = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(GAME_BATCH):
            moves += lean_game(n_players, rnd)
            games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    cpu = time.process_time() - cpu_start
    return {"games": games, "moves_per_s": moves / cpu, "core_share": cpu / (now - start)}


def interleaved(rounds: int, seconds: float, n_players: int = 4) -> dict[str, Any]:
    """The engine's moves per CPU second as a ratio to the lean loop's, interleaved."""
    parts = {
        "engine": lambda: bench_games(n_players, seconds),
        "lean_loop": lambda: bench_lean(n_players, seconds),
    }
    rates: dict[str, list[float]] = {name: [] for name in parts}
    shares: list[float] = []
    order_rng = random.Random(0)
    load_before = os.getloadavg()
    for _ in range(rounds):
        order = list(parts)
        order_rng.shuffle(order)
        for name in order:
            result = parts[name]()
            rates[name].append(result["moves_per_s"])
            shares.append(result["core_share"])
    median = {name: statistics.median(values) for name, values in rates.items()}
    return {
        "benchmark": "engine_interleaved",
        "players": n_players,
        "rounds": rounds,
        "seconds_per_part": seconds,
        "engine_per_lean_loop": round(median["engine"] / median["lean_loop"], 3),
        "median_moves_per_cpu_s": {name: round(value) for name, value in median.items()},
        "core_share_min_max": [round(min(shares), 2), round(max(shares), 2)],
        **conditions(load_before),
    }


def _games_in_tree(tree: str, n_players: int, seconds: float) -> dict[str, Any]:
    """:func:`bench_games` in a fresh interpreter whose ``engine`` is ``tree``'s."""
    command = [sys.executable, __file__, "--tree", tree, "--games-of", str(n_players)]
    command += ["--seconds", str(seconds)]
    env = {**os.environ, "PYTHONPATH": tree}
    output = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(output.stdout.splitlines()[-1])
    if result.pop("engine") != str(Path(tree, "engine")):  # never compare a tree with itself
        raise RuntimeError(f"the engine measured for {tree} was not {tree}'s")
    return result


def against(other: str, pairs: int, seconds: float, n_players: int = 4) -> dict[str, Any]:
    """This tree's whole-game rate as a ratio to ``other``'s, over interleaved pairs."""
    trees = {"this": str(ROOT), "other": str(Path(other).resolve())}
    order_rng = random.Random(0)
    load_before = os.getloadavg()
    ratios: list[float] = []
    rates: dict[str, list[float]] = {name: [] for name in trees}
    shares: list[float] = []
    for _ in range(pairs):
        order = list(trees)
        order_rng.shuffle(order)
        pair: dict[str, float] = {}
        for name in order:
            result = _games_in_tree(trees[name], n_players, seconds)
            pair[name] = result["games_per_s"]
            rates[name].append(result["games_per_s"])
            shares.append(result["core_share"])
        ratios.append(pair["this"] / pair["other"])
    return {
        "benchmark": "engine_against",
        "other_tree": trees["other"],
        "players": n_players,
        "pairs": pairs,
        "seconds_per_run": seconds,
        "ratio_median": round(statistics.median(ratios), 3),
        "ratio_min_max": [round(min(ratios), 3), round(max(ratios), 3)],
        "ratios": [round(r, 3) for r in ratios],
        "median_games_per_cpu_s": {k: round(statistics.median(v)) for k, v in rates.items()},
        "core_share_min_max": [round(min(shares), 2), round(max(shares), 2)],
        **conditions(load_before),
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
    parser.add_argument(
        "--interleaved",
        type=int,
        metavar="ROUNDS",
        help="measure the engine as a ratio to the lean loop, over ROUNDS interleaved rounds",
    )
    parser.add_argument(
        "--against",
        metavar="TREE",
        help="compare whole 4-player games with the engine of another checkout, in pairs",
    )
    parser.add_argument(
        "--pairs", type=int, default=7, help="interleaved pairs for --against (default 7)"
    )
    parser.add_argument(
        "--players", type=int, default=4, help="table size for --against (default 4)"
    )
    parser.add_argument("--tree", help="import the engine from this checkout (see --against)")
    parser.add_argument("--games-of", type=int, metavar="PLAYERS", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.games_of:
        engine_dir = str(Path(play_game.__code__.co_filename).resolve().parent)
        print(json.dumps({**bench_games(args.games_of, args.seconds), "engine": engine_dir}))
        return
    if args.against:
        print(json.dumps(against(args.against, args.pairs, args.seconds, args.players)))
        return
    if args.interleaved:
        print(json.dumps(interleaved(args.interleaved, args.seconds)))
        return
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
