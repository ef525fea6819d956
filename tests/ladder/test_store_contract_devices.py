"""The ladder store's contract, continued from test_store_contract.py: secrets per device,
challenges, passkeys, deletion and board pages, held on every store."""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from app.ladder.sqlite.store import LadderSqlite
from app.ladder.store import (
    DELETED_HANDLE,
    Account,
    Challenge,
    Change,
    LadderConflict,
    LadderStore,
    Passkey,
    Rating,
    Result,
    Seat,
    Table,
)

POOL = "standard-2"


def account(store: LadderStore, name: str) -> Account:
    made = Account(f"id-{name}", name, name.casefold(), f"sha256:{name}", 1.0)
    store.create_account(made)
    return made


def rated(store: LadderStore, who: Account, mu: float, sigma: float, pool: str = POOL) -> None:
    """Give ``who`` a rating in ``pool`` the way the ladder does: queued, seated at a table
    of one, settled."""
    ticket = f"t-{who.account_id}-{pool}"
    store.enqueue(who.account_id, pool, ticket, 1.0, 25.0)
    table = Table(f"tb-{who.account_id}-{pool}", pool, (Seat(who.account_id, who.handle),), 1.0)
    store.claim(table, {who.account_id: ticket})
    store.seat(replace(table, state="playing", game_uuid=f"g-{who.account_id}"))
    before = store.rating(who.account_id, pool) or Rating(who.account_id, pool, 25.0, 8.0, 0)
    after = Rating(who.account_id, pool, mu, sigma, before.games + 1)
    store.settle(
        Result(
            table.table_id,
            f"g-{who.account_id}",
            pool,
            2.0,
            (Change(who.account_id, who.handle, 1, before, after),),
        )
    )


def shared_game(store: LadderStore, a: Account, b: Account) -> Result:
    for who in (a, b):
        store.enqueue(who.account_id, POOL, f"t-{who.account_id}", 1.0, 25.0)
    table = Table("shared", POOL, (Seat(a.account_id, a.handle), Seat(b.account_id, b.handle)), 1)
    store.claim(table, {a.account_id: f"t-{a.account_id}", b.account_id: f"t-{b.account_id}"})
    store.seat(replace(table, state="playing", game_uuid="g-shared"))
    result = Result(
        "shared",
        "g-shared",
        POOL,
        2.0,
        tuple(
            Change(
                w.account_id,
                w.handle,
                place,
                Rating(w.account_id, POOL, 25.0, 8.0, 0),
                Rating(w.account_id, POOL, 25.0 + 3 - place, 7.0, 1),
            )
            for place, w in ((1, a), (2, b))
        ),
    )
    store.settle(result)
    return result


# ------------------------------------------------------------------ secrets per device


def test_an_account_is_found_by_any_of_its_secrets_until_each_is_forgotten(
    ladder_store: LadderStore,
) -> None:
    ania = account(ladder_store, "Ania")
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
    ania = account(ladder_store, "Ania")
    with pytest.raises(LadderConflict):
        ladder_store.add_secret("nobody", "sha256:x", 2.0)
    with pytest.raises(LadderConflict):
        ladder_store.add_secret(ania.account_id, ania.secret_hash, 2.0)
    assert ladder_store.account_by_secret("sha256:x") is None


# ------------------------------------------------------------------ challenges


def test_a_challenge_is_taken_once_and_expired_ones_are_purged(ladder_store: LadderStore) -> None:
    ladder_store.put_challenge(Challenge("c1", "login", None, 100.0))
    ladder_store.put_challenge(Challenge("c2", "register", "id-x", 200.0))
    assert ladder_store.take_challenge("c1") == Challenge("c1", "login", None, 100.0)
    assert ladder_store.take_challenge("c1") is None
    assert ladder_store.take_challenge("never") is None
    ladder_store.put_challenge(Challenge("c3", "login", None, 150.0))
    assert ladder_store.purge_challenges(before=180.0) == 1
    assert ladder_store.take_challenge("c3") is None
    assert ladder_store.take_challenge("c2") == Challenge("c2", "register", "id-x", 200.0)


def test_racing_takes_of_one_challenge_give_it_to_one_only(ladder_store: LadderStore) -> None:
    rounds = 15
    for i in range(rounds):
        ladder_store.put_challenge(Challenge(f"c{i}", "login", None, 100.0))
    won: list[str] = []
    start = threading.Barrier(3)

    def take() -> None:
        start.wait()
        for i in range(rounds):
            if ladder_store.take_challenge(f"c{i}") is not None:
                won.append(f"c{i}")

    threads = [threading.Thread(target=take) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(won) == sorted(f"c{i}" for i in range(rounds))  # each once, none lost


# ------------------------------------------------------------------ passkeys


def test_a_passkey_is_kept_listed_and_its_counter_moves_only_from_the_value_read(
    ladder_store: LadderStore,
) -> None:
    ania = account(ladder_store, "Ania")
    key = Passkey("cred-1", ania.account_id, b"\xa5cose", 3, 5.0)
    ladder_store.add_passkey(key)
    ladder_store.add_passkey(Passkey("cred-0", ania.account_id, b"k", 0, 6.0))
    assert ladder_store.passkey("cred-1") == key
    assert [p.credential_id for p in ladder_store.passkeys(ania.account_id)] == [
        "cred-1",
        "cred-0",
    ]
    ladder_store.use_passkey("cred-1", 3, 4, 9.0)
    assert ladder_store.passkey("cred-1") == replace(key, sign_count=4, last_used_at=9.0)
    with pytest.raises(LadderConflict):
        ladder_store.use_passkey("cred-1", 3, 5, 10.0)  # read before the last use
    with pytest.raises(LadderConflict):
        ladder_store.use_passkey("nope", 0, 1, 10.0)
    assert ladder_store.passkey("cred-1") == replace(key, sign_count=4, last_used_at=9.0)


def test_a_passkey_is_refused_twice_or_for_a_missing_account(ladder_store: LadderStore) -> None:
    ania = account(ladder_store, "Ania")
    ladder_store.add_passkey(Passkey("cred-1", ania.account_id, b"k", 0, 5.0))
    with pytest.raises(LadderConflict):
        ladder_store.add_passkey(Passkey("cred-1", ania.account_id, b"other", 0, 6.0))
    with pytest.raises(LadderConflict):
        ladder_store.add_passkey(Passkey("cred-2", "nobody", b"k", 0, 6.0))
    assert ladder_store.passkey("cred-2") is None
    assert ladder_store.passkey("cred-1") is not None
    assert ladder_store.passkey("cred-1").public_key == b"k"  # type: ignore[union-attr]


# ------------------------------------------------------------------ deletion


def test_deleting_an_account_takes_away_every_way_in_its_ratings_and_its_handle(
    ladder_store: LadderStore,
) -> None:
    ania, bolek = account(ladder_store, "Ania"), account(ladder_store, "Bolek")
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
    account(ladder_store, "ANIA")


def test_a_queued_or_seated_account_is_not_deleted_and_nothing_changes(
    ladder_store: LadderStore,
) -> None:
    ania = account(ladder_store, "Ania")
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


# ------------------------------------------------------------------ board pages


def test_board_pages_follow_one_order_ties_by_handle_without_repeats_or_gaps(
    ladder_store: LadderStore,
) -> None:
    scores = [5.0, 9.0, 5.0, 1.0, 9.0, 5.0, 7.0]
    for i, mu in enumerate(scores):
        rated(ladder_store, account(ladder_store, f"P{i}"), mu + 3.0, 1.0)
    rated(ladder_store, account(ladder_store, "Other"), 99.0, 1.0, pool="standard-3-8")
    whole = ladder_store.leaderboard_page(POOL, 0, 100)
    assert [a.handle for a, _ in whole] == ["P1", "P4", "P6", "P0", "P2", "P5", "P3"]
    assert [a.handle for a, _ in ladder_store.leaderboard(POOL, 100)] == [
        a.handle for a, _ in whole
    ]
    for size in (1, 2, 3, 7):
        paged = [
            row
            for start in range(0, 8, size)
            for row in ladder_store.leaderboard_page(POOL, start, size)
        ]
        assert paged == whole
    assert ladder_store.leaderboard_page(POOL, 7, 10) == []
    assert ladder_store.leaderboard_page(POOL, 1000, 10) == []


# ------------------------------------------------------------------ an older file


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
