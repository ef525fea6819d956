"""What time does to a game: the changes no player asks for, made when a game is due.

The write path stamps every version with when it is next due (app/service/timing.py); the
clock's runners (app/clock: the thread of ``blef serve``, the SQS queue and the sweeper on
AWS) only wake the service at that time with :meth:`WhenDue.advance`, naming the version they
were told about. It acts if the game is still at that version and its time has come,
through the one write path and conditionally on that version, so a trigger that comes twice,
or late (the game moved on), or for a game that is gone, changes nothing; one that comes
early reports when to try again.

What it does when due:

- an **AI player to move** moves: its agent is made afresh (a learning agent is first told
  the game's earlier rounds, as if it had sat at the table all along) and its action applied;
  an illegal answer from an agent is replaced by the last legal action (a check, once there
  is a bet), and logged;
- a **human whose move deadline passed** loses the round (:meth:`engine.game.Game.time_out`).

The engine stays timeless: it is told that a player timed out, it never reads a clock.
"""

from __future__ import annotations

import logging
import secrets
from typing import Final

from app.service import timing
from app.service.errors import ConflictError, GameNotFound
from app.service.match_due import Advance, MatchClock
from app.service.writes import Outcome, reply
from app.store.base import DueGame, GameDoc
from engine.game import Game, RoundRecord
from engine.match import BLEF
from engine.observation import Observation

log = logging.getLogger("blef.clock")

SWEEP_LIMIT: Final = 100
SAME_DUE_ATTEMPTS: Final = 3
"""Later versions :meth:`WhenDue.advance_due` tries at most, one after another."""


class WhenDue(MatchClock):
    def advance(self, game_uuid: str, version: int) -> Advance:
        """Act on ``game_uuid`` if it is still at ``version`` and due by now (a table of
        another game than Blef: app/service/match_due.py)."""
        doc = self.store.load(game_uuid)
        if doc is None:
            return Advance(False, None, None)
        if doc.kind != BLEF:
            return self.advance_match(doc, version)
        if doc.version != version or doc.due_at is None or doc.due_at > self.now:
            return Advance(False, doc.version, doc.due_at)
        saved: list[GameDoc] = []

        def when_due(work: GameDoc, game: Game) -> Outcome:
            outcome = self._when_due(work, game)
            saved.append(work)  # the document the change then stamps and saves
            return outcome

        # A conflict means someone else moved the game on first: their change stands.
        try:
            self.writes.change(game_uuid, when_due, expected_version=version, read=doc)
        except (ConflictError, GameNotFound):
            fresh = self.store.load(game_uuid)  # as the winner left it
            if fresh is None:
                return Advance(True, None, None)
            return Advance(fresh.version != version, fresh.version, fresh.due_at)
        (work,) = saved  # saved: the game is as this change left it (no read needed)
        return Advance(True, work.version, work.due_at)

    def advance_due(self, game_uuid: str, version: int, due_at: float) -> Advance:
        """:meth:`advance` for a trigger sent for ``version``, due at ``due_at``, that stands
        for every later version due at that same time (a clock schedules one trigger per due
        time, app/clock/aws.py): if the game has moved on to such a version, that version is
        advanced. Tried again (a few times) while a player's change that kept the due time
        wins the race to save."""
        tried = version
        result = self.advance(game_uuid, tried)
        for _ in range(SAME_DUE_ATTEMPTS):
            if result.version is None or result.version == tried or result.due_at != due_at:
                break
            tried = result.version
            result = self.advance(game_uuid, tried)
        return result

    def sweep(self, limit: int = SWEEP_LIMIT) -> int:
        """Advance every game that is due by now (at most ``limit``); returns how many
        acted. A safety net for triggers that were lost, and the agenda of a restart."""
        acted = 0
        for due in self.store.list_due(self.now, limit):
            acted += self.advance(due.game_uuid, due.version).acted
        return acted

    def pending(self, until: float, limit: int) -> list[DueGame]:
        """The games due by ``until`` (at most ``limit``), each at the version that is due:
        what a runner that starts (``blef serve``'s clock) puts on its agenda."""
        return self.store.list_due(until, limit)

    def purge_expired(self) -> int:
        """Delete the games expired by now; returns how many went (DynamoDB's own time to
        live does it there: none)."""
        return self.store.purge_expired(self.now)

    def _when_due(self, doc: GameDoc, game: Game) -> Outcome:
        """The change a due game gets: its AI player moves, or its human player times out."""
        agent_name = timing.ai_to_move(game)
        if agent_name is not None:
            record = self._ai_move(doc, game, agent_name)
        else:
            log.info("move_timed_out", extra={"round": game.round_number})
            record = game.time_out()
        return Outcome(reply({}), [record] if record is not None else [])

    def _ai_move(self, doc: GameDoc, game: Game, agent_name: str) -> RoundRecord | None:
        seat = game.current_seat
        assert seat is not None
        agent = self.agent_factory(agent_name, secrets.randbits(63))
        if agent.learns_from_rounds:
            for past in self.store.load_rounds(doc.game_uuid):
                agent.round_ended(RoundRecord.from_dict(past.data))
        action = agent.act(Observation(game, seat))
        if not game.is_legal(action):
            log.warning("ai_illegal_action", extra={"agent": agent_name})
            action = game.legal_actions()[-1]
        return game.apply(action)
