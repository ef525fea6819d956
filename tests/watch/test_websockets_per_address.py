"""Issue 11, point 4 on AWS: ``$connect`` caps the websockets open from one source address
(a counter item per address, a conditional update; ``$disconnect`` frees a place), so one
client cannot hold every connection while others are refused. On moto's DynamoDB."""

from __future__ import annotations

import json
from typing import Any

from app.entrypoints import websocket as websocket_handler
from tests.watch.conftest import Game
from tests.watch.events import connect_event, disconnect_event, new_connection_id

FLOODER = "198.51.100.2"
OTHER = "198.51.100.3"


def from_address(event: dict[str, Any], address: str) -> dict[str, Any]:
    event["requestContext"]["identity"] = {"sourceIp": address}
    return event


def connect(game: Game, address: str, connection: str | None = None) -> dict[str, Any]:
    event = connect_event(connection or new_connection_id(), {"game_uuid": game.uuid})
    return websocket_handler.connect(from_address(event, address))


def capped(runtime: websocket_handler.Runtime, cap: int) -> None:
    settings = runtime.service.settings.model_copy(update={"max_websockets_per_address": cap})
    runtime.service.settings = settings


def test_one_address_past_its_cap_gets_429_while_another_address_connects(
    runtime: websocket_handler.Runtime, game: Game
) -> None:
    capped(runtime, 3)
    assert [connect(game, FLOODER)["statusCode"] for _ in range(3)] == [200, 200, 200]
    refused = connect(game, FLOODER)
    assert refused["statusCode"] == 429
    assert json.loads(refused["body"])["code"] == "too_many_websockets"
    assert connect(game, OTHER) == {"statusCode": 200}


def test_a_disconnect_frees_a_place_once_however_often_it_is_delivered(
    runtime: websocket_handler.Runtime, game: Game
) -> None:
    capped(runtime, 2)
    first, second = new_connection_id(), new_connection_id()
    assert connect(game, FLOODER, first) == connect(game, FLOODER, second) == {"statusCode": 200}
    for _ in range(3):  # a repeated $disconnect must not free three places
        websocket_handler.disconnect(from_address(disconnect_event(first), FLOODER))
    assert connect(game, FLOODER)["statusCode"] == 200
    assert connect(game, FLOODER)["statusCode"] == 429


def test_refused_credentials_do_not_use_up_a_place(
    runtime: websocket_handler.Runtime, game: Game
) -> None:
    capped(runtime, 1)
    bad = connect_event(new_connection_id(), {"game_uuid": "not-a-uuid"})
    for _ in range(3):
        assert websocket_handler.connect(from_address(bad, FLOODER))["statusCode"] == 400
    assert connect(game, FLOODER) == {"statusCode": 200}
