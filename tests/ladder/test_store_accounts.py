"""The ladder store's contract, accounts and keys: an account found by its secrets, its handle
(and its look) and its id; secrets per device; deletion; the allowances shared by every
process (app/ladder/store.py ``AccountStore``): held by every store, SQLite on a file,
DynamoDB on in-process moto (through a client that refuses Scan) and the in-memory fake."""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from app.ladder.sqlite.store import LadderSqlite
from app.ladder.store import (
    DELETED_HANDLE,
    IDLE,
    Challenge,
    LadderConflict,
    LadderStore,
    Passkey,
    Seat,
    Table,
)
from tests.ladder.contract import (
    POOL,
    T0,
    account,
    make,
    named,
    shared_game,
)


def test_an_account_is_found_by_its_secret_its_handle_and_its_id(store: LadderStore) -> None:
    (made,) = make(store, 1)

    assert store.account_by_secret("sha256:secret1") == made
    assert store.account_by_handle("player1") == made
    assert store.account("acct001") == made
    assert made.state == IDLE
    assert store.account_by_secret("sha256:nothing") is None
    assert store.account_by_handle("nobody") is None
    assert store.account("acct999") is None


def test_a_taken_handle_key_refuses_the_whole_account(store: LadderStore) -> None:
    make(store, 1)
    twin = replace(account(2), handle="PLAYER1", handle_key="player1")

    with pytest.raises(LadderConflict):
        store.create_account(twin)

    assert store.account("acct002") is None
    assert store.account_by_secret(twin.secret_hash) is None  # its secret was not kept
    assert store.account_by_handle("player1") == account(1)


def test_a_taken_look_key_refuses_the_whole_account_until_its_owner_is_deleted(
    store: LadderStore,
) -> None:
    first = replace(account(1, "Kasia"), look_key="kasia")
    store.create_account(first)
    twin = replace(account(2, "Kasla"), look_key="kasia")

    with pytest.raises(LadderConflict):
        store.create_account(twin)
    assert store.account("acct002") is None
    assert store.account_by_handle("kasla") is None
    assert store.account("acct001") == first

    store.delete_account("acct001")
    store.create_account(twin)
    assert store.account("acct002") == twin


def test_accounts_without_a_look_key_never_collide_by_it(store: LadderStore) -> None:
    make(store, 1, 2)
    assert store.account("acct001") is not None and store.account("acct002") is not None


def test_an_account_is_found_by_any_of_its_secrets_until_each_is_forgotten(
    ladder_store: LadderStore,
) -> None:
    ania = named(ladder_store, "Ania")
    ladder_store.add_secret(ania.account_id, "sha256:phone", 2.0)
    assert ladder_store.secret_count(ania.account_id) == 2
    for hashed in (ania.secret_hash, "sha256:phone"):
        found = ladder_store.account_by_secret(hashed)
        assert found is not None and found.account_id == ania.account_id
    assert ladder_store.forget_secret(ania.secret_hash)
    assert ladder_store.account_by_secret(ania.secret_hash) is None
    assert not ladder_store.forget_secret(ania.secret_hash), "a second forget finds nothing"
    assert ladder_store.account_by_secret("sha256:phone") is not None
    assert ladder_store.secret_count(ania.account_id) == 1


def test_a_secret_is_not_added_to_a_missing_account_nor_twice(ladder_store: LadderStore) -> None:
    ania = named(ladder_store, "Ania")
    with pytest.raises(LadderConflict):
        ladder_store.add_secret("nobody", "sha256:x", 2.0)
    with pytest.raises(LadderConflict):
        ladder_store.add_secret(ania.account_id, ania.secret_hash, 2.0)
    assert ladder_store.account_by_secret("sha256:x") is None


def test_deleting_an_account_takes_away_every_way_in_its_ratings_and_its_handle(
    ladder_store: LadderStore,
) -> None:
    ania, bolek = named(ladder_store, "Ania"), named(ladder_store, "Bolek")
    ladder_store.add_secret(ania.account_id, "sha256:phone", 2.0)
    ladder_store.add_passkey(Passkey("cred-a", ania.account_id, b"k", 0, 5.0))
    ladder_store.put_challenge(Challenge("reg-a", "register", ania.account_id, 100.0))
    shared_game(ladder_store, ania, bolek)

    ladder_store.delete_account(ania.account_id)

    assert ladder_store.account(ania.account_id) is None
    assert ladder_store.account_by_handle("ania") is None
    for hashed in (ania.secret_hash, "sha256:phone"):
        assert ladder_store.account_by_secret(hashed) is None
    assert ladder_store.passkey("cred-a") is None
    assert ladder_store.take_challenge("reg-a") is None
    assert ladder_store.ratings(ania.account_id) == []
    assert [a.handle for a, _ in ladder_store.leaderboard_page(POOL, 0, 10)] == ["Bolek"]
    assert ladder_store.rank(bolek.account_id, POOL) == 1
    assert ladder_store.history(ania.account_id, 10) == []
    # Bolek's game stays, its places and numbers as they were, Ania's handle gone from it.
    (kept,) = ladder_store.history(bolek.account_id, 10)
    assert [(c.handle, c.place) for c in kept.changes] == [(DELETED_HANDLE, 1), ("Bolek", 2)]
    assert ladder_store.result("shared") == kept
    table = ladder_store.table("shared")
    assert table is not None and [s.handle for s in table.seats] == [DELETED_HANDLE, "Bolek"]
    # The handle is free again, for anyone.
    named(ladder_store, "ANIA")


def test_a_queued_or_seated_account_is_not_deleted_and_nothing_changes(
    ladder_store: LadderStore,
) -> None:
    ania = named(ladder_store, "Ania")
    ladder_store.add_passkey(Passkey("cred-a", ania.account_id, b"k", 0, 5.0))
    ladder_store.enqueue(ania.account_id, POOL, "t1", 1.0, 25.0)
    with pytest.raises(LadderConflict):
        ladder_store.delete_account(ania.account_id)
    table = Table("tb", POOL, (Seat(ania.account_id, "Ania"),), 1.0)
    ladder_store.claim(table, {ania.account_id: "t1"})
    with pytest.raises(LadderConflict):
        ladder_store.delete_account(ania.account_id)
    assert ladder_store.account_by_secret(ania.secret_hash) is not None
    assert ladder_store.passkey("cred-a") is not None
    with pytest.raises(LadderConflict):
        ladder_store.delete_account("nobody")


def test_a_file_from_before_several_secrets_keeps_each_accounts_secret_once(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ladder.db"
    older = sqlite3.connect(path)
    older.executescript(
        """CREATE TABLE ladder_accounts (
            account_id TEXT PRIMARY KEY, handle TEXT NOT NULL, handle_key TEXT NOT NULL UNIQUE,
            secret_hash TEXT NOT NULL UNIQUE, created_at REAL NOT NULL, state TEXT NOT NULL,
            pool TEXT, ticket TEXT, queued_at REAL, mu REAL, table_id TEXT);
        INSERT INTO ladder_accounts (account_id, handle, handle_key, secret_hash, created_at,
            state) VALUES ('id-ania', 'Ania', 'ania', 'sha256:old', 1.0, 'idle');"""
    )
    older.close()
    store = LadderSqlite(path)
    found = store.account_by_secret("sha256:old")
    assert found is not None and found.handle == "Ania"
    assert store.forget_secret("sha256:old")
    store.close()
    reopened = LadderSqlite(path)
    assert reopened.account_by_secret("sha256:old") is None, "a forgotten secret stays so"
    reopened.close()


def test_an_allowance_counts_up_to_its_limit_per_key_and_window(store: LadderStore) -> None:
    def take(key: str, window: int) -> bool:
        return store.take_allowance(key, window, 3, now=T0, expires_at=T0 + 3600)

    assert [take("accounts/10.0.0.1", 7) for _ in range(5)] == [True, True, True, False, False]
    assert take("accounts/10.0.0.2", 7)  # another address: its own count
    assert take("accounts/10.0.0.1", 8)  # the next window: a new count


def test_racing_takers_never_count_past_the_limit(store: LadderStore) -> None:
    taken: list[bool] = []
    lock = threading.Lock()

    def taker() -> None:
        for _ in range(5):
            got = store.take_allowance("accounts/10.0.0.9", 1, 7, now=T0, expires_at=T0 + 60)
            with lock:
                taken.append(got)

    threads = [threading.Thread(target=taker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert taken.count(True) == 7
    assert len(taken) == 20
