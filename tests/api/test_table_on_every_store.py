"""The table's requests through the service on SQLite and on DynamoDB (moto): the same
outcome on both, races decided by the store's conditional writes, and the watchers (the
websocket, and the AWS pusher's view builder) following a player who was renamed."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from app.config.settings import Settings
from app.service import GameService
from app.service.errors import TooManyReactions
from app.service.responses import current_state
from app.service.seats import seat_key, seated
from app.store.base import GameStore
from tests.support.clock import FakeClock


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(store: GameStore, tmp_path: Path, fake: FakeClock) -> GameService:
    settings = Settings(db_path=tmp_path / "blef.db", ai_think_seconds=0, run_clock=False)
    return GameService(store, settings, clock=fake)


def seat(service: GameService, *names: str) -> tuple[str, dict[str, str]]:
    game = service.create_game()["game_uuid"]
    return game, {n: service.join(game, n)["player_uuid"] for n in names}


def test_a_whole_table_from_lobby_to_resignation_on_every_store(service: GameService) -> None:
    game, p = seat(service, "ann", "ben", "cat", "dan")
    service.invite_ai(game, p["ann"], "random")
    service.remove_player(game, p["ann"], "random_(AI)")
    service.leave(game, p["dan"])
    service.set_max_cards(game, p["ann"], 2)
    service.set_auto_start(game, p["ann"], True)
    service.react(game, p["cat"], "🤔")
    for name in ("ann", "ben"):
        assert service.set_ready(game, p[name], True)["message"] == "Ready"
    assert service.set_ready(game, p["cat"], True)["message"] == "Ready - Game started"
    state = service.state(game).body
    assert (state["status"], state["max_cards"]) == ("Running", 2)
    assert [r["reaction"] for r in state["reactions"]] == ["🤔"]
    service.resign(game, p["ben"])
    service.resign(game, p["cat"])
    final = service.state(game).body
    assert (final["status"], final["winner"]) == ("Finished", "ann")
    rounds = service.record(game)["rounds"]
    assert [r["history"][-1]["player"] for r in rounds] == ["ben", "cat"]


def test_reports_and_the_hidden_name_on_every_store(service: GameService) -> None:
    game, p = seat(service, "ann", "ben", "Rude")
    service.report(game, p["ann"], "Rude")
    service.report(game, p["ben"], "Rude")
    assert service.state(game).body["players"][2]["nickname"] == "Player_3"
    reports = service.store.list_reports(10)
    assert sorted((r.reporter, r.nickname) for r in reports) == [("ann", "Rude"), ("ben", "Rude")]
    doc = service.store.load(game)
    assert doc is not None
    watcher_sees = seated(doc.player_uuids, seat_key(p["Rude"]))  # a watcher follows the seat
    assert watcher_sees == "Player_3"
    assert current_state(doc, watcher_sees)["you"] == "Player_3"


def test_reactions_are_limited_per_player_on_every_store(
    service: GameService, fake: FakeClock
) -> None:
    game, p = seat(service, "ann", "ben")
    for _ in range(3):
        service.react(game, p["ann"], "👍")
    with pytest.raises(TooManyReactions):
        service.react(game, p["ann"], "👍")
    fake.advance(10)
    service.react(game, p["ann"], "👍")


def test_racing_lobby_requests_are_all_applied_once_on_every_store(
    service: GameService,
) -> None:
    game, p = seat(service, "ann", "ben", "cat", "dan", "eve")
    calls = [
        lambda: service.set_ready(game, p["ben"], True),
        lambda: service.set_ready(game, p["cat"], True),
        lambda: service.leave(game, p["dan"]),
        lambda: service.react(game, p["eve"], "🎉"),
        lambda: service.set_max_cards(game, p["ann"], 3),
        lambda: service.report(game, p["ann"], "eve"),
    ]
    barrier = threading.Barrier(len(calls))
    failures: list[BaseException] = []

    def run(call: object) -> None:
        barrier.wait()
        try:
            call()  # type: ignore[operator]
        except BaseException as error:  # collected, asserted below
            failures.append(error)

    threads = [threading.Thread(target=run, args=(c,)) for c in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    state = service.state(game).body
    assert state["ready"] == ["ben", "cat"]
    assert [x["nickname"] for x in state["players"]] == ["ann", "ben", "cat", "eve"]
    assert state["chosen_max_cards"] == 3
    assert [r["nickname"] for r in state["reactions"]] == ["eve"]
    assert state["version"] == 1 + 5 + 6  # created, five joins, six changes: none lost
