"""Figgie's market online: orders per second, latency, and whether every trade is right.

Bots trade at full speed through the HTTP routes every game shares (api_docs/tables.md):
each seat of each table is a thread with its own kept-alive connection, sending random
orders (bids and asks at random prices, lifts, hits, cancels) with no pause, each one
waiting for its answer. Two set-ups:

- ``sqlite``: ``blef serve``'s app (uvicorn, SQLite) on 127.0.0.1, ``--tables`` tables at
  once, four seats each;
- ``moto``: the Lambda handler (Mangum) on moto's in-process DynamoDB, one table, the seats
  taking turns in one thread (moto in-process is not a server: this measures the handler's
  path per order, not concurrency).

After the run every table is read back and judged: each accepted lift or hit is exactly one
trade on the tape (0 lost, 0 doubled), no quote stands after a trade (the book the answer to
a trade shows is empty), and the chips and the pot add up to what the seats brought (chips
conserved). Prints readable lines, then one JSON line with every figure and the conditions.

    .venv/bin/python benchmarks/figgie_market.py [--seconds 5] [--tables 1] [--store both]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from conditions import conditions  # noqa: E402 (benchmarks/, the script's own folder)

SUITS = ("spades", "clubs", "hearts", "diamonds")
NAMES = ("ann", "ben", "cat", "dan")
RULES = {"trading_seconds": 86_400}  # the deadline never comes during the run

Call = Callable[[str, str, str | None, Any], tuple[int, dict[str, Any]]]
"""(method, path, secret, body) -> (status, answer)."""


def random_order(rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(("bid", "ask", "bid", "ask", "lift", "hit", "cancel_bid", "cancel_ask"))
    order: dict[str, Any] = {"type": kind, "suit": rng.choice(SUITS)}
    if kind in ("bid", "ask"):
        order["price"] = rng.randint(1, 15) if kind == "bid" else rng.randint(5, 20)
    return order


def open_table(call: Call) -> tuple[str, list[str]]:
    """A started Figgie table of four seats: its UUID and the seats' secrets."""
    status, created = call("POST", "/figgie/games", None, {"rules": RULES})
    assert status == 201, created
    game = created["game_uuid"]
    secrets = []
    for name in NAMES:
        status, joined = call("POST", f"/figgie/games/{game}/join", None, {"nickname": name})
        assert status == 200, joined
        secrets.append(joined["player_uuid"])
    status, started = call("POST", f"/figgie/games/{game}/start", secrets[0], {})
    assert status == 200, started
    return game, secrets


class Tally:
    """What one seat sent and was answered."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.statuses: dict[int, int] = {}
        self.trades_accepted = 0
        self.quotes_left_after_trade = 0


def trade_orders(call: Call, game: str, secret: str, seed: int, until: float, tally: Tally) -> None:
    rng = random.Random(seed)
    path = f"/figgie/games/{game}/move"
    while time.perf_counter() < until:
        order = random_order(rng)
        began = time.perf_counter()
        status, answer = call("POST", path, secret, order)
        tally.latencies.append(time.perf_counter() - began)
        tally.statuses[status] = tally.statuses.get(status, 0) + 1
        if status == 200 and order["type"] in ("lift", "hit"):
            tally.trades_accepted += 1
            book = answer["view"]["book"]
            # The answer is the table as this trade left it: no quote may stand. (Others may
            # have quoted since only if their order came later, and the answer is this one's.)
            tally.quotes_left_after_trade += sum(
                len(book[s]["bids"]) + len(book[s]["asks"]) for s in SUITS
            )


def judge(call: Call, game: str, tallies: list[Tally]) -> dict[str, Any]:
    status, table = call("GET", f"/figgie/games/{game}", None, None)
    assert status == 200, table
    view = table["view"]
    tape = view["tape"]
    accepted = sum(t.trades_accepted for t in tallies)
    brought = 4 * 350  # the default starting chips of each seat
    return {
        "trades_on_tape": len(tape),
        "trades_accepted": accepted,
        "lost_or_doubled": abs(len(tape) - accepted),
        "quotes_left_after_a_trade": sum(t.quotes_left_after_trade for t in tallies),
        "chips_conserved": sum(view["chips"]) + view["pot"] == brought,
    }


def summary(tallies: list[Tally], elapsed: float, tables: int) -> dict[str, Any]:
    latencies = sorted(x for t in tallies for x in t.latencies)
    statuses: dict[str, int] = {}
    for t in tallies:
        for code, n in t.statuses.items():
            statuses[str(code)] = statuses.get(str(code), 0) + n
    return {
        "orders": len(latencies),
        "orders_per_s": round(len(latencies) / elapsed, 1),
        "orders_per_s_per_table": round(len(latencies) / elapsed / tables, 1),
        "p50_ms": round(statistics.median(latencies) * 1000, 2),
        "p99_ms": round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000, 2),
        "statuses": statuses,
    }


def bench_sqlite(seconds: float, tables: int) -> dict[str, Any]:
    import httpx

    from app.api.main import create_app
    from app.config.settings import Settings
    from app.service import GameService
    from app.store.sqlite import SqliteStore
    from tests.support.served import served

    folder = tempfile.mkdtemp(prefix="figgie-market-")
    settings = Settings(
        db_path=Path(folder) / "market.db",
        rate_limit_burst=0,
        max_in_flight_per_address=0,
        order_burst=0,  # bots at full speed: no per-seat order limit
        log_level="WARNING",  # no access line per order on the terminal
    )
    store = SqliteStore(settings.db_path)
    service = GameService(store, settings)
    with served(create_app(settings, service)) as address:
        base = f"http://{address}"

        def caller() -> Call:
            client = httpx.Client(base_url=base, timeout=30)

            def call(method: str, path: str, secret: str | None, body: Any) -> Any:
                headers = {"Authorization": f"Bearer {secret}"} if secret else {}
                answer = client.request(method, path, json=body, headers=headers)
                return answer.status_code, answer.json()

            return call

        setup = caller()
        games = [open_table(setup) for _ in range(tables)]
        tallies: dict[str, list[Tally]] = {game: [] for game, _ in games}
        threads = []
        until = time.perf_counter() + seconds
        began = time.perf_counter()
        for n, (game, secrets) in enumerate(games):
            for seat, secret in enumerate(secrets):
                tally = Tally()
                tallies[game].append(tally)
                thread = threading.Thread(
                    target=trade_orders,
                    args=(caller(), game, secret, 1000 * n + seat, until, tally),
                )
                threads.append(thread)
                thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - began
        checks = [judge(setup, game, tallies[game]) for game, _ in games]
    store.close()
    out = summary([t for ts in tallies.values() for t in ts], elapsed, tables)
    out["tables"] = tables
    out["checks"] = checks
    return out


def bench_moto(seconds: float) -> dict[str, Any]:
    from moto import mock_aws

    from tests.support.apigw import invoke

    os.environ.update(
        {
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_DEFAULT_REGION": "eu-west-1",
            "BLEF_STORE": "dynamodb",
            "BLEF_TABLE_NAME": "figgie-market-bench",
            "BLEF_RATE_LIMIT_BURST": "0",
            "BLEF_ORDER_BURST": "0",
            "BLEF_LOG_LEVEL": "WARNING",
        }
    )
    with mock_aws():
        from app.config.settings import get_settings
        from app.entrypoints import http as lambda_handler

        get_settings.cache_clear()
        handler = lambda_handler.handler
        invoke(handler, "GET", "/health")
        store = lambda_handler.adapter().app.state.services.get().store  # type: ignore[attr-defined]
        store.create_table()

        def call(method: str, path: str, secret: str | None, body: Any) -> Any:
            headers = {"Authorization": f"Bearer {secret}"} if secret else {}
            return invoke(handler, method, path, body=body, headers=headers)

        game, secrets = open_table(call)
        tallies = [Tally() for _ in secrets]
        rngs = [random.Random(seat) for seat in range(len(secrets))]
        path = f"/figgie/games/{game}/move"
        began = time.perf_counter()
        until = began + seconds
        seat = 0
        while time.perf_counter() < until:
            order = random_order(rngs[seat])
            t0 = time.perf_counter()
            status, answer = call("POST", path, secrets[seat], order)
            tally = tallies[seat]
            tally.latencies.append(time.perf_counter() - t0)
            tally.statuses[status] = tally.statuses.get(status, 0) + 1
            if status == 200 and order["type"] in ("lift", "hit"):
                tally.trades_accepted += 1
                book = answer["view"]["book"]
                tally.quotes_left_after_trade += sum(
                    len(book[s]["bids"]) + len(book[s]["asks"]) for s in SUITS
                )
            seat = (seat + 1) % len(secrets)
        elapsed = time.perf_counter() - began
        out = summary(tallies, elapsed, 1)
        out["checks"] = [judge(call, game, tallies)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--tables", type=int, default=1)
    parser.add_argument("--store", choices=("sqlite", "moto", "both"), default="both")
    args = parser.parse_args()
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")  # no metric line per order
    load = os.getloadavg()
    figures: dict[str, Any] = {}
    if args.store in ("sqlite", "both"):
        figures["sqlite"] = bench_sqlite(args.seconds, args.tables)
        print("sqlite:", json.dumps(figures["sqlite"]))
    if args.store in ("moto", "both"):
        figures["moto"] = bench_moto(args.seconds)
        print("moto:", json.dumps(figures["moto"]))
    figures["conditions"] = conditions(load)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
