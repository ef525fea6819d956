"""What ratings the computer levels reach when they play each other on the ladder's terms.

    .venv/bin/python benchmarks/level_ratings.py --games 200 --seed 1

Each computer level (app/ladder/bots.py: beginner random, easy bold, medium probabilist,
hard bayesian) plays ``--games`` games in each pool against the other levels: in
``standard-2`` every pair in turn, in ``standard-3-8`` tables of three or four levels. Each
game is played by the engine (engine/play.py, classic rules, seeds from ``--seed``), placed
by the order its players went out, as a settlement places a rated game, and rated with the
ladder's own model (app/ladder/rating.py: OpenSkill Plackett-Luce, its defaults), one game
after another in the order played, as the ladder would. It prints each level's rating
(mu - 3 sigma), mu, sigma and games per pool.

What it is not: the levels' ratings on a running service, which come only from the rated
games they play there (against people who let them fill a table) and start unrated. This is
what those ratings would be among the levels alone, a yardstick for a person's rating.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parent.parent
if str(REPO_DIR) not in sys.path:
    sys.path.insert(0, str(REPO_DIR))

from app.ladder import rating as model  # noqa: E402
from app.ladder.bots import LEVELS  # noqa: E402
from app.ladder.store import Rating  # noqa: E402
from engine.agents import make_agent  # noqa: E402
from engine.play import GameResult, play_game  # noqa: E402


def places(result: GameResult) -> dict[str, int]:
    """Each player's place (1 the winner): the last to go out is second, and so on."""
    out: list[str] = []
    rounds = result.rounds
    for i, played in enumerate(rounds):
        loser = played.loser
        if played.ended_game:
            went_out = True
        else:
            following = rounds[i + 1]
            went_out = following.n_cards[following.nicknames.index(loser)] == 0
        if went_out and loser not in out:
            out.append(loser)
    everyone = result.seating
    placed = {name: len(everyone) - k for k, name in enumerate(out)}
    (left,) = [name for name in everyone if name not in placed]
    assert left == result.winner
    placed[left] = 1
    return placed


def tables(pool: str, games: int, rng: random.Random) -> list[list[str]]:
    names = [level.handle for level in LEVELS]
    if pool == "standard-2":
        pairs = [[a, b] for i, a in enumerate(names) for b in names[i + 1 :]]
        return [pairs[k % len(pairs)] for k in range(games)]
    return [rng.sample(names, rng.choice((3, 4))) for _ in range(games)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pool")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    agent_of = {level.handle: level.agent for level in LEVELS}
    figures: dict[str, dict[str, dict[str, float]]] = {}
    started = time.perf_counter()
    for pool in ("standard-2", "standard-3-8"):
        ratings = {name: model.initial(name, pool) for name in agent_of}
        for k, seated in enumerate(tables(pool, args.games, rng)):
            agents = {
                name: make_agent(agent_of[name], seed=rng.randrange(2**31)) for name in seated
            }
            result = play_game(agents, seed=f"levels/{args.seed}/{pool}/{k}")
            placed = places(result)
            before = [ratings[name] for name in seated]
            after = model.rate(before, [placed[name] for name in seated])
            ratings.update(dict(zip(seated, after, strict=True)))
        figures[pool] = {name: _figures(r) for name, r in ratings.items()}
    print(
        f"{args.games} games per pool, seed {args.seed}, "
        f"{time.strftime('%Y-%m-%d')}, {time.perf_counter() - started:.0f} s\n"
    )
    print("| level | agent | pool | rating (mu - 3 sigma) | mu | sigma | games |")
    print("|---|---|---|---:|---:|---:|---:|")
    for pool, by_level in figures.items():
        for level in LEVELS:
            f = by_level[level.handle]
            print(
                f"| {level.title} | {level.agent} | {pool} | {f['rating']:.1f} | "
                f"{f['mu']:.1f} | {f['sigma']:.2f} | {f['games']:.0f} |"
            )
    if args.json:
        print(json.dumps(figures))
    return 0


def _figures(rating: Rating) -> dict[str, float]:
    return {
        "rating": rating.mu - 3 * rating.sigma,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "games": rating.games,
    }


if __name__ == "__main__":
    sys.exit(main())
