"""Where a table's move spends its CPU: cProfile of Economancy moves or Figgie orders through
the Lambda HTTP handler, every AWS call answered in memory (benchmarks/lambda_harness.py),
and how many routes FastAPI tries to match a Blef read and a table's read.

    .venv/bin/python benchmarks/tables_profile.py --game figgie [--tables 6] [--rounds 60]

Plays ``--tables`` tables of four seats through HTTP (the first only to warm up), each seat
in turn reading the table and then moving (Figgie: a bot's order as in
benchmarks/lambda_cpu.py; Economancy: ``random``'s choice, when asked); only the moves are
profiled. Prints the profile's top functions by own time, then the route matching counts.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import os
import pstats
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import lambda_cpu
import lambda_harness as harness


def _call(
    method: str, path: str, secret: str | None = None, body: Any = None, prof: Any = None
) -> tuple[int, Any]:
    from app.entrypoints import http

    headers = {"x-forwarded-for": "203.0.113.7"}
    if secret:
        headers["authorization"] = f"Bearer {secret}"
    event = harness.http_api_event(method, path, None, body=body, headers=headers)
    if prof is not None:
        prof.enable()
    reply = harness.invoke(http.handler, event)
    if prof is not None:
        prof.disable()
    return harness.parse(reply)


def profile_moves(game: str, tables: int, rounds: int) -> pstats.Stats:
    from engine.economancy.agents import make_agent
    from engine.economancy.rules import EconomancyRules

    rng = random.Random(1)
    prof = cProfile.Profile()
    for table in range(tables):
        rules = {"trading_seconds": 3600} if game == "figgie" else {}
        uuid = _call("POST", f"/{game}/games", body={"rules": rules})[1]["game_uuid"]
        base = f"/{game}/games/{uuid}"
        seats = [
            _call("POST", f"{base}/join", body={"nickname": f"p{i}"})[1]["player_uuid"]
            for i in range(4)
        ]
        _call("POST", f"{base}/start", seats[0])
        for _ in range(rounds):
            for secret in seats:
                table_view = _call("GET", base, secret)[1]
                if game == "figgie":
                    move: Any = lambda_cpu._figgie_order(rng, table_view["view"]["hand"])
                elif table_view["your_turn"]:
                    agent = make_agent("random", rng.randrange(1 << 30), EconomancyRules())
                    chosen = agent.choose(table_view["view"])
                    move = list(chosen) if isinstance(chosen, (list, tuple)) else [chosen]
                else:
                    continue
                _call("POST", f"{base}/move", secret, move, prof if table else None)
    return pstats.Stats(prof)


def route_matching(reads: int = 100) -> dict[str, dict[str, int]]:
    """Per read of a Blef game and of a Figgie table: FastAPI's route checks and matches."""
    game = harness.call(_handler(), "GET", "/games/create")[1]["game_uuid"]
    table = _call("POST", "/figgie/games", body={})[1]["game_uuid"]
    result = {}
    for name, path in (("blef", f"/games/{game}"), ("figgie", f"/figgie/games/{table}")):
        harness.call(_handler(), "GET", path)
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(reads):
            harness.call(_handler(), "GET", path)
        prof.disable()
        stats: Any = pstats.Stats(prof).stats
        counts = {"route_checks": 0, "match_calls": 0}
        for (file, _line, function), figures in stats.items():
            if file.endswith("fastapi/routing.py"):
                if function == "matches":
                    counts["route_checks"] = max(counts["route_checks"], figures[0] // reads)
                if function == "_match":
                    counts["match_calls"] = figures[0] // reads
        result[name] = counts
    return result


def _handler() -> Any:
    from app.entrypoints import http

    return http.handler


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=("figgie", "economancy"), default="figgie")
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)
    harness.set_lambda_environment()
    os.environ["BLEF_ORDER_BURST"] = "0"
    harness.install(harness.FakeAws())
    with open(os.devnull, "w") as null, contextlib.redirect_stdout(null):
        stats = profile_moves(args.game, args.tables, args.rounds)
        routes = route_matching()
    out = io.StringIO()
    stats.stream = out  # type: ignore[attr-defined]
    stats.sort_stats("tottime").print_stats(args.top)
    print(out.getvalue())
    print("route matching per read:", routes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
