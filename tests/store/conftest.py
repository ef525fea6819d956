"""The ``store`` fixture: every contract test runs against every GameStore implementation.

- ``sqlite``: a SqliteStore on a file in the test's tmp_path.
- ``dynamo_moto``: a DynamoStore on moto's in-process mock, fresh table per test.
- ``dynamo_server``: a DynamoStore speaking HTTP to moto's server on 127.0.0.1 (one server
  per session or xdist worker, started on first use), fresh uniquely named table per test.
- ``memory``: the in-memory fake the service's unit tests run on (tests/support), held to
  the same contract so that what those tests show holds on the real stores.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.store.base import GameStore
from tests.support.dynamo import (
    DynamoTable,
    moto_dynamo_table,
    moto_server,
    server_dynamo_table,
)
from tests.support.memory_store import MemoryStore

STORES = ["sqlite", "dynamo_moto", "dynamo_server", "memory"]


@pytest.fixture(scope="session")
def moto_endpoint() -> Iterator[str]:
    with moto_server() as endpoint_url:
        yield endpoint_url


@pytest.fixture
def moto_table() -> Iterator[DynamoTable]:
    """A fresh games table on the in-process mock."""
    with moto_dynamo_table() as table:
        yield table


@pytest.fixture
def server_table(moto_endpoint: str) -> Iterator[DynamoTable]:
    """A fresh games table on the moto server."""
    with server_dynamo_table(moto_endpoint) as table:
        yield table


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    kind = request.param
    if kind == "sqlite":
        from app.store.sqlite import SqliteStore

        sqlite = SqliteStore(tmp_path / "blef.db")
        yield sqlite
        sqlite.close()
        return
    if kind == "memory":
        yield MemoryStore()
        return
    table: DynamoTable = request.getfixturevalue(
        "moto_table" if kind == "dynamo_moto" else "server_table"
    )
    dynamo = table.store()
    yield dynamo
    dynamo.close()
