"""The clock's queue on AWS: an SQS delay queue, and how a message is sent to it with the
delay it asks for. The game clock (app/clock/aws.py) and the ladder's clock
(app/clock/ladder.py) both send through it; neither imports the other for it.

Nothing here imports boto3: the SQS client is handed in (app/entrypoints/clock.py builds it).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final, Protocol

log = logging.getLogger("blef.clock")

MAX_DELAY_SECONDS: Final = 900
"""SQS's longest message delay (15 minutes); a later due time is reached by re-sending."""
BATCH: Final = 10
"""SendMessageBatch takes at most 10 messages."""


class Message(Protocol):
    """What :func:`send` sends: a body, delayed until ``due_at``."""

    @property
    def due_at(self) -> float: ...

    def body(self) -> str: ...


class Sqs(Protocol):
    """The part of the SQS client the clock uses."""

    def send_message_batch(self, *, QueueUrl: str, Entries: list[dict[str, Any]]) -> Any: ...  # noqa: N803


def delay_seconds(due_at: float, now: float) -> int:
    """Whole seconds SQS should hold a message due at ``due_at``: rounded up (a message never
    arrives before it is due, unless SQS delivers it early), within SQS's 0..900."""
    wait = due_at - now
    if math.isnan(wait) or wait <= 0:
        return 0
    if wait >= MAX_DELAY_SECONDS:
        return MAX_DELAY_SECONDS
    return math.ceil(wait)


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
