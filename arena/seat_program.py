"""What every game's referee does with an external program, whatever the game speaks.

:class:`ProgramSeat` holds a program's process and its clock: it starts the program (an
error is kept, to be reported as a crash at the program's first turn), gives each question
its time limit (the first also allows ``startup_time``, for the program to start), words
how the program ended (its exit status and the end of its stderr), and ends it.
:func:`close_all` ends every player of a game within one shared grace period, and
:func:`add_decision` counts a move's decision time in a seat's report. Each game's
referee keeps its own protocol (what is sent, how an answer is read) and its own reasons.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Final, Generic, Protocol, TypeVar

from arena.process import BotProcess

EXIT_GRACE: Final = 1.0
"""Seconds programs are given to exit by themselves once the game is over."""

B = TypeVar("B", bound=BotProcess)


class ProgramSeat(Generic[B]):
    """An external program at a seat: its process, its time limits, its end."""

    def __init__(self, bot: B, time_limit: float, startup_time: float) -> None:
        self._bot = bot
        self._time_limit = time_limit
        self._startup_time = startup_time
        self._asked = False
        self._start_error: str | None = None

    def start(self) -> None:
        try:
            self._bot.start()
        except OSError as exc:
            self._start_error = f"could not be started: {exc}"

    def _next_limit(self) -> tuple[float, bool]:
        """The seconds this question allows, and whether it is the program's first."""
        first = not self._asked
        self._asked = True
        return self._time_limit + (self._startup_time if first else 0.0), first

    def _exit_detail(self) -> str:
        status = self._bot.wait(0.5)
        if status is None:
            text = "closed its output without answering"
        elif status < 0:
            text = f"was killed by signal {-status}"
        else:
            text = f"exited with status {status}"
        tail = self._bot.stderr_tail(300, settle=1.0).strip()
        return f"{text}; stderr: {tail}" if tail else text

    def close(self, grace: float) -> None:
        self._bot.stop(grace)


class _Closable(Protocol):
    def close(self, grace: float) -> None: ...


def close_all(players: Iterable[_Closable], grace: float) -> None:
    """End every player, ``grace`` seconds shared by all to exit by themselves."""
    deadline = time.perf_counter() + grace
    for player in players:
        player.close(max(0.0, deadline - time.perf_counter()))


class _Timed(Protocol):
    moves: int
    decision_s: float
    max_decision_s: float
    first_answer_s: float | None


def add_decision(seat: _Timed, seconds: float, *, first: bool) -> None:
    """Count one move and its decision time; a program's first answer, which includes its
    start-up, is kept apart in ``first_answer_s``."""
    seat.moves += 1
    if first:
        seat.first_answer_s = seconds
        return
    seat.decision_s += seconds
    seat.max_decision_s = max(seat.max_decision_s, seconds)
