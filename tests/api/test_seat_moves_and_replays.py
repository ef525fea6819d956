"""Over HTTP and the local websocket: a seat moved to another device (``POST
/games/{game_uuid}/move-seat``) retires its old secret (403 ``seat_moved``, in words), and a
create's Idempotency-Key answers its first answer or refuses another request (422
``idempotency_key_reused``)."""

from __future__ import annotations

import uuid

from fastapi.testclient import TestClient

from tests.api.test_watch_websocket import closed_with, headers, receive
from tests.support.api import Blef, bearer


def move(client: TestClient, game: str, secret: str, key: str | None = None) -> dict[str, str]:
    sent = bearer(secret) | ({"Idempotency-Key": key} if key else {})
    reply = client.post(f"/games/{game}/move-seat", headers=sent)
    assert reply.status_code == 200, reply.text
    body: dict[str, str] = reply.json()
    return body


def test_the_new_device_gets_a_fresh_secret_and_the_old_one_gets_403_saying_the_seat_moved(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    alice, bob = blef.join(game, "alice"), blef.join(game, "bob")
    blef.start(game, alice)
    moved = move(client, game, bob)
    assert moved["game_uuid"] == game and moved["nickname"] == "bob"
    assert moved["player_uuid"] not in (alice, bob)
    assert blef.state(game, moved["player_uuid"])["you"] == "bob"
    for refused in (
        client.get(f"/games/{game}", params={"player_uuid": bob}),
        client.get(f"/games/{game}/play", params={"player_uuid": bob, "action_id": "0"}),
        client.post(f"/games/{game}/move-seat", headers=bearer(bob)),
        client.post(f"/games/{game}/react", headers=bearer(bob), json={"reaction": "👍"}),
    ):
        assert refused.status_code == 403
        assert refused.json()["code"] == "seat_moved"
        assert "moved to another device" in refused.json()["error"]


def test_a_player_who_never_moves_keeps_their_secret_and_a_stranger_cannot_move_a_seat(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    alice, bob = blef.join(game, "alice"), blef.join(game, "bob")
    move(client, game, bob)
    assert blef.state(game, alice)["you"] == "alice"
    stranger = client.post(f"/games/{game}/move-seat", headers=bearer(str(uuid.uuid4())))
    assert stranger.status_code == 400 and stranger.json()["code"] == "unknown_player"
    nobody = client.post(f"/games/{game}/move-seat")
    assert nobody.status_code == 401


def test_a_lost_answer_to_a_move_is_answered_again_to_its_retry(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    bob = blef.join(game, "bob")
    key = str(uuid.uuid4())
    assert move(client, game, bob, key) == move(client, game, bob, key)
    weak = client.post(
        f"/games/{game}/move-seat", headers=bearer(bob) | {"Idempotency-Key": "move-1"}
    )
    assert weak.status_code == 400 and weak.json()["code"] == "weak_idempotency_key"


def test_the_old_devices_websocket_is_told_the_seat_moved_and_closed(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    alice, bob = blef.join(game, "alice"), blef.join(game, "bob")
    with client.websocket_connect("/ws", headers=headers(game, bob)) as ws:
        assert receive(ws)[1]["you"] == "bob"
        fresh = move(client, game, bob)["player_uuid"]
        status, body = receive(ws)
        assert status == 403 and body["code"] == "seat_moved"
        assert "moved to another device" in body["error"]
        assert closed_with(ws) == 1008
    with client.websocket_connect("/ws", headers=headers(game, bob)) as ws:
        status, body = receive(ws)
        assert status == 403 and body["code"] == "seat_moved"
    with client.websocket_connect("/ws", headers=headers(game, fresh)) as ws:
        assert receive(ws)[1]["you"] == "bob"
    assert blef.state(game, alice)["you"] == "alice"


def test_a_create_key_answers_its_first_answer_and_refuses_another_nickname_in_words(
    client: TestClient,
) -> None:
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post("/games/create", headers=key, json={"nickname": "Sam"})
    assert first.status_code == 200
    game = first.json()["game_uuid"]
    assert client.get(f"/games/{game}/join", params={"nickname": "Hal"}).status_code == 200
    other = client.post("/games/create", headers=key, json={"nickname": "Hal"})
    assert other.status_code == 422
    assert other.json()["code"] == "idempotency_key_reused"
    assert "different request" in other.json()["error"]
    again = client.post("/games/create", headers=key, json={"nickname": "Sam"})
    assert again.status_code == 200 and again.json() == first.json()
