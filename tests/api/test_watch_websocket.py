"""The local websocket (``/ws``): what the established iOS client gets when it watches a game
on ``blef serve``.

Every message is ``{"statusCode": ..., "body": "<JSON as a string>"}``. Waiting for a message
is bounded (a test fails instead of hanging), but nothing here depends on how long anything
takes: changes are pushed as they are saved, and each test waits for the message it expects.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from app.api.main import create_app
from app.config.settings import Settings
from app.service import GameService
from tests.support.api import Blef
from tests.support.served import served

T = TypeVar("T")

WAIT_SECONDS = 60.0
"""A bound on waiting for one message, against hanging: never reached when things work."""


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(db_path=tmp_path / "blef.db", ai_think_seconds=0, run_clock=False)


def bounded(read: Callable[[], T]) -> T:
    """``read()``, failing the test after WAIT_SECONDS instead of waiting for ever."""
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(read).result(timeout=WAIT_SECONDS)
    finally:
        pool.shutdown(wait=False)


def receive(ws: WebSocketTestSession) -> tuple[int, dict[str, Any]]:
    """The next message as (statusCode, the body parsed from its string), the way the iOS
    client reads it."""
    message = json.loads(bounded(ws.receive_text))
    assert set(message) == {"statusCode", "body"}
    assert isinstance(message["body"], str)
    return message["statusCode"], json.loads(message["body"])


def closed_with(ws: WebSocketTestSession) -> int:
    """The close code the server ends the connection with (after any message read)."""
    with pytest.raises(WebSocketDisconnect) as closed:
        bounded(ws.receive_text)
    return closed.value.code


def headers(game: str, player: str | None = None) -> dict[str, str]:
    """The upgrade request's headers, as the iOS client sends them."""
    sent = {"game_uuid": game}
    if player is not None:
        sent["player_uuid"] = player
    return sent


def mover_of(blef: Blef, game: str, players: dict[str, str]) -> str:
    return players[blef.state(game)["cp_nickname"]]


@pytest.fixture
def game(blef: Blef) -> tuple[str, dict[str, str]]:
    """A started game of alice and bob, and their UUIDs by nickname."""
    game = blef.create()
    players = {name: blef.join(game, name) for name in ("alice", "bob")}
    blef.start(game, players["alice"])
    return game, players


@pytest.mark.parametrize("path", ["/ws", "/ws/live"])
def test_the_first_message_is_the_players_state_exactly_as_the_http_route_gives_it(
    client: TestClient, blef: Blef, game: tuple[str, dict[str, str]], path: str
) -> None:
    game_uuid, players = game
    with client.websocket_connect(path, headers=headers(game_uuid, players["alice"])) as ws:
        status, body = receive(ws)
    assert status == 200
    assert body == blef.state(game_uuid, players["alice"])


def test_a_move_by_another_client_sends_the_new_state_with_a_higher_version(
    client: TestClient, blef: Blef, game: tuple[str, dict[str, str]]
) -> None:
    game_uuid, players = game
    with client.websocket_connect("/ws", headers=headers(game_uuid, players["alice"])) as ws:
        _, first = receive(ws)
        assert blef.play(game_uuid, mover_of(blef, game_uuid, players), 3).status_code == 200
        status, second = receive(ws)
    assert status == 200
    assert second["version"] > first["version"]
    assert second["last_modified"] > first["last_modified"]
    assert second["history"][-1]["action_id"] == 3
    assert second == blef.state(game_uuid, players["alice"])


def test_every_change_is_sent_in_order_and_a_check_sends_the_round_then_the_next(
    client: TestClient, blef: Blef, game: tuple[str, dict[str, str]]
) -> None:
    game_uuid, players = game
    with client.websocket_connect("/ws", headers=headers(game_uuid, players["bob"])) as ws:
        versions = [receive(ws)[1]["version"]]
        assert blef.play(game_uuid, mover_of(blef, game_uuid, players), 4).status_code == 200
        versions.append(receive(ws)[1]["version"])
        checked = blef.play(game_uuid, mover_of(blef, game_uuid, players), 88)
        assert checked.status_code == 200
        _, ended = receive(ws)
        _, after = receive(ws)
        final = blef.state(game_uuid, players["bob"])
    assert versions == [versions[0], versions[0] + 1]
    # The ended round: every hand, its history closed by the loser's 89, as the play reply.
    assert ended == checked.json()
    assert ended["round_number"] == 1
    assert len(ended["hands"]) == 2
    assert ended["history"][-1]["action_id"] == 89
    assert after == final
    assert after["round_number"] == 2
    assert after["version"] == versions[-1] + 1
    assert versions[-1] < ended["version"] == after["version"]
    assert ended["last_modified"] < after["last_modified"]


def test_a_player_is_sent_their_own_hand_and_nobody_elses(
    client: TestClient, blef: Blef, game: tuple[str, dict[str, str]]
) -> None:
    game_uuid, players = game
    for name, secret in players.items():
        with client.websocket_connect("/ws", headers=headers(game_uuid, secret)) as ws:
            _, body = receive(ws)
        assert [hand["nickname"] for hand in body["hands"]] == [name]


def test_an_observer_is_sent_no_hand_at_all(
    client: TestClient, blef: Blef, game: tuple[str, dict[str, str]]
) -> None:
    game_uuid, players = game
    with client.websocket_connect("/ws/live", headers=headers(game_uuid)) as ws:
        _, first = receive(ws)
        assert blef.play(game_uuid, mover_of(blef, game_uuid, players), 5).status_code == 200
        _, second = receive(ws)
    for body in (first, second):
        assert body["hands"] == []
        assert "legal_actions" not in body
    assert second == blef.state(game_uuid)


def test_a_browser_may_send_the_credentials_as_query_parameters(
    client: TestClient, blef: Blef, game: tuple[str, dict[str, str]]
) -> None:
    game_uuid, players = game
    url = f"/ws?game_uuid={game_uuid}&player_uuid={players['bob']}"
    with client.websocket_connect(url) as ws:
        status, body = receive(ws)
    assert status == 200
    assert body == blef.state(game_uuid, players["bob"])


def test_messages_from_the_client_are_ignored_and_changes_still_come(
    client: TestClient, blef: Blef, game: tuple[str, dict[str, str]]
) -> None:
    game_uuid, players = game
    with client.websocket_connect("/ws", headers=headers(game_uuid, players["alice"])) as ws:
        _, first = receive(ws)
        ws.send_text("hello")
        ws.send_bytes(b"\x00")
        assert blef.play(game_uuid, mover_of(blef, game_uuid, players), 2).status_code == 200
        _, second = receive(ws)
    assert second["version"] == first["version"] + 1


def test_a_lobby_watcher_sees_players_join_and_the_game_start(
    client: TestClient, blef: Blef
) -> None:
    game_uuid = blef.create()
    admin = blef.join(game_uuid, "alice")
    with client.websocket_connect("/ws", headers=headers(game_uuid, admin)) as ws:
        assert receive(ws)[1]["status"] == "Not started"
        blef.join(game_uuid, "bob")
        assert [p["nickname"] for p in receive(ws)[1]["players"]] == ["alice", "bob"]
        blef.start(game_uuid, admin)
        assert receive(ws)[1]["status"] == "Running"


@pytest.mark.parametrize(
    ("credentials", "code"),
    [
        ({"game_uuid": str(uuid.uuid4())}, "game_not_found"),
        ({"game_uuid": "not-a-uuid"}, "invalid_parameter"),
        ({"player_uuid": str(uuid.uuid4())}, "unknown_player"),
        ({"player_uuid": "{nonsense}"}, "invalid_parameter"),
    ],
    ids=["unknown game", "bad game uuid", "uuid of no player", "bad player uuid"],
)
def test_credentials_the_state_route_refuses_get_one_400_message_then_close_1008(
    client: TestClient,
    game: tuple[str, dict[str, str]],
    credentials: dict[str, str | None],
    code: str,
) -> None:
    merged = {"game_uuid": game[0], **credentials}
    sent = {name: value for name, value in merged.items() if value is not None}
    with client.websocket_connect("/ws", headers=sent) as ws:
        status, body = receive(ws)
        assert closed_with(ws) == 1008
    assert status == 400
    assert body["code"] == code
    assert body["error"]


@pytest.fixture
def one_watcher_client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(db_path=tmp_path / "one.db", max_websockets=1, run_clock=False)
    from app.store.sqlite import SqliteStore

    store = SqliteStore(settings.db_path)
    with TestClient(create_app(settings, GameService(store, settings))) as http:
        yield http
    store.close()


def test_past_the_bound_a_websocket_is_closed_with_1013_and_a_closed_one_frees_its_place(
    one_watcher_client: TestClient,
) -> None:
    blef = Blef(one_watcher_client)
    game_uuid = blef.create()
    with one_watcher_client.websocket_connect("/ws", headers=headers(game_uuid)) as first:
        assert receive(first)[0] == 200
        with one_watcher_client.websocket_connect("/ws", headers=headers(game_uuid)) as second:
            assert closed_with(second) == 1013
    with one_watcher_client.websocket_connect("/ws", headers=headers(game_uuid)) as third:
        assert receive(third)[0] == 200


def test_the_websocket_is_no_part_of_the_openapi_document(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert not [path for path in paths if path.startswith("/ws")]


def test_served_by_uvicorn_an_ios_style_client_gets_its_state_pongs_and_the_next_change(
    settings: Settings, service: GameService
) -> None:
    """Over a real socket, as ``blef serve`` runs: uvicorn speaks the websocket protocol
    only with the ``websockets`` (or ``wsproto``) package installed."""
    client = pytest.importorskip(
        "websockets.sync.client", reason="uvicorn serves /ws only with `websockets` installed"
    )
    import httpx

    with served(create_app(settings, service)) as address:
        blef = Blef(httpx.Client(base_url=f"http://{address}"))
        game = blef.create()
        players = {name: blef.join(game, name) for name in ("alice", "bob")}
        blef.start(game, players["alice"])
        url = f"ws://{address}/ws/live"
        with client.connect(url, additional_headers=headers(game, players["alice"])) as ws:
            first = json.loads(ws.recv(timeout=WAIT_SECONDS))
            assert ws.ping().wait(WAIT_SECONDS)
            assert blef.play(game, mover_of(blef, game, players), 3).status_code == 200
            second = json.loads(ws.recv(timeout=WAIT_SECONDS))
        now = blef.state(game, players["alice"])
    assert json.loads(first["body"])["hands"][0]["nickname"] == "alice"
    assert json.loads(second["body"]) == now
