"""The game clock on AWS: the table's stream, an SQS delay queue, and a sweeper.

::

    games table ── stream (NEW_IMAGE; live STATE items with ``due_at``)
        └─> Scheduler.schedule: one message {game_uuid, version, due_at} per record,
            DelaySeconds = clamp(ceil(due_at - now), 0, 900)
    SQS delay queue ──> Firer.fire: service.advance(game_uuid, version)
            too early (DelaySeconds is whole seconds, at most 15 minutes): sent again with
            the delay left
    EventBridge, every minute ──> service.sweep: every overdue game (the safety net)

The ladder rides the same queue (app/clock/ladder.py): the scheduler also sends a
``{"ladder": "settle"}`` message for each game that finishes, the fire function hands every
``{"ladder": ...}`` message to the ladder's clock, and the sweeper sweeps the ladder too.

Every action is the service's :meth:`~app.service.due.WhenDue.advance`, conditional on the
version the message names, so a message delivered twice, or after a player already moved
the game on, changes nothing; and the clock's own write is a new version with its own stream
record, hence its own message.

Nothing here imports boto3: the SQS client is handed in (app/entrypoints/clock.py builds it).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from app.clock.ladder import SETTLE, LadderMessage, finished_of_record
from app.store.dynamo.stream import is_state

if TYPE_CHECKING:
    from app.clock.ladder import LadderClock
    from app.service.due import WhenDue

log = logging.getLogger("blef.clock")

MAX_DELAY_SECONDS: Final = 900
"""SQS's longest message delay (15 minutes); a later due time is reached by re-sending."""
BATCH: Final = 10
"""SendMessageBatch takes at most 10 messages."""

Event = Mapping[str, Any]


class Message(Protocol):
    """What :func:`send` sends: a body, delayed until ``due_at``."""

    @property
    def due_at(self) -> float: ...

    def body(self) -> str: ...


class Sqs(Protocol):
    """The part of the SQS client the clock uses."""

    def send_message_batch(self, *, QueueUrl: str, Entries: list[dict[str, Any]]) -> Any: ...  # noqa: N803


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


def delay_seconds(due_at: float, now: float) -> int:
    """Whole seconds SQS should hold a message due at ``due_at``: rounded up (a message never
    arrives before it is due, unless SQS delivers it early), within SQS's 0..900."""
    wait = due_at - now
    if math.isnan(wait) or wait <= 0:
        return 0
    if wait >= MAX_DELAY_SECONDS:
        return MAX_DELAY_SECONDS
    return math.ceil(wait)


def due_of_record(record: Mapping[str, Any]) -> Due | None:
    """The clock message a stream record asks for: a live game item inserted or modified
    whose new image has ``due_at``; None for any other record (the event source's filter
    should never send those, but a record is checked rather than trusted)."""
    if record.get("eventName") not in ("INSERT", "MODIFY"):
        return None
    image = (record.get("dynamodb") or {}).get("NewImage") or {}
    if not is_state(image):
        return None
    try:
        return Due(
            game_uuid=str(image["game_uuid"]["S"]),
            version=int(image["version"]["N"]),
            due_at=float(image["due_at"]["N"]),
        )
    except (KeyError, TypeError, ValueError):
        return None


@dataclass(frozen=True, slots=True)
class Sent:
    """What one batch of sends did: how many went, and the ids of the entries that failed."""

    sent: int
    failed: tuple[str, ...]


def send(sqs: Sqs, queue_url: str, messages: Iterable[tuple[str, Message]], now: float) -> Sent:
    """Send each ``(id, due)`` with its delay, 10 per SendMessageBatch call; an entry SQS
    refuses, or every entry of a call that raised, is reported failed (by its id)."""
    pending = list(messages)
    sent = 0
    failed: list[str] = []
    for start in range(0, len(pending), BATCH):
        chunk = pending[start : start + BATCH]
        entries = [
            {
                "Id": str(index),
                "MessageBody": due.body(),
                "DelaySeconds": delay_seconds(due.due_at, now),
            }
            for index, (_, due) in enumerate(chunk)
        ]
        try:
            reply = sqs.send_message_batch(QueueUrl=queue_url, Entries=entries)
        except Exception:
            log.exception("clock_send_failed", extra={"messages": len(chunk)})
            failed.extend(ident for ident, _ in chunk)
            continue
        refused = {entry["Id"] for entry in reply.get("Failed") or []}
        for index, (ident, _) in enumerate(chunk):
            if str(index) in refused:
                failed.append(ident)
            else:
                sent += 1
        if refused:
            log.warning("clock_send_refused", extra={"messages": len(refused)})
    return Sent(sent, tuple(failed))


class Scheduler:
    """The stream's consumer: a delayed message for every due game version it sees."""

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
            finished = finished_of_record(record) if self._ladder else None
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
                advance = self._service.advance(due.game_uuid, due.version)
            except Exception:
                log.exception("clock_advance_failed")
                failures.append(message_id)
                continue
            acted += advance.acted
            early = (
                not advance.acted
                and advance.version == due.version
                and advance.due_at is not None
                and advance.due_at > self._now()
            )
            if early:
                assert advance.due_at is not None
                again.append((message_id, Due(due.game_uuid, due.version, advance.due_at)))
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
