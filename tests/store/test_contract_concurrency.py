"""The store contract under concurrency: one winner per version, distinct rooms."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import pytest

from app.store.base import Conflict, GameDoc, GameStore, RoundSnapshot
from tests.store.games import for_game, lobby_game, new_doc, next_doc, play_rounds, running_game

THREADS = 8
T = TypeVar("T")


def race(work: Callable[[int], T], threads: int = THREADS) -> list[T | Conflict]:
    """Run ``work(i)`` in ``threads`` threads released together; results or Conflicts."""
    barrier = threading.Barrier(threads)

    def attempt(i: int) -> T | Conflict:
        barrier.wait()
        try:
            return work(i)
        except Conflict as lost:
            return lost

    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(attempt, range(threads)))


def test_concurrent_saves_of_one_version_have_exactly_one_winner(store: GameStore) -> None:
    doc = new_doc(lobby_game("alice"))
    store.create(doc)
    attempts = [next_doc(doc, lobby_game("alice", f"player{i}")) for i in range(THREADS)]

    outcomes = race(lambda i: store.save(attempts[i], expected_version=1))

    winners = [i for i, outcome in enumerate(outcomes) if not isinstance(outcome, Conflict)]
    assert len(winners) == 1
    assert sum(isinstance(o, Conflict) for o in outcomes) == THREADS - 1
    assert store.load(doc.game_uuid) == attempts[winners[0]]


def test_concurrent_saves_with_snapshots_keep_only_the_winners_round(
    store: GameStore,
) -> None:
    game = running_game("alice", "bob", bets=0)
    doc = new_doc(game)
    store.create(doc)
    [record] = for_game(doc, play_rounds(game, 1))
    attempts: list[tuple[GameDoc, dict[str, object]]] = []
    for i in range(THREADS):
        data = {**record.data, "attempt": i}
        attempts.append((next_doc(doc, game, replies={f"key{i}": {"i": i}}), data))

    def save(i: int) -> None:
        attempt, data = attempts[i]
        store.save(attempt, 1, [RoundSnapshot(doc.game_uuid, 1, data)])

    outcomes = race(save)

    [winner] = [i for i, outcome in enumerate(outcomes) if not isinstance(outcome, Conflict)]
    assert store.load(doc.game_uuid) == attempts[winner][0]
    [stored] = store.load_rounds(doc.game_uuid)
    assert stored.data == attempts[winner][1]


@pytest.mark.parametrize("threads", [1, THREADS])
def test_allocate_room_gives_distinct_increasing_numbers(store: GameStore, threads: int) -> None:
    per_thread = 4
    rooms = race(lambda _: [store.allocate_room() for _ in range(per_thread)], threads)
    all_rooms: list[int] = []
    for got in rooms:
        assert not isinstance(got, Conflict)
        assert got == sorted(got)
        assert len(set(got)) == len(got)
        all_rooms.extend(got)
    assert sorted(all_rooms) == list(range(1, threads * per_thread + 1))
