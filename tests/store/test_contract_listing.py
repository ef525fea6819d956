"""The store contract, the public list: listed games only, newest first, since, limit."""

from __future__ import annotations

import pytest

from app.store.base import GameDoc, GameStore, PublicGame
from tests.store.games import lobby_game, lobby_match, new_doc, next_doc, running_game

T0 = 1_763_700_000.5


def entry(doc: GameDoc) -> PublicGame:
    return PublicGame(doc.game_uuid, doc.room, doc.nicknames, doc.last_modified)


@pytest.fixture
def lobby(store: GameStore) -> list[GameDoc]:
    """Three public lobby games, created at T0, T0 + 10 and T0 + 20 (rooms 1, 2, 3)."""
    docs = [
        new_doc(lobby_game("alice", f"bob{i}"), room=i + 1, last_modified=T0 + 10 * i)
        for i in range(3)
    ]
    for doc in docs:
        store.create(doc)
    return docs


def test_the_list_shows_only_public_games_not_yet_started(store: GameStore) -> None:
    listed = new_doc(lobby_game("alice"), last_modified=T0)
    private = new_doc(lobby_game("bob", public=False), last_modified=T0 + 1)
    started = new_doc(running_game("carol", "dave"), last_modified=T0 + 2)
    started.state["public"] = True  # even if a started game claimed to be public
    for doc in (listed, private, started):
        store.create(doc)
    assert store.list_public(since=0, limit=10) == [entry(listed)]


def test_the_list_is_newest_first(store: GameStore, lobby: list[GameDoc]) -> None:
    assert store.list_public(since=0, limit=10) == [entry(d) for d in reversed(lobby)]


def test_the_list_respects_since_inclusively(store: GameStore, lobby: list[GameDoc]) -> None:
    assert store.list_public(since=T0 + 10, limit=10) == [entry(lobby[2]), entry(lobby[1])]
    assert store.list_public(since=T0 + 20.000001, limit=10) == []


def test_the_list_respects_limit(store: GameStore, lobby: list[GameDoc]) -> None:
    assert store.list_public(since=0, limit=2) == [entry(lobby[2]), entry(lobby[1])]
    assert store.list_public(since=0, limit=1) == [entry(lobby[2])]
    assert store.list_public(since=0, limit=0) == []


def test_the_list_follows_saves(store: GameStore, lobby: list[GameDoc]) -> None:
    game = lobby_game("alice", "bob0", "zoe")
    joined = next_doc(lobby[0], game, last_modified=T0 + 30)
    store.save(joined, expected_version=1)
    assert store.list_public(since=0, limit=10) == [
        entry(joined),
        entry(lobby[2]),
        entry(lobby[1]),
    ]
    assert entry(joined).players == ["alice", "bob0", "zoe"]


def test_the_list_drops_a_game_saved_as_private(store: GameStore, lobby: list[GameDoc]) -> None:
    game = lobby_game("alice", "bob1", public=False)
    store.save(next_doc(lobby[1], game), expected_version=1)
    assert store.list_public(since=0, limit=10) == [entry(lobby[2]), entry(lobby[0])]


def test_the_list_drops_a_game_once_started(store: GameStore, lobby: list[GameDoc]) -> None:
    game = running_game("alice", "bob2")
    store.save(next_doc(lobby[2], game), expected_version=1)
    assert store.list_public(since=0, limit=10) == [entry(lobby[1]), entry(lobby[0])]


def test_the_list_takes_a_game_back_when_made_public_again(
    store: GameStore, lobby: list[GameDoc]
) -> None:
    private = next_doc(lobby[0], lobby_game("alice", "bob0", public=False))
    store.save(private, expected_version=1)
    public = next_doc(private, lobby_game("alice", "bob0"))
    store.save(public, expected_version=2)
    assert entry(public) in store.list_public(since=0, limit=10)


def test_the_list_keeps_the_exact_last_modified(store: GameStore) -> None:
    doc = new_doc(lobby_game("alice"), last_modified=1763700000.1234567)
    store.create(doc)
    [listed] = store.list_public(since=1763700000.1234567, limit=5)
    assert listed.last_modified == 1763700000.1234567


def test_pages_after_a_position_continue_where_the_last_page_ended(store: GameStore) -> None:
    docs = [
        new_doc(lobby_game(f"p{i}"), room=i + 1, last_modified=T0 + i // 2) for i in range(9)
    ]  # pairs of games share a time: the UUID orders them
    for doc in docs:
        store.create(doc)
    expected = sorted(
        (entry(d) for d in docs), key=lambda g: (g.last_modified, g.game_uuid), reverse=True
    )
    seen: list[PublicGame] = []
    after: tuple[float, str] | None = None
    for _ in range(10):
        page = store.list_public(since=0, limit=2, after=after)
        seen.extend(page)
        if len(page) < 2:
            break
        after = (page[-1].last_modified, page[-1].game_uuid)
    assert seen == expected


def test_each_kind_of_game_has_its_own_list_and_blefs_stays_blefs_alone(
    store: GameStore,
) -> None:
    blef = new_doc(lobby_game("alice"), last_modified=T0)
    economancy = new_doc(lobby_match("economancy", "ann"), last_modified=T0 + 1)
    figgie = new_doc(lobby_match("figgie", "bea", "cid"), last_modified=T0 + 2)
    for doc in (blef, economancy, figgie):
        store.create(doc)
    assert store.list_public(since=0, limit=10) == [entry(blef)]
    assert store.list_public(since=0, limit=10, kind="blef") == [entry(blef)]
    assert store.list_public(since=0, limit=10, kind="economancy") == [entry(economancy)]
    assert store.list_public(since=0, limit=10, kind="figgie") == [entry(figgie)]
    assert entry(figgie).players == ["bea", "cid"]


def test_a_table_of_another_kind_leaves_its_list_once_private(store: GameStore) -> None:
    doc = new_doc(lobby_match("economancy", "ann"), last_modified=T0)
    store.create(doc)
    private = next_doc(doc, lobby_match("economancy", "ann", public=False))
    store.save(private, expected_version=1)
    assert store.list_public(since=0, limit=10, kind="economancy") == []
