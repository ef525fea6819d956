"""CPU per request of each Lambda handler, as a ratio to a floor handler.

    .venv/bin/python benchmarks/lambda_cpu.py [--games 20] [--seed 1] [--out FILE]
    .venv/bin/python benchmarks/lambda_cpu.py --against OTHER_CHECKOUT --pairs 5 --games 8

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

``--against TREE`` measures this checkout and another (``git worktree add /tmp/base REV``)
in turn, ``--pairs`` times, each run a fresh interpreter driving its own tree's ``app``
with this script and harness (the same games, fake and floor code), in a shuffled order per
pair. It reports, per request, each tree's ratio to its own floor (the median over its runs,
with their spread) and this tree's CPU over the other's (the median of the pairs' ratios of
their medians, which needs no floor).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import lambda_harness as harness
from conditions import conditions

TABLES = {
    "2p": (2, 0),
    "2p_ai": (1, 1),
    "6p": (6, 0),
    "6p_ai": (1, 5),
}
"""Table kind: (human players, AI players)."""


class Recorder:
    """Times each request (the handler's invocation only: the event is built before it and
    the reply decoded after), and after it the floor's, on the same machine."""

    def __init__(self, fake: harness.FakeAws, floor: Callable[..., Any], floor_game: str) -> None:
        self.fake = fake
        self.floor = floor
        self.floor_game = floor_game
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
        event = harness.http_event("GET", f"/floor/{self.floor_game}")
        started = time.process_time()
        harness.invoke(self.floor, event)
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
        event = harness.http_event(method, path, query or None)
        status, body = harness.parse(rec.timed(table, action, lambda: harness.invoke(h, event)))
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
            message = harness.sqs_event([body])
            fired = rec.timed(table, "clock", lambda m=message: clock.fire(m))
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
    parser.add_argument("--against", help="another checkout to measure in turn with this one")
    parser.add_argument("--pairs", type=int, default=5, help="runs of each tree for --against")
    args = parser.parse_args(argv)
    if args.against:
        result = against(Path(args.against), args.pairs, args.games, args.seed)
    else:
        result = measure(args.games, args.seed)
    line = json.dumps(result)
    print(line)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(line + "\n")
    return 0


def measure(games: int, seed: int) -> dict[str, Any]:
    """Whole games of every table kind through this process's app (see the module doc).
    What the functions print (their JSON log lines and EMF metrics, as on Lambda) goes to
    the null device, written as to any stream."""
    with open(os.devnull, "w") as null, contextlib.redirect_stdout(null):
        return _measure(games, seed)


def _measure(games: int, seed: int) -> dict[str, Any]:
    harness.set_lambda_environment()
    fake = harness.FakeAws()
    harness.install(fake)
    floor = harness.floor_handler(fake)
    rng = random.Random(seed)
    from app.cloud import clients as aws  # noqa: F401 (installed above)
    from app.entrypoints import http

    # warm up: build every runtime once (the cold part is benchmarks/cold_start.py's)
    status, body = harness.call(http.handler, "GET", "/games/create")
    assert status == 200, body
    floor_game = body["game_uuid"]  # the floor reads and writes this game's item
    for _ in range(3):
        harness.call(floor, "GET", f"/floor/{floor_game}")
    play("2p_ai", Recorder(fake, floor, floor_game), random.Random(0), lambda: None)
    rec = Recorder(fake, floor, floor_game)

    load_before = os.getloadavg()
    started = time.perf_counter()
    for _ in range(games):  # the kinds interleaved
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
        table: {action: round(count / games, 1) for action, count in sorted(c.items())}
        for table, c in rec.counts.items()
    }
    return {
        "benchmark": "lambda_cpu",
        "app": str(Path(http.__file__).resolve().parent.parent),
        "games_per_table": games,
        "seed": seed,
        "floor_cpu_ms_median": round(floor_ms, 3),
        "floor_requests": len(rec.cpu_ms["floor"]),
        "actions": actions,
        "requests_per_game": per_game,
        "max_item_bytes": max(harness.item_size(i) for i in fake.items.values()),
        "wall_s": round(wall_s, 1),
        **conditions(load_before),
    }


def _run_tree(tree: Path, games: int, seed: int) -> dict[str, Any]:
    """One run of this script in a fresh interpreter, driving ``tree``'s app."""
    env = {**os.environ, "BLEF_BENCH_TREE": str(tree), "PYTHONPATH": str(tree)}
    command = [sys.executable, __file__, "--games", str(games), "--seed", str(seed)]
    done = subprocess.run(command, check=False, env=env, cwd=tree, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the run in {tree} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(result["app"]) != tree / "app":  # never compare a tree with itself
        raise SystemExit(f"the run for {tree} measured the app in {result['app']}")
    return result


def against(other: Path, pairs: int, games: int, seed: int) -> dict[str, Any]:
    """This tree and ``other`` in turn (see the module docstring)."""
    trees = {"this": harness.REPO_DIR.resolve(), "other": other.resolve()}
    order_rng = random.Random(0)
    load_before = os.getloadavg()
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for _ in range(pairs):
        order = list(trees)
        order_rng.shuffle(order)
        for name in order:
            runs[name].append(_run_tree(trees[name], games, seed))
    actions = sorted(set(runs["this"][0]["actions"]) & set(runs["other"][0]["actions"]))
    table: dict[str, Any] = {}
    for action in actions:
        row: dict[str, Any] = {}
        for name in trees:
            ratios = [run["actions"][action]["cpu_ratio_median"] for run in runs[name]]
            row[f"{name}_ratio_to_floor"] = statistics.median(ratios)
            row[f"{name}_ratio_to_floor_min_max"] = [min(ratios), max(ratios)]
        cpu = [
            mine["actions"][action]["cpu_ms_median"] / theirs["actions"][action]["cpu_ms_median"]
            for mine, theirs in zip(runs["this"], runs["other"], strict=True)
        ]
        row["this_cpu_over_other"] = round(statistics.median(cpu), 3)
        row["this_cpu_over_other_min_max"] = [round(min(cpu), 3), round(max(cpu), 3)]
        table[action] = row
    floors = {name: [run["floor_cpu_ms_median"] for run in runs[name]] for name in trees}
    return {
        "benchmark": "lambda_cpu_against",
        "other_tree": str(trees["other"]),
        "pairs": pairs,
        "games_per_table": games,
        "actions": table,
        "floor_cpu_ms_median": {k: statistics.median(v) for k, v in floors.items()},
        **conditions(load_before),
    }


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


if __name__ == "__main__":
    sys.exit(main())
