"""What every area's use cases share: the store, the settings, the one write path, the
clock, and the checks of who is asking.

Each area (app/service/lobby.py, table.py, play.py, reading.py, due.py) is a class of short
use-case methods over :class:`UseCases`; :class:`app.service.GameService` is all of them
together. A use case parses what the client sent (app/service/parse.py), names a decision
(a function of the document and the engine's game returning an
:class:`~app.service.writes.Outcome`), and hands it to the write path. Rules of the game are
the engine's to check; credentials (which player a UUID is) are checked here.
"""

from __future__ import annotations

import secrets
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.config.settings import Settings
from app.service.errors import NotAPlayer, SeatMoved
from app.service.seats import moved, seat_key
from app.service.writes import Listener, Outcome, WritePath
from app.store.base import GameDoc, Report, Store
from engine import errors as rules
from engine.dealing import SeedSource
from engine.game import Game

if TYPE_CHECKING:
    from engine.agents.base import Agent

AgentFactory = Callable[[str, "int | None"], "Agent"]


class UseCases:
    """The service's parts (``clock``, ``new_uuid``, ``seed_source`` and ``agent_factory``
    are injectable for tests)."""

    def __init__(
        self,
        store: Store,
        settings: Settings | None = None,
        *,
        clock: Callable[[], float] = time.time,
        new_uuid: Callable[[], uuid.UUID] = uuid.uuid4,
        seed_source: SeedSource | None = None,
        agent_factory: AgentFactory | None = None,
    ) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.writes = WritePath(store, self.settings, clock, seed_source)
        self._clock = clock
        self._new_uuid = new_uuid
        self._agent_factory = agent_factory

    @property
    def now(self) -> float:
        """The service's clock: the one source of "now" (tests move it)."""
        return self._clock()

    @property
    def agent_factory(self) -> AgentFactory:
        """How an AI player's agent is made (the built-in agents unless a test says)."""
        if self._agent_factory is None:
            from engine.agents import make_agent  # noqa: PLC0415 (the agents load on first use)

            self._agent_factory = make_agent
        return self._agent_factory

    def subscribe(self, listener: Listener) -> None:
        """Hear of every change saved from now on (see WritePath.subscribe)."""
        self.writes.subscribe(listener)

    def new_secret(self) -> str:
        return str(self._new_uuid())

    def _filed(self, game_uuid: str, reporter: str, nickname: str, outcome: Outcome) -> Outcome:
        """``outcome``, and once it stands, the operator's copy of a report (the same report
        again replaces it): a report at a table of any game."""

        def file() -> None:
            now = self.now
            self.store.add_report(
                Report(
                    game_uuid=game_uuid,
                    reporter=reporter,
                    nickname=nickname,
                    reported_at=now,
                    expires_at=int(now) + self.settings.report_ttl_seconds,
                )
            )

        return Outcome(outcome.reply, outcome.ended, outcome.changed, file)


def nickname_of(doc: GameDoc, player_uuid: str) -> str:
    """The nickname of the player ``player_uuid`` (canonical form) is, or NotAPlayer
    (:class:`SeatMoved` for a UUID retired when its seat moved to another device)."""
    for nickname, secret in doc.player_uuids.items():
        if secrets.compare_digest(secret, player_uuid):
            return nickname
    refuse_moved(doc, player_uuid)
    raise NotAPlayer


def refuse_moved(doc: GameDoc, player_uuid: str) -> None:
    """:class:`SeatMoved` if ``player_uuid`` was retired by a move to another device."""
    if moved(doc.social, seat_key(player_uuid)):
        raise SeatMoved


def require_admin(doc: GameDoc, game: Game, admin_uuid: str) -> str:
    """The admin's nickname, if ``admin_uuid`` is the admin's secret; else NotAdmin
    (:class:`SeatMoved` for the admin's UUID retired by a move)."""
    admin = game.admin
    secret = doc.player_uuids.get(admin) if admin is not None else None
    if admin is None or secret is None or not secrets.compare_digest(secret, admin_uuid):
        refuse_moved(doc, admin_uuid)
        raise rules.NotAdmin
    return admin
