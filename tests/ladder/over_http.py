"""The ladder's HTTP tests' service: the games on a SQLite file in the test's folder, the
app in a TestClient, and (when the test moves a clock) the ladder on that clock."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.api.main import create_app
from app.config.settings import Settings
from app.ladder.service import Ladder
from app.ladder.sqlite.store import LadderSqlite
from app.service import GameService
from app.store.sqlite import SqliteStore
from tests.support.clock import FakeClock


@contextmanager
def sqlite_games(tmp_path: Path, **options: Any) -> Iterator[GameService]:
    """A game service on ``tmp_path/blef.db`` (no clock thread, computer players at once);
    ``options`` go to :class:`GameService` (its clock, its seeds). Closed after the block."""
    settings = Settings(db_path=tmp_path / "blef.db", run_clock=False, ai_think_seconds=0)
    store = SqliteStore(settings.db_path)
    yield GameService(store, settings, **options)
    store.close()


@contextmanager
def client_of(games: GameService, clock: FakeClock | None = None) -> Iterator[TestClient]:
    """The app over ``games`` in a TestClient; with ``clock``, its ladder (on the games'
    SQLite file) runs on that clock and hears of every finished game."""
    app = create_app(games.settings, games)
    if clock is not None:
        ladder = Ladder(LadderSqlite(games.settings.db_path), games, clock=clock)
        games.subscribe(ladder.notice)
        app.state.ladder._ladder = ladder  # the ladder on the test's clock
    with TestClient(app) as client:
        yield client


def ladder_of(http: TestClient) -> Ladder:
    ladder: Ladder = http.app.state.ladder.get()  # type: ignore[attr-defined]
    return ladder


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}
