"""What each saved change counts for the business metrics (app/observability/metrics.py), read from
the engine's facts of the game before and after it: a listener of the service
(``GameService.subscribe``) that the Lambda functions install, and :func:`invocation`,
what every Lambda handler runs in (the metrics flushed at its end, and X-Ray tracing when
``BLEF_TRACING`` says so).

- a game with no version before is **created**; one that leaves the lobby is **started**;
  one that reaches ``Finished`` is **finished**;
- every bet and check (action 0..88) added to the round's history is a **move**, and an
  **AI move** when its player is an AI;
- a lost round (89) with no check before it, of the player whose turn it was, saved once
  their move deadline had passed, is a **timeout** (a resignation before the deadline is
  not);
- an AI move or a timeout also records how late it came: the time of its save minus the
  time the version before was due (``ClockLateness``).

Nothing here is read of a player but their seat's nickname and whether an AI holds it, and
nothing of it is a metric's dimension.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final

from app.observability import metrics

if TYPE_CHECKING:
    from app.service.writes import Change

log = logging.getLogger("blef.metrics")

CHECK: Final = 88
LOST_ROUND: Final = 89
TRACING_ENV: Final = "BLEF_TRACING"


def count_change(change: Change) -> None:
    """A listener of the service: count what ``change`` did (see the module docstring)."""
    from engine.facts import Status  # noqa: PLC0415 (the engine's facts, read when invoked)

    doc, previous = change.doc, change.previous
    if previous is None:
        metrics.count(metrics.GAMES_CREATED)
        return
    before, after = previous.facts, doc.facts
    if before.status is Status.NOT_STARTED and after.status is not Status.NOT_STARTED:
        metrics.count(metrics.GAMES_STARTED)
    if before.status is not Status.FINISHED and after.status is Status.FINISHED:
        metrics.count(metrics.GAMES_FINISHED)
    if before.status is not Status.RUNNING:
        return
    if not change.snapshots and previous.state.get("history") == doc.state.get("history"):
        return  # nothing was played (the table, a reaction, a rename)
    running = after.status is Status.RUNNING
    added = _added(_history(previous.state, before.nicknames), after.nicknames, running, change)
    agents = dict(zip(before.nicknames, before.ai_agents, strict=True))
    moves = [(player, action) for player, action in added if action <= CHECK]
    ai_moves = sum(1 for player, _ in moves if agents.get(player))
    metrics.count(metrics.MOVES, len(moves))
    metrics.count(metrics.AI_MOVES, ai_moves)
    timed_out = _timed_out(added, before.current, before.nicknames, previous.move_deadline, doc)
    if timed_out:
        metrics.count(metrics.TIMEOUTS)
    if (ai_moves or timed_out) and previous.due_at is not None:
        metrics.seconds(metrics.CLOCK_LATENESS, doc.last_modified - previous.due_at)


def _history(state: dict[str, Any], nicknames: Sequence[str]) -> list[tuple[str, int]]:
    """The round in play's moves, as (nickname, action), read from the engine's stored form
    (``[seat, action]`` pairs, engine/serialise.py) without rebuilding the game: this runs
    on every write."""
    return [(nicknames[seat], int(action)) for seat, action in state.get("history") or ()]


def _added(
    before: Sequence[tuple[str, int]], nicknames: Sequence[str], running: bool, change: Change
) -> list[tuple[str, int]]:
    """The history entries the change added: the rest of the round in play (ended, as its
    snapshot shows it, or still running), then, while the game runs, the round in play."""
    rounds = [
        [(str(m["player"]), int(m["action_id"])) for m in snapshot.data.get("history") or ()]
        for snapshot in change.snapshots
    ]
    if not rounds or running:
        rounds.append(_history(change.doc.state, nicknames))
    first, *later = rounds
    return [*first[len(before) :], *(entry for each in later for entry in each)]


def _timed_out(
    added: Sequence[tuple[str, int]],
    current: int | None,
    nicknames: Sequence[str],
    deadline: float | None,
    doc: Any,
) -> bool:
    if current is None or deadline is None or doc.last_modified < deadline:
        return False
    mover = nicknames[current]
    for index, (player, action) in enumerate(added):
        if action == LOST_ROUND:
            checked = index > 0 and added[index - 1][1] == CHECK
            return player == mover and not checked
    return False


# ---------------------------------------------------------------------- invocations

_tracer: Any = None
_tracer_lock = threading.Lock()
_tracer_built = False


def tracing_on() -> bool:
    return os.environ.get(TRACING_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def tracer() -> Any:
    """Powertools' Tracer (boto3 calls patched), built by the first invocation that runs with
    ``BLEF_TRACING`` on; None when tracing is off (the default) or cannot be had."""
    global _tracer, _tracer_built  # noqa: PLW0603
    if not _tracer_built:
        with _tracer_lock:
            if not _tracer_built:
                if tracing_on():
                    try:
                        from aws_lambda_powertools import Tracer  # noqa: PLC0415

                        _tracer = Tracer(service=metrics.SERVICE, patch_modules=["botocore"])
                    except Exception:
                        log.warning("tracing_unavailable")
                _tracer_built = True
    return _tracer


def reset_tracer() -> None:
    """Read ``BLEF_TRACING`` again at the next invocation (tests)."""
    global _tracer, _tracer_built
    _tracer, _tracer_built = None, False


@contextmanager
def invocation(name: str) -> Iterator[None]:
    """What every handler runs in: its business metrics flushed at its end, and, with
    tracing on, an X-Ray subsegment ``## <name>``."""
    with metrics.flushed():
        traced = tracer()
        if traced is None:
            yield
            return
        with traced.provider.in_subsegment(f"## {name}"):
            yield
