"""The store contract, documents: create, load, and versioned saves."""

from __future__ import annotations

import dataclasses
import time

import pytest

from app.store.base import Conflict, GameStore
from tests.store.games import lobby_game, new_doc, next_doc, running_game


def test_a_created_lobby_game_loads_back_equal(store: GameStore) -> None:
    doc = new_doc(lobby_game("alice", "bob"))
    store.create(doc)
    assert store.load(doc.game_uuid) == doc


def test_a_created_running_game_loads_back_equal(store: GameStore) -> None:
    doc = new_doc(running_game("alice", "bob", "carol", bets=2), room=42)
    store.create(doc)
    loaded = store.load(doc.game_uuid)
    assert loaded == doc
    assert loaded is not None
    assert loaded.status == "Running"


def test_an_unknown_game_loads_as_none(store: GameStore) -> None:
    assert store.load("00000000-0000-4000-8000-000000000000") is None


def test_an_expired_game_loads_as_none(store: GameStore) -> None:
    doc = new_doc(lobby_game("alice"), expires_at=int(time.time()) - 10)
    store.create(doc)
    assert store.load(doc.game_uuid) is None


def test_creating_an_existing_uuid_raises_conflict_and_keeps_the_first(store: GameStore) -> None:
    first = new_doc(lobby_game("alice"))
    store.create(first)
    second = new_doc(lobby_game("mallory"), game_uuid=first.game_uuid, room=7)
    with pytest.raises(Conflict):
        store.create(second)
    assert store.load(first.game_uuid) == first


def test_a_save_with_the_version_read_succeeds_and_bumps_the_version(store: GameStore) -> None:
    game = lobby_game("alice")
    doc = new_doc(game)
    store.create(doc)
    game.join("bob")
    saved = next_doc(doc, game)
    store.save(saved, expected_version=1)
    loaded = store.load(doc.game_uuid)
    assert loaded == saved
    assert loaded is not None
    assert loaded.version == 2
    assert loaded.nicknames == ["alice", "bob"]
    third = next_doc(saved)
    store.save(third, expected_version=2)
    assert store.load(doc.game_uuid) == third


def test_a_save_with_a_stale_version_raises_conflict_and_changes_nothing(
    store: GameStore,
) -> None:
    game = lobby_game("alice")
    doc = new_doc(game)
    store.create(doc)
    winner = next_doc(doc, lobby_game("alice", "bob"))
    store.save(winner, expected_version=1)
    loser = next_doc(doc, lobby_game("alice", "carol"))
    with pytest.raises(Conflict):
        store.save(loser, expected_version=1)
    assert store.load(doc.game_uuid) == winner


def test_a_save_whose_version_is_not_one_above_the_version_read_is_refused(
    store: GameStore,
) -> None:
    doc = new_doc(lobby_game("alice"))
    store.create(doc)
    with pytest.raises(ValueError, match="version"):
        store.save(dataclasses.replace(doc, version=3), expected_version=1)
    assert store.load(doc.game_uuid) == doc


def test_a_save_of_an_unknown_game_raises_conflict_and_creates_nothing(
    store: GameStore,
) -> None:
    doc = next_doc(new_doc(lobby_game("alice")))
    with pytest.raises(Conflict):
        store.save(doc, expected_version=1)
    assert store.load(doc.game_uuid) is None


def test_round_trips_keep_unicode_floats_and_nested_state(store: GameStore) -> None:
    state = lobby_game("alice", "bob").to_dict()
    state["players"][1]["nickname"] = "Łucja_ż😀"
    doc = new_doc(
        lobby_game(),
        state=state,
        player_uuids={"alice": "8d0f1c8e-5d1a-4c36-9f6b-0f7b5f3c2a11", "Łucja_ż😀": "x"},
        last_modified=1763700000.1234567,
        created_at=0.1 + 0.2,
        replies={
            "key-ü": {"status": 200, "body": {"nested": [1, 2.5, None, {"deep": ["ß", True]}]}}
        },
    )
    store.create(doc)
    loaded = store.load(doc.game_uuid)
    assert loaded == doc
    assert loaded is not None
    assert loaded.nicknames == ["alice", "Łucja_ż😀"]
    assert loaded.last_modified == 1763700000.1234567
    assert loaded.created_at == 0.1 + 0.2
