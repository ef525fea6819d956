"""The store contract, what the clock needs: games due, their timing, snapshot times, and
the purge of expired games."""

from __future__ import annotations

import time
from dataclasses import replace

from app.store.base import DueGame, GameStore
from tests.store.games import for_game, new_doc, next_doc, play_rounds, running_game

T0 = 1_763_700_000.25


def test_games_due_are_listed_earliest_first_up_to_the_limit(store: GameStore) -> None:
    docs = [new_doc(running_game("alice", f"bob{i}")) for i in range(3)]
    for doc, due in zip(docs, (T0 + 20, T0 + 5, T0 + 10), strict=True):
        doc.due_at = due
        store.create(doc)
    assert store.list_due(T0 + 100, 10) == [
        DueGame(docs[1].game_uuid, 1, T0 + 5),
        DueGame(docs[2].game_uuid, 1, T0 + 10),
        DueGame(docs[0].game_uuid, 1, T0 + 20),
    ]
    assert store.list_due(T0 + 100, 2) == store.list_due(T0 + 100, 10)[:2]


def test_only_games_due_by_the_given_time_are_listed(store: GameStore) -> None:
    early, late = new_doc(running_game("a", "b")), new_doc(running_game("c", "d"))
    early.due_at, late.due_at = T0, T0 + 60
    store.create(early)
    store.create(late)
    assert [d.game_uuid for d in store.list_due(T0 + 1, 10)] == [early.game_uuid]


def test_a_game_with_nothing_due_is_never_listed_as_due(store: GameStore) -> None:
    doc = new_doc(running_game("alice", "bob"))
    doc.due_at = T0
    store.create(doc)
    store.save(next_doc(doc, due_at=None), 1)
    assert store.list_due(T0 + 1e6, 10) == []


def test_a_saved_game_is_listed_at_its_new_version_and_time(store: GameStore) -> None:
    doc = new_doc(running_game("alice", "bob"))
    doc.due_at = T0
    store.create(doc)
    store.save(next_doc(doc, due_at=T0 + 3), 1)
    assert store.list_due(T0 + 10, 10) == [DueGame(doc.game_uuid, 2, T0 + 3)]


def test_the_timing_and_time_limit_are_kept_with_the_game(store: GameStore) -> None:
    doc = replace(new_doc(running_game("alice", "bob")), time_limit=30)
    doc.move_deadline, doc.due_at = T0 + 30, T0 + 30
    store.create(doc)
    loaded = store.load(doc.game_uuid)
    assert loaded is not None
    assert (loaded.time_limit, loaded.move_deadline, loaded.due_at) == (30, T0 + 30, T0 + 30)


def test_a_snapshot_keeps_its_own_last_modified(store: GameStore) -> None:
    game = running_game("alice", "bob", bets=0)
    doc = new_doc(game)
    store.create(doc)
    rounds = [
        replace(s, last_modified=T0 + 0.125 + i)
        for i, s in enumerate(for_game(doc, play_rounds(game, 2)))
    ]
    store.save(next_doc(doc, game), 1, rounds)
    assert [s.last_modified for s in store.load_rounds(doc.game_uuid)] == [T0 + 0.125, T0 + 1.125]
    one = store.load_round(doc.game_uuid, 2)
    assert one is not None
    assert one.last_modified == T0 + 1.125


def test_purging_removes_only_expired_games_or_leaves_it_to_the_database(
    store: GameStore,
) -> None:
    gone, kept = new_doc(running_game("a", "b")), new_doc(running_game("c", "d"))
    gone.expires_at = int(time.time()) - 10
    store.create(gone)
    store.create(kept)
    purged = store.purge_expired(time.time())
    assert store.load(kept.game_uuid) is not None
    assert store.load(gone.game_uuid) is None  # expired: never served, purged or not
    assert purged in (0, 1)  # SQLite deletes it; DynamoDB leaves it to the table's TTL
