"""Issue 28: websockets are limited per address per second as well as at a time. Opening and
closing public-list websockets in a loop from one address is refused past a token bucket
(``websocket_opens_burst`` at once, then ``websocket_opens_per_second``), while another
address opens its own; time refills it. On both paths, each on a fake clock: ``blef
serve``'s route (closed with 1013 and a reason saying so) and the AWS ``$connect`` (429
``too_many_websocket_opens``, on moto's DynamoDB)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from app.api.fairness import TokenBuckets
from app.api.main import create_app
from app.api.routes.watch import Watchers
from app.config.settings import Settings
from app.entrypoints import websocket as websocket_handler
from app.service import GameService
from app.store.sqlite import SqliteStore
from app.watch.connections import Connections
from tests.support.clock import FakeClock
from tests.support.dynamo import DynamoTable
from tests.watch.events import FakeManagementApi, connect_event, new_connection_id

FLOODER = "198.51.100.2"
OTHER = "198.51.100.3"
BURST = 3
PER_SECOND = 0.5


# ------------------------------------------------------------------ blef serve


@pytest.fixture
def local(tmp_path: Path) -> Iterator[tuple[FastAPI, FakeClock]]:
    """An app whose watchers count opens on a fake clock, with one public game listed (so a
    public-list watcher let in is sent a message at once)."""
    config = Settings(db_path=tmp_path / "blef.db", ai_think_seconds=0, run_clock=False)
    store = SqliteStore(config.db_path)
    service = GameService(store, config)
    app = create_app(config, service)
    clock = FakeClock()
    app.state.watchers = Watchers(
        config.max_websockets,
        service,
        config.max_websockets_per_address,
        TokenBuckets(BURST, PER_SECOND, clock),
    )
    game = service.create_game()["game_uuid"]
    admin = service.join(game, "ann")["player_uuid"]
    service.set_public(game, admin, True)
    yield app, clock
    store.close()


def open_and_close(app: FastAPI, address: str) -> int | str:
    """Open a public-list websocket from ``address`` and close it: 200 if it was let in (the
    list came), else the close code and reason it was refused with."""
    client = TestClient(app, client=(address, 50000))
    with client.websocket_connect("/ws") as ws:
        try:
            message = json.loads(ws.receive_text())
        except WebSocketDisconnect as closed:
            return f"{closed.code} {closed.reason}"
        return int(message["statusCode"])


def test_a_loop_of_opens_from_one_address_is_closed_1013_past_its_bucket_while_another_opens(
    local: tuple[FastAPI, FakeClock],
) -> None:
    app, clock = local
    assert [open_and_close(app, FLOODER) for _ in range(BURST)] == [200] * BURST
    refused = open_and_close(app, FLOODER)
    assert refused == "1013 Too many websockets opened from your address; try again in 2 s"
    assert open_and_close(app, OTHER) == 200
    clock.advance(1 / PER_SECOND)  # one open's worth of time
    assert open_and_close(app, FLOODER) == 200
    assert open_and_close(app, FLOODER) != 200


def test_every_watcher_of_a_full_address_reconnecting_at_once_is_let_in() -> None:
    """The defaults: as many opens at once as an address may hold websockets, so a blip that
    drops all of them (each client reconnects) refuses none."""
    defaults = Settings()
    assert defaults.websocket_opens_burst >= defaults.max_websockets_per_address
    buckets = TokenBuckets(
        defaults.websocket_opens_burst, defaults.websocket_opens_per_second, FakeClock()
    )
    key = ("websocket", FLOODER)
    assert all(buckets.take(key) == 0.0 for _ in range(defaults.max_websockets_per_address))


# ------------------------------------------------------------------ AWS $connect


@pytest.fixture
def aws(
    service: GameService, table: DynamoTable, management: FakeManagementApi
) -> Iterator[FakeClock]:
    clock = FakeClock()
    service.settings = service.settings.model_copy(
        update={"websocket_opens_burst": BURST, "websocket_opens_per_second": PER_SECOND}
    )
    runtime = websocket_handler.Runtime(
        service, Connections(table.client, table.table_name, clock=clock), management
    )
    websocket_handler.use(runtime)
    yield clock
    websocket_handler.use(None)


def connect_public(address: str) -> dict[str, Any]:
    """A ``$connect`` with no game (a public-list watcher) from ``address``, at once
    disconnected if it was let in."""
    connection = new_connection_id()
    event = connect_event(connection)
    event["requestContext"]["identity"] = {"sourceIp": address}
    answer = websocket_handler.connect(event)
    if answer["statusCode"] == 200:
        gone = connect_event(connection)
        gone["requestContext"].update(routeKey="$disconnect", eventType="DISCONNECT")
        gone["requestContext"]["identity"] = {"sourceIp": address}
        websocket_handler.disconnect(gone)
    return answer


def test_a_loop_of_connects_from_one_address_gets_429_past_its_bucket_while_another_connects(
    aws: FakeClock,
) -> None:
    assert [connect_public(FLOODER)["statusCode"] for _ in range(BURST)] == [200] * BURST
    refused = connect_public(FLOODER)
    assert refused["statusCode"] == 429
    assert refused["headers"]["Retry-After"] == "2"
    body = json.loads(refused["body"])
    assert body["code"] == "too_many_websocket_opens"
    assert body["error"].startswith("Too many websockets opened from your address")
    assert connect_public(OTHER)["statusCode"] == 200
    aws.advance(1 / PER_SECOND)
    assert connect_public(FLOODER)["statusCode"] == 200
    assert connect_public(FLOODER)["statusCode"] == 429


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(gaps=st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 2.5, 7.0]), min_size=1, max_size=12))
def test_connects_are_let_in_on_aws_exactly_when_the_in_memory_bucket_lets_them_in(
    table: DynamoTable, gaps: list[float]
) -> None:
    """Whatever the timing, the bucket kept in the table (one number per address) lets in
    the very opens the service's own in-memory token bucket does: ``burst`` at once, then
    one per ``1 / per_second`` seconds. (Gaps are halves of a second, exact in binary.)"""
    clock = FakeClock()
    connections = Connections(table.client, table.table_name, clock=clock)
    reference = TokenBuckets(BURST, PER_SECOND, clock)
    address = f"192.0.2.{uuid.uuid4().hex}"  # a fresh counter item per example
    for gap in gaps:
        clock.advance(gap)
        expected = reference.take(("websocket", address)) == 0.0
        assert (connections.throttle(address, BURST, PER_SECOND) == 0.0) == expected
