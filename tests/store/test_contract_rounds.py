"""The store contract, round snapshots: written with a state change, atomically."""

from __future__ import annotations

import pytest

from app.store.base import Conflict, GameStore, RoundSnapshot
from tests.store.games import for_game, new_doc, next_doc, play_rounds, running_game


def test_snapshots_saved_with_a_state_change_load_by_number_and_in_order(
    store: GameStore,
) -> None:
    game = running_game("alice", "bob", "carol", bets=0)
    doc = new_doc(game)
    store.create(doc)
    first = for_game(doc, play_rounds(game, 1))
    doc2 = next_doc(doc, game)
    store.save(doc2, expected_version=1, snapshots=first)
    later = for_game(doc, play_rounds(game, 2))
    doc3 = next_doc(doc2, game)
    store.save(doc3, expected_version=2, snapshots=later)

    assert store.load(doc.game_uuid) == doc3
    assert store.load_round(doc.game_uuid, 1) == first[0]
    assert store.load_round(doc.game_uuid, 3) == later[1]
    assert store.load_rounds(doc.game_uuid) == first + later
    assert [s.round_number for s in store.load_rounds(doc.game_uuid)] == [1, 2, 3]


def test_an_unknown_round_loads_as_none_and_an_unknown_game_has_no_rounds(
    store: GameStore,
) -> None:
    game = running_game("alice", "bob", bets=0)
    doc = new_doc(game)
    store.create(doc)
    assert store.load_round(doc.game_uuid, 1) is None
    assert store.load_round("no-such-game", 1) is None
    assert store.load_rounds(doc.game_uuid) == []
    assert store.load_rounds("no-such-game") == []


def test_rounds_of_one_game_stay_out_of_another(store: GameStore) -> None:
    game = running_game("alice", "bob", bets=0)
    one, other = new_doc(game), new_doc(game)
    store.create(one)
    store.create(other)
    store.save(next_doc(one, game), 1, for_game(one, play_rounds(game, 2)))
    assert store.load_rounds(other.game_uuid) == []
    assert len(store.load_rounds(one.game_uuid)) == 2


def test_a_stale_save_with_snapshots_raises_conflict_and_leaves_no_snapshot(
    store: GameStore,
) -> None:
    game = running_game("alice", "bob", bets=0)
    doc = new_doc(game)
    store.create(doc)
    winner = next_doc(doc)
    store.save(winner, expected_version=1)
    rounds = for_game(doc, play_rounds(game, 2))
    with pytest.raises(Conflict):
        store.save(next_doc(doc, game), expected_version=1, snapshots=rounds)
    assert store.load(doc.game_uuid) == winner
    assert store.load_round(doc.game_uuid, 1) is None
    assert store.load_rounds(doc.game_uuid) == []


def test_a_save_with_snapshots_of_an_unknown_game_leaves_no_snapshot(
    store: GameStore,
) -> None:
    game = running_game("alice", "bob", bets=0)
    doc = new_doc(game)
    with pytest.raises(Conflict):
        store.save(next_doc(doc, game), 1, for_game(doc, play_rounds(game, 1)))
    assert store.load(doc.game_uuid) is None
    assert store.load_rounds(doc.game_uuid) == []


def test_saving_a_round_already_stored_raises_conflict_and_changes_nothing(
    store: GameStore,
) -> None:
    game = running_game("alice", "bob", bets=0)
    doc = new_doc(game)
    store.create(doc)
    first = for_game(doc, play_rounds(game, 1))
    doc2 = next_doc(doc, game)
    store.save(doc2, 1, first)
    replayed = [RoundSnapshot(doc.game_uuid, 1, {"forged": True})]
    with pytest.raises(Conflict):
        store.save(next_doc(doc2), 2, replayed)
    assert store.load(doc.game_uuid) == doc2
    assert store.load_rounds(doc.game_uuid) == first
