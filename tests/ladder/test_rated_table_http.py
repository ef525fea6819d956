"""A rated game's table over HTTP (GET /ladder/games/{game_uuid}) and the displayed ratings
everywhere a rating is answered: what each seat stands to win and lose while it is played,
each seat's change once it is settled, the profile's opponents and record; the old fields
answered as before."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.ladder import rating as model
from tests.ladder.over_http import bearer, client_of, sqlite_games


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    with sqlite_games(tmp_path) as games, client_of(games) as client:
        yield client


def _seated_pair(client: TestClient) -> tuple[dict[str, str], dict[str, Any]]:
    secrets = {
        h: client.post("/ladder/accounts", json={"handle": h}).json()["secret"]
        for h in ("Ania", "Bolek")
    }
    for secret in secrets.values():
        client.post("/ladder/queue", json={"pool": "standard-2"}, headers=bearer(secret))
    client.app.state.ladder.get().match()  # type: ignore[attr-defined]
    seats = {h: client.get("/ladder/queue", headers=bearer(s)).json() for h, s in secrets.items()}
    return secrets, seats


def test_a_rated_table_shows_each_seats_rating_and_what_a_win_and_a_loss_would_change(
    http: TestClient,
) -> None:
    secrets, seats = _seated_pair(http)
    game = seats["Ania"]["game_uuid"]
    table = http.get(f"/ladder/games/{game}")
    assert table.status_code == 200
    body = table.json()
    assert body["state"] == "playing" and body["pool"] == "standard-2"
    assert {s["handle"] for s in body["seats"]} == {"Ania", "Bolek"}
    before = [model.initial(h, "standard-2") for h in ("Ania", "Bolek")]
    win, loss = model.stakes(before)[0]
    for seat in body["seats"]:
        assert seat["display_rating"] == 1500 and seat["provisional"] is True
        assert (seat["if_first"], seat["if_last"]) == (win, loss)
        assert seat["rated"] is True and seat["bot"] is False
    for secret in [*secrets.values(), *(s["player_uuid"] for s in seats.values())]:
        assert secret not in table.text  # no seat's secret is told

    http.post(f"/games/{game}/resign", headers=bearer(seats["Bolek"]["player_uuid"]))
    http.app.state.ladder.get().tick()  # type: ignore[attr-defined]
    over = http.get(f"/ladder/games/{game}").json()
    assert over["state"] == "settled"
    by_handle = {s["handle"]: s for s in over["seats"]}
    assert by_handle["Ania"]["place"] == 1 and by_handle["Bolek"]["place"] == 2
    assert by_handle["Ania"]["display_change"] == win
    assert by_handle["Bolek"]["display_change"] == loss
    for seat in over["seats"]:
        assert seat["display_after"] - seat["display_before"] == seat["display_change"]
        assert "if_first" not in seat


def test_the_result_the_board_and_the_profile_answer_the_displayed_rating_beside_the_old_fields(
    http: TestClient,
) -> None:
    secrets, seats = _seated_pair(http)
    game = seats["Ania"]["game_uuid"]
    http.post(f"/games/{game}/resign", headers=bearer(seats["Bolek"]["player_uuid"]))
    http.app.state.ladder.get().tick()  # type: ignore[attr-defined]
    last = http.get("/ladder/queue", headers=bearer(secrets["Bolek"])).json()["last_result"]
    assert {"rating_before", "rating_after", "change", "place", "of"} <= set(last)
    assert last["display_before"] == 1500
    assert last["display_after"] - last["display_before"] == last["display_change"] < 0
    assert round(last["rating_after"] - last["rating_before"], 2) == last["change"]
    board = http.get("/ladder/leaderboard/standard-2").json()
    for row in board["players"]:
        assert row["display_rating"] == model.display(row["mu"], row["sigma"])
        assert 1400 < row["display_rating"] < 1700
    profile = http.get("/ladder/players/Bolek").json()
    (played,) = profile["games"]
    assert played["players"] == ["Ania", "Bolek"]
    assert played["opponents"] == [{"handle": "Ania", "place": 1}]
    assert played["display_change"] == last["display_change"]
    assert profile["recent_record"] == [{"pool": "standard-2", "wins": 0, "losses": 1}]
    assert http.get("/ladder/players/Ania").json()["recent_record"] == [
        {"pool": "standard-2", "wins": 1, "losses": 0}
    ]
    assert profile["ratings"][0]["display_rating"] == last["display_after"]


def test_a_game_no_rated_table_plays_is_a_404_and_what_is_no_uuid_a_400_in_words(
    http: TestClient,
) -> None:
    unrated = http.post("/games/create").json()["game_uuid"]
    for game in (unrated, str(uuid.uuid4())):
        answer = http.get(f"/ladder/games/{game}")
        assert answer.status_code == 404
        assert answer.json()["code"] == "not_a_rated_game"
        assert "No rated table plays this game" in answer.json()["error"]
    for junk in ("not-a-uuid", "x" * 5000, "%00"):
        answer = http.get(f"/ladder/games/{junk}")
        assert answer.status_code == 400
        assert answer.json()["code"] == "invalid_parameter"
        assert "Invalid game UUID" in answer.json()["error"]


def test_a_rated_table_is_found_by_its_game_uuid_in_capitals_too(
    http: TestClient,
) -> None:
    _, seats = _seated_pair(http)
    game = seats["Ania"]["game_uuid"]
    assert http.get(f"/ladder/games/{game.upper()}").json()["game_uuid"] == game
