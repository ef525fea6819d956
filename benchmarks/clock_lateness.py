"""How late the game clock makes AI moves and timeouts, against their due time, with many
games at once.

    .venv/bin/python benchmarks/clock_lateness.py [--games 200] [--seconds 20] [--think 1.0]
        [--limit 2] [--only local|aws]

Every game is alice (who never moves, with a move time limit of ``--limit`` seconds: every
turn of hers is a timeout) and two ``random`` AI players (who move ``--think`` seconds after
their turn begins). All games are created and started at once, then the clock plays them for
``--seconds``: AI moves and timeouts only, no request from a player in between. For every
change the clock saves, its lateness is the time of the save (``last_modified``) minus the
time the version before was due (``due_at``); the script prints the p50, p99 and maximum, in
milliseconds and as a ratio to the think time, by kind (AI move, timeout), with the
conditions (games, machine, load average before and after).

Two clocks, one after the other:

- ``local``: app/clock/local.py as ``blef serve`` runs it: its thread, the service on SQLite
  (a file in a temporary folder), real time.
- ``aws``: app/clock/aws.py on moto (DynamoDB and SQS in process, real time): every saved
  change that leaves something due goes, as its stream record, to a "stream" thread that
  hands batches (up to 100) to ``Scheduler.schedule``; the delayed SQS messages are
  long-polled, 10 at a time, by a "mapping" thread that gives them to ``Firer.fire`` and
  deletes them, as the event source mapping does; a sweeper thread runs ``service.sweep``
  every 60 s. DynamoDB Streams' own latency (typically well under a second on AWS) and
  Lambda's cold starts are not in this figure; SQS's whole-second delays are.

The AWS part also counts the queue's work: batches fired, messages, and messages that came
before their game was due and were sent again (``resent_early``; each costs at least a
second, SQS delays being whole seconds).

Prints readable lines, then one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_DIR))

from conditions import conditions  # noqa: E402 (benchmarks/, the script's own folder)

from app.config.settings import Settings  # noqa: E402
from app.service import GameService  # noqa: E402
from app.service.writes import Change  # noqa: E402
from engine.facts import Status  # noqa: E402
from tests.support.dynamo import serialised_moto_dynamodb  # noqa: E402

REGION = "eu-west-1"


@dataclass
class Lateness:
    """The lateness of every change the clock saved, by kind."""

    seconds: dict[str, list[float]] = field(default_factory=lambda: {"ai_move": [], "timeout": []})
    lock: threading.Lock = field(default_factory=threading.Lock)

    def listener(self, change: Change) -> None:
        previous = change.previous
        if previous is None or previous.due_at is None:
            return
        before = previous.facts
        if before.status is not Status.RUNNING or before.current is None:
            return
        if change.doc.last_modified < previous.due_at:
            return  # a player's request (none here), never the clock's
        kind = "ai_move" if before.ai_agents[before.current] else "timeout"
        with self.lock:
            self.seconds[kind].append(change.doc.last_modified - previous.due_at)

    def summary(self, think: float, seconds: float) -> dict[str, Any]:
        out: dict[str, Any] = {}
        with self.lock:
            kinds = {**self.seconds, "all": [s for v in self.seconds.values() for s in v]}
        for kind, values in kinds.items():
            if not values:
                out[kind] = {"n": 0}
                continue
            ordered = sorted(values)
            p50 = statistics.median(ordered)
            p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
            worst = ordered[-1]
            out[kind] = {
                "n": len(ordered),
                "per_s": round(len(ordered) / seconds, 1),
                "p50_ms": round(p50 * 1000, 1),
                "p99_ms": round(p99 * 1000, 1),
                "max_ms": round(worst * 1000, 1),
                "p50_per_think": round(p50 / think, 3),
                "p99_per_think": round(p99 / think, 3),
            }
        return out


def start_games(service: GameService, games: int, limit: int) -> None:
    for _ in range(games):
        game = service.create_game()["game_uuid"]
        alice = service.join(game, "alice")["player_uuid"]
        service.invite_ai(game, alice, "random")
        service.invite_ai(game, alice, "random")
        service.set_time_limit(game, alice, limit)
        service.start(game, alice)


def settings(think: float, **overrides: Any) -> Settings:
    return Settings(ai_think_seconds=think, run_clock=False, log_level="ERROR", **overrides)


# ---------------------------------------------------------------------- local


def run_local(games: int, seconds: float, think: float, limit: int) -> dict[str, Any]:
    from app.clock.local import LocalClock
    from app.store.factory import build_store

    with tempfile.TemporaryDirectory() as folder:
        config = settings(think, store="sqlite", db_path=Path(folder) / "blef.db")
        service = GameService(build_store(config), config)
        lateness = Lateness()
        service.subscribe(lateness.listener)
        clock = LocalClock(service, purge_interval=3600)
        clock.start()
        try:
            start_games(service, games, limit)
            time.sleep(seconds)
        finally:
            clock.stop()
            service.store.close()
    return lateness.summary(think, seconds)


# ---------------------------------------------------------------------- AWS on moto


class Serialised:
    """A boto3 client whose calls take one lock (moto's SQS in process, called from several
    threads; DynamoDB is serialised by ``serialised_moto_dynamodb``, as in the tests)."""

    def __init__(self, client: Any, lock: threading.RLock) -> None:
        self._client = client
        self._lock = lock

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._client, name)
        if not callable(method):
            return method

        def call(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                return method(*args, **kwargs)

        return call


@contextmanager
def moto_aws() -> Iterator[None]:
    from moto import mock_aws

    fake = {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": REGION,
    }
    saved = {name: os.environ.get(name) for name in (*fake, "AWS_PROFILE")}
    os.environ.update(fake)
    os.environ.pop("AWS_PROFILE", None)
    try:
        with mock_aws():
            yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def stream_record(change: Change, sequence: int) -> dict[str, Any] | None:
    """The stream record (as the scheduler reads it) of a saved change with something due."""
    doc = change.doc
    if doc.due_at is None:
        return None
    return {
        "eventName": "MODIFY",
        "dynamodb": {
            "SequenceNumber": str(sequence).zfill(21),
            "NewImage": {
                "sk": {"S": "STATE"},
                "game_uuid": {"S": doc.game_uuid},
                "version": {"N": str(doc.version)},
                "due_at": {"N": repr(doc.due_at)},
            },
        },
    }


def _thread(target: Callable[[], None], name: str) -> threading.Thread:
    thread = threading.Thread(target=target, name=name, daemon=True)
    thread.start()
    return thread


def run_aws(games: int, seconds: float, think: float, limit: int) -> dict[str, Any]:
    import boto3

    from app.clock.aws import Firer, Scheduler
    from app.store.dynamo.store import DynamoStore

    lock = threading.RLock()
    with moto_aws(), serialised_moto_dynamodb():
        session = boto3.session.Session()
        sqs = Serialised(session.client("sqs", region_name=REGION), lock)
        queue_url = sqs.create_queue(QueueName="blef-clock")["QueueUrl"]
        config = settings(think, store="dynamodb", table_name="blef-lateness", aws_region=REGION)
        store = DynamoStore(config.table_name, region_name=REGION)
        store.create_table()
        service = GameService(store, config)
        lateness = Lateness()
        service.subscribe(lateness.listener)
        records: queue.Queue[dict[str, Any]] = queue.Queue()
        sequence = iter(range(1, 10**9))

        def to_stream(change: Change) -> None:
            record = stream_record(change, next(sequence))
            if record is not None:
                records.put(record)

        service.subscribe(to_stream)
        scheduler = Scheduler(sqs, queue_url, lambda: service.now)
        firer = Firer(service, sqs, queue_url, lambda: service.now)
        stop = threading.Event()
        counters = {"batches": 0, "fired_messages": 0, "resent_early": 0}

        def stream() -> None:
            while not stop.is_set():
                try:
                    batch = [records.get(timeout=0.1)]
                except queue.Empty:
                    continue
                while len(batch) < 100:
                    try:
                        batch.append(records.get_nowait())
                    except queue.Empty:
                        break
                scheduler.schedule({"Records": batch})

        def mapping() -> None:
            while not stop.is_set():
                # Short polls with the lock released in between (moto would hold it while
                # it long-polls); the real mapping long-polls, with several pollers.
                got = sqs.receive_message(
                    QueueUrl=queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=0
                ).get("Messages", [])
                if not got:
                    time.sleep(0.02)
                    continue
                event = {"Records": [{"messageId": m["MessageId"], "body": m["Body"]} for m in got]}
                fired = firer.fire(event)
                counters["fired_messages"] += len(got)
                counters["resent_early"] += fired.resent
                counters["batches"] += 1
                failed = set(fired.failures)
                for m in got:
                    if m["MessageId"] not in failed:
                        sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=m["ReceiptHandle"])

        def sweeper() -> None:
            while not stop.wait(60):
                service.sweep()

        threads = [_thread(stream, "stream"), _thread(mapping, "mapping")]
        threads.append(_thread(sweeper, "sweeper"))
        try:
            start_games(service, games, limit)
            time.sleep(seconds)
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=70)
    return {**lateness.summary(think, seconds), "queue": counters}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="How late the game clock fires.")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--limit", type=int, default=2)
    parser.add_argument("--only", choices=("local", "aws"))
    args = parser.parse_args(argv)

    load_before = os.getloadavg()
    results: dict[str, Any] = {}
    runs = {"local": run_local, "aws": run_aws}
    for name, run in runs.items():
        if args.only and name != args.only:
            continue
        results[name] = run(args.games, args.seconds, args.think, args.limit)
        for kind, figures in results[name].items():  # by kind, then the queue's counts
            print(name, kind, figures)
    print(
        json.dumps(
            {
                "benchmark": "clock_lateness",
                "games": args.games,
                "seconds": args.seconds,
                "think_seconds": args.think,
                "time_limit_seconds": args.limit,
                "lateness": results,
                **conditions(load_before),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
