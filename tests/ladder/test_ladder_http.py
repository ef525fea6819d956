"""The ladder over HTTP, as a client and as an adversary: accounts, quick play to a rated
game and its result, boards, profiles, limits, and no secret in any list."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api.main import create_app
from app.config.settings import Settings
from app.service import GameService
from app.store.sqlite import SqliteStore
from tests.ladder.over_http import bearer, client_of, ladder_of, sqlite_games
from tests.support.fairness import buckets_frozen


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    with sqlite_games(tmp_path) as games, client_of(games) as client:
        yield client


def test_a_player_makes_an_account_plays_now_and_sees_the_rating_change(
    http: TestClient,
) -> None:
    made = {h: http.post("/ladder/accounts", json={"handle": h}) for h in ("Ania", "Bolek")}
    assert {r.status_code for r in made.values()} == {201}
    secrets = {h: r.json()["secret"] for h, r in made.items()}
    for secret in secrets.values():
        assert http.post(
            "/ladder/queue", json={"pool": "standard-2"}, headers=bearer(secret)
        ).json()["state"] in ("waiting", "seated")
    http.app.state.ladder.get().match()  # type: ignore[attr-defined]
    seats = {h: http.get("/ladder/queue", headers=bearer(s)).json() for h, s in secrets.items()}
    assert {s["state"] for s in seats.values()} == {"seated"}
    game = seats["Ania"]["game_uuid"]
    http.post(f"/games/{game}/resign", headers=bearer(seats["Bolek"]["player_uuid"]))
    http.app.state.ladder.get().tick()  # type: ignore[attr-defined]
    mine = http.get("/ladder/queue", headers=bearer(secrets["Ania"])).json()
    assert mine["state"] == "idle" and mine["last_result"]["place"] == 1
    assert mine["last_result"]["change"] > 0
    board = http.get("/ladder/leaderboard/standard-2", headers=bearer(secrets["Bolek"])).json()
    assert [p["handle"] for p in board["players"]] == ["Ania", "Bolek"]
    assert board["you"]["rank"] == 2
    profile = http.get("/ladder/players/bolek").json()
    assert profile["games"][0]["game_uuid"] == game and profile["games"][0]["place"] == 2
    shown = json.dumps([board, profile, http.get("/ladder/leaderboard/standard-2").json()])
    for secret in [*secrets.values(), *(s["player_uuid"] for s in seats.values())]:
        assert secret not in shown


def test_a_seat_moved_to_a_phone_is_not_told_again_by_the_queue_nor_the_events_over_http(
    http: TestClient,
) -> None:
    secrets = {
        h: http.post("/ladder/accounts", json={"handle": h}).json()["secret"]
        for h in ("Ania", "Bolek")
    }
    for secret in secrets.values():
        http.post("/ladder/queue", json={"pool": "standard-2"}, headers=bearer(secret))
    ladder_of(http).match()
    first = http.get("/ladder/queue", headers=bearer(secrets["Bolek"])).json()
    game, retired = first["game_uuid"], first["player_uuid"]
    # Bolek takes the seat's link to his phone: the phone is given the seat's new secret.
    moved = http.post(f"/games/{game}/move-seat", headers=bearer(retired))
    assert moved.status_code == 200, moved.text
    phone = moved.json()["player_uuid"]
    again = http.get("/ladder/queue", headers=bearer(secrets["Bolek"]))
    assert again.status_code == 200
    assert again.json() == {
        "state": "seated",
        "pool": "standard-2",
        "game_uuid": game,
        "seat_moved": True,
        "bot": False,
    }
    events = http.get("/ladder/events", headers=bearer(secrets["Bolek"])).json()["events"]
    assert events[0]["type"] == "game_started" and events[0]["seat_moved"] is True
    # The retired secret is refused in words at the game; the phone plays the seat.
    refused = http.get(f"/games/{game}", headers=bearer(retired))
    assert (refused.status_code, refused.json()["code"]) == (403, "seat_moved")
    assert http.get(f"/games/{game}", headers=bearer(phone)).json()["you"] == "Bolek"
    # The other player, and a stranger, learn no secret of Bolek's seat from the ladder.
    stranger = http.post("/ladder/accounts", json={"handle": "Cezary"}).json()["secret"]
    for secret in (secrets["Ania"], stranger):
        for path in ("/ladder/queue", "/ladder/events", f"/ladder/games/{game}"):
            shown = http.get(path, headers=bearer(secret)).text
            assert retired not in shown and phone not in shown, path


@pytest.mark.parametrize(
    ("method", "path", "body", "headers", "status", "code"),
    [
        ("post", "/ladder/accounts", {}, {}, 400, "missing_parameter"),
        ("post", "/ladder/accounts", {"handle": ""}, {}, 422, "invalid_handle"),
        ("post", "/ladder/accounts", {"handle": "1x"}, {}, 422, "invalid_handle"),
        (
            "post",
            "/ladder/accounts",
            {"handle": "Ania", "email": "a@b"},
            {},
            400,
            "invalid_request",
        ),
        ("get", "/ladder/queue", None, {}, 401, "missing_parameter"),
        ("get", "/ladder/queue", None, {"Authorization": "Bearer nope"}, 400, "unknown_account"),
        ("get", "/ladder/queue", None, {"Authorization": "Basic x"}, 400, "invalid_parameter"),
        ("delete", "/ladder/queue", None, {}, 401, "missing_parameter"),
        ("get", "/ladder/leaderboard/blitz", None, {}, 400, "unknown_pool"),
        ("get", "/ladder/leaderboard/standard-2?limit=0", None, {}, 400, "invalid_request"),
        ("get", "/ladder/players/nobody", None, {}, 404, "unknown_handle"),
        ("get", "/ladder/leaderboard/standard-2?offset=-1", None, {}, 400, "invalid_request"),
        ("get", "/ladder/leaderboard/standard-2?offset=x", None, {}, 400, "invalid_request"),
        (
            "get",
            "/ladder/leaderboard/standard-2?offset=10001",
            None,
            {},
            400,
            "invalid_request",
        ),
        ("delete", "/ladder/me", None, {}, 401, "missing_parameter"),
        ("delete", "/ladder/me", None, {"Authorization": "Bearer nope"}, 400, "unknown_account"),
        ("delete", "/ladder/me/secret", None, {}, 401, "missing_parameter"),
    ],
)
def test_every_bad_request_gets_a_clear_4xx_with_error_and_code(
    http: TestClient,
    method: str,
    path: str,
    body: object,
    headers: dict[str, str],
    status: int,
    code: str,
) -> None:
    answer = http.request(method, path, json=body, headers=headers)
    assert answer.status_code == status, answer.text
    assert answer.json()["code"] == code and answer.json()["error"]


def test_a_taken_handle_and_a_second_queue_while_seated_are_409(http: TestClient) -> None:
    http.post("/ladder/accounts", json={"handle": "Ania"})
    taken = http.post("/ladder/accounts", json={"handle": "ANIA"})
    assert (taken.status_code, taken.json()["code"]) == (409, "handle_taken")
    an_unknown_pool = http.post(
        "/ladder/queue",
        json={"pool": "blitz"},
        headers=bearer(http.post("/ladder/accounts", json={"handle": "Bolek"}).json()["secret"]),
    )
    assert (an_unknown_pool.status_code, an_unknown_pool.json()["code"]) == (400, "unknown_pool")


def test_account_creation_is_limited_per_address(tmp_path: Path) -> None:
    settings = Settings(db_path=tmp_path / "blef.db", run_clock=False)
    with TestClient(buckets_frozen(create_app(settings))) as client:
        answers = [
            client.post("/ladder/accounts", json={"handle": f"spam{i}"}).status_code
            for i in range(7)
        ]
    assert answers[:5] == [201] * 5 and answers[5:] == [429, 429]


def test_the_ladder_is_refused_plainly_on_a_deployment_without_its_table(tmp_path: Path) -> None:
    settings = Settings(
        db_path=tmp_path / "blef.db", run_clock=False, store="dynamodb", ladder_table_name=""
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        answer = client.post("/ladder/accounts", json={"handle": "Ania"})
    assert (answer.status_code, answer.json()["code"]) == (503, "ladder_unavailable")


def test_places_follow_the_players_whatever_seats_the_game_shuffled_them_into(
    tmp_path: Path,
) -> None:
    """The game shuffles its seating at the start; the ladder must place each account by the
    player the game calls it, not by the order it formed the table in (tables until both
    seatings of two players have come up: at least 8, at most 40, so that a miss is 2^-39)."""
    settings = Settings(
        db_path=tmp_path / "blef.db", run_clock=False, ai_think_seconds=0, rate_limit_burst=0
    )
    store = SqliteStore(settings.db_path)
    with TestClient(create_app(settings, GameService(store, settings))) as http:
        _play_eight_tables(http)
    store.close()


def _play_eight_tables(http: TestClient) -> None:
    ladder = http.app.state.ladder.get()  # type: ignore[attr-defined]
    seatings = set()
    for i in range(40):  # new accounts each time: equal ratings, matched at once
        if i >= 8 and len(seatings) == 2:
            break
        winner, loser = f"Celina{i}", f"Darek{i}"
        # Made by the ladder itself: over HTTP one address gets 20 accounts an hour, and a
        # run needing an eleventh table (chance 2^-9) was refused its accounts.
        secrets = {h: ladder.create_account(h)["secret"] for h in (winner, loser)}
        for secret in secrets.values():
            http.post("/ladder/queue", json={"pool": "standard-2"}, headers=bearer(secret))
        ladder.match()
        seats = {h: http.get("/ladder/queue", headers=bearer(s)).json() for h, s in secrets.items()}
        assert {s["state"] for s in seats.values()} == {"seated"}, seats
        game = seats[winner]["game_uuid"]
        players = http.get(f"/games/{game}").json()["players"]
        seatings.add(tuple(p["nickname"] == winner for p in players))
        http.post(f"/games/{game}/resign", headers=bearer(seats[loser]["player_uuid"]))
        ladder.tick()
        results = {
            h: http.get("/ladder/queue", headers=bearer(s)).json() for h, s in secrets.items()
        }
        assert results[winner]["last_result"]["place"] == 1
        assert results[loser]["last_result"]["place"] == 2
    assert len(seatings) == 2


def test_account_making_is_limited_per_address_across_every_server_process(
    tmp_path: Path,
) -> None:
    """Two servers on one store (two ``blef serve`` processes, or two Lambda instances),
    their own per-process buckets turned off: one address gets 20 accounts an hour between
    them, whichever it asks; another address is untouched; the refusal says when to come
    back."""
    settings = Settings(db_path=tmp_path / "blef.db", run_clock=False, rate_limit_burst=0)
    attacker = ("203.0.113.7", 40000)
    with (
        TestClient(create_app(settings), client=attacker) as first,
        TestClient(create_app(settings), client=attacker) as second,
        TestClient(create_app(settings), client=("198.51.100.2", 40000)) as bystander,
    ):
        made = [
            (first if i % 2 else second).post("/ladder/accounts", json={"handle": f"Flood{i}"})
            for i in range(24)
        ]
        assert [r.status_code for r in made] == [201] * 20 + [429] * 4
        refused = made[-1]
        assert refused.json()["code"] == "too_many_accounts"
        assert 1 <= int(refused.headers["Retry-After"]) <= 3600
        assert bystander.post("/ladder/accounts", json={"handle": "Bystander"}).status_code == 201
        # A refused request made nothing: its handle is still free for the bystander.
        assert bystander.post("/ladder/accounts", json={"handle": "Flood23"}).status_code == 201
