"""Business metrics of the Lambda functions, as CloudWatch embedded metric format (EMF).

During an invocation, what happened is counted in memory (:func:`count`, :func:`refusal`);
at its end :func:`flushed` prints the counts as EMF JSON lines on standard output, through
Powertools for AWS Lambda's EMF provider, and CloudWatch turns them into metrics: no API
call, no wait. Counting is on only during an invocation of a Lambda handler
(:func:`flushed`), so ``blef serve`` and the tests of the app count nothing. Powertools is
imported by the first flush that has something to print, never at import.

The metrics (namespace ``POWERTOOLS_METRICS_NAMESPACE``, ``Blef`` if unset; dimension
``service=blef``; unit Count), counted from the saved changes by
app/entrypoints/metrics.py and from the API's error answers by app/api/errors.py:

- ``GamesCreated``, ``GamesStarted``, ``GamesFinished``;
- ``Moves`` (every bet and check, AI's included), ``AIMoves`` (those of AI players),
  ``Timeouts`` (a human's move deadline passed: the clock took the round from them);
- ``ClockLateness`` (unit Seconds, one value per AI move and timeout): how long after
  its due time the clock made it;
- the ladder (app/ladder/queue.py, results.py, app/clock/ladder.py): ``LadderTablesFormed``,
  ``LadderGamesSettled``, ``LadderMatchErrors`` (a join's or a look's matcher raised, or a
  table's game could not be made), ``LadderSettleFailures`` (a settlement raised);
  ``LadderQueueWait`` (Seconds, one value per account seated: how long it waited) and
  ``LadderLongestWait`` (Seconds, at each look: the longest wait of anyone still queued);
  ``LadderAbsentDropped`` (places dropped from a queue, not renewed in time) and
  ``LadderTablesCalledOff`` (tables called off, unrated: a person never came);
- ``Refusals``, with the dimension ``code`` as well (the ``code`` of the error answer:
  ``invalid_action``, ``conflict``, ``invalid_state``, ``internal``, ...).

Nothing else is a dimension: no game, no player, no UUID.
"""

from __future__ import annotations

import os
import re
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final

SERVICE: Final = "blef"
DEFAULT_NAMESPACE: Final = "Blef"

GAMES_CREATED: Final = "GamesCreated"
GAMES_STARTED: Final = "GamesStarted"
GAMES_FINISHED: Final = "GamesFinished"
MOVES: Final = "Moves"
AI_MOVES: Final = "AIMoves"
TIMEOUTS: Final = "Timeouts"
REFUSALS: Final = "Refusals"
CLOCK_LATENESS: Final = "ClockLateness"
LADDER_TABLES_FORMED: Final = "LadderTablesFormed"
LADDER_GAMES_SETTLED: Final = "LadderGamesSettled"
LADDER_MATCH_ERRORS: Final = "LadderMatchErrors"
LADDER_SETTLE_FAILURES: Final = "LadderSettleFailures"
LADDER_QUEUE_WAIT: Final = "LadderQueueWait"
LADDER_LONGEST_WAIT: Final = "LadderLongestWait"
LADDER_ABSENT_DROPPED: Final = "LadderAbsentDropped"
LADDER_TABLES_CALLED_OFF: Final = "LadderTablesCalledOff"
NAMES: Final = (GAMES_CREATED, GAMES_STARTED, GAMES_FINISHED, MOVES, AI_MOVES, TIMEOUTS)

_CODE: Final = re.compile(r"[a-z][a-z0-9_]{0,63}")


class Tally:
    """The counts of the invocation in progress (thread-safe: a request's work may run in a
    worker thread)."""

    def __init__(self) -> None:
        self.enabled = False
        self._lock = threading.Lock()
        self._counts: Counter[str] = Counter()
        self._refusals: Counter[str] = Counter()
        self._seconds: dict[str, list[float]] = {}

    def count(self, name: str, value: int = 1) -> None:
        if self.enabled and value:
            with self._lock:
                self._counts[name] += value

    def refusal(self, code: str) -> None:
        if self.enabled:
            # A code is a constant of the error classes; anything else is not a dimension.
            safe = code if _CODE.fullmatch(code) else "other"
            with self._lock:
                self._refusals[safe] += 1

    def seconds(self, name: str, value: float) -> None:
        if self.enabled:
            with self._lock:
                self._seconds.setdefault(name, []).append(max(0.0, round(value, 3)))

    def take(self) -> tuple[dict[str, int], dict[str, int], dict[str, list[float]]]:
        """The counts and durations so far, and zero again."""
        with self._lock:
            counts, refusals, seconds = dict(self._counts), dict(self._refusals), self._seconds
            self._counts.clear()
            self._refusals.clear()
            self._seconds = {}
        return counts, refusals, seconds


tally = Tally()
count = tally.count
"""Count ``value`` of the business metric ``name`` (no-op unless a Lambda handler runs)."""
refusal = tally.refusal
"""Count one refusal answered with ``code`` (no-op unless a Lambda handler runs)."""
seconds = tally.seconds
"""Record one duration of ``name``, in seconds (no-op unless a Lambda handler runs)."""


def namespace() -> str:
    return os.environ.get("POWERTOOLS_METRICS_NAMESPACE") or DEFAULT_NAMESPACE


_providers: dict[str, Any] = {}
"""The EMF provider of each namespace, made once: printing its line clears it back to
how it was made (Powertools' ``clear_metrics``), so a warm Lambda reuses it."""


def _emitted(code: str | None, metrics: list[tuple[str, str, float]]) -> None:
    """Print one EMF line of ``metrics`` (name, unit, value), with the dimension ``code``."""
    from aws_lambda_powertools.metrics.provider.cloudwatch_emf.cloudwatch import (  # noqa: PLC0415
        AmazonCloudWatchEMFProvider,
    )

    ns = namespace()
    emf = _providers.pop(ns, None)  # out while in use: a line that fails drops it
    if emf is None:
        emf = AmazonCloudWatchEMFProvider(
            namespace=ns, service=SERVICE, default_dimensions={"service": SERVICE}
        )
    if code is not None:
        emf.add_dimension("code", code)
    for name, unit, value in metrics:
        emf.add_metric(name=name, unit=unit, value=value)
    emf.flush_metrics()
    emf.clear_metrics()  # flushing clears only when metrics are on; a disabled one kept "code"
    _providers[ns] = emf


def flush() -> None:
    """Print what was counted as EMF lines (one for the counts, one per refusal code), and
    zero the counts. Prints nothing when nothing was counted."""
    counts, refusals, durations = tally.take()
    if not counts and not refusals and not durations:
        return
    if counts or durations:
        line: list[tuple[str, str, float]] = [
            (name, "Count", value) for name, value in sorted(counts.items())
        ]
        for name, values in sorted(durations.items()):
            # EMF takes at most 100 values of a metric per line
            line.extend((name, "Seconds", each) for each in values[:100])
        _emitted(None, line)
    for code, value in sorted(refusals.items()):
        _emitted(code, [(REFUSALS, "Count", value)])


@contextmanager
def flushed() -> Iterator[None]:
    """One invocation: count what it does, and flush that at its end (even if the handler
    raised). Nothing is counted outside an invocation (Lambda runs one at a time in an
    execution environment)."""
    tally.enabled = True
    try:
        yield
    finally:
        tally.enabled = False
        flush()
