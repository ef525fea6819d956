"""Many accounts joining and leaving the queue at once, in threads, while matchers run: no
one is seated twice or at two tables, no one who left is seated, every table is full-size
for its pool, and when it is over nobody waits who could be seated.

On DynamoDB the race runs on in-process moto, with its requests made one at a time
(tests/support/dynamo.py ``serialised_moto_dynamodb``): that is DynamoDB's own guarantee
(each request, a transaction included, is atomic), and the threads interleave between
requests, where the store's read-then-conditional-write races are. What moto does not give
is DynamoDB's ``TransactionConflict`` (two transactions on one item at the same instant);
tests/ladder/test_dynamo_store.py drives that path with a scripted client."""

from __future__ import annotations

import random
import threading
from contextlib import ExitStack
from pathlib import Path

import pytest

from app.config.settings import Settings
from app.ladder.errors import AlreadyAtTable
from app.ladder.pools import BY_NAME
from app.ladder.service import Ladder, pick_table
from app.ladder.sqlite.store import LadderSqlite
from app.ladder.store import QUEUED, LadderStore
from app.service import GameService
from tests.support.ladder_dynamo import moto_ladder
from tests.support.ladder_memory import LadderMemory
from tests.support.memory_store import MemoryStore


@pytest.mark.parametrize("kind", ["sqlite", "dynamo", "memory"])
@pytest.mark.parametrize("seed", [1, 2])
def test_concurrent_joins_leaves_and_matchers_never_seat_anyone_twice_or_after_leaving(
    kind: str, seed: int, tmp_path: Path
) -> None:
    with ExitStack() as stack:
        store: LadderStore = (
            LadderSqlite(tmp_path / "l.db")
            if kind == "sqlite"
            else stack.enter_context(moto_ladder())
            if kind == "dynamo"
            else LadderMemory()
        )
        race(store, seed)


def race(store: LadderStore, seed: int) -> None:
    games = GameService(MemoryStore(), Settings(run_clock=False))
    ladder = Ladder(store, games)
    secrets = [ladder.create_account(f"racer{i}")["secret"] for i in range(24)]
    left: dict[str, bool] = {}
    stop = threading.Event()
    errors: list[BaseException] = []

    def player(i: int) -> None:
        rng = random.Random(seed * 100 + i)
        secret = secrets[i]
        try:
            for _ in range(6):
                try:
                    ladder.join_queue(secret, rng.choice(list(BY_NAME)))
                except AlreadyAtTable:  # a matcher seated it meanwhile: the right refusal
                    assert ladder.queue_status(secret)["state"] in ("seated", "forming")
                    return
                if rng.random() < 0.5:
                    after = ladder.leave_queue(secret)
                    left[secret] = after["state"] == "idle"
                    if after["state"] == "idle":
                        assert ladder.queue_status(secret)["state"] == "idle"
                        continue
                status = ladder.queue_status(secret)
                if status["state"] == "seated":
                    return  # stays at its table
        except Exception as error:
            errors.append(error)

    def matcher() -> None:
        while not stop.is_set():
            try:
                ladder.match()
            except Exception as error:
                errors.append(error)

    matchers = [threading.Thread(target=matcher) for _ in range(2)]
    players = [threading.Thread(target=player, args=(i,)) for i in range(len(secrets))]
    for thread in [*matchers, *players]:
        thread.start()
    for thread in players:
        thread.join()
    stop.set()
    for thread in matchers:
        thread.join()
    ladder.match()
    assert errors == [], errors

    tables = store.open_tables()
    seats = [s.account_id for t in tables for s in t.seats]
    assert len(seats) == len(set(seats)), "someone is at two tables"
    for table in tables:
        pool = BY_NAME[table.pool]
        assert table.state == "playing"
        assert pool.min_players <= len(table.seats) <= pool.max_players
        state = games.table(pool.kind, table.game_uuid, None)  # any game's table, as seen
        assert sorted(p["nickname"] for p in state["seats"]) == sorted(
            s.handle for s in table.seats
        )
        assert state["status"] == "Running"
    for secret in secrets:
        status = ladder.queue_status(secret)
        if status["state"] == "idle":
            account = ladder.authenticate(secret)
            assert account.account_id not in seats
    for name, pool in BY_NAME.items():
        assert pick_table(store.waiting(name), pool, ladder.now) is None  # nobody waits in vain
        for waiting in store.waiting(name):  # the queue and the accounts agree
            queued = store.account(waiting.account_id)
            assert queued is not None
            assert (queued.state, queued.pool, queued.ticket) == (QUEUED, name, waiting.ticket)
    listed = {w.account_id for name in BY_NAME for w in store.waiting(name)}
    for secret in secrets:
        account = ladder.authenticate(secret)
        assert (account.state == QUEUED) == (account.account_id in listed)
    store.close()
