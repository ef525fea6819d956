"""The ladder's clock on AWS: its matcher and its settlements, driven by the game clock's SQS
queue (app/clock/aws.py) instead of ``blef serve``'s thread.

::

    POST /ladder/queue (HTTP function) ── join, then match at once (conditional claims)
        └─> anyone still waiting: one {"ladder": "match", "due_at": ...} message, delayed
            LOOK_SECONDS, unless one is pending already (the ladder's lease,
            Ladder.reserve_look; the look that message makes hands it on)
    games table stream ── a game whose status becomes Finished (read by
        app/store/dynamo/stream.py's finished_game)
        └─> Scheduler: one {"ladder": "settle", "game_uuid": ...} message, no delay
    clock queue ──> Fire function: ``match``: match, and look again later while anyone
        waits; ``settle``: settle that game's table if it is a rated one (once: the
        settlement is conditional on the table still ``playing``)
    EventBridge, every minute ──> Sweeper: stale forming tables released, every open
        table's finished game settled, a match, and a later look while anyone waits

Windows widen with time (app/ladder/queue.py), so someone must look again while people
wait, and while a table waits for a person to come to it (a look calls it off, unrated,
30 s after it formed): the delayed message is that look, and the sweeper is the net under
a lost message.
A message delivered twice does nothing the second time (a claim is conditional on each
account's ticket, a settlement on the table's state and each rating's games count).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from app.observability import metrics

if TYPE_CHECKING:
    from app.clock.queue import Sqs
    from app.ladder.service import Ladder

log = logging.getLogger("blef.clock")

LOOK_SECONDS: Final = 5
"""How soon the matcher looks again while anyone waits (a window widens 0.5 in that time)."""
MATCH: Final = "match"
SETTLE: Final = "settle"


@dataclass(frozen=True, slots=True)
class LadderMessage:
    """One message of the ladder on the clock's queue: ``match``, or ``settle`` a game."""

    kind: str
    due_at: float
    game_uuid: str | None = None

    def body(self) -> str:
        data: dict[str, Any] = {"ladder": self.kind}
        if self.game_uuid is not None:
            data["game_uuid"] = self.game_uuid
        if self.kind == MATCH:
            data["due_at"] = self.due_at
        return json.dumps(data)

    @classmethod
    def from_data(cls, data: Mapping[str, Any], now: float) -> LadderMessage:
        """A parsed message body with a ``ladder`` key; ValueError if it is malformed."""
        kind, game_uuid, due_at = data.get("ladder"), data.get("game_uuid"), data.get("due_at")
        if kind == MATCH and game_uuid is None:
            if not isinstance(due_at, (int, float)) or isinstance(due_at, bool):
                raise ValueError("a ladder look names the time it was due")
            if not math.isfinite(due_at):
                raise ValueError("a ladder look names a finite time")
            return cls(MATCH, float(due_at))
        if kind == SETTLE and isinstance(game_uuid, str) and 0 < len(game_uuid) <= 64:
            return cls(SETTLE, now, game_uuid)
        raise ValueError("not a ladder message")


class LadderClock:
    """What the AWS functions do for the ladder (see the module docstring)."""

    def __init__(self, ladder: Ladder, sqs: Sqs, queue_url: str) -> None:
        self.ladder = ladder
        self._sqs = sqs
        self._queue_url = queue_url

    def joined(self) -> None:
        """After a join (the HTTP function): match now; a later look while anyone waits."""
        self.ladder.match()
        self.look_later()

    def look_later(self, looking: float | None = None) -> bool:
        """Ask for one delayed look while anyone waits and none is pending; True if asked.
        ``looking``: the due time of the look being made now (a pending look due no later
        than that is this one, and no longer pending)."""
        if self.ladder.longest_wait() is None and not self.ladder.awaiting_arrival():
            return False  # nobody waits, and no table waits for a person to come
        now = self.ladder.now
        settled = max(now, looking) if looking is not None else now
        if not self.ladder.reserve_look(settled, now + LOOK_SECONDS):
            return False  # a look is pending already
        self._sqs.send_message_batch(
            QueueUrl=self._queue_url,
            Entries=[
                {
                    "Id": "0",
                    "MessageBody": LadderMessage(MATCH, now + LOOK_SECONDS).body(),
                    "DelaySeconds": LOOK_SECONDS,
                }
            ],
        )
        return True

    def handle(self, message: LadderMessage) -> None:
        """One message from the queue; raises if the work failed (SQS delivers it again)."""
        if message.kind == SETTLE:
            assert message.game_uuid is not None
            try:
                self.ladder.settle_game(message.game_uuid)
            except Exception:
                metrics.count(metrics.LADDER_SETTLE_FAILURES)
                raise
            self.ladder.match()  # its players may have queued again meanwhile
            return
        try:
            self.ladder.match()
        except Exception:
            metrics.count(metrics.LADDER_MATCH_ERRORS)
            raise
        self.look_later(looking=message.due_at)

    def sweep(self) -> None:
        """Every minute: what a lost message or a crashed maker left behind."""
        self.ladder.release_stale()
        try:
            self.ladder.settle_finished(everything=True)
        except Exception:
            metrics.count(metrics.LADDER_SETTLE_FAILURES)
            log.exception("ladder_sweep_settle_failed")
        try:
            self.ladder.match()
        except Exception:
            metrics.count(metrics.LADDER_MATCH_ERRORS)
            log.exception("ladder_sweep_match_failed")
        self.look_later()
