"""Bots, events and computer levels over HTTP, as a client and as an adversary: the bot
route, the long-poll (woken when something happens, bounded by the ladder's clock, which
the test moves), and every malformed cursor, wait and fill wait refused with a reason."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.ladder.over_http import bearer, client_of, ladder_of, sqlite_games
from tests.support.clock import FakeClock

TWO = "standard-2"


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


@pytest.fixture
def http(tmp_path: Path, fake: FakeClock) -> Iterator[TestClient]:
    with sqlite_games(tmp_path, clock=fake) as games, client_of(games, fake) as client:
        yield client


def account(http: TestClient, handle: str) -> str:
    made = http.post("/ladder/accounts", json={"handle": handle})
    assert made.status_code == 201, made.text
    secret: str = made.json()["secret"]
    return secret


def poll_in_thread(http: TestClient, secret: str, params: dict[str, Any]) -> tuple:
    answers: list[Any] = []
    thread = threading.Thread(
        target=lambda: answers.append(
            http.get("/ladder/events", params=params, headers=bearer(secret))
        )
    )
    thread.start()
    return thread, answers


def test_a_bot_becomes_one_over_http_and_is_marked_on_the_board(http: TestClient) -> None:
    robo = account(http, "Robo")
    made = http.post("/ladder/me/bot", headers=bearer(robo))
    assert made.status_code == 200 and made.json()["bot"] is True
    assert http.get("/ladder/me", headers=bearer(robo)).json()["bot"] is True
    assert http.delete("/ladder/me/bot", headers=bearer(robo)).status_code == 405  # for good
    assert http.post("/ladder/me/bot", headers=bearer(robo)).json()["bot"] is True


def test_a_long_poll_is_answered_as_soon_as_the_bots_game_starts(http: TestClient) -> None:
    robo, ania = account(http, "Robo"), account(http, "Ania")
    http.post("/ladder/me/bot", headers=bearer(robo))
    cursor = http.get("/ladder/events?wait=0", headers=bearer(robo)).json()["cursor"]
    thread, answers = poll_in_thread(http, robo, {"after": cursor, "wait": 25})
    for secret in (robo, ania):
        assert http.post("/ladder/queue", json={"pool": TWO}, headers=bearer(secret)).is_success
    ladder_of(http).match()  # seats them: the bell wakes the poll
    thread.join(20)
    assert not thread.is_alive()
    (answer,) = answers
    assert answer.status_code == 200
    events = answer.json()["events"]
    status = http.get("/ladder/queue", headers=bearer(robo)).json()
    assert events[0]["type"] == "game_started"
    assert events[0]["player_uuid"] == status["player_uuid"]
    assert "wait_on" not in answer.json()
    assert ladder_of(http).bell.listening() == 0  # nothing left behind


def test_a_waiting_poll_ends_when_its_wait_has_passed_on_the_ladders_clock(
    http: TestClient, fake: FakeClock
) -> None:
    robo = account(http, "Robo")
    cursor = http.get("/ladder/events?wait=0", headers=bearer(robo)).json()["cursor"]
    thread, answers = poll_in_thread(http, robo, {"after": cursor, "wait": 25})
    thread.join(0.5)
    assert thread.is_alive() and answers == []  # nothing happened, no time has passed
    fake.advance(25)
    ladder = ladder_of(http)
    ladder.bell.ring(ladder.me(robo)["account_id"])  # look again now
    thread.join(20)
    assert answers[0].json() == {"events": [], "cursor": cursor}


def test_the_levels_are_listed_with_their_ratings(http: TestClient) -> None:
    levels = http.get("/ladder/levels").json()
    assert [lv["level"] for lv in levels] == ["beginner", "easy", "medium", "hard"]
    assert all(lv["bot"] and lv["ratings"][TWO] == {"rated": False} for lv in levels)


# ------------------------------------------------------------------ as an adversary


@pytest.mark.parametrize(
    ("route", "method"),
    [("/ladder/me/bot", "post"), ("/ladder/events", "get")],
)
def test_the_bot_routes_want_an_accounts_secret(http: TestClient, route: str, method: str) -> None:
    assert getattr(http, method)(route).status_code == 401
    refused = getattr(http, method)(route, headers=bearer("not-a-secret-of-anyone-at-all"))
    assert refused.status_code in (400, 401) and refused.json()["code"] == "unknown_account"


@pytest.mark.parametrize(
    "params",
    [
        {"wait": -1},
        {"wait": 26},
        {"wait": "soon"},
        {"wait": 10**12},
        {"after": "x" * 201},
        {"after": "a.b"},
        {"after": "a.b.c"},
        {"after": "../../etc.passwd.1"},
        {"after": "a.b.-1"},
    ],
)
def test_a_malformed_cursor_or_wait_is_refused_with_a_reason(
    http: TestClient, params: dict[str, Any]
) -> None:
    robo = account(http, "Robo")
    refused = http.get("/ladder/events", params=params, headers=bearer(robo))
    assert refused.status_code == 400
    assert refused.json()["code"] in ("invalid_request", "invalid_cursor")


def test_a_well_formed_cursor_not_given_to_the_account_is_400_invalid_cursor(
    http: TestClient,
) -> None:
    robo, eve = account(http, "Robo"), account(http, "Eve")
    first = http.get("/ladder/events", params={"wait": 0}, headers=bearer(robo)).json()
    body = first["cursor"].rpartition(".")[0]
    for cursor in (f"{body}.{'A' * 22}", "-.-.0." + "B" * 22, first["cursor"]):
        refused = http.get(
            "/ladder/events", params={"wait": 0, "after": cursor}, headers=bearer(eve)
        )
        assert refused.status_code == 400
        assert refused.json()["code"] == "invalid_cursor"
    mine = http.get(
        "/ladder/events", params={"wait": 0, "after": first["cursor"]}, headers=bearer(robo)
    )
    assert mine.status_code == 200 and mine.json()["events"] == []


@pytest.mark.parametrize("fill", [-1, 301, 10**18, "30", 2.5, True, [1]])
def test_a_fill_wait_out_of_bounds_is_refused_and_nobody_is_queued(
    http: TestClient, fill: object
) -> None:
    ania = account(http, "Ania")
    refused = http.post(
        "/ladder/queue", json={"pool": TWO, "fill_after": fill}, headers=bearer(ania)
    )
    assert refused.status_code == 400 and "fill_after" in refused.json()["error"]
    assert http.get("/ladder/queue", headers=bearer(ania)).json()["state"] == "idle"


def test_a_bot_asking_for_computer_players_is_refused(http: TestClient) -> None:
    robo = account(http, "Robo")
    http.post("/ladder/me/bot", headers=bearer(robo))
    refused = http.post("/ladder/queue", json={"pool": TWO, "fill_after": 5}, headers=bearer(robo))
    assert refused.status_code == 403 and refused.json()["code"] == "bots_cannot_fill"


def test_an_account_that_has_played_cannot_turn_bot_and_a_reserved_handle_is_refused(
    http: TestClient,
) -> None:
    ania, bolek = account(http, "Ania"), account(http, "Bolek")
    for secret in (ania, bolek):
        http.post("/ladder/queue", json={"pool": TWO}, headers=bearer(secret))
    ladder_of(http).match()
    seat = http.get("/ladder/queue", headers=bearer(bolek)).json()
    http.post(f"/games/{seat['game_uuid']}/resign", headers=bearer(seat["player_uuid"]))
    ladder_of(http).tick()
    refused = http.post("/ladder/me/bot", headers=bearer(ania))
    assert refused.status_code == 409 and refused.json()["code"] == "cannot_become_bot"
    taken = http.post("/ladder/accounts", json={"handle": "AI_Hard"})
    assert taken.status_code == 422 and taken.json()["code"] == "reserved_handle"


def test_no_poll_tells_one_account_of_anothers_game(http: TestClient) -> None:
    ania, bolek, eve = account(http, "Ania"), account(http, "Bolek"), account(http, "Eve")
    for secret in (ania, bolek):
        http.post("/ladder/queue", json={"pool": TWO}, headers=bearer(secret))
    ladder_of(http).match()
    (table,) = ladder_of(http).store.open_tables()
    seat = http.get("/ladder/queue", headers=bearer(ania)).json()
    seen = http.get("/ladder/events", params={"wait": 0}, headers=bearer(eve)).json()
    assert seen["events"] == []
    assert seat["game_uuid"] not in str(seen) and seat["player_uuid"] not in str(seen)
    tag = "A" * 22
    for after in (f"-.{table.table_id}.0.{tag}", f"{table.table_id}.-.0.{tag}"):
        refused = http.get(
            "/ladder/events", params={"wait": 0, "after": after}, headers=bearer(eve)
        )
        assert refused.status_code == 400 and refused.json()["code"] == "invalid_cursor"
        assert seat["game_uuid"] not in refused.text and seat["player_uuid"] not in refused.text
