"""The one write path: versions, idempotency, races, listeners, nothing written on a refusal
or on a request that changes nothing."""

from __future__ import annotations

import doctest
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.service import GameService, parse, seats, timing, writes
from app.service.errors import ConflictError, IdempotencyKeyReused, StaleVersion
from app.service.writes import Change, Outcome, Retry, message
from app.store.base import GameDoc
from engine.errors import BlefError
from engine.game import Game
from tests.service.conftest import Table, mover, seat, started
from tests.support.memory_store import MemoryStore

KEY = "1b4e28ba-2fa1-41d2-883f-0016d3cca427"


@pytest.mark.parametrize("module", [parse, seats, timing, writes])
def test_the_doctests_of_the_service_modules_pass(module: Any) -> None:
    assert doctest.testmod(module).failed == 0


def test_every_save_raises_the_version_by_one_and_is_announced_in_order(
    service: GameService, store: MemoryStore
) -> None:
    heard: list[Change] = []
    service.subscribe(heard.append)
    table = seat(service, "ann", "ben")
    service.start(table.game, table["ann"])
    assert [c.doc.version for c in heard] == [1, 2, 3, 4]
    assert heard[0].previous is None
    assert [c.previous.version for c in heard[1:] if c.previous] == [1, 2, 3]
    assert store.saves == 3  # the create is not a save


def test_a_request_that_changes_nothing_answers_and_writes_nothing(
    service: GameService, store: MemoryStore
) -> None:
    table = seat(service, "ann", "ben")
    saves = store.saves
    answer = service.set_public(table.game, table["ann"], False)
    assert answer == {"message": "Request redundant - game already private"}
    assert store.saves == saves


def test_a_repeated_idempotency_key_gets_the_first_reply_and_writes_once(
    service: GameService, store: MemoryStore
) -> None:
    table = started(service, "ann", "ben")
    who = mover(service, table)
    first = service.play(table.game, who, 4, idempotency_key=KEY)
    saves = store.saves
    assert service.play(table.game, who, 4, idempotency_key=KEY) == first
    assert store.saves == saves
    with pytest.raises(IdempotencyKeyReused):
        service.play(table.game, who, 5, idempotency_key=KEY)


def test_a_decision_that_loses_the_race_is_retried_only_when_its_policy_says(
    service: GameService, store: MemoryStore
) -> None:
    table = seat(service, "ann", "ben")
    calls: list[int] = []

    def racing(doc: GameDoc, game: Game) -> Outcome:
        calls.append(doc.version)
        if len(calls) == 1:  # someone else saves first
            service.react(table.game, table["ben"], "👍")
        return Outcome(message("done"))

    assert service.writes.change(table.game, racing, retry=Retry.ALWAYS) == {"message": "done"}
    assert calls == [3, 4]
    calls.clear()
    with pytest.raises(ConflictError):
        service.writes.change(table.game, racing, retry=Retry.NEVER)
    assert len(calls) == 1


def test_a_change_decided_on_an_old_version_is_refused_as_stale(service: GameService) -> None:
    table = seat(service, "ann", "ben")
    with pytest.raises(StaleVersion):
        service.writes.change(table.game, lambda d, g: Outcome(message("x")), expected_version=1)


def test_what_a_use_case_does_once_its_change_stands_runs_exactly_once(
    service: GameService,
) -> None:
    table = seat(service, "ann", "ben", "cid")
    done: list[str] = []

    def decide(doc: GameDoc, game: Game) -> Outcome:
        return Outcome(message("x"), then=lambda: done.append("filed"))

    service.writes.change(table.game, decide, key=KEY, fingerprint="f")
    service.writes.change(table.game, decide, key=KEY, fingerprint="f")  # a replay
    assert done == ["filed"]


_requests = st.lists(
    st.tuples(
        st.sampled_from(["join", "ready", "unready", "leave", "start", "play", "react", "max"]),
        st.sampled_from(["ann", "ben", "cid"]),
        st.integers(0, 90),
    ),
    max_size=25,
)


@settings(max_examples=60, deadline=None)
@given(_requests)
def test_any_sequence_of_requests_writes_exactly_one_version_per_change(
    requests: list[tuple[str, str, int]],
) -> None:
    """A refusal writes nothing; every write is exactly one version higher; the stored game
    always loads."""
    store = MemoryStore()
    service = GameService(store)
    table = Table(service.create_game()["game_uuid"], {})
    for op, name, number in requests:
        before = store.load(table.game)
        assert before is not None
        saves = store.saves
        try:
            _request(service, table, op, name, number)
        except BlefError:
            assert store.saves == saves
            assert store.load(table.game) == before
        after = store.load(table.game)
        assert after is not None
        assert after.version == before.version + (store.saves - saves)
        assert store.saves - saves <= 1
        Game.from_dict(after.state)


def _request(service: GameService, table: Table, op: str, name: str, number: int) -> None:
    secret = table.players.get(name, "6f1c2a8e-0000-4000-8000-000000000001")
    if op == "join":
        table.players[name] = service.join(table.game, name)["player_uuid"]
    elif op in ("ready", "unready"):
        service.set_ready(table.game, secret, op == "ready")
    elif op == "leave":
        service.leave(table.game, secret)
    elif op == "start":
        service.start(table.game, secret)
    elif op == "play":
        service.play(table.game, secret, number)
    elif op == "react":
        service.react(table.game, secret, "👍")
    else:
        service.set_max_cards(table.game, secret, number % 12)
