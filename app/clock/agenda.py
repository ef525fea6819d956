"""When a game is next due: stamped on every write by the service's write path.

A **move deadline** belongs to a turn: it is set when a player's turn begins (a new round,
or the move before theirs) to ``now + time_limit``, and kept by any write that leaves the
turn as it was. The clock is **due** on a running game at the AI player's think time if an
AI is to move, else at the human's deadline (if the game has a time limit), else never.

It reads the engine's stored state (``Game.to_dict()``), which the write path has at hand.

>>> before = {"status": "Running", "round_number": 1, "history": [], "current": 0,
...           "players": [{"nickname": "ann"}, {"nickname": "Bot_(AI)", "ai_agent": "random"}]}
>>> after = {**before, "history": [[0, 6]], "current": 1}
>>> plan(before, after, now=100.0, time_limit=30, think_seconds=1.0)
Timing(move_deadline=130.0, due_at=101.0)
>>> plan(after, after, now=120.0, time_limit=30, think_seconds=1.0,
...      deadline_before=130.0, due_before=101.0)
Timing(move_deadline=130.0, due_at=101.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

State = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Timing:
    """The move deadline of the player to move (None: no limit, or nobody to move) and
    when the clock must act next (None: nothing due)."""

    move_deadline: float | None
    due_at: float | None


NOTHING_DUE = Timing(None, None)


def turn_of(state: State) -> tuple[object, ...]:
    """What identifies a turn in a stored engine state: the round, how many moves it has
    had, and whose turn it is. Two states with the same turn share one deadline."""
    return (
        state.get("status"),
        state.get("round_number"),
        len(state.get("history") or ()),
        state.get("current"),
    )


def ai_to_move(state: State) -> str | None:
    """The agent name of the AI player to move, if an AI is to move in a running game."""
    seat = state.get("current")
    if state.get("status") != "Running" or not isinstance(seat, int):
        return None
    agent: str | None = state["players"][seat].get("ai_agent")
    return agent


def plan(
    before: State,
    after: State,
    *,
    now: float,
    time_limit: int,
    think_seconds: float,
    deadline_before: float | None = None,
    due_before: float | None = None,
) -> Timing:
    """The timing after a write that turned the stored state ``before`` into ``after``.

    ``deadline_before`` and ``due_before`` are the timing stored with ``before``: kept when
    the write left the turn as it was, so that no write but a move changes anyone's time.
    """
    if after.get("status") != "Running" or after.get("current") is None:
        return NOTHING_DUE
    if turn_of(before) == turn_of(after) and due_before is not None:
        return Timing(deadline_before, due_before)
    deadline = now + time_limit if time_limit > 0 else None
    if ai_to_move(after) is not None:
        think = now + think_seconds
        return Timing(deadline, think if deadline is None else min(think, deadline))
    return Timing(deadline, deadline)
