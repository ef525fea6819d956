"""A finished Economancy game's record over HTTP (``GET /economancy/games/{uuid}/record``),
as the browser's replay reads it, and as the adversary tries it: the record of a game in the
lobby or in play (refused in words, nothing of the game in the answer), of no game, of a
Blef game, of a Figgie table (no such route), with a malformed UUID."""

from __future__ import annotations

import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.config.settings import Settings
from app.service import GameService
from app.store.base import GameStore
from tests.support.api import bearer

SCRIPT: list[tuple[int, list[Any]]] = [
    (0, [0]),  # day 1: nobody invests, so nobody attacks
    (1, [0]),
    (0, ["Ghost"]),
    (1, ["Worker"]),
    (0, [1]),  # day 2: ann invests the most and attacks with her Ghost
    (1, [0]),
    (0, [1]),
    (1, [1]),  # bob defends with his Worker, which faints (Ghost's attack 3 > defence 2)
    (0, ["Pass"]),
    (1, ["Pass"]),  # the day limit: a draw
]


def _seated(client: TestClient) -> tuple[str, list[str]]:
    game = client.post("/economancy/games", json={"rules": {"day_limit": 2}}).json()["game_uuid"]
    seats = []
    for name in ("ann", "bob"):
        r = client.post(f"/economancy/games/{game}/join", json={"nickname": name})
        seats.append(r.json()["player_uuid"])
    r = client.post(f"/economancy/games/{game}/start", headers=bearer(seats[0]))
    assert r.status_code == 200, r.text
    return game, seats


def _play(client: TestClient, game: str, seats: list[str], moves: Any) -> None:
    for seat, move in moves:
        r = client.post(f"/economancy/games/{game}/move", headers=bearer(seats[seat]), json=move)
        assert r.status_code == 200, r.text


def test_a_finished_game_is_given_to_anyone_step_by_step(client: TestClient) -> None:
    game, seats = _seated(client)
    _play(client, game, seats, SCRIPT)
    final = client.get(f"/economancy/games/{game}").json()
    assert final["status"] == "Finished"

    r = client.get(f"/economancy/games/{game}/record")  # no Bearer: anyone
    assert r.status_code == 200, r.text
    record = r.json()
    assert record["game_uuid"] == game and record["kind"] == "economancy"
    assert [s["nickname"] for s in record["seats"]] == ["ann", "bob"]
    assert record["result"] == final["result"]
    steps = record["steps"]
    kinds = [[e["kind"] for e in step["events"]] for step in steps]
    assert kinds == [
        ["started"],
        ["invested"],
        ["bought"],
        ["invested"],
        ["attacks"],
        ["fight"],
        ["bought", "game_over"],
    ]
    assert [step["day_count"] for step in steps] == [1, 1, 2, 2, 2, 2, 2]
    fight = steps[5]["events"][0]
    assert fight["fainted"] == [[1, 1, "Worker"]]
    before, after = steps[4]["view"]["players"][1], steps[5]["view"]["players"][1]
    assert [c["name"] for c in before["cards"]] == ["Sorcerer's Stipend", "Worker"]
    assert [c["name"] for c in after["cards"]] == ["Sorcerer's Stipend"]
    assert steps[-1]["view"] == final["view"]
    assert all(step["view"]["player"] is None for step in steps)


def test_the_record_of_a_game_not_over_is_refused_in_words_and_shows_nothing(
    client: TestClient,
) -> None:
    lobby = client.post("/economancy/games", json={}).json()["game_uuid"]
    r = client.get(f"/economancy/games/{lobby}/record")
    assert r.status_code == 409 and r.json()["code"] == "game_not_finished"
    game, seats = _seated(client)
    _play(client, game, seats, [(0, [2])])  # ann's hidden investment: 2
    for headers in ({}, bearer(seats[0]), bearer(seats[1])):
        r = client.get(f"/economancy/games/{game}/record", headers=headers)
        assert r.status_code == 409, r.text
        body = r.json()
        assert body["code"] == "game_not_finished"
        assert "once it has" in body["error"]
        assert set(body) <= {"code", "error", "message", "detail"}
    bob_sees = client.get(f"/economancy/games/{game}", headers=bearer(seats[1])).json()
    assert bob_sees["events"] == [{"kind": "chose", "seat": 0}]


def test_two_tables_that_differ_only_in_a_hidden_choice_answer_everyone_else_alike(
    client: TestClient,
) -> None:
    """ann invests 2 at one table and 1 at the other: bob, a spectator and the record route
    are answered the same at both until bob chooses too."""
    games = [_seated(client), _seated(client)]
    for (game, seats), amount in zip(games, (2, 1), strict=True):
        _play(client, game, seats, [(0, [amount])])

    def seen(game: str, seats: list[str]) -> list[Any]:
        answers = []
        for headers in ({}, bearer(seats[1])):
            body = client.get(f"/economancy/games/{game}", headers=headers).json()
            answers.append({k: v for k, v in body.items() if k != "game_uuid"})
        record = client.get(f"/economancy/games/{game}/record", headers=bearer(seats[1]))
        answers.append((record.status_code, record.json()))
        return answers

    assert seen(*games[0]) == seen(*games[1])
    for game, seats in games:
        _play(client, game, seats, [(1, [0])])
    revealed = [client.get(f"/economancy/games/{g}").json()["events"] for g, _ in games]
    assert revealed[0][0]["amounts"] == [2, 0] and revealed[1][0]["amounts"] == [1, 0]


def test_the_record_of_no_game_another_games_table_or_a_bad_uuid_is_refused(
    client: TestClient, service: GameService
) -> None:
    r = client.get(f"/economancy/games/{uuid.uuid4()}/record")
    assert r.status_code == 404 and r.json()["code"] == "game_not_found"
    r = client.get("/economancy/games/not-a-uuid/record")
    assert r.status_code == 400 and r.json()["code"] == "invalid_parameter"
    blef = client.post("/blef/games", json={}).json()["game_uuid"]
    r = client.get(f"/economancy/games/{blef}/record")
    assert r.status_code == 404 and r.json()["code"] == "game_not_found"
    figgie = client.post("/figgie/games", json={}).json()["game_uuid"]
    r = client.get(f"/economancy/games/{figgie}/record")
    assert r.status_code == 404 and r.json()["code"] == "game_not_found"


def test_a_finished_game_started_before_records_were_kept_says_so(
    client: TestClient, service: GameService
) -> None:
    game, seats = _seated(client)
    doc = service.store.load(game)
    assert doc is not None
    doc.state.pop("log")  # as an older service stored it
    service.store.save(replace(doc, version=doc.version + 1), doc.version)
    _play(client, game, seats, SCRIPT)
    r = client.get(f"/economancy/games/{game}/record")
    assert r.status_code == 404 and r.json()["code"] == "record_not_kept"
    assert "Economancy" in r.json()["error"]


def test_the_record_is_the_same_on_every_store(store: GameStore, tmp_path: Path) -> None:
    """The log (nulls, nested lists, card names) comes back from SQLite and DynamoDB (moto)
    as it was stored, so both answer the same record."""
    settings = Settings(db_path=tmp_path / "blef.db", ai_think_seconds=0, run_clock=False)
    service = GameService(store, settings)
    game = service.create_table("economancy", {"day_limit": 2})["game_uuid"]
    seats = [service.join_table("economancy", game, n)["player_uuid"] for n in ("ann", "bob")]
    service.start_table("economancy", game, seats[0])
    for seat, move in SCRIPT:
        service.move("economancy", game, seats[seat], move)
    steps = service.table_record("economancy", game)["steps"]
    assert steps[5]["events"][0]["fainted"] == [[1, 1, "Worker"]]
    assert steps[1]["events"][0]["amounts"] == [0, 0]
    assert len(steps) == 7
