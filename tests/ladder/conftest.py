"""The ladder's use cases over each ladder store (SQLite on a file, DynamoDB on in-process
moto through a client that refuses Scan, the in-memory fake), with the game service on the
in-memory game store and a clock the test moves."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.api.main import create_app
from app.config.settings import Settings
from app.ladder.service import Ladder
from app.ladder.sqlite.store import LadderSqlite
from app.ladder.store import LadderStore
from app.service import GameService
from engine.dealing import seed_sequence
from tests.support.clock import FakeClock
from tests.support.ladder_dynamo import moto_ladder
from tests.support.ladder_memory import LadderMemory
from tests.support.memory_store import MemoryStore
from tests.support.served import served


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


@pytest.fixture
def games(fake: FakeClock) -> GameService:
    settings = Settings(ai_think_seconds=0, run_clock=False)
    return GameService(MemoryStore(clock=fake), settings, clock=fake, seed_source=seed_sequence(7))


@pytest.fixture(params=["sqlite", "dynamo", "memory"])
def ladder_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LadderStore]:
    if request.param == "sqlite":
        store = LadderSqlite(tmp_path / "ladder.db")
        yield store
        store.close()
        return
    if request.param == "dynamo":
        with moto_ladder() as dynamo:
            yield dynamo
        return
    yield LadderMemory()


@pytest.fixture(params=["sqlite", "dynamo", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LadderStore]:
    if request.param == "sqlite":
        sqlite = LadderSqlite(tmp_path / "ladder.db")
        yield sqlite
        sqlite.close()
    elif request.param == "dynamo":
        with moto_ladder(board_shards=3) as dynamo:
            yield dynamo
    else:
        yield LadderMemory()


@pytest.fixture
def ladder(ladder_store: LadderStore, games: GameService, fake: FakeClock) -> Ladder:
    ladder = Ladder(ladder_store, games, clock=fake)
    games.subscribe(ladder.notice)
    return ladder


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Ladder]]:
    """``blef serve``'s app on 127.0.0.1 with its clock thread (so the matcher runs): its
    address and its ladder."""
    settings = Settings(db_path=tmp_path / "blef.db", run_clock=True, ai_think_seconds=0)
    app = create_app(settings)
    with served(app) as address:
        yield f"http://{address}", app.state.ladder.get()
