"""When a table of any game but Blef is next due: decided by the write path at every change.

A match's turn (engine/match.py) has a **step**: it moves on with every move, except a
chooser's hidden choice inside a simultaneous turn (the others still choose in the same
step). The **move deadline** belongs to a step of a ``one`` or ``simultaneous`` turn: set to
``now + time_limit`` when the step begins (if the table has a time limit), kept by every
write within it. A game is **due**:

- at the deadline of the rules themselves (:attr:`engine.protocol.Turn.deadline`: Figgie's
  end of trading), whatever the table's time limit;
- at an AI player's think time when a built-in computer player may act (in an ``open`` turn,
  again and again until the deadline; in the others, once per step);
- at the move deadline, when a human seat is still to choose;
- never, once the game is over or before it starts.

What happens then is app/service/match_due.py's.
"""

from __future__ import annotations

from app.service.timing import NOTHING_DUE, Timing
from engine.facts import Status
from engine.match import Match
from engine.protocol import TurnMode


def ai_seats(match: Match) -> list[int]:
    """The seats of built-in computer players that may act now, in seat order."""
    if match.status is not Status.RUNNING:
        return []
    agents = match.table.ai_agents
    return sorted(seat for seat in match.turn().seats if agents[seat] is not None)


def plan(
    step_before: int,
    match: Match,
    *,
    now: float,
    time_limit: int,
    think_seconds: float,
    deadline_before: float | None = None,
    due_before: float | None = None,
) -> Timing:
    """The timing after a change that took the match from step ``step_before`` to now."""
    if match.status is not Status.RUNNING:
        return NOTHING_DUE
    turn = match.turn()
    same_step = match.step == step_before
    ai = bool(ai_seats(match))
    if turn.mode is TurnMode.OPEN:
        ends = turn.deadline
        think = now + think_seconds
        if ai and due_before is not None and now < due_before:
            think = min(think, due_before)  # an AI's wake already planned stands
        times = [t for t in (ends, think if ai else None) if t is not None]
        return Timing(None, min(times) if times else None)
    deadline = deadline_before if same_step else (now + time_limit if time_limit > 0 else None)
    if not turn.seats:
        return Timing(None, turn.deadline)
    times = [t for t in (deadline, turn.deadline) if t is not None]
    if ai:
        think = now + think_seconds
        if same_step and due_before is not None and now < due_before:
            think = min(think, due_before)
        times.append(think)
    return Timing(deadline, min(times) if times else None)
