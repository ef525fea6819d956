"""Many accounts joining and leaving the queue at once, in threads, while matchers run: no
one is seated twice or at two tables, no one who left is seated, every table is full-size
for its pool, and when it is over nobody waits who could be seated."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from app.config.settings import Settings
from app.ladder.errors import AlreadyAtTable
from app.ladder.pools import BY_NAME
from app.ladder.service import Ladder, pick_table
from app.ladder.sqlite import LadderSqlite
from app.ladder.store import LadderStore
from app.service import GameService
from tests.support.ladder_memory import LadderMemory
from tests.support.memory_store import MemoryStore


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
@pytest.mark.parametrize("seed", [1, 2])
def test_concurrent_joins_leaves_and_matchers_never_seat_anyone_twice_or_after_leaving(
    kind: str, seed: int, tmp_path: Path
) -> None:
    games = GameService(MemoryStore(), Settings(run_clock=False))
    store: LadderStore = LadderSqlite(tmp_path / "l.db") if kind == "sqlite" else LadderMemory()
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
        state = games.state(table.game_uuid).body
        assert sorted(p["nickname"] for p in state["players"]) == sorted(
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
    store.close()
