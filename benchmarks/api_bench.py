"""API benchmark: moves per second and latency of bets and checks on three set-ups.

(a) the service layer on SQLite, (b) HTTP on 127.0.0.1 through `blef serve` (uvicorn, SQLite),
(c) the Lambda handler (Mangum) on moto's in-process DynamoDB, which also gives the number of
DynamoDB requests per bet and per check. Each part plays whole 4-player games for a bounded
time. Prints readable lines, then one JSON line with every figure.

    .venv/bin/python benchmarks/api_bench.py [--seconds 8]
    .venv/bin/python benchmarks/api_bench.py --interleaved 7 [--seconds 2]

``--interleaved N`` measures (a) and (b) as ratios to floors instead, in N rounds that each
run four parts in a shuffled order for ``--seconds`` of operation time each (so both sides of
a ratio see the same machine load):

- ``service_move``: a move through ``GameService.play`` on SQLite, as (a);
- ``store_floor``: what that write path cannot avoid: one ``SqliteStore.load`` and one
  conditional ``save`` of the same game, with no engine, no rules and no reply;
- ``http_move``: a move by ``POST /games/{game}/play`` on ``blef serve``, as (b);
- ``http_floor``: ``GET /health`` on the same server over the same kept-alive connection
  (uvicorn, FastAPI and the middleware, no store).

It prints each part's median p50 and p99 latency over the rounds, and the ratios
``service_move / store_floor`` and ``http_move / http_floor``. (c) has its own ratio to a
floor: benchmarks/lambda_cpu.py.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from conditions import conditions  # noqa: E402 (benchmarks/, the script's own folder)

from tests.support.api import next_action  # noqa: E402

NAMES = ("ann", "ben", "cat", "dan")


def summary(latencies: list[float], elapsed: float) -> dict[str, float]:
    ordered = sorted(latencies)
    return {
        "moves": len(ordered),
        "moves_per_s": round(len(ordered) / elapsed, 1),
        "p50_ms": round(statistics.median(ordered) * 1000, 3),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 3),
    }


def play_games(
    seconds: float,
    new_game: Callable[[], tuple[str, dict[str, str]]],
    state: Callable[[str], dict[str, Any]],
    move: Callable[[str, str, int], None],
) -> tuple[list[float], float]:
    """Plays games until ``seconds`` of move time are spent; returns move latencies."""
    rng = random.Random(1)
    latencies: list[float] = []
    spent = 0.0
    while spent < seconds:
        game, players = new_game()
        while True:
            current = state(game)
            if current["status"] == "Finished":
                break
            action = next_action(current, rng)
            started = time.perf_counter()
            move(game, players[current["cp_nickname"]], action)
            took = time.perf_counter() - started
            latencies.append(took)
            spent += took
    return latencies, spent


def bench_service(seconds: float) -> dict[str, float]:
    from app.config.settings import Settings
    from app.service import GameService
    from app.store.sqlite import SqliteStore

    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / "bench.db")
        service = GameService(store, Settings())

        def new_game() -> tuple[str, dict[str, str]]:
            game = service.create_game()["game_uuid"]
            players = {n: service.join(game, n)["player_uuid"] for n in NAMES}
            service.start(game, players[NAMES[0]])
            return game, players

        latencies, spent = play_games(
            seconds,
            new_game,
            lambda g: service.state(g).body,
            lambda g, p, a: service.play(g, p, a) and None,
        )
        store.close()
    return summary(latencies, spent)


def bench_http(seconds: float) -> dict[str, float]:
    import httpx

    from benchmarks.load import UNLIMITED, Server

    with (
        tempfile.TemporaryDirectory() as tmp,
        Server(Path(tmp) / "b.db", Path(tmp) / "serve.log", env=UNLIMITED) as server,
        httpx.Client(base_url=server.url, timeout=10) as http,
    ):

        def new_game() -> tuple[str, dict[str, str]]:
            game = http.post("/games/create").json()["game_uuid"]
            players = {
                n: http.post(f"/games/{game}/join", json={"nickname": n}).json()["player_uuid"]
                for n in NAMES
            }
            auth = {"Authorization": f"Bearer {players[NAMES[0]]}"}
            http.post(f"/games/{game}/start", headers=auth)
            return game, players

        def move(game: str, player: str, action: int) -> None:
            r = http.post(
                f"/games/{game}/play",
                json={"action_id": action},
                headers={"Authorization": f"Bearer {player}"},
            )
            assert r.status_code == 200, r.text

        latencies, spent = play_games(
            seconds, new_game, lambda g: http.get(f"/games/{g}").json(), move
        )
    return summary(latencies, spent)


def bench_lambda(seconds: float) -> dict[str, Any]:
    from moto import mock_aws

    from tests.support.apigw import invoke

    env = {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "eu-west-1",
        "BLEF_STORE": "dynamodb",
        "BLEF_TABLE_NAME": "blef-bench",
    }
    os.environ.update(env)
    with mock_aws():
        from app.config.settings import get_settings
        from app.entrypoints import http as lambda_handler
        from app.store.dynamo.store import DynamoStore

        get_settings.cache_clear()
        handler = lambda_handler.handler
        invoke(handler, "GET", "/health")
        store = lambda_handler.adapter().app.state.services.get().store  # type: ignore[attr-defined]
        assert isinstance(store, DynamoStore)
        store.create_table()
        counts: dict[str, list[dict[str, int]]] = {"bet": [], "check": []}

        def new_game() -> tuple[str, dict[str, str]]:
            _, body = invoke(handler, "POST", "/games/create")
            game = body["game_uuid"]
            players = {
                n: invoke(handler, "POST", f"/games/{game}/join", body={"nickname": n})[1][
                    "player_uuid"
                ]
                for n in NAMES
            }
            auth = {"Authorization": f"Bearer {players[NAMES[0]]}"}
            invoke(handler, "POST", f"/games/{game}/start", headers=auth)
            return game, players

        sizes: dict[str, list[int]] = {"bet": [], "check": [], "snapshot": []}
        games_played: list[str] = []

        def item_bytes(key: dict[str, Any]) -> int:
            """DynamoDB's size of an item: attribute names plus values (strings, numbers)."""
            item = store.client.get_item(TableName=store.table_name, Key=key)["Item"]
            total = 0
            for name, value in item.items():
                (kind, raw), *_ = value.items()
                text = json.dumps(raw) if kind in ("L", "M") else str(raw)
                total += len(name.encode()) + len(text.encode())
            return total

        def move(game: str, player: str, action: int) -> None:
            store.reset_request_count()
            status, body = invoke(
                handler,
                "POST",
                f"/games/{game}/play",
                body={"action_id": action},
                headers={"Authorization": f"Bearer {player}"},
            )
            assert status == 200, body
            kind = "check" if action == 88 else "bet"
            counts[kind].append(dict(store.requests))
            pk = {"S": f"GAME#{game}"}
            sizes[kind].append(item_bytes({"pk": pk, "sk": {"S": "STATE"}}))
            if kind == "check":
                key = {"pk": pk, "sk": {"S": f"ROUND#{body['round_number']:04d}"}}
                sizes["snapshot"].append(item_bytes(key))
            if not games_played or games_played[-1] != game:
                games_played.append(game)

        latencies, spent = play_games(
            seconds, new_game, lambda g: invoke(handler, "GET", f"/games/{g}")[1], move
        )
    result: dict[str, Any] = summary(latencies, spent)
    finished = max(1, len(games_played) - 1)  # the last game may have been cut short
    result["bets_per_game"] = round(len(counts["bet"]) / len(games_played), 1)
    result["checks_per_game"] = round(len(counts["check"]) / len(games_played), 1)
    result["games"] = finished
    for kind, values in sizes.items():
        result[f"mean_item_bytes_{kind}"] = round(statistics.mean(values)) if values else 0
        result[f"max_item_bytes_{kind}"] = max(values, default=0)
    for kind, per_move in counts.items():
        ops = sorted({op for c in per_move for op in c})
        result[f"dynamodb_requests_per_{kind}"] = round(
            sum(sum(c.values()) for c in per_move) / len(per_move), 3
        )
        result[f"dynamodb_ops_per_{kind}"] = {
            op: round(sum(c.get(op, 0) for c in per_move) / len(per_move), 3) for op in ops
        }
    return result


def timed(seconds: float, operation: Callable[[], None]) -> list[float]:
    """Latencies of ``operation`` repeated until ``seconds`` of it are spent."""
    latencies: list[float] = []
    spent = 0.0
    while spent < seconds:
        started = time.perf_counter()
        operation()
        took = time.perf_counter() - started
        latencies.append(took)
        spent += took
    return latencies


def interleaved(rounds: int, seconds: float) -> dict[str, Any]:
    import dataclasses

    import httpx

    from app.config.settings import Settings
    from app.service import GameService
    from app.store.sqlite import SqliteStore
    from benchmarks.load import UNLIMITED, Server

    with (
        tempfile.TemporaryDirectory() as tmp,
        Server(Path(tmp) / "b.db", Path(tmp) / "serve.log", env=UNLIMITED) as server,
        httpx.Client(base_url=server.url, timeout=10) as http,
    ):
        store = SqliteStore(Path(tmp) / "bench.db")
        service = GameService(store, Settings())

        def service_game() -> tuple[str, dict[str, str]]:
            game = service.create_game()["game_uuid"]
            players = {n: service.join(game, n)["player_uuid"] for n in NAMES}
            service.start(game, players[NAMES[0]])
            return game, players

        floor_game, _ = service_game()

        def store_floor() -> None:
            doc = store.load(floor_game)
            assert doc is not None
            store.save(dataclasses.replace(doc, version=doc.version + 1), doc.version)

        def http_game() -> tuple[str, dict[str, str]]:
            game = http.post("/games/create").json()["game_uuid"]
            players = {
                n: http.post(f"/games/{game}/join", json={"nickname": n}).json()["player_uuid"]
                for n in NAMES
            }
            http.post(
                f"/games/{game}/start", headers={"Authorization": f"Bearer {players[NAMES[0]]}"}
            )
            return game, players

        def http_move(game: str, player: str, action: int) -> None:
            r = http.post(
                f"/games/{game}/play",
                json={"action_id": action},
                headers={"Authorization": f"Bearer {player}"},
            )
            assert r.status_code == 200, r.text

        def http_floor() -> None:
            assert http.get("/health").status_code == 200

        parts: dict[str, Callable[[], list[float]]] = {
            "service_move": lambda: play_games(
                seconds,
                service_game,
                lambda g: service.state(g).body,
                lambda g, p, a: service.play(g, p, a) and None,
            )[0],
            "store_floor": lambda: timed(seconds, store_floor),
            "http_move": lambda: play_games(
                seconds, http_game, lambda g: http.get(f"/games/{g}").json(), http_move
            )[0],
            "http_floor": lambda: timed(seconds, http_floor),
        }
        for part in parts.values():  # warm-up
            part()
        p50: dict[str, list[float]] = {name: [] for name in parts}
        p99: dict[str, list[float]] = {name: [] for name in parts}
        order_rng = random.Random(0)
        load_before = os.getloadavg()
        for _ in range(rounds):
            order = list(parts)
            order_rng.shuffle(order)
            for name in order:
                figures = summary(parts[name](), seconds)
                p50[name].append(figures["p50_ms"])
                p99[name].append(figures["p99_ms"])
        store.close()
    med50 = {name: statistics.median(values) for name, values in p50.items()}
    med99 = {name: statistics.median(values) for name, values in p99.items()}
    return {
        "benchmark": "api_interleaved",
        "rounds": rounds,
        "seconds_per_part": seconds,
        "ratio_p50": {
            "service_move/store_floor": round(med50["service_move"] / med50["store_floor"], 2),
            "http_move/http_floor": round(med50["http_move"] / med50["http_floor"], 2),
        },
        "ratio_p99": {
            "service_move/store_floor": round(med99["service_move"] / med99["store_floor"], 2),
            "http_move/http_floor": round(med99["http_move"] / med99["http_floor"], 2),
        },
        "median_p50_ms": {name: round(v, 3) for name, v in med50.items()},
        "median_p99_ms": {name: round(v, 3) for name, v in med99.items()},
        **conditions(load_before),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="move time per part")
    parser.add_argument(
        "--interleaved", type=int, metavar="ROUNDS", help="ratios to floors, interleaved"
    )
    args = parser.parse_args()
    if args.interleaved:
        print(json.dumps(interleaved(args.interleaved, args.seconds)))
        return
    figures: dict[str, Any] = {}
    for name, part in (
        ("service_sqlite", bench_service),
        ("http_uvicorn_sqlite", bench_http),
        ("lambda_moto_dynamodb", bench_lambda),
    ):
        figures[name] = part(args.seconds)
        print(f"{name}: {json.dumps(figures[name])}", flush=True)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
