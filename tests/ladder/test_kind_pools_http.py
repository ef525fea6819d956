"""The ladder's pools of other games than Blef over HTTP, as a client: the pools listed with
their game, quick play to a table of that game (computer levels filling, seated as the game's
built-in agents), the table played to its end by the service's clock (the test's clock, moved
by the test), each account rated by its place in the game's result, a tie rated as a tie, and a
table called off because someone never came left unrated."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.ladder.base import ARRIVE_SECONDS
from app.service import GameService
from engine.dealing import seed_sequence
from tests.ladder.over_http import bearer, client_of, ladder_of, sqlite_games
from tests.support.clock import FakeClock


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


@pytest.fixture
def games(tmp_path: Path, fake: FakeClock) -> Iterator[GameService]:
    with sqlite_games(tmp_path, clock=fake, seed_source=seed_sequence(7)) as service:
        yield service


@pytest.fixture
def http(games: GameService, fake: FakeClock) -> Iterator[TestClient]:
    with client_of(games, fake) as client:
        yield client


def accounts(http: TestClient, *handles: str) -> dict[str, str]:
    made = {h: http.post("/ladder/accounts", json={"handle": h}) for h in handles}
    assert {r.status_code for r in made.values()} == {201}
    return {h: r.json()["secret"] for h, r in made.items()}


def quick_play(http: TestClient, secrets: dict[str, str], pool: str, **body: Any) -> dict:
    """Every account joins ``pool``'s queue, the matcher looks, each asks its place."""
    for secret in secrets.values():
        joined = http.post("/ladder/queue", json={"pool": pool, **body}, headers=bearer(secret))
        assert joined.status_code == 200, joined.text
    ladder_of(http).match()
    return {h: http.get("/ladder/queue", headers=bearer(s)).json() for h, s in secrets.items()}


def play_out(
    http: TestClient, games: GameService, fake: FakeClock, seat: dict, step: float
) -> dict:
    """Move the clock ``step`` seconds at a time, the service doing what is due (computer
    players' moves, a late seat's safest move, Figgie's deadline), until the table is over;
    its last body as the seat reads it at the path the ladder told."""
    for _ in range(2_000):
        table = http.get(seat["path"], headers=bearer(seat["player_uuid"])).json()
        if table["status"] == "Finished":
            return dict(table)
        fake.advance(step)
        games.sweep()
    raise AssertionError("the table never finished")


def test_the_pools_list_each_game_with_its_kind_and_blefs_keep_theirs(http: TestClient) -> None:
    pools = {p["name"]: p for p in http.get("/ladder/pools").json()}
    assert {n: p["kind"] for n, p in pools.items()} == {
        "standard-2": "blef",
        "standard-3-8": "blef",
        "economancy-2": "economancy",
        "economancy-3-4": "economancy",
        "figgie-4-5": "figgie",
    }
    assert (pools["figgie-4-5"]["min_players"], pools["figgie-4-5"]["max_players"]) == (4, 5)
    assert (pools["economancy-3-4"]["min_players"], pools["economancy-3-4"]["max_players"]) == (
        3,
        4,
    )
    board = http.get("/ladder/leaderboard/figgie-4-5").json()
    assert board["pool"] == "figgie-4-5" and board["players"] == []


def test_two_accounts_quick_play_figgie_with_computers_filling_and_are_rated_by_their_places(
    http: TestClient, games: GameService, fake: FakeClock
) -> None:
    secrets = accounts(http, "Ania", "Bolek")
    seats = quick_play(http, secrets, "figgie-4-5", fill_after=0)
    game = seats["Ania"]["game_uuid"]
    for seat in seats.values():
        assert seat["state"] == "seated" and seat["kind"] == "figgie"
        assert seat["game_uuid"] == game and seat["path"] == f"/figgie/games/{game}"
    started = http.get("/ladder/events?wait=0", headers=bearer(secrets["Bolek"])).json()
    told = started["events"]
    assert (told[0]["type"], told[0]["kind"], told[0]["path"]) == (
        "game_started",
        "figgie",
        f"/figgie/games/{game}",
    )
    assert [(e["type"], e["state"]["kind"]) for e in told[1:]] == [("your_turn", "figgie")]
    rated = http.get(f"/ladder/games/{game}").json()
    assert rated["kind"] == "figgie" and len(rated["seats"]) == 4
    computers = [s for s in rated["seats"] if s["bot"]]
    assert [(s["level"], s["agent"]) for s in computers] == [
        ("beginner", "random"),
        ("easy", "conservative"),
    ]
    assert http.get(seats["Ania"]["path"]).json()["kind"] == "figgie"  # where it said

    over = play_out(http, games, fake, seats["Ania"], 2.0)
    ladder_of(http).tick()
    settled = http.get(f"/ladder/games/{game}").json()
    assert settled["state"] == "settled"
    by_handle = {s["handle"]: s for s in settled["seats"]}
    for handle, secret in secrets.items():
        mine = http.get("/ladder/queue", headers=bearer(secret)).json()
        assert mine["state"] == "idle"
        line = mine["last_result"]
        assert line["pool"] == "figgie-4-5" and line["of"] == 4
        assert line["place"] == by_handle[handle]["place"]
        assert line["display_change"] != 0
    assert sorted(s["place"] for s in settled["seats"]) == sorted(over["result"]["places"])
    first = [s for s in settled["seats"] if s["place"] == 1]
    last = [s for s in settled["seats"] if s["place"] == max(over["result"]["places"])]
    assert all(s["display_change"] > 0 for s in first)
    assert all(s["display_change"] < 0 for s in last)
    board = http.get("/ladder/leaderboard/figgie-4-5").json()
    assert {p["handle"] for p in board["players"]} >= set(secrets)
    assert http.get("/ladder/leaderboard/standard-2").json()["players"] == []


def test_each_persons_place_is_the_place_the_game_gave_their_seat(
    http: TestClient, games: GameService, fake: FakeClock
) -> None:
    secrets = accounts(http, "Ania", "Bolek")
    seats = quick_play(http, secrets, "figgie-4-5", fill_after=0)
    over = play_out(http, games, fake, seats["Ania"], 2.0)
    ladder_of(http).tick()
    for handle, secret in secrets.items():
        seat = seats[handle]
        mine = http.get(seat["path"], headers=bearer(seat["player_uuid"])).json()
        own_place = over["result"]["places"][mine["you"]]
        told = http.get("/ladder/queue", headers=bearer(secret)).json()["last_result"]
        assert told["place"] == own_place


def test_a_draw_at_economancy_rates_both_as_sharing_first_place(
    http: TestClient, games: GameService, fake: FakeClock
) -> None:
    secrets = accounts(http, "Ania", "Bolek")
    seats = quick_play(http, secrets, "economancy-2")
    assert {s["kind"] for s in seats.values()} == {"economancy"}
    told = http.get("/ladder/events?wait=0", headers=bearer(secrets["Ania"])).json()["events"]
    assert [e["type"] for e in told] == ["game_started", "your_turn"]
    assert told[1]["state"]["kind"] == "economancy" and told[1]["state"]["your_turn"] is True
    assert told[1]["player_uuid"] == seats["Ania"]["player_uuid"]
    # Neither moves: past each time limit the service plays their safest move (nobody
    # attacks, nobody buys) until the day limit ends the game in a draw.
    over = play_out(http, games, fake, seats["Ania"], 61.0)
    assert over["result"]["places"] == [1, 1]
    ladder_of(http).tick()
    lines = [
        http.get("/ladder/queue", headers=bearer(s)).json()["last_result"] for s in secrets.values()
    ]
    assert [line["place"] for line in lines] == [1, 1]
    assert lines[0]["display_change"] == lines[1]["display_change"]
    assert lines[0]["rating_after"] == lines[1]["rating_after"]
    assert [line["display_after"] for line in lines] == [1524, 1524]  # docs/ratings.md
    board = http.get("/ladder/leaderboard/economancy-2").json()
    assert [p["rank"] for p in board["players"]] == [1, 1]


def test_a_table_someone_never_came_to_is_called_off_and_rates_nobody(
    http: TestClient, games: GameService, fake: FakeClock
) -> None:
    secrets = accounts(http, "Ania", "Bolek")
    for secret in secrets.values():
        http.post("/ladder/queue", json={"pool": "economancy-2"}, headers=bearer(secret))
    ladder_of(http).match()
    seat = http.get("/ladder/queue", headers=bearer(secrets["Ania"])).json()  # Bolek never asks
    assert seat["state"] == "seated"
    fake.advance(ARRIVE_SECONDS + 1)
    ladder_of(http).match()
    for secret in secrets.values():
        mine = http.get("/ladder/queue", headers=bearer(secret)).json()
        assert mine["state"] == "idle"
        assert mine["last_result"]["void"] is True and mine["last_result"]["called_off"]
        assert mine["last_result"]["absent"] == ["Bolek"]
    assert http.get("/ladder/leaderboard/economancy-2").json()["players"] == []
    # The game itself goes on for whoever came (the clock plays an absent seat's turns);
    # finishing it later changes no rating.
    play_out(http, games, fake, seat, 61.0)
    ladder_of(http).tick()
    assert http.get("/ladder/leaderboard/economancy-2").json()["players"] == []


def test_joining_an_unknown_pool_names_every_pool(http: TestClient) -> None:
    (secret,) = accounts(http, "Ania").values()
    refused = http.post("/ladder/queue", json={"pool": "figgie-2"}, headers=bearer(secret))
    assert refused.status_code == 400 and refused.json()["code"] == "unknown_pool"
    assert "figgie-4-5" in refused.json()["error"] and "economancy-2" in refused.json()["error"]
    assert http.get("/ladder/queue", headers=bearer(secret)).json()["state"] == "idle"


def test_a_rematch_of_a_rated_table_is_an_ordinary_table_that_rates_nobody_and_says_so(
    http: TestClient, games: GameService, fake: FakeClock
) -> None:
    secrets = accounts(http, "Ania", "Bolek")
    seats = quick_play(http, secrets, "economancy-2")
    play_out(http, games, fake, seats["Ania"], 61.0)
    ladder_of(http).tick()
    rated = {h: http.get("/ladder/queue", headers=bearer(s)).json() for h, s in secrets.items()}
    board = http.get("/ladder/leaderboard/economancy-2").json()
    assert len(board["players"]) == 2  # the rated game was rated
    nxt = {}
    for handle in ("Ania", "Bolek"):
        asked = http.post(
            f"{seats[handle]['path']}/rematch", headers=bearer(seats[handle]["player_uuid"])
        )
        assert asked.status_code == 200, asked.text
        nxt[handle] = asked.json()
    game = nxt["Ania"]["game_uuid"]
    assert nxt["Bolek"]["game_uuid"] == game and nxt["Ania"]["kind"] == "economancy"
    started = http.post(
        f"/economancy/games/{game}/start", headers=bearer(nxt["Ania"]["player_uuid"])
    )
    assert started.status_code == 200, started.text
    seat = {"path": f"/economancy/games/{game}", "player_uuid": nxt["Ania"]["player_uuid"]}
    assert play_out(http, games, fake, seat, 61.0)["status"] == "Finished"
    ladder_of(http).tick()
    # Nobody's rating, last result or place in the queue moved: the ladder never heard of it.
    assert http.get(f"/ladder/games/{game}").status_code == 404
    for handle, secret in secrets.items():
        assert http.get("/ladder/queue", headers=bearer(secret)).json() == rated[handle]
    assert http.get("/ladder/leaderboard/economancy-2").json() == board
    # What the service documents of the rematch says so, for every game.
    paths = http.get("/openapi.json").json()["paths"]
    for kind in ("blef", "economancy", "figgie"):
        words = paths[f"/{kind}/games/{{game_uuid}}/rematch"]["post"]["description"]
        assert "never rated, even of a rated (ladder) table" in words
    assert "never rated" in paths["/games/create"]["get"]["description"]
