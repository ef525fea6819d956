"""A finished Figgie game's record over HTTP (``GET /figgie/games/{uuid}/record``), as the
browser's replay reads it, and as the adversary tries it: before the end (refused in words,
nothing of the game in the answer, never cached), no game, a malformed UUID, another game's
table under /figgie, and the secrets (seats' UUIDs, a hand before the end) never in it. Then
the caching every kind's record shares: a finished game's record never changes, so it has an
ETag, a second read with ``If-None-Match`` is ``304`` with no body, and a refusal is not
cached (Blef's established record route too, its document unchanged)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api.main import create_app
from app.config.settings import Settings
from app.service import GameService
from app.store.sqlite import SqliteStore
from engine.dealing import seed_sequence
from tests.support.api import bearer
from tests.support.clock import FakeClock

TRADING_SECONDS = 10
NAMES = ("ann", "bob", "cid", "dee")


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


@pytest.fixture
def http(tmp_path: Path, fake: FakeClock) -> Iterator[tuple[TestClient, GameService]]:
    settings = Settings(db_path=tmp_path / "record.db", run_clock=False, ai_think_seconds=0)
    store = SqliteStore(settings.db_path)
    service = GameService(store, settings, clock=fake, seed_source=seed_sequence(29))
    with TestClient(create_app(settings, service), raise_server_exceptions=False) as client:
        yield client, service
    store.close()


def _started(client: TestClient) -> tuple[str, list[str]]:
    rules = {"trading_seconds": TRADING_SECONDS}
    game = client.post("/figgie/games", json={"rules": rules}).json()["game_uuid"]
    seats = [
        client.post(f"/figgie/games/{game}/join", json={"nickname": n}).json()["player_uuid"]
        for n in NAMES
    ]
    r = client.post(f"/figgie/games/{game}/start", headers=bearer(seats[0]))
    assert r.status_code == 200, r.text
    return game, seats


def _trade(client: TestClient, game: str, seats: list[str]) -> None:
    """ann asks at 5 in a suit she holds; bob buys it: one trade on the tape."""
    hand = client.get(f"/figgie/games/{game}", headers=bearer(seats[0])).json()["view"]["hand"]
    suit = next(s for s, n in hand.items() if n)
    move = f"/figgie/games/{game}/move"
    order = {"type": "ask", "suit": suit, "price": 5}
    assert client.post(move, headers=bearer(seats[0]), json=order).is_success
    lift = {"type": "lift", "suit": suit}
    assert client.post(move, headers=bearer(seats[1]), json=lift).is_success


def _finish(service: GameService, fake: FakeClock) -> None:
    """The trading time runs out; the service's clock settles the game."""
    fake.advance(TRADING_SECONDS + 1)
    service.sweep()


def _finished(client: TestClient, service: GameService, fake: FakeClock) -> tuple[str, list[str]]:
    game, seats = _started(client)
    _trade(client, game, seats)
    _finish(service, fake)
    return game, seats


def test_a_finished_figgie_game_is_given_to_anyone_as_everyone_sees_it_settled(
    http: tuple[TestClient, GameService], fake: FakeClock
) -> None:
    client, service = http
    game, _seats = _finished(client, service, fake)
    table = client.get(f"/figgie/games/{game}").json()  # a spectator's table
    assert table["status"] == "Finished"

    r = client.get(f"/figgie/games/{game}/record")  # no Bearer: anyone
    assert r.status_code == 200, r.text
    record = r.json()
    assert record["game_uuid"] == game and record["kind"] == "figgie"
    assert isinstance(record["room"], int) and record["rules"] == table["rules"]
    assert record["seats"] == [{"nickname": n, "ai": None} for n in NAMES]
    assert record["result"] == table["result"]
    assert record["view"] == table["view"]  # the settled view everyone is shown
    view = record["view"]
    assert view["settled"] is True and view["seat"] is None and "hand" not in view
    assert len(view["tape"]) == 1 and view["tape"][0]["price"] == 5
    assert view["tape"][0]["buyer"] == 1 and view["tape"][0]["seller"] == 0
    settlement = view["settlement"]
    assert len(settlement["hands"]) == len(NAMES)  # every hand, at the end only
    assert sum(view["chips"]) == 4 * 350


def test_a_seat_reading_the_record_gets_the_same_public_record_and_no_secret(
    http: tuple[TestClient, GameService], fake: FakeClock
) -> None:
    client, service = http
    game, seats = _finished(client, service, fake)
    anyone = client.get(f"/figgie/games/{game}/record")
    for secret in seats:
        mine = client.get(f"/figgie/games/{game}/record", headers=bearer(secret))
        assert mine.status_code == 200 and mine.json() == anyone.json()
    text = anyone.text
    assert all(secret not in text for secret in seats)
    assert "player_uuid" not in text


def test_the_record_of_a_figgie_game_not_over_is_refused_in_words_shows_nothing_and_is_not_cached(
    http: tuple[TestClient, GameService], fake: FakeClock
) -> None:
    client, service = http
    lobby = client.post("/figgie/games", json={}).json()["game_uuid"]
    r = client.get(f"/figgie/games/{lobby}/record")
    assert r.status_code == 409 and r.json()["code"] == "game_not_finished"
    game, seats = _started(client)
    _trade(client, game, seats)
    hands = [
        client.get(f"/figgie/games/{game}", headers=bearer(s)).json()["view"]["hand"] for s in seats
    ]
    fake.advance(TRADING_SECONDS - 1)  # one second of trading left
    service.sweep()
    for headers in ({}, bearer(seats[0]), {"If-None-Match": "*"}):
        r = client.get(f"/figgie/games/{game}/record", headers=headers)
        assert r.status_code == 409, r.text
        body = r.json()
        assert body["code"] == "game_not_finished" and "once it has" in body["error"]
        assert set(body) <= {"code", "error", "message", "detail"}
        assert r.headers["cache-control"] == "no-store" and "etag" not in r.headers
        assert "settlement" not in r.text and "tape" not in r.text
    assert client.get(f"/figgie/games/{game}").json()["status"] == "Running"
    _finish(service, fake)
    settled = client.get(f"/figgie/games/{game}/record").json()["view"]["settlement"]
    assert len(settled["hands"]) == len(hands)  # the hands are in the record once it is over


def test_the_figgie_record_of_no_game_a_bad_uuid_or_another_games_table_is_refused(
    http: tuple[TestClient, GameService], fake: FakeClock
) -> None:
    client, _service = http
    r = client.get(f"/figgie/games/{uuid.uuid4()}/record")
    assert r.status_code == 404 and r.json()["code"] == "game_not_found"
    r = client.get("/figgie/games/not-a-uuid/record")
    assert r.status_code == 400 and r.json()["code"] == "invalid_parameter"
    econ = client.post("/economancy/games", json={}).json()["game_uuid"]
    r = client.get(f"/figgie/games/{econ}/record")
    assert r.status_code == 404 and r.json()["code"] == "game_not_found"
    blef = client.post("/blef/games", json={}).json()["game_uuid"]
    r = client.get(f"/figgie/games/{blef}/record")
    assert r.status_code == 404 and r.json()["code"] == "game_not_found"
    figgie = client.post("/figgie/games", json={}).json()["game_uuid"]
    r = client.get(f"/economancy/games/{figgie}/record")
    assert r.status_code == 404 and r.json()["code"] == "game_not_found"


# ---------------------------------------------------------------- every kind's caching


def _economancy_finished(client: TestClient) -> str:
    game = client.post("/economancy/games", json={"rules": {"day_limit": 1}}).json()["game_uuid"]
    seats = [
        client.post(f"/economancy/games/{game}/join", json={"nickname": n}).json()["player_uuid"]
        for n in ("ann", "bob")
    ]
    client.post(f"/economancy/games/{game}/start", headers=bearer(seats[0]))
    for seat, move in [(0, [0]), (1, [0]), (0, ["Pass"]), (1, ["Pass"])]:
        r = client.post(f"/economancy/games/{game}/move", headers=bearer(seats[seat]), json=move)
        assert r.status_code == 200, r.text
    return game


def _blef_finished(client: TestClient) -> str:
    game = client.get("/games/create").json()["game_uuid"]
    ann = client.get(f"/games/{game}/join", params={"nickname": "ann"}).json()["player_uuid"]
    bob = client.get(f"/games/{game}/join", params={"nickname": "bob"}).json()["player_uuid"]
    assert client.get(f"/games/{game}/start", params={"admin_uuid": ann}).status_code == 202
    assert client.post(f"/games/{game}/resign", headers=bearer(bob)).status_code == 200
    return str(game)


def _record_paths(client: TestClient, service: GameService, fake: FakeClock) -> list[str]:
    figgie, _ = _finished(client, service, fake)
    return [
        f"/figgie/games/{figgie}/record",
        f"/economancy/games/{_economancy_finished(client)}/record",
        f"/games/{_blef_finished(client)}/record",
    ]


def test_a_finished_games_record_of_every_kind_has_an_etag_and_answers_304_when_unchanged(
    http: tuple[TestClient, GameService], fake: FakeClock
) -> None:
    client, service = http
    for path in _record_paths(client, service, fake):
        first = client.get(path)
        assert first.status_code == 200, (path, first.text)
        tag = first.headers["etag"]
        assert tag.startswith('"') and tag.endswith('"')
        cache = first.headers["cache-control"]
        assert "max-age=" in cache and "immutable" in cache and "no-" not in cache, path
        again = client.get(path)
        assert again.headers["etag"] == tag and again.content == first.content

        same = client.get(path, headers={"If-None-Match": tag})
        assert same.status_code == 304, path
        assert same.content == b"" and same.headers["etag"] == tag
        listed = client.get(path, headers={"If-None-Match": f'"old", {tag}'})
        assert listed.status_code == 304
        other = client.get(path, headers={"If-None-Match": '"not-this-one"'})
        assert other.status_code == 200 and other.json() == first.json()


def test_the_records_of_two_different_finished_games_have_different_etags(
    http: tuple[TestClient, GameService], fake: FakeClock
) -> None:
    client, _service = http
    tags = {
        client.get(f"/economancy/games/{_economancy_finished(client)}/record").headers["etag"]
        for _ in range(2)
    }
    assert len(tags) == 2  # the game's UUID is in its record


def test_an_unfinished_game_of_any_kind_is_never_cached(
    http: tuple[TestClient, GameService], fake: FakeClock
) -> None:
    client, _service = http
    econ = client.post("/economancy/games", json={}).json()["game_uuid"]
    figgie = client.post("/figgie/games", json={}).json()["game_uuid"]
    blef = client.get("/games/create").json()["game_uuid"]
    for path in (
        f"/economancy/games/{econ}/record",
        f"/figgie/games/{figgie}/record",
        f"/games/{blef}/record",
    ):
        r = client.get(path, headers={"If-None-Match": "*"})
        assert r.status_code == 409 and r.json()["code"] == "game_not_finished", path
        assert r.headers["cache-control"] == "no-store" and "etag" not in r.headers


def test_the_figgie_record_is_documented_with_its_own_schema(
    http: tuple[TestClient, GameService],
) -> None:
    client, _service = http
    document = client.get("/openapi.json").json()
    answers = document["paths"]["/figgie/games/{game_uuid}/record"]["get"]["responses"]
    assert answers["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/FiggieRecord")
    assert {"304", "404", "409"} <= set(answers)
    schema = document["components"]["schemas"]["FiggieRecord"]
    assert "view" in schema["required"]
    assert json.dumps(schema).count("player_uuid") == 0
