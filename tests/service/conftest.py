"""The service's use cases on the in-memory store (tests/support/memory_store.py), with a
clock the test moves: fast, and beside the HTTP tests that drive the same use cases."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.config.settings import Settings
from app.service import GameService
from engine.dealing import seed_sequence
from tests.support.clock import FakeClock
from tests.support.memory_store import MemoryStore


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(fake: FakeClock) -> MemoryStore:
    return MemoryStore(clock=fake)


@pytest.fixture
def service(store: MemoryStore, fake: FakeClock) -> GameService:
    settings = Settings(ai_think_seconds=1.0, run_clock=False)
    return GameService(store, settings, clock=fake, seed_source=seed_sequence(11))


@dataclass
class Table:
    """A game and its players' secret UUIDs, by nickname."""

    game: str
    players: dict[str, str]

    def __getitem__(self, nickname: str) -> str:
        return self.players[nickname]


def seat(service: GameService, *names: str) -> Table:
    game = service.create_game()["game_uuid"]
    return Table(game, {name: service.join(game, name)["player_uuid"] for name in names})


def started(service: GameService, *names: str) -> Table:
    table = seat(service, *names)
    service.start(table.game, table[names[0]])
    return table


def mover(service: GameService, table: Table) -> str:
    """The secret UUID of the player whose turn it is."""
    return table[service.state(table.game).body["cp_nickname"]]
