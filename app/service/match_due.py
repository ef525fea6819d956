"""What time does to a table of any game but Blef: the changes no player asks for.

The write path stamps every version of a match with when it is next due
(app/service/match_timing.py); the clock's runners wake the service then
(:meth:`~app.service.due.WhenDue.advance`, which hands a match here). Through the one write
path, conditionally on the version the clock was told about, it:

1. passes the time to the game (Figgie: trading ends at its deadline and the pot is paid);
2. lets the **built-in computer players** act: in an ``open`` turn each of them once (and
   the game is due again after the think time, until the deadline); in the others each
   whose choice is awaited makes it. An agent's move the rules refuse is replaced by the
   game's safest move, and logged;
3. past the table's **move time limit**, plays for every person who has not chosen: the
   game's safest legal move (Economancy: invest nothing, do not attack, defend with the
   leftmost card that can, Pass; its rule ``on_timeout: "forfeit"`` takes the seat out of
   the game instead). Nobody loses a game for one slow answer, and the game goes on.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from app.service.base import UseCases
from app.service.errors import ConflictError, GameNotFound
from app.service.match_timing import ai_seats
from app.service.matches import new_seed
from app.service.writes import Outcome, reply
from app.store.base import GameDoc
from engine.facts import Status
from engine.match import Match
from engine.match_agents import choose
from engine.protocol import GameError, TurnMode

log = logging.getLogger("blef.clock")


@dataclass(frozen=True, slots=True)
class Advance:
    """What an advance found and did.

    ``acted``: whether it changed the game. ``version`` and ``due_at``: the game's version
    now and when it is next due (None: nothing due, or the game is gone).
    """

    acted: bool
    version: int | None
    due_at: float | None


class MatchClock(UseCases):
    def advance_match(self, doc: GameDoc, version: int) -> Advance:
        """Act on the match ``doc`` (as just read) if it is at ``version`` and due by now."""
        if doc.version != version or doc.due_at is None or doc.due_at > self.now:
            return Advance(False, doc.version, doc.due_at)
        saved: list[GameDoc] = []

        def when_due(work: GameDoc, match: Match) -> Outcome:
            self._match_when_due(work, match)
            saved.append(work)
            return Outcome(reply({}))

        try:
            self.writes.change_match(
                doc.game_uuid, doc.kind, when_due, expected_version=version, read=doc
            )
        except (ConflictError, GameNotFound):
            fresh = self.store.load(doc.game_uuid)
            if fresh is None:
                return Advance(True, None, None)
            return Advance(fresh.version != version, fresh.version, fresh.due_at)
        (work,) = saved
        return Advance(True, work.version, work.due_at)

    def _match_when_due(self, doc: GameDoc, match: Match) -> None:
        now = self.now
        match.advance(now)
        if match.status is not Status.RUNNING:
            return
        for seat in ai_seats(match):
            if match.status is Status.RUNNING and match.turn().may_act(seat):
                self._agent_moves(match, seat, now)
        turn = match.turn()
        late = doc.move_deadline is not None and now >= doc.move_deadline
        if not late or turn.mode is TurnMode.OPEN:
            return
        forfeit = match.rules.get("on_timeout") == "forfeit"
        for seat in sorted(turn.seats):
            if match.status is not Status.RUNNING or not match.turn().may_act(seat):
                continue
            log.info("move_timed_out", extra={"kind": match.kind, "seat": seat})
            if forfeit and match.forfeit(seat):
                continue
            match.apply_parsed(seat, match.safest_move(seat), now)

    def _agent_moves(self, match: Match, seat: int, now: float) -> None:
        agent = match.table.ai_agents[seat]
        assert agent is not None
        try:
            move = choose(match, seat, agent, new_seed(), now)
            if move is not None:
                match.apply_parsed(seat, move, now)
            return
        except GameError as error:
            log.warning("ai_illegal_action", extra={"agent": agent, "code": error.code})
        if match.turn().mode is not TurnMode.OPEN:
            match.apply_parsed(seat, match.safest_move(seat), now)
