"""``$connect``, ``$disconnect`` and ``$default`` of the WebSocket API, on moto's DynamoDB."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import pytest

from app.entrypoints import websocket as websocket_handler
from app.service.seats import seat_key
from app.watch.connections import CONNECTION_TTL_SECONDS
from tests.support.dynamo import DynamoTable
from tests.watch.conftest import Game
from tests.watch.events import connect_event, disconnect_event, message_event, new_connection_id

pytestmark = pytest.mark.usefixtures("runtime")


def connection_items(table: DynamoTable) -> list[tuple[str, str]]:
    every = table.keys()
    return [key for key in every if "CONN" in key[1]]


def test_a_player_is_recorded_by_seat_and_no_item_holds_a_secret_or_a_nickname(
    table: DynamoTable, game: Game
) -> None:
    connection = new_connection_id()
    headers = {"game_uuid": game.uuid, "player_uuid": game.players["alice"]}
    before = time.time()
    assert websocket_handler.connect(connect_event(connection, headers)) == {"statusCode": 200}

    watcher = table.item(f"GAME#{game.uuid}", f"CONN#{connection}")
    reverse = table.item(f"CONN#{connection}", "CONN")
    assert watcher is not None and reverse is not None
    assert watcher["seat"] == {"S": seat_key(game.players["alice"])}
    assert "nickname" not in watcher
    assert watcher["connection_id"] == {"S": connection}
    assert reverse["game_uuid"] == {"S": game.uuid}
    for item in (watcher, reverse):
        expires_at = int(item["expires_at"]["N"])
        assert (
            before + CONNECTION_TTL_SECONDS - 1
            <= expires_at
            <= time.time() + CONNECTION_TTL_SECONDS
        )
        for secret in game.players.values():
            assert secret not in json.dumps(item)


def test_an_observer_is_recorded_without_a_seat(table: DynamoTable, game: Game) -> None:
    connection = new_connection_id()
    reply = websocket_handler.connect(connect_event(connection, {"game_uuid": game.uuid}))
    assert reply["statusCode"] == 200
    watcher = table.item(f"GAME#{game.uuid}", f"CONN#{connection}")
    assert watcher is not None
    assert "seat" not in watcher


@pytest.mark.parametrize(
    ("headers", "query"),
    [
        ({"Game_UUID": "{game}", "PLAYER_UUID": "{bob}"}, None),
        ({}, {"game_uuid": "{game}", "player_uuid": "{bob}"}),
    ],
    ids=["header names in any case", "query parameters"],
)
def test_credentials_may_come_in_headers_of_any_case_or_as_query_parameters(
    table: DynamoTable,
    game: Game,
    headers: dict[str, str],
    query: dict[str, str] | None,
) -> None:
    values = {"game": game.uuid, "bob": game.players["bob"].upper()}  # any UUID form, as HTTP

    def fill(sent: dict[str, str] | None) -> dict[str, str] | None:
        return None if sent is None else {k: v.format(**values) for k, v in sent.items()}

    connection = new_connection_id()
    reply = websocket_handler.connect(connect_event(connection, fill(headers), fill(query)))
    assert reply["statusCode"] == 200
    watcher = table.item(f"GAME#{game.uuid}", f"CONN#{connection}")
    assert watcher is not None and watcher["seat"] == {"S": seat_key(game.players["bob"])}


@pytest.mark.parametrize(
    ("credentials", "code"),
    [
        ({"game_uuid": str(uuid.uuid4())}, "game_not_found"),
        ({"game_uuid": "not-a-uuid"}, "invalid_parameter"),
        ({"player_uuid": str(uuid.uuid4())}, "unknown_player"),
        ({"player_uuid": "None"}, "invalid_parameter"),
    ],
    ids=["unknown game", "bad game uuid", "uuid of no player", "bad player uuid"],
)
def test_credentials_the_state_route_refuses_are_refused_with_400_and_nothing_stored(
    table: DynamoTable, game: Game, credentials: dict[str, Any], code: str
) -> None:
    merged = {"game_uuid": game.uuid, **credentials}
    headers = {name: value for name, value in merged.items() if value is not None}
    reply = websocket_handler.connect(connect_event(new_connection_id(), headers))
    assert reply["statusCode"] == 400
    assert json.loads(reply["body"])["code"] == code
    assert connection_items(table) == []


def test_disconnecting_deletes_both_items_of_that_connection_only(
    table: DynamoTable, game: Game
) -> None:
    leaving, staying = new_connection_id(), new_connection_id()
    for connection in (leaving, staying):
        websocket_handler.connect(connect_event(connection, {"game_uuid": game.uuid}))
    assert len(connection_items(table)) == 4

    assert websocket_handler.disconnect(disconnect_event(leaving)) == {"statusCode": 200}
    assert connection_items(table) == sorted(
        [(f"CONN#{staying}", "CONN"), (f"GAME#{game.uuid}", f"CONN#{staying}")]
    )


def test_disconnecting_a_connection_already_forgotten_is_harmless(table: DynamoTable) -> None:
    assert websocket_handler.disconnect(disconnect_event(new_connection_id())) == {
        "statusCode": 200
    }
    assert connection_items(table) == []


def test_messages_from_clients_are_accepted_and_ignored(table: DynamoTable, game: Game) -> None:
    connection = new_connection_id()
    websocket_handler.connect(connect_event(connection, {"game_uuid": game.uuid}))
    before = table.keys()
    assert websocket_handler.default(message_event(connection, "hello")) == {"statusCode": 200}
    assert table.keys() == before


def test_the_routes_handler_dispatches_on_the_route_key(table: DynamoTable, game: Game) -> None:
    connection = new_connection_id()
    reply = websocket_handler.route(connect_event(connection, {"game_uuid": game.uuid}))
    assert reply == {"statusCode": 200}
    assert len(connection_items(table)) == 2
    assert websocket_handler.route(message_event(connection, "{}")) == {"statusCode": 200}
    assert websocket_handler.route(disconnect_event(connection)) == {"statusCode": 200}
    assert connection_items(table) == []
