"""The game clock: AI players move as their own changes after their think time, and a player
who lets the move time limit pass loses the round; on a fake clock, never a real wait."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.main import create_app
from app.clock.local import LocalClock
from app.config.settings import Settings
from app.service import GameService
from app.service.writes import Change
from app.store.base import GameStore
from app.store.sqlite import SqliteStore
from tests.support.api import Blef, bearer
from tests.support.clock import FakeClock, ai_game
from tests.support.waiting import PATIENCE

THINK = 1.0


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


@pytest.fixture
def timed(store: GameStore, tmp_path: Path, fake: FakeClock) -> GameService:
    settings = Settings(db_path=tmp_path / "blef.db", ai_think_seconds=THINK, run_clock=False)
    return GameService(store, settings, clock=fake)


def human_game(service: GameService, limit: int = 0) -> tuple[str, dict[str, str]]:
    game = service.create_game()["game_uuid"]
    players = {name: service.join(game, name)["player_uuid"] for name in ("alice", "bob")}
    if limit:
        service.set_time_limit(game, players["alice"], limit)
    service.start(game, players["alice"])
    return game, players


# ---------------------------------------------------------------------------- AI players


def test_an_ai_player_never_moves_inside_the_request_that_made_it_its_turn(
    timed: GameService,
) -> None:
    game, _ = ai_game(timed)
    state = timed.state(game).body
    assert state["history"] == []
    assert state["cp_nickname"].endswith("_(AI)")


def test_an_ai_player_moves_once_its_think_time_has_passed_and_not_before(
    timed: GameService, fake: FakeClock
) -> None:
    game, _ = ai_game(timed)
    clock = LocalClock(timed)
    clock.rebuild()
    fake.advance(THINK - 0.01)
    assert clock.run_due() == 0
    before = timed.state(game).body
    fake.advance(0.01)
    assert clock.run_due() == 1
    after = timed.state(game).body
    assert after["version"] == before["version"] + 1
    assert len(after["history"]) == 1
    assert after["history"][0]["player"] == before["cp_nickname"]


def test_every_ai_move_is_a_version_of_its_own(timed: GameService, fake: FakeClock) -> None:
    ai_game(timed)
    clock = LocalClock(timed)
    clock.rebuild()
    seen: list[int] = []
    timed.subscribe(lambda change: seen.append(change.doc.version))
    for _ in range(20):
        fake.advance(THINK)
        clock.run_due()
    assert seen == list(range(seen[0], seen[0] + len(seen)))
    assert len(seen) >= 1


def test_a_duplicate_early_or_late_trigger_changes_nothing(
    timed: GameService, fake: FakeClock
) -> None:
    game, _ = ai_game(timed)
    clock = timed  # the clock only wakes the service: advance is a use case
    version = timed.state(game).body["version"]
    early = clock.advance(game, version)
    assert (early.acted, early.version) == (False, version)
    assert early.due_at == pytest.approx(fake.now + THINK)
    fake.advance(THINK)
    assert clock.advance(game, version).acted
    moved = timed.state(game).body
    # The same trigger again, and one for a version long gone: nothing more happens.
    assert not clock.advance(game, version).acted
    assert not clock.advance(game, version - 1).acted
    assert not clock.advance("0" * 8 + "-0000-4000-8000-" + "0" * 12, 1).acted
    assert timed.state(game).body["version"] == moved["version"]


# ---------------------------------------------------------------------------- time limits


def test_a_player_who_lets_the_time_limit_pass_loses_the_round(
    timed: GameService, fake: FakeClock
) -> None:
    game, _ = human_game(timed, limit=30)
    clock = LocalClock(timed)
    clock.rebuild()
    start = timed.state(game).body
    slow = start["cp_nickname"]
    assert start["time_limit"] == 30
    assert start["move_deadline"] == pytest.approx(fake.now + 30)
    fake.advance(29.9)
    assert clock.run_due() == 0
    fake.advance(0.1)
    assert clock.run_due() == 1
    ended = timed.state(game, round_param="1").body
    assert ended["history"] == [{"player": slow, "action_id": 89}]
    assert ended["loser"] == slow
    now = timed.state(game).body
    assert now["round_number"] == 2
    assert {p["nickname"]: p["n_cards"] for p in now["players"]}[slow] == 2
    assert now["cp_nickname"] == slow  # the loser starts the next round
    assert now["move_deadline"] == pytest.approx(fake.now + 30)


def test_a_move_in_time_sets_the_next_players_deadline_and_cancels_the_old_one(
    timed: GameService, fake: FakeClock
) -> None:
    game, players = human_game(timed, limit=10)
    clock = LocalClock(timed)
    clock.rebuild()
    mover = timed.state(game).body["cp_nickname"]
    fake.advance(9)
    timed.play(game, players[mover], 0)
    fake.advance(2)  # past the first deadline, within the second
    assert clock.run_due() == 0
    state = timed.state(game).body
    assert state["move_deadline"] == pytest.approx(fake.now - 2 + 10)
    assert state["round_number"] == 1


def test_a_timeout_at_the_maximum_eliminates_and_can_finish_the_game(
    timed: GameService, fake: FakeClock
) -> None:
    game, _ = human_game(timed, limit=5)
    clock = LocalClock(timed)
    clock.rebuild()
    for _ in range(200):
        if timed.state(game).body["status"] == "Finished":
            break
        fake.advance(5)
        clock.run_due()
    final = timed.state(game).body
    assert final["status"] == "Finished"
    assert final["move_deadline"] is None
    assert sum(1 for p in final["players"] if p["n_cards"]) == 1
    assert final["history"][-1]["action_id"] == 89


def test_after_a_restart_every_pending_ai_move_and_deadline_is_picked_up(
    tmp_path: Path, fake: FakeClock
) -> None:
    settings = Settings(db_path=tmp_path / "r.db", ai_think_seconds=THINK, run_clock=False)
    first = SqliteStore(settings.db_path)
    service = GameService(first, settings, clock=fake)
    ai, _ = ai_game(service)
    timed, _ = human_game(service, limit=20)
    before = {g: service.state(g).body["version"] for g in (ai, timed)}
    first.close()  # the server stops with both pending, and nobody heard of them since

    second = SqliteStore(settings.db_path)
    restarted = GameService(second, settings, clock=fake)
    clock = LocalClock(restarted)
    assert clock.rebuild() == 2
    fake.advance(20)
    assert clock.run_due() == 2
    assert {g: restarted.state(g).body["version"] for g in (ai, timed)} == {
        g: v + 1 for g, v in before.items()
    }
    second.close()


def test_the_sweep_catches_up_on_games_whose_trigger_was_lost(
    timed: GameService, fake: FakeClock
) -> None:
    games = [ai_game(timed)[0] for _ in range(3)]
    fake.advance(THINK)
    assert timed.sweep() == 3
    assert all(len(timed.state(g).body["history"]) == 1 for g in games)


# ---------------------------------------------------------------------------- the route


@pytest.mark.parametrize(
    ("value", "status", "code"),
    [
        ("301", 400, "invalid_parameter"),
        ("-1", 400, "invalid_parameter"),
        ("ten", 400, "invalid_parameter"),
        ("1.5", 400, "invalid_parameter"),
        ("", 400, "missing_parameter"),
    ],
)
def test_a_bad_time_limit_is_refused_with_the_reason(
    blef: Blef, client: TestClient, value: str, status: int, code: str
) -> None:
    game = blef.create()
    admin = blef.join(game, "alice")
    response = client.get(
        f"/games/{game}/set-time-limit", params={"admin_uuid": admin, "time_limit": value}
    )
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert "time_limit" in response.json()["error"]


@pytest.mark.parametrize("value", [True, "30", 30.5, -3, 1000, None, [30]])
def test_a_time_limit_that_is_not_a_json_integer_in_range_is_refused(
    blef: Blef, client: TestClient, value: object
) -> None:
    game = blef.create()
    admin = blef.join(game, "alice")
    response = client.post(
        f"/games/{game}/set-time-limit", json={"time_limit": value}, headers=bearer(admin)
    )
    assert response.status_code == 400, response.text


def test_only_the_admin_sets_the_time_limit_and_only_in_the_lobby(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    admin, other = blef.join(game, "alice"), blef.join(game, "bob")

    def set_limit(who: str, seconds: int) -> tuple[int, str]:
        r = client.post(
            f"/games/{game}/set-time-limit", json={"time_limit": seconds}, headers=bearer(who)
        )
        return r.status_code, r.json().get("code", r.json().get("message"))

    assert set_limit(other, 30) == (400, "not_admin")
    assert set_limit(admin, 30) == (200, "Time limit set to 30")
    assert set_limit(admin, 30) == (200, "Request redundant - time limit already 30")
    assert blef.state(game)["time_limit"] == 30
    assert blef.state(game)["move_deadline"] is None
    blef.start(game, admin)
    assert set_limit(admin, 60) == (403, "game_already_started")
    assert blef.state(game, admin)["move_deadline"] is not None


def test_blef_serve_runs_the_clock_in_its_own_thread(tmp_path: Path) -> None:
    """With the clock on (``blef serve``'s default), an AI player to move moves with no
    client asking for anything. (The wait is bounded against hanging, nothing is timed.)"""
    settings = Settings(db_path=tmp_path / "s.db", ai_think_seconds=0)
    store = SqliteStore(settings.db_path)
    service = GameService(store, settings)
    ai_moved = threading.Event()
    first_moves: list[dict[str, Any]] = []  # the game as the first move left it

    def heard(change: Change) -> None:
        moved = any(m[1] != 89 for m in change.doc.state["history"])
        if moved and change.previous is not None and change.previous.status == "Running":
            if not first_moves:
                first_moves.append(change.doc.state)
            ai_moved.set()

    service.subscribe(heard)
    with TestClient(create_app(settings, service)):
        ai_game(service)
        assert ai_moved.wait(PATIENCE)
    # Read from the change itself: the other AI may have checked and begun a new round since.
    (state,) = first_moves
    seat, _ = state["history"][0]
    assert "ai_agent" in state["players"][seat]
    store.close()


def test_blef_serve_restarted_over_a_file_with_moves_pending_makes_them(tmp_path: Path) -> None:
    """The server stops with an AI move pending; a new server on the same file (its clock
    thread on, as ``blef serve`` runs) makes the move with no client asking."""
    path = tmp_path / "restart.db"
    before = Settings(db_path=path, ai_think_seconds=30, run_clock=False)
    store = SqliteStore(path)
    game, _ = ai_game(GameService(store, before))
    store.close()

    after = Settings(db_path=path, ai_think_seconds=0)  # run_clock on, like blef serve
    store = SqliteStore(path)
    service = GameService(store, after, clock=lambda: time.time() + 60)  # past the think time
    with TestClient(create_app(after, service)):
        moved = threading.Event()
        service.subscribe(lambda change: moved.set())
        if not service.state(game).body["history"]:
            assert moved.wait(PATIENCE)
    assert service.state(game).body["history"][0]["player"].endswith("_(AI)")
    store.close()
