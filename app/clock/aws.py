"""The game clock on AWS: the table's stream, an SQS delay queue, and a sweeper.

::

    games table ── stream (NEW_AND_OLD_IMAGES; live STATE items with ``due_at``)
        └─> Scheduler.schedule: one message {game_uuid, version, due_at} per due time,
            DelaySeconds = clamp(ceil(due_at - now), 0, 900)
    SQS delay queue ──> Firer.fire: service.advance_due(game_uuid, version, due_at)
            too early (DelaySeconds is whole seconds, at most 15 minutes): sent again with
            the delay left
    EventBridge, every minute ──> service.sweep: every overdue game (the safety net)

The ladder rides the same queue (app/clock/ladder.py): the scheduler also sends a
``{"ladder": "settle"}`` message for each game that finishes, the fire function hands every
``{"ladder": ...}`` message to the ladder's clock, and the sweeper sweeps the ladder too.

**One message per due time, not per version.** A record whose version is due at the very
time the version before it was (its old image), a time still to come when it was written,
sends nothing: the message sent for that time stands for it. A Figgie market that trades 100
times before its deadline sends one message for the deadline, not 100. A record without an
old image (an insert, a stream of new images only) always sends.

Every action is the service's :meth:`~app.service.due.WhenDue.advance_due`: conditional on
the version the message names, or on a later version still due at the message's time (the
versions whose records sent nothing), so a message delivered twice, or after a player moved
the game on to another due time, changes nothing; and the clock's own write is a new version
with its own stream record, hence its own message (a version written once its time had come
always sends one).

Nothing here imports boto3: the SQS client is handed in (app/entrypoints/clock.py builds it).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.clock.ladder import SETTLE, LadderMessage
from app.clock.queue import Message, Sqs, send
from app.store.dynamo.stream import due_version, finished_game

if TYPE_CHECKING:
    from app.clock.ladder import LadderClock
    from app.service.due import WhenDue

log = logging.getLogger("blef.clock")

Event = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Due:
    """One clock message: act on ``game_uuid`` at ``version`` once ``due_at`` has come."""

    game_uuid: str
    version: int
    due_at: float

    def body(self) -> str:
        return json.dumps(
            {"game_uuid": self.game_uuid, "version": self.version, "due_at": self.due_at}
        )

    @classmethod
    def from_body(cls, body: str) -> Due:
        """Parse a message body; ValueError if it is not one this module sent."""
        data = json.loads(body)
        if not isinstance(data, dict):
            raise ValueError("a clock message must be a JSON object")
        game_uuid, version, due_at = data.get("game_uuid"), data.get("version"), data.get("due_at")
        if not isinstance(game_uuid, str) or not game_uuid:
            raise ValueError("a clock message needs a game_uuid")
        if not isinstance(version, int) or isinstance(version, bool) or version < 0:
            raise ValueError("a clock message needs a whole, non-negative version")
        if not isinstance(due_at, (int, float)) or isinstance(due_at, bool):
            raise ValueError("a clock message needs a numeric due_at")
        if not math.isfinite(due_at):
            raise ValueError("a clock message needs a finite due_at")
        return cls(game_uuid, version, float(due_at))


def due_of_record(record: Mapping[str, Any]) -> Due | None:
    """The clock message a stream record asks for (a live game item inserted or modified
    whose new image has ``due_at``, app/store/dynamo/stream.py, unless the message sent for
    the version before it stands for it); None for any other."""
    due = due_version(record)
    if due is None or due.still_due_as_before:
        return None
    return Due(due.game_uuid, due.version, due.due_at)


class Scheduler:
    """The stream's consumer: a delayed message for every new due time it sees."""

    def __init__(
        self, sqs: Sqs, queue_url: str, now: Callable[[], float], *, ladder: bool = False
    ) -> None:
        self._sqs = sqs
        self._queue_url = queue_url
        self._now = now
        self._ladder = ladder
        """Whether a game that finishes gets a ladder ``settle`` message."""

    def schedule(self, event: Event) -> dict[str, list[dict[str, str]]]:
        """Send the messages; answer the records whose message failed, as the event source
        mapping's partial batch response (``ReportBatchItemFailures``): the stream retries
        from the first of them, and a message sent twice is harmless."""
        messages: list[tuple[str, Message]] = []
        now = self._now()
        for record in event.get("Records") or []:
            ident = str((record.get("dynamodb") or {}).get("SequenceNumber"))
            due = due_of_record(record)
            if due is not None:
                messages.append((ident, due))
            finished = finished_game(record) if self._ladder else None
            if finished is not None:
                messages.append((ident, LadderMessage(SETTLE, now, finished)))
        result = send(self._sqs, self._queue_url, messages, self._now())
        log.info("clock_scheduled", extra={"sent": result.sent, "failed": len(result.failed)})
        return {"batchItemFailures": [{"itemIdentifier": ident} for ident in result.failed]}


@dataclass(frozen=True, slots=True)
class Fired:
    acted: int
    resent: int
    dropped: int
    failures: tuple[str, ...]


class Firer:
    """The queue's consumer: advance each game its message names."""

    def __init__(
        self,
        service: WhenDue,
        sqs: Sqs,
        queue_url: str,
        now: Callable[[], float],
        *,
        ladder: LadderClock | None = None,
    ) -> None:
        self._service = service
        self._sqs = sqs
        self._queue_url = queue_url
        self._now = now
        self._ladder = ladder

    def fire(self, event: Event) -> Fired:
        """Advance the game of every message. A message that came before its game was due
        is sent again with the delay left; one that raised is reported for SQS to deliver
        again (and after 5 receives, to the dead-letter queue); one that is not a clock
        message is dropped and logged (delivering it again could never succeed)."""
        acted = dropped = 0
        again: list[tuple[str, Message]] = []
        failures: list[str] = []
        for record in event.get("Records") or []:
            message_id = str(record.get("messageId"))
            ladder = self._ladder_message(str(record.get("body")))
            if ladder is not None:
                if self._ladder is None:
                    log.warning("clock_ladder_message_without_ladder")
                    dropped += 1
                    continue
                try:
                    self._ladder.handle(ladder)
                except Exception:
                    log.exception("clock_ladder_failed")
                    failures.append(message_id)
                    continue
                acted += 1
                continue
            try:
                due = Due.from_body(str(record.get("body")))
            except ValueError:
                log.warning("clock_message_malformed")
                dropped += 1
                continue
            try:
                advance = self._service.advance_due(due.game_uuid, due.version, due.due_at)
            except Exception:
                log.exception("clock_advance_failed")
                failures.append(message_id)
                continue
            acted += advance.acted
            early = (
                not advance.acted
                and advance.version is not None
                and (advance.version == due.version or advance.due_at == due.due_at)
                and advance.due_at is not None
                and advance.due_at > self._now()
            )
            if early:
                assert advance.version is not None
                assert advance.due_at is not None
                again.append((message_id, Due(due.game_uuid, advance.version, advance.due_at)))
        result = send(self._sqs, self._queue_url, list(again), self._now())
        failures.extend(result.failed)
        log.info(
            "clock_fired",
            extra={"acted": acted, "resent": result.sent, "failed": len(failures)},
        )
        return Fired(acted, result.sent, dropped, tuple(failures))

    def _ladder_message(self, body: str) -> LadderMessage | None:
        """The ladder's message a body holds (None: a game's, or malformed: those are
        :meth:`Due.from_body`'s to refuse)."""
        try:
            data = json.loads(body)
        except ValueError:
            return None
        if not isinstance(data, dict) or "ladder" not in data:
            return None
        try:
            return LadderMessage.from_data(data, self._now())
        except ValueError:
            return None
