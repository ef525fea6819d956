from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api.main import create_app
from app.clock.local import LocalClock
from app.config.settings import Settings
from app.service import GameService
from app.store.base import GameStore
from app.store.sqlite import SqliteStore
from tests.support.api import Blef
from tests.support.dynamo import moto_dynamo_table


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """AI players move as soon as the clock is run; the tests run it (``clock``), no thread."""
    return Settings(db_path=tmp_path / "blef.db", ai_think_seconds=0, run_clock=False)


@pytest.fixture
def service(settings: Settings) -> Iterator[GameService]:
    store = SqliteStore(settings.db_path)
    yield GameService(store, settings)
    store.close()


@pytest.fixture
def clock(service: GameService) -> LocalClock:
    """The game clock of ``service``, driven by the test: ``clock.run_until_idle()`` plays
    every AI move due, up to the next human's turn."""
    return LocalClock(service)


@pytest.fixture
def client(settings: Settings, service: GameService) -> Iterator[TestClient]:
    with TestClient(create_app(settings, service), raise_server_exceptions=False) as http:
        yield http


@pytest.fixture
def blef(client: TestClient) -> Blef:
    return Blef(client)


@pytest.fixture(params=["sqlite", "dynamo_moto"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    """Each store in turn, for tests that must behave the same on SQLite and DynamoDB (moto)."""
    if request.param == "sqlite":
        sqlite = SqliteStore(tmp_path / "blef.db")
        yield sqlite
        sqlite.close()
        return
    with moto_dynamo_table() as table:
        yield table.store()
