"""CPU per request of each Lambda handler, as a ratio to a floor handler.

    .venv/bin/python benchmarks/lambda_cpu.py [--games 20] [--seed 1] [--out FILE]

Plays whole games through the real handlers with API Gateway HTTP API (v2) events: the HTTP
function (``app.entrypoints.http.handler``: create, join, invite an AI, start, bet, check,
state), the clock (``app.entrypoints.clock.fire`` for every AI move, ``schedule`` for every
stream record) and the pusher (``app.entrypoints.websocket.push`` for every stream record,
with no watcher connected). Every AWS call is answered in memory at the client
(benchmarks/lambda_harness.py), so what is measured is this process's own CPU
(``time.process_time``): Mangum, FastAPI, the service, the engine, and botocore building
and serialising each request. After every measured request the floor handler (one
consistent GetItem and one PutItem of a game item through Mangum and a bare FastAPI app) is
timed too, interleaved, so that both see the same machine.

Tables: 2 and 6 players, all human or one human and the rest AI players (``random``).
Besides the ratios it prints what the cost model (benchmarks/cost_per_game.py) needs:
requests per game of each kind, and per request the DynamoDB calls, read and write units
(from the real item sizes), SQS messages. Prints one JSON line (and writes it to ``--out``).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import lambda_harness as harness

TABLES = {
    "2p": (2, 0),
    "2p_ai": (1, 1),
    "6p": (6, 0),
    "6p_ai": (1, 5),
}
"""Table kind: (human players, AI players)."""


class Recorder:
    def __init__(self, fake: harness.FakeAws, floor: Callable[[], None]) -> None:
        self.fake = fake
        self.floor = floor
        self.cpu_ms: dict[str, list[float]] = defaultdict(list)
        self.usage: dict[str, harness.Usage] = defaultdict(harness.Usage)
        self.counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))

    def timed(self, table: str, action: str, run: Callable[[], Any]) -> Any:
        self.fake.take_usage()
        started = time.process_time()
        result = run()
        self.cpu_ms[action].append((time.process_time() - started) * 1000)
        self.usage[action].add(self.fake.take_usage())
        self.counts[table][action] += 1
        hook, self.fake.on_state_write = self.fake.on_state_write, None  # not a game's change
        started = time.process_time()
        self.floor()
        self.cpu_ms["floor"].append((time.process_time() - started) * 1000)
        self.fake.on_state_write = hook
        self.fake.take_usage()
        return result


def _next_action(state: dict[str, Any], rng: random.Random) -> int:
    history = state["history"]
    if not history:
        return rng.randrange(0, 6)
    last = history[-1]["action_id"]
    if last >= 87 or rng.random() < 0.45:
        return 88
    return last + 1 + rng.randrange(0, 3) if last + 3 < 88 else 88


def play(table: str, rec: Recorder, rng: random.Random, ai_think: Callable[[], None]) -> None:
    from app.entrypoints import clock, http, websocket

    humans, ais = TABLES[table]
    h = http.handler
    fake = rec.fake
    stream: list[dict[str, Any]] = []
    fake.on_state_write = lambda old, new: stream.append(  # type: ignore[attr-defined]
        {
            "eventName": "MODIFY" if old else "INSERT",
            "eventSource": "aws:dynamodb",
            "dynamodb": {
                "Keys": {"pk": new["pk"], "sk": new["sk"]},
                "NewImage": new,
                "SequenceNumber": str(len(stream) + 1),
            }
            | ({"OldImage": old} if old else {}),
        }
    )

    def call(action: str, method: str, path: str, **query: Any) -> Any:
        status, body = rec.timed(table, action, lambda: harness.call(h, method, path, **query))
        if status >= 300:
            raise SystemExit(f"{action} answered {status}: {body}")
        return body

    game = call("create", "GET", "/games/create")["game_uuid"]
    seats = {}
    for i in range(humans):
        name = f"p{i}"
        seats[name] = call("join", "GET", f"/games/{game}/join", nickname=name)["player_uuid"]
    admin = seats["p0"]
    for _ in range(ais):
        call(
            "invite", "GET", f"/games/{game}/invite-aiagent", admin_uuid=admin, agent_name="random"
        )
    call("start", "GET", f"/games/{game}/start", admin_uuid=admin)
    while True:
        # every human reads each new version once (the clients poll; see the module doc)
        states = [
            call("state", "GET", f"/games/{game}", player_uuid=uuid) for uuid in seats.values()
        ]
        state = states[0]
        if state["status"] != "Running":
            break
        mover = state["cp_nickname"]
        if mover in seats:
            action = _next_action(state, rng)
            kind = "check" if action == 88 else "bet"
            call(kind, "GET", f"/games/{game}/play", player_uuid=seats[mover], action_id=action)
        else:  # an AI player's move, made by the clock function when its message arrives
            body = json.dumps({"game_uuid": game, "version": state["version"], "due_at": 0})
            fired = rec.timed(table, "clock", lambda b=body: clock.fire(harness.sqs_event([b])))
            if fired["batchItemFailures"]:
                raise SystemExit(f"the clock failed: {fired}")
        for record in stream:
            rec.timed(table, "schedule", lambda r=record: clock.schedule({"Records": [r]}))
            rec.timed(table, "push", lambda r=record: websocket.push({"Records": [r]}))
        stream.clear()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per table kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)

    harness.set_lambda_environment()
    fake = harness.FakeAws()
    harness.install(fake)
    floor_handler = harness.floor_handler(fake)
    floor_game: list[str] = []

    def floor() -> None:
        if floor_game:
            harness.call(floor_handler, "GET", f"/floor/{floor_game[0]}")

    rec = Recorder(fake, floor)
    rng = random.Random(args.seed)
    from app.config import aws  # noqa: F401 (installed above)
    from app.entrypoints import http

    # warm up: build every runtime once (the cold part is benchmarks/cold_start.py's)
    status, body = harness.call(http.handler, "GET", "/games/create")
    assert status == 200, body
    floor_game.append(body["game_uuid"])
    for _ in range(3):
        floor()
    play("2p_ai", Recorder(fake, floor), random.Random(0), lambda: None)
    rec.cpu_ms.clear()

    load_before = _loadavg()
    started = time.perf_counter()
    for _ in range(args.games):  # the kinds interleaved
        for table in TABLES:
            play(table, rec, rng, lambda: None)
    wall_s = time.perf_counter() - started

    floor_ms = statistics.median(rec.cpu_ms["floor"])
    actions = {}
    for action, values in sorted(rec.cpu_ms.items()):
        if action == "floor":
            continue
        n = len(values)
        usage = rec.usage[action]
        actions[action] = {
            "requests": n,
            "cpu_ratio_median": round(statistics.median(values) / floor_ms, 2),
            "cpu_ratio_p90": round(_quantile(values, 0.9) / floor_ms, 2),
            "cpu_ms_median": round(statistics.median(values), 3),
            "aws_calls": {k: round(v / n, 2) for k, v in sorted(usage.calls.items())},
            "write_units": round(usage.write_units / n, 2),
            "read_units": round(usage.read_units / n, 2),
            "sqs_messages": round(usage.sqs_messages / n, 2),
        }
    per_game = {
        table: {action: round(count / args.games, 1) for action, count in sorted(c.items())}
        for table, c in rec.counts.items()
    }
    result = {
        "benchmark": "lambda_cpu",
        "games_per_table": args.games,
        "seed": args.seed,
        "floor_cpu_ms_median": round(floor_ms, 3),
        "floor_requests": len(rec.cpu_ms["floor"]),
        "actions": actions,
        "requests_per_game": per_game,
        "max_item_bytes": max(harness.item_size(i) for i in fake.items.values()),
        "wall_s": round(wall_s, 1),
        "load_average_before": load_before,
        "load_average_after": _loadavg(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "date": time.strftime("%Y-%m-%d"),
    }
    line = json.dumps(result)
    print(line)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(line + "\n")
    return 0


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _loadavg() -> list[float]:
    try:
        return [round(x, 2) for x in __import__("os").getloadavg()]
    except OSError:
        return []


if __name__ == "__main__":
    sys.exit(main())
