"""When a game is next due: decided by the write path at every change, from the game.

A **move deadline** belongs to a turn: it is set when a player's turn begins (a new round,
or the move before theirs) to ``now + time_limit``, and kept by any write that leaves the
turn as it was. A game is **due** (the clock must wake it) at the AI player's think time if
an AI is to move, else at the human's deadline (if the game has a time limit), else never.
The clock's runners (app/clock) only read ``GameDoc.due_at``; what happens when a game is
due is a use case of the service (app/service/due.py).

>>> from engine.dealing import seed_sequence
>>> game = Game(seed_source=seed_sequence(1))
>>> game.join("ann"), game.join("Bot_(AI)", ai_agent="random")
(0, 1)
>>> before = turn_of(game)
>>> game.start()
>>> due = plan(before, game, now=100.0, time_limit=30, think_seconds=1.0)
>>> due.move_deadline
130.0
>>> plan(turn_of(game), game, now=120.0, time_limit=30, think_seconds=1.0,
...      deadline_before=130.0, due_before=due.due_at) == due
True
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Game, Status

Turn = tuple[Status, int, int, int | None]
"""What identifies a turn: the status, the round, how many moves it has had, whose turn."""


@dataclass(frozen=True, slots=True)
class Timing:
    """The move deadline of the player to move (None: no limit, or nobody to move) and
    when the clock must act next (None: nothing due)."""

    move_deadline: float | None
    due_at: float | None


NOTHING_DUE = Timing(None, None)


def turn_of(game: Game) -> Turn:
    """The turn ``game`` is at. Two states with the same turn share one deadline."""
    return (game.status, game.round_number, len(game.history), game.current_seat)


def ai_to_move(game: Game) -> str | None:
    """The agent name of the AI player to move, if an AI is to move in a running game."""
    seat = game.current_seat
    if game.status is not Status.RUNNING or seat is None:
        return None
    return game.ai_agents[seat]


def plan(
    before: Turn,
    game: Game,
    *,
    now: float,
    time_limit: int,
    think_seconds: float,
    deadline_before: float | None = None,
    due_before: float | None = None,
) -> Timing:
    """The timing after a change that took the game from the turn ``before`` to ``game``.

    ``deadline_before`` and ``due_before`` are the timing stored before the change: kept
    when it left the turn as it was, so that no change but a move changes anyone's time.
    """
    if game.status is not Status.RUNNING or game.current_seat is None:
        return NOTHING_DUE
    if turn_of(game) == before and due_before is not None:
        return Timing(deadline_before, due_before)
    deadline = now + time_limit if time_limit > 0 else None
    if ai_to_move(game) is not None:
        think = now + think_seconds
        return Timing(deadline, think if deadline is None else min(think, deadline))
    return Timing(deadline, deadline)
