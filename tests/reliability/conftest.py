"""Fixtures of the reliability suite: a GameService over every store, and ``blef serve``.

- ``any_store`` / ``any_service``: parametrized over SQLite (a file in tmp_path), DynamoDB on
  moto in-process, and DynamoDB on moto's server mode over HTTP on 127.0.0.1 (one server per
  xdist worker, a fresh uniquely named table per test), with tests/support/dynamo.py.
- ``server``: ``blef serve`` in a subprocess on a free port and a fresh SQLite file; killed
  (never left behind) when the test ends. Its output is in ``server.log``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.config.settings import Settings
from app.service import GameService
from app.store.base import GameStore
from benchmarks.load import Server
from tests.support.dynamo import moto_dynamo_table, moto_server, server_dynamo_table

STORES = ["sqlite", "dynamo_moto", "dynamo_server"]


@pytest.fixture(scope="session")
def moto_endpoint() -> Iterator[str]:
    with moto_server() as endpoint_url:
        yield endpoint_url


@pytest.fixture(params=STORES)
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    kind = request.param
    if kind == "sqlite":
        from app.store.sqlite import SqliteStore

        sqlite = SqliteStore(tmp_path / "blef.db")
        yield sqlite
        sqlite.close()
        return
    if kind == "dynamo_moto":
        with moto_dynamo_table() as table:
            store = table.store()
            yield store
            store.close()
        return
    endpoint = request.getfixturevalue("moto_endpoint")
    with server_dynamo_table(endpoint) as table:
        store = table.store()
        yield store
        store.close()


@pytest.fixture
def any_service(any_store: GameStore) -> GameService:
    return GameService(any_store, Settings())


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "blef.db", tmp_path / "server.log")
    running.start()
    try:
        yield running
    finally:
        running.stop()
