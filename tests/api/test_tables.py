"""Tables of Economancy and Figgie over HTTP (app/api/routes/tables.py), as a bot author
uses them (poll GET with the seat's Bearer secret, post the game's move JSON when it is the
seat's turn) and as an adversary tries them (wrong secret, a spectator moving, out of turn,
malformed moves, unknown games, a replayed Idempotency-Key with another body, a flood)."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient

from app.clock.local import LocalClock
from tests.support.api import bearer


def _table(client: TestClient, kind: str, **body: Any) -> str:
    r = client.post(f"/{kind}/games", json=body)
    assert r.status_code == 201, r.text
    assert r.json()["kind"] == kind
    return str(r.json()["game_uuid"])


def _join(client: TestClient, kind: str, game: str, nickname: str) -> str:
    r = client.post(f"/{kind}/games/{game}/join", json={"nickname": nickname})
    assert r.status_code == 200, r.text
    return str(r.json()["player_uuid"])


def _safe_economancy_move(view: dict[str, Any]) -> list[Any]:
    """What a cautious bot sends: invest nothing, never attack, pass on buying, defend with
    its first card that still can."""
    phase = view["phase"]["name"]
    if phase == "investing":
        return [0]
    if phase == "buy":
        return ["Pass"]
    if phase == "attacking" and view["phase"]["attacker"] == view["player"]:
        return [0]
    return [1]


def test_a_game_describes_itself_and_its_computer_players(client: TestClient) -> None:
    info = client.get("/economancy").json()
    assert (info["min_seats"], info["max_seats"]) == (2, 4)
    assert info["rules"]["bubble_attack"] == 9
    assert "ours" in info["agents"]
    figgie = client.get("/figgie").json()
    assert figgie["rules"]["trading_seconds"] == 240.0


def test_two_bots_poll_and_move_an_economancy_game_to_its_end(client: TestClient) -> None:
    game = _table(client, "economancy", rules={"day_limit": 3}, public=True)
    listed = client.get("/economancy/games").json()["games"]
    assert [g["game_uuid"] for g in listed] == [game]
    bots = [_join(client, "economancy", game, name) for name in ("ann", "bob")]
    r = client.post(f"/economancy/games/{game}/start", headers=bearer(bots[0]))
    assert r.status_code == 200, r.text
    for _ in range(200):
        states = [client.get(f"/economancy/games/{game}", headers=bearer(b)).json() for b in bots]
        if states[0]["status"] == "Finished":
            break
        for secret, state in zip(bots, states, strict=True):
            if state["your_turn"]:
                move = _safe_economancy_move(state["view"])
                r = client.post(f"/economancy/games/{game}/move", headers=bearer(secret), json=move)
                assert r.status_code == 200, r.text
    final = client.get(f"/economancy/games/{game}").json()
    assert final["status"] == "Finished"
    assert final["result"]["reason"] == "day_limit"
    assert final["you"] is None and final["view"]["player"] is None


def test_a_person_plays_the_computer_and_the_clock_moves_it(
    client: TestClient, clock: LocalClock
) -> None:
    game = _table(client, "economancy", rules={"day_limit": 2})
    ann = _join(client, "economancy", game, "ann")
    r = client.post(f"/economancy/games/{game}/ai", headers=bearer(ann), json={"agent": "ours"})
    assert r.json()["seats"][1]["ai"] == "planner"
    client.post(f"/economancy/games/{game}/start", headers=bearer(ann))
    for _ in range(100):
        clock.run_until_idle()
        state = client.get(f"/economancy/games/{game}", headers=bearer(ann)).json()
        if state["status"] == "Finished":
            break
        assert state["your_turn"], state["turn"]
        move = _safe_economancy_move(state["view"])
        client.post(f"/economancy/games/{game}/move", headers=bearer(ann), json=move)
    assert state["status"] == "Finished"


def test_the_adversary_gets_a_clear_refusal_and_changes_nothing(client: TestClient) -> None:
    game = _table(client, "economancy")
    ann = _join(client, "economancy", game, "ann")
    bob = _join(client, "economancy", game, "bob")
    url = f"/economancy/games/{game}"
    client.post(f"{url}/start", headers=bearer(ann))
    version = client.get(url).json()["version"]

    def refused(status: int, code: str, response: Any) -> None:
        assert response.status_code == status, response.text
        assert response.json()["code"] == code
        assert response.json()["error"]
        assert client.get(url).json()["version"] == version

    stranger = bearer(str(uuid.uuid4()))
    refused(403, "unknown_player", client.post(f"{url}/move", headers=stranger, json=[0]))
    refused(403, "unknown_player", client.get(url, headers=stranger))
    refused(403, "unknown_player", client.post(f"{url}/move", json=[0]))  # a spectator
    refused(422, "malformed_move", client.post(f"{url}/move", headers=bearer(ann), json={}))
    refused(422, "malformed_move", client.post(f"{url}/move", headers=bearer(ann), json=[1, 2]))
    refused(409, "bad_investment", client.post(f"{url}/move", headers=bearer(ann), json=[99]))
    refused(404, "unknown_game_kind", client.post("/chess/games", json={}))
    refused(404, "unknown_game_kind", client.get(f"/chess/games/{game}"))
    refused(404, "game_not_found", client.get(f"/figgie/games/{game}"))
    refused(404, "game_not_found", client.get(f"/economancy/games/{uuid.uuid4()}"))
    refused(422, "invalid_rules", client.post("/economancy/games", json={"rules": {"x": 1}}))
    key = {"Idempotency-Key": str(uuid.uuid4()), **bearer(ann)}
    first = client.post(f"{url}/move", headers=key, json=[1])
    assert first.status_code == 200
    assert client.post(f"{url}/move", headers=key, json=[1]).json() == first.json()
    version = first.json()["version"]
    refused(422, "idempotency_key_reused", client.post(f"{url}/move", headers=key, json=[0]))
    refused(409, "already_chose", client.post(f"{url}/move", headers=bearer(ann), json=[0]))
    agent = {"agent": "random"}
    refused(403, "game_already_started", client.post(f"{url}/ai", headers=bearer(ann), json=agent))
    refused(403, "game_already_started", client.post(f"{url}/leave", headers=bearer(bob)))


def test_an_unknown_agent_is_named_as_such(client: TestClient) -> None:
    game = _table(client, "figgie")
    ann = _join(client, "figgie", game, "ann")
    r = client.post(f"/figgie/games/{game}/ai", headers=bearer(ann), json={"agent": "hal"})
    assert r.status_code == 400
    assert "bayesian" in r.json()["error"]


def test_a_flood_of_orders_is_refused_with_429_and_retry_after(client: TestClient) -> None:
    game = _table(client, "figgie")
    seats = [_join(client, "figgie", game, n) for n in ("ann", "bob", "cid", "dee")]
    client.post(f"/figgie/games/{game}/start", headers=bearer(seats[0]))
    statuses = []
    for k in range(40):
        order = {"type": "bid" if k % 2 == 0 else "cancel_bid", "suit": "hearts"}
        if k % 2 == 0:
            order["price"] = 2
        statuses.append(
            client.post(f"/figgie/games/{game}/move", headers=bearer(seats[0]), json=order)
        )
    assert statuses[0].status_code == 200
    limited = [r for r in statuses if r.status_code == 429]
    assert limited and limited[0].json()["code"] == "too_many_orders"
    assert int(limited[0].headers["Retry-After"]) >= 1


def test_a_lobby_goes_as_blefs_does(client: TestClient) -> None:
    game = _table(client, "figgie")
    url = f"/figgie/games/{game}"
    ann = _join(client, "figgie", game, "ann")
    bob = _join(client, "figgie", game, "bob")
    r = client.post(f"{url}/ai", headers=bearer(bob), json={"agent": "random"})
    assert r.status_code == 400 and r.json()["code"] == "not_admin"
    r = client.post(f"{url}/ready", headers=bearer(bob), json={"ready": True})
    assert r.json()["seats"][1]["ready"] is True
    assert r.json()["you"] == 1
    r = client.post(f"{url}/remove", headers=bearer(ann), json={"nickname": "bob"})
    assert [s["nickname"] for s in r.json()["seats"]] == ["ann"]
    r = client.post(f"{url}/start", headers=bearer(ann))
    assert r.status_code == 403 and r.json()["code"] == "too_few_players"
    r = client.post(f"{url}/leave", headers=bearer(ann))
    assert r.json()["seats"] == []
    assert client.post(f"{url}/leave", headers=bearer(ann)).status_code == 403
