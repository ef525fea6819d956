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

``--games-of all`` adds, interleaved with Blef's, tables of the other games through the routes
every game shares (api_docs/tables.md), against the same floor:

- **Economancy**, 2 and 4 players: one human seat (moves ``random``'s choice from its view,
  reads the table after every change) and 1 or 3 built-in agents (``greedy_points``) moved
  by the clock; whole games.
- **Figgie**, 4 and 5 bots: ``--figgie-orders`` orders a table (bids, asks, now and then a
  lift, hit or cancel; each after the sending seat's read), then the deadline: every clock
  message the versions scheduled is fired as sent (the last ends trading and settles; any
  others find the game moved on: ``clock_stale``). A refused order is ``order_refused``. The
  service's clock is moved past the deadline for those fires only. Also the built-in agents'
  orders per game on the research simulator (``figgie_sim_per_game``), which
  benchmarks/cost_per_game.py scales a game to.

The per-seat order limit is off for these tables (moves come faster than anyone's).
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

    def timed(
        self,
        table: str,
        action: str,
        run: Callable[[], Any],
        name_of: Callable[[Any], str] | None = None,
    ) -> Any:
        """``name_of`` names the action from its result (a refused order apart)."""
        self.fake.take_usage()
        started = time.process_time()
        result = run()
        spent = (time.process_time() - started) * 1000
        if name_of is not None:
            action = name_of(result)
        self.cpu_ms[action].append(spent)
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


# ---------------------------------------------------------------------- tables of other games

TABLE_GAMES = {
    "economancy_2p_ai": ("economancy", 1, 1),
    "economancy_4p_ai": ("economancy", 1, 3),
    "figgie_4p": ("figgie", 4, 0),
    "figgie_5p": ("figgie", 5, 0),
}
"""Table kind: (game, seats played through HTTP, computer players moved by the clock)."""
ECONOMANCY_AGENT = "greedy_points"
"""The computer players of the Economancy tables (the human seat plays ``random``'s moves,
chosen here from its view, as a bot would)."""
FIGGIE_LINEUP = ("fairvalue", "conservative", "marketmaker", "bayesian", "fairvalue")
"""The built-in Figgie agents whose orders per game (on the simulator) the cost model uses."""


class _Counting:
    """A simulator agent, counting the orders it sends."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.orders = 0

    def reset(self, *args: Any) -> None:
        self.agent.reset(*args)

    def act(self, observation: Any) -> int:
        from engine.figgie.sim import NO_OP

        action: int = self.agent.act(observation)
        self.orders += action != NO_OP
        return action


def figgie_orders_per_game(seats: int, games: int, seed: int = 0) -> dict[str, Any]:
    """Orders per game the built-in agents send (every action but "do nothing") on the
    research simulator (engine/figgie/sim.py, 240 ticks of one second), and its trades."""
    from engine.figgie import sim
    from engine.figgie.agents import make_agent

    orders = trades = 0
    for game in range(games):
        agents = [_Counting(make_agent(name)) for name in FIGGIE_LINEUP[:seats]]
        record = sim.play(agents, (seed + game).to_bytes(8, "big"))
        orders += sum(agent.orders for agent in agents)
        trades += record.trades
    return {
        "lineup": list(FIGGIE_LINEUP[:seats]),
        "games": games,
        "orders": round(orders / games, 1),
        "trades": round(trades / games, 1),
    }


def _figgie_order(rng: random.Random, hand: dict[str, int]) -> dict[str, Any]:
    """A quote a trading bot sends (bids and asks; a lift or hit now and then, which trades
    and clears the book; a cancel). Asks only in suits the seat holds."""
    held = [suit for suit, n in hand.items() if n > 0] or list(hand)
    kind = rng.choices(("bid", "ask", "lift", "hit", "cancel_bid"), (4, 4, 1, 1, 1))[0]
    suit = rng.choice(held if kind in ("ask", "hit") else list(hand))
    order: dict[str, Any] = {"type": kind, "suit": suit}
    if kind == "bid":
        order["price"] = rng.randint(1, 12)
    elif kind == "ask":
        order["price"] = rng.randint(8, 25)
    return order


def play_table(table: str, rec: Recorder, rng: random.Random, figgie_orders: int) -> None:
    """One table of another game, through the same functions as Blef's (see the module
    doc). Economancy: whole games, the human seat reading the table after every change and
    moving when asked, the computer players moved by the clock. Figgie: ``figgie_orders``
    orders a table from its seats in turn, each followed by one seat's read; then the clock
    ends trading (the service's clock moved past the deadline) and settles."""
    from app.entrypoints import clock, http, websocket

    game, humans, ais = TABLE_GAMES[table]
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

    def call(
        action: str,
        method: str,
        path: str,
        secret: str | None = None,
        body: Any = None,
        ok: bool = True,
    ) -> tuple[int, Any]:
        headers = {"x-forwarded-for": "203.0.113.7"}
        if secret:
            headers["authorization"] = f"Bearer {secret}"
        event = harness.http_api_event(method, path, None, body=body, headers=headers)
        run = lambda: harness.invoke(http.handler, event)  # noqa: E731
        name_of = (
            (lambda r: f"{game}:{action}" if r["statusCode"] < 300 else f"{game}:{action}_refused")
            if not ok
            else None
        )
        reply = harness.parse(rec.timed(table, f"{game}:{action}", run, name_of))
        if ok and reply[0] >= 300:
            raise SystemExit(f"{game} {action} answered {reply[0]}: {reply[1]}")
        return reply

    def stream_functions() -> None:
        for record in stream:
            rec.timed(table, f"{game}:schedule", lambda r=record: clock.schedule({"Records": [r]}))
            rec.timed(table, f"{game}:push", lambda r=record: websocket.push({"Records": [r]}))
        stream.clear()

    def fire(version: int, action: str = "clock", due_at: float = 0) -> None:
        body = json.dumps({"game_uuid": uuid, "version": version, "due_at": due_at})
        message = harness.sqs_event([body])
        fired = rec.timed(table, f"{game}:{action}", lambda: clock.fire(message))
        if fired["batchItemFailures"]:
            raise SystemExit(f"the clock failed: {fired}")

    first_message = len(fake.sent)
    rules = {"trading_seconds": 3600} if game == "figgie" else {}
    uuid = call("create", "POST", f"/{game}/games", body={"rules": rules})[1]["game_uuid"]
    seats = [
        call("join", "POST", f"/{game}/games/{uuid}/join", body={"nickname": f"p{i}"})[1][
            "player_uuid"
        ]
        for i in range(humans)
    ]
    agent = ECONOMANCY_AGENT if game == "economancy" else "fairvalue"
    for _ in range(ais):
        call("ai", "POST", f"/{game}/games/{uuid}/ai", seats[0], {"agent": agent})
    call("start", "POST", f"/{game}/games/{uuid}/start", seats[0])
    stream_functions()
    base = f"/{game}/games/{uuid}"
    if game == "economancy":
        from engine.economancy.agents import make_agent
        from engine.economancy.rules import EconomancyRules

        me = make_agent("random", rng.randrange(1 << 30), EconomancyRules())
        idle = 0
        while True:
            state = call("state", "GET", base, seats[0])[1]
            if state["status"] != "Running":
                break
            if state["your_turn"]:
                move = me.choose(state["view"])
                body = list(move) if isinstance(move, (list, tuple)) else [move]
                call("move", "POST", f"{base}/move", seats[0], body)
            else:  # the computer players' choices, made by the clock when its message comes
                fire(state["version"])
                idle += 1
                if idle > 3:
                    raise SystemExit(f"the clock did not move {table}: {state['turn']}")
            if stream:
                idle = 0
            stream_functions()
        return
    sent = 0
    while sent < figgie_orders:
        for secret in seats:
            view = call("state", "GET", base, secret)[1]["view"]
            call(
                "order", "POST", f"{base}/move", secret, _figgie_order(rng, view["hand"]), ok=False
            )
            stream_functions()
            sent += 1
    # At the deadline SQS delivers every message the stream's versions scheduled, as sent:
    # one for the deadline (a version due when the one before it was sends none,
    # app/clock/aws.py), which ends trading and settles; a tree that sends one a version
    # sends more, and all but the last find the game moved on (``clock_stale``).
    due = [b for b in map(json.loads, fake.sent[first_message:]) if b.get("game_uuid") == uuid]
    runtime = clock.runtime()
    later = lambda: time.time() + 7200  # noqa: E731 (past the deadline of an hour)
    service = runtime.service
    moved = service._clock, service.writes.clock
    service._clock = service.writes.clock = later
    try:
        for n, body in enumerate(due, 1):
            fire(body["version"], "clock" if n == len(due) else "clock_stale", body["due_at"])
    finally:
        service._clock, service.writes.clock = moved
    stream_functions()
    if call("state", "GET", base, seats[0])[1]["status"] != "Finished":
        raise SystemExit(f"the clock did not end trading at {table}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per table kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument(
        "--games-of",
        choices=("blef", "all"),
        default="blef",
        help="all: Economancy and Figgie tables too, interleaved with Blef's",
    )
    parser.add_argument(
        "--figgie-orders", type=int, default=40, help="orders sent at each Figgie table"
    )
    parser.add_argument("--against", help="another checkout to measure in turn with this one")
    parser.add_argument("--pairs", type=int, default=5, help="runs of each tree for --against")
    args = parser.parse_args(argv)
    if args.against:
        result = against(Path(args.against), args.pairs, args.games, args.seed, args.games_of)
    else:
        result = measure(args.games, args.seed, args.games_of == "all", args.figgie_orders)
    line = json.dumps(result)
    print(line)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(line + "\n")
    return 0


def measure(
    games: int, seed: int, other_games: bool = False, figgie_orders: int = 40
) -> dict[str, Any]:
    """Whole games of every table kind through this process's app (see the module doc).
    What the functions print (their JSON log lines and EMF metrics, as on Lambda) goes to
    the null device, written as to any stream."""
    with open(os.devnull, "w") as null, contextlib.redirect_stdout(null):
        return _measure(games, seed, other_games, figgie_orders)


def _measure(games: int, seed: int, other_games: bool, figgie_orders: int) -> dict[str, Any]:
    harness.set_lambda_environment()
    if other_games:  # moves come faster here than a person's or a bot's: no order limit
        os.environ["BLEF_ORDER_BURST"] = "0"
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
    others = list(TABLE_GAMES) if other_games else []
    for table in others:
        play_table(table, Recorder(fake, floor, floor_game), random.Random(0), 8)
    rec = Recorder(fake, floor, floor_game)

    load_before = os.getloadavg()
    started = time.perf_counter()
    for _ in range(games):  # the kinds interleaved
        for table in TABLES:
            play(table, rec, rng, lambda: None)
        for table in others:
            play_table(table, rec, rng, figgie_orders)
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
    extra: dict[str, Any] = {}
    if other_games:
        extra["figgie_sim_per_game"] = {
            f"figgie_{n}p": figgie_orders_per_game(n, 40) for n in (4, 5)
        }
        extra["figgie_orders_per_table"] = figgie_orders
        extra["economancy_agent"] = ECONOMANCY_AGENT
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
        **extra,
        **conditions(load_before),
    }


def _run_tree(tree: Path, games: int, seed: int, games_of: str = "blef") -> dict[str, Any]:
    """One run of this script in a fresh interpreter, driving ``tree``'s app."""
    env = {**os.environ, "BLEF_BENCH_TREE": str(tree), "PYTHONPATH": str(tree)}
    command = [sys.executable, __file__, "--games", str(games), "--seed", str(seed)]
    command += ["--games-of", games_of]
    done = subprocess.run(command, check=False, env=env, cwd=tree, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the run in {tree} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(result["app"]) != tree / "app":  # never compare a tree with itself
        raise SystemExit(f"the run for {tree} measured the app in {result['app']}")
    return result


def against(
    other: Path, pairs: int, games: int, seed: int, games_of: str = "blef"
) -> dict[str, Any]:
    """This tree and ``other`` in turn (see the module docstring)."""
    trees = {"this": harness.REPO_DIR.resolve(), "other": other.resolve()}
    order_rng = random.Random(0)
    load_before = os.getloadavg()
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for _ in range(pairs):
        order = list(trees)
        order_rng.shuffle(order)
        for name in order:
            runs[name].append(_run_tree(trees[name], games, seed, games_of))
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
