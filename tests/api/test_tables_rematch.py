"""Rematch, reactions and reports at the tables of every game over HTTP, as a client written
from api_docs/tables.md uses them (play a game to its end, ask for the rematch, take the
seat it answers) and as an adversary tries them (someone else's secret, a name for a secret,
a seat given up, replayed and reused keys, a flood of reactions, malformed bodies); a
watcher pushed each reaction and the hidden name; and a repeated keyed write answering its
first body byte for byte after the table has moved on."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.clock.local import LocalClock
from tests.support.api import bearer


def key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


def _table(client: TestClient, kind: str, **body: Any) -> str:
    r = client.post(f"/{kind}/games", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["game_uuid"])


def _join(client: TestClient, kind: str, game: str, nickname: str) -> str:
    r = client.post(f"/{kind}/games/{game}/join", json={"nickname": nickname})
    assert r.status_code == 200, r.text
    return str(r.json()["player_uuid"])


def _safe_move(view: dict[str, Any]) -> list[Any]:
    phase = view["phase"]
    if phase["name"] == "investing":
        return [0]
    if phase["name"] == "buy":
        return ["Pass"]
    if phase["name"] == "attacking" and phase["attacker"] == view["player"]:
        return [0]
    return [1]


def _finished_economancy(
    client: TestClient, clock: LocalClock, *names: str
) -> tuple[str, dict[str, str]]:
    """A one-day Economancy table of ``names`` and a computer player, played to its end by
    polling each seat's table and moving when it is that seat's turn."""
    game = _table(client, "economancy", rules={"day_limit": 1})
    secrets = {name: _join(client, "economancy", game, name) for name in names}
    host = secrets[names[0]]
    client.post(f"/economancy/games/{game}/ai", headers=bearer(host), json={"agent": "random"})
    assert client.post(f"/economancy/games/{game}/start", headers=bearer(host)).status_code == 200
    for _ in range(200):
        clock.run_until_idle()
        for secret in secrets.values():
            table = client.get(f"/economancy/games/{game}", headers=bearer(secret)).json()
            if table["status"] == "Finished":
                return game, secrets
            if table["your_turn"]:
                move = _safe_move(table["view"])
                r = client.post(f"/economancy/games/{game}/move", headers=bearer(secret), json=move)
                assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


# ------------------------------------------------------------------ as the user


def test_a_player_finishes_a_game_asks_for_the_rematch_and_plays_the_next_table(
    client: TestClient, clock: LocalClock
) -> None:
    game, p = _finished_economancy(client, clock, "ann", "bob")
    r = client.post(f"/economancy/games/{game}/rematch", headers=bearer(p["bob"]))
    assert r.status_code == 200, r.text
    seat = r.json()
    assert set(seat) == {"game_uuid", "player_uuid", "kind"} and seat["kind"] == "economancy"
    nxt = seat["game_uuid"]
    table = client.get(f"/economancy/games/{nxt}", headers=bearer(seat["player_uuid"])).json()
    assert table["status"] == "Not started" and table["you"] == 0 and table["admin"] == "bob"
    assert [s["ai"] for s in table["seats"]] == [None, "random"]
    assert table["rules"]["day_limit"] == 1
    old = client.get(f"/economancy/games/{game}").json()
    assert old["rematch"] == {"asked": ["bob"]} and nxt not in str(old)

    ann = client.post(f"/economancy/games/{game}/rematch", headers=bearer(p["ann"])).json()
    assert ann["game_uuid"] == nxt
    r = client.post(f"/economancy/games/{nxt}/start", headers=bearer(seat["player_uuid"]))
    assert r.status_code == 200 and r.json()["status"] == "Running"
    assert [s["nickname"] for s in r.json()["seats"]] == ["bob", "Random_(AI)", "ann"]


def test_a_blef_player_asks_the_rematch_at_the_tables_and_gets_blefs_next_game(
    client: TestClient,
) -> None:
    game = _table(client, "blef")
    ann, bob = (_join(client, "blef", game, n) for n in ("ann", "bob"))
    client.post(f"/blef/games/{game}/start", headers=bearer(ann))
    assert client.post(f"/games/{game}/resign", headers=bearer(bob)).status_code == 200
    r = client.post(f"/blef/games/{game}/rematch", headers=bearer(ann), json={})
    assert r.status_code == 200, r.text
    seat = r.json()
    assert seat["kind"] == "blef"
    table = client.get(f"/blef/games/{seat['game_uuid']}", headers=bearer(seat["player_uuid"]))
    assert table.json()["you"] == 0 and table.json()["admin"] == "ann"
    state = client.get(f"/games/{game}").json()  # the established state says who asked
    assert state["rematch"] == {"asked": ["ann"]}


@pytest.mark.parametrize("kind", ["blef", "economancy", "figgie"])
def test_a_reaction_and_a_report_show_in_the_table_of_every_game(
    client: TestClient, kind: str
) -> None:
    game = _table(client, kind)
    p = {n: _join(client, kind, game, n) for n in ("Rude", "bob", "cy")}
    r = client.post(
        f"/{kind}/games/{game}/react", headers=bearer(p["bob"]), json={"reaction": "👏"}
    )
    assert r.status_code == 200, r.text
    assert r.json()["you"] == 1
    assert [(x["nickname"], x["reaction"]) for x in r.json()["reactions"]] == [("bob", "👏")]
    for reporter in ("bob", "cy"):
        r = client.post(
            f"/{kind}/games/{game}/report", headers=bearer(p[reporter]), json={"nickname": "rude"}
        )
        assert r.status_code == 200, r.text
    for secret in (None, p["Rude"], p["cy"]):
        headers = {} if secret is None else bearer(secret)
        seen = client.get(f"/{kind}/games/{game}", headers=headers).text
        assert "Rude" not in seen and "Player_1" in seen


# ------------------------------------------------------------------ as the adversary


def test_a_rematch_takes_only_the_secret_of_a_seat_of_that_finished_table(
    client: TestClient, clock: LocalClock
) -> None:
    game, p = _finished_economancy(client, clock, "ann", "bob")
    other = _table(client, "economancy")
    stranger = _join(client, "economancy", other, "ann")
    url = f"/economancy/games/{game}/rematch"
    for headers in (
        bearer(stranger),  # someone else's secret, same name
        bearer("ann"),  # a name is no secret
        {},
    ):
        r = client.post(url, headers=headers)
        assert r.status_code == 403, (headers, r.text)
        assert r.json()["code"] == "unknown_player"
    r = client.post(url, headers={"Authorization": f"Basic {p['ann']}"})
    assert r.status_code == 400 and r.json()["code"] == "invalid_parameter"
    assert client.get(f"/economancy/games/{game}").json()["rematch"] == {"asked": []}
    seat = client.post(url, headers=bearer(p["ann"])).json()
    r = client.post(url, headers=bearer(seat["player_uuid"]))  # the next table's secret
    assert r.status_code == 403
    r = client.post(f"/figgie/games/{game}/rematch", headers=bearer(p["ann"]))
    assert r.status_code == 404 and r.json()["code"] == "game_not_found"


def test_a_seat_given_up_is_never_handed_back_and_its_player_gets_a_fresh_one(
    client: TestClient, clock: LocalClock
) -> None:
    game, p = _finished_economancy(client, clock, "ann", "bob")
    url = f"/economancy/games/{game}/rematch"
    ann = client.post(url, headers=bearer(p["ann"])).json()
    bob = client.post(url, headers=bearer(p["bob"])).json()
    nxt = bob["game_uuid"]
    r = client.post(f"/economancy/games/{nxt}/leave", headers=bearer(bob["player_uuid"]))
    assert r.status_code == 200
    newcomer = _join(client, "economancy", nxt, "bob")  # takes the name bob gave up
    again = client.post(url, headers=bearer(p["bob"]))
    assert again.status_code == 400 and again.json()["code"] == "nickname_taken"
    again = client.post(url, headers=bearer(p["bob"]), json={"nickname": "bobby"}).json()
    assert again["player_uuid"] not in (bob["player_uuid"], newcomer)
    assert client.post(url, headers=bearer(p["bob"])).json() == again
    r = client.get(f"/economancy/games/{nxt}", headers=bearer(bob["player_uuid"]))
    assert r.status_code == 403
    r = client.post(
        f"/economancy/games/{nxt}/remove",
        headers=bearer(ann["player_uuid"]),
        json={"nickname": "bobby"},
    )
    assert r.status_code == 200
    fresh = client.post(url, headers=bearer(p["bob"]), json={"nickname": "bobby"}).json()
    assert fresh["player_uuid"] not in (again["player_uuid"], bob["player_uuid"], newcomer)


def test_a_rematch_before_the_end_is_refused_and_changes_nothing(client: TestClient) -> None:
    game = _table(client, "figgie")
    ann = _join(client, "figgie", game, "ann")
    before = client.get(f"/figgie/games/{game}").json()
    r = client.post(f"/figgie/games/{game}/rematch", headers=bearer(ann))
    assert r.status_code == 409 and r.json()["code"] == "game_not_finished"
    assert client.get(f"/figgie/games/{game}").json() == before


def test_a_keyed_rematch_replays_its_first_answer_and_refuses_another_request_under_the_key(
    client: TestClient, clock: LocalClock
) -> None:
    game, p = _finished_economancy(client, clock, "ann", "bob")
    url = f"/economancy/games/{game}/rematch"
    k = key()
    first = client.post(url, headers={**bearer(p["ann"]), **k})
    seat = first.json()
    client.post(f"/economancy/games/{seat['game_uuid']}/leave", headers=bearer(seat["player_uuid"]))
    replay = client.post(url, headers={**bearer(p["ann"]), **k})
    assert replay.status_code == 200 and replay.content == first.content
    for headers, body in (
        ({**bearer(p["bob"]), **k}, None),  # another seat under ann's key
        ({**bearer(p["ann"]), **k}, {"nickname": "Anna"}),
    ):
        r = client.post(url, headers=headers, json=body)
        assert r.status_code == 422 and r.json()["code"] == "idempotency_key_reused"
    r = client.post(url, headers={**bearer(p["bob"]), "Idempotency-Key": "1"})
    assert r.status_code == 400 and r.json()["code"] == "weak_idempotency_key"


@pytest.mark.parametrize("kind", ["blef", "economancy", "figgie"])
def test_a_flood_of_reactions_is_refused_with_429_and_nothing_changes(
    client: TestClient, kind: str
) -> None:
    game = _table(client, kind)
    ann = _join(client, kind, game, "ann")
    url = f"/{kind}/games/{game}/react"
    answers = [client.post(url, headers=bearer(ann), json={"reaction": "😂"}) for _ in range(3)]
    assert [r.status_code for r in answers] == [200, 200, 200]
    before = client.get(f"/{kind}/games/{game}").json()
    r = client.post(url, headers=bearer(ann), json={"reaction": "😂"})
    assert r.status_code == 429 and r.json()["code"] == "too_many_reactions"
    assert int(r.headers["Retry-After"]) >= 1
    assert client.get(f"/{kind}/games/{game}").json() == before


@pytest.mark.parametrize("kind", ["blef", "economancy", "figgie"])
def test_malformed_and_refused_bodies_get_a_stable_code_and_change_nothing(
    client: TestClient, kind: str
) -> None:
    game = _table(client, kind)
    ann, _bob = (_join(client, kind, game, n) for n in ("ann", "bob"))
    client.post(f"/{kind}/games/{game}/ai", headers=bearer(ann), json={"agent": "random"})
    before = client.get(f"/{kind}/games/{game}").json()
    cases: list[tuple[str, Any, int, str]] = [
        ("react", {"reaction": 5}, 400, "invalid_request"),
        ("react", {}, 400, "invalid_request"),
        ("react", {"reaction": "👍", "extra": 1}, 400, "invalid_request"),
        ("react", ["👍"], 400, "invalid_request"),
        ("react", {"reaction": "🐍"}, 400, "unknown_reaction"),
        ("report", {"nickname": ""}, 400, "invalid_request"),
        ("report", {"nickname": "ann"}, 400, "cannot_report_self"),
        ("report", {"nickname": "Random_(AI)"}, 400, "cannot_report_ai"),
        ("report", {"nickname": "nobody"}, 400, "unknown_player"),
        ("rematch", {"nickname": 3}, 400, "invalid_request"),
        ("rematch", {"nickname": "x" * 65}, 400, "invalid_request"),
    ]
    for verb, body, status, code in cases:
        r = client.post(f"/{kind}/games/{game}/{verb}", headers=bearer(ann), json=body)
        assert (r.status_code, r.json()["code"]) == (status, code), (verb, body, r.text)
    r = client.post(f"/{kind}/games/{game}/react", json={"reaction": "👍"})  # a spectator
    assert r.status_code == 403 and r.json()["code"] == "unknown_player"
    assert client.get(f"/{kind}/games/{game}").json() == before


# ------------------------------------------------------------------ replays


def test_a_repeated_keyed_blef_move_answers_its_first_table_after_the_table_moved_on(
    client: TestClient,
) -> None:
    game = _table(client, "blef")
    p = [_join(client, "blef", game, n) for n in ("ann", "bob")]
    client.post(f"/blef/games/{game}/start", headers=bearer(p[0]))
    mover = next(
        s for s in p if client.get(f"/blef/games/{game}", headers=bearer(s)).json()["your_turn"]
    )
    other = p[1 - p.index(mover)]
    k = key()
    url = f"/blef/games/{game}/move"
    first = client.post(url, headers={**bearer(mover), **k}, json={"action_id": 0})
    assert first.status_code == 200, first.text
    assert client.post(url, headers=bearer(other), json={"action_id": 1}).status_code == 200
    react = client.post(f"/blef/games/{game}/react", headers=bearer(other), json={"reaction": "👍"})
    assert react.json()["version"] > first.json()["version"]
    replay = client.post(url, headers={**bearer(mover), **k}, json={"action_id": 0})
    assert replay.status_code == 200 and replay.content == first.content
    r = client.post(url, headers={**bearer(mover), **k}, json={"action_id": 2})
    assert r.status_code == 422 and r.json()["code"] == "idempotency_key_reused"
    r = client.post(f"/games/{game}/play", headers={**bearer(mover), **k}, json={"action_id": 0})
    assert r.status_code == 422  # the same key in Blef's other shape is another request


@pytest.mark.parametrize("verb", ["ready", "react", "join"])
def test_every_keyed_blef_table_write_replays_its_first_body(client: TestClient, verb: str) -> None:
    game = _table(client, "blef")
    ann = _join(client, "blef", game, "ann")
    body: dict[str, Any] = {"ready": {"ready": True}, "react": {"reaction": "🎉"}}.get(
        verb, {"nickname": "cy"}
    )
    headers = {**key()} if verb == "join" else {**bearer(ann), **key()}
    url = f"/blef/games/{game}/{verb}"
    first = client.post(url, headers=headers, json=body)
    assert first.status_code == 200, first.text
    _join(client, "blef", game, "bob")  # the table moves on
    replay = client.post(url, headers=headers, json=body)
    assert replay.content == first.content


@pytest.mark.parametrize("kind", ["economancy", "figgie"])
def test_a_repeated_keyed_ready_at_other_games_answers_its_first_table(
    client: TestClient, kind: str
) -> None:
    game = _table(client, kind)
    ann = _join(client, kind, game, "ann")
    headers = {**bearer(ann), **key()}
    first = client.post(f"/{kind}/games/{game}/ready", headers=headers, json={"ready": True})
    _join(client, kind, game, "bob")
    client.post(f"/{kind}/games/{game}/react", headers=bearer(ann), json={"reaction": "🎉"})
    replay = client.post(f"/{kind}/games/{game}/ready", headers=headers, json={"ready": True})
    assert replay.content == first.content


def test_a_watcher_of_a_table_is_pushed_each_reaction_and_the_hidden_name_after_a_report(
    client: TestClient,
) -> None:
    game = _table(client, "figgie")
    p = {n: _join(client, "figgie", game, n) for n in ("Rude", "bob", "cy")}
    with client.websocket_connect("/ws", headers={"game_uuid": game}) as ws:
        first = json.loads(json.loads(ws.receive_text())["body"])
        assert first["reactions"] == []
        client.post(f"/figgie/games/{game}/react", headers=bearer(p["cy"]), json={"reaction": "🎉"})
        pushed = json.loads(json.loads(ws.receive_text())["body"])
        assert pushed["you"] is None
        assert [(r["nickname"], r["reaction"]) for r in pushed["reactions"]] == [("cy", "🎉")]
        for reporter in ("bob", "cy"):
            client.post(
                f"/figgie/games/{game}/report",
                headers=bearer(p[reporter]),
                json={"nickname": "Rude"},
            )
        bodies = [json.loads(ws.receive_text())["body"] for _ in range(2)]
        assert "Rude" in bodies[0] and "Rude" not in bodies[1] and "Player_1" in bodies[1]
