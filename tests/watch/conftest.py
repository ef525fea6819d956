"""The AWS websocket handlers on moto's DynamoDB, in process: a games table, the service on
it, and the handlers' runtime posting to a fake management API."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from app.config.settings import Settings
from app.entrypoints import websocket as websocket_handler
from app.service import GameService
from app.watch.connections import Connections
from tests.support.dynamo import REGION, DynamoTable, moto_dynamo_table
from tests.watch.events import FakeManagementApi


@pytest.fixture
def table() -> Iterator[DynamoTable]:
    with moto_dynamo_table() as table:
        yield table


@pytest.fixture
def service(table: DynamoTable) -> Iterator[GameService]:
    store = table.store()
    settings = Settings(store="dynamodb", table_name=table.table_name, aws_region=REGION)
    yield GameService(store, settings)
    store.close()


@pytest.fixture
def management() -> FakeManagementApi:
    return FakeManagementApi()


@pytest.fixture
def runtime(
    service: GameService, table: DynamoTable, management: FakeManagementApi
) -> Iterator[websocket_handler.Runtime]:
    """What the handlers use while a test runs (and nothing afterwards)."""
    runtime = websocket_handler.Runtime(
        service, Connections(table.client, table.table_name), management
    )
    websocket_handler.use(runtime)
    yield runtime
    websocket_handler.use(None)


@dataclass(frozen=True)
class Game:
    uuid: str
    players: dict[str, str]
    """The players' secret UUIDs by nickname."""


@pytest.fixture
def game(service: GameService) -> Game:
    """A started game of alice and bob."""
    game_uuid = service.create_game()["game_uuid"]
    players = {name: service.join(game_uuid, name)["player_uuid"] for name in ("alice", "bob")}
    service.start(game_uuid, players["alice"])
    return Game(game_uuid, players)
