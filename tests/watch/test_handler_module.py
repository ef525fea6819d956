"""The handler module as Lambda runs it: nothing at import, everything built from the
environment on the first invocation, and posts made through boto3's management API client
(on moto)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from unittest.mock import patch
from urllib.parse import unquote

import pytest

from app.config.settings import Settings
from app.entrypoints import websocket as websocket_handler
from app.service import GameService
from tests.support.dynamo import REGION, DynamoTable
from tests.watch.events import (
    ENDPOINT,
    connect_event,
    new_connection_id,
    stream_event,
    stream_record,
)


def test_importing_the_handler_module_builds_nothing_and_loads_no_web_framework_or_boto3() -> None:
    code = (
        "import sys, app.entrypoints.websocket as handler\n"
        "heavy = ('fastapi', 'starlette', 'mangum', 'boto3', 'botocore', 'pydantic_settings')\n"
        "print(sorted(m for m in heavy if m in sys.modules), handler._runtime.built)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[] False"


@pytest.fixture
def lambda_environment(table: DynamoTable) -> Iterator[None]:
    """The variables the stack gives the functions (and no runtime built yet)."""
    variables = {
        "BLEF_STORE": "dynamodb",
        "BLEF_TABLE_NAME": table.table_name,
        "BLEF_WEBSOCKET_ENDPOINT": ENDPOINT,
        "LOG_LEVEL": "INFO",
    }
    websocket_handler.use(None)
    with patch.dict(os.environ, variables):
        yield
    websocket_handler.use(None)


def test_a_connection_and_a_push_work_from_the_environment_alone_through_boto3(
    lambda_environment: None, table: DynamoTable
) -> None:
    from moto.apigatewaymanagementapi.models import apigatewaymanagementapi_backends
    from moto.core import DEFAULT_ACCOUNT_ID

    service = GameService(table.store(), Settings(table_name=table.table_name))
    game = service.create_game()["game_uuid"]
    alice = service.join(game, "alice")["player_uuid"]
    connection = new_connection_id()

    event = connect_event(connection, {"game_uuid": game, "player_uuid": alice})
    assert websocket_handler.connect(event, None) == {"statusCode": 200}
    built = websocket_handler.runtime()
    service.join(game, "bob")
    item = table.item(f"GAME#{game}", "STATE")
    assert item is not None
    report = websocket_handler.push(stream_event([stream_record(item)]), None)

    assert websocket_handler.runtime() is built  # built once, kept for later invocations
    assert report["sent"] == 1
    backend = apigatewaymanagementapi_backends[DEFAULT_ACCOUNT_ID][REGION]
    posted = {unquote(cid): c.data for cid, c in backend.connections.items()}
    message = json.loads(posted[connection])
    assert message["statusCode"] == 200
    assert json.loads(message["body"]) == service.state(game, alice).body


def test_the_pusher_refuses_to_start_without_an_endpoint_to_post_to(
    lambda_environment: None,
) -> None:
    with (
        patch.dict(os.environ, {"BLEF_WEBSOCKET_ENDPOINT": ""}),
        pytest.raises(RuntimeError, match="BLEF_WEBSOCKET_ENDPOINT"),
    ):
        websocket_handler.push(stream_event([]), None)
