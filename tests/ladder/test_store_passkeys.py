"""The ladder store's contract, passkeys: challenges taken once and purged, passkeys kept and
their counter moved only from the value read (app/ladder/store.py ``PasskeyStore``): held by
every store, SQLite on a file, DynamoDB on in-process moto (through a client that refuses
Scan) and the in-memory fake."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from app.ladder.store import (
    Challenge,
    LadderConflict,
    LadderStore,
    Passkey,
)
from tests.ladder.contract import (
    named,
)


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


def test_a_passkey_is_kept_listed_and_its_counter_moves_only_from_the_value_read(
    ladder_store: LadderStore,
) -> None:
    ania = named(ladder_store, "Ania")
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
    ania = named(ladder_store, "Ania")
    ladder_store.add_passkey(Passkey("cred-1", ania.account_id, b"k", 0, 5.0))
    with pytest.raises(LadderConflict):
        ladder_store.add_passkey(Passkey("cred-1", ania.account_id, b"other", 0, 6.0))
    with pytest.raises(LadderConflict):
        ladder_store.add_passkey(Passkey("cred-2", "nobody", b"k", 0, 6.0))
    assert ladder_store.passkey("cred-2") is None
    assert ladder_store.passkey("cred-1") is not None
    assert ladder_store.passkey("cred-1").public_key == b"k"  # type: ignore[union-attr]
