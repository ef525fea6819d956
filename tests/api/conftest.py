from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api.main import create_app
from app.service import GameService
from app.settings import Settings
from app.store.sqlite import SqliteStore
from tests.support.api import Blef


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(db_path=tmp_path / "blef.db")


@pytest.fixture
def service(settings: Settings) -> Iterator[GameService]:
    store = SqliteStore(settings.db_path)
    yield GameService(store, settings)
    store.close()


@pytest.fixture
def client(settings: Settings, service: GameService) -> Iterator[TestClient]:
    with TestClient(create_app(settings, service), raise_server_exceptions=False) as http:
        yield http


@pytest.fixture
def blef(client: TestClient) -> Blef:
    return Blef(client)
