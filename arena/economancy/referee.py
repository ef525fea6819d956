"""The referee: one game of Economancy between player programs and built-in agents.

It speaks the course's protocol exactly: to the seat it asks, the state JSON (five keys,
:meth:`~engine.economancy.state.EconomancyState.view` as compact text, ``view_text``) and a
newline, flushed; back, one JSON value, the move (a newline after it or not; whitespace,
Windows line endings and whatever the program writes to stderr are ignored). It asks whom
the protocol asks, in its order: the seats still to choose, lowest index first (investing,
each defender of a fight, each buyer of a round), the attacker alone; never a seat the
protocol skips. When the game ends every program still playing is sent the end state, its
input is closed, and it is given a second to exit before it is killed.

**Faults.** A seat that cannot give a legal move loses by fault, with its reason:

- ``timeout``: no complete move within the time limit (10 s by default; the first
  question also allows ``startup_time`` more, for the program to start);
- ``crashed``: the program exited or closed its output (the detail gives the exit status
  and the end of its stderr), could not be started, or (a built-in agent) raised;
- ``bad_output``: what it wrote is not a JSON value, or is not a move at all
  (:class:`~engine.protocol.MalformedMove`), or it wrote before it was asked;
- ``illegal_move``: a move the rules refuse now (the detail names the rule).

The faulting seat is out of the game at once (as if eliminated: its cards, coins and buys
are gone) and its program is stopped. At two players the other seat has won; at three or
four the game goes on among the others (a fight or a round that waited only for that seat
resolves), so a fault never spoils the other seats' game. The course referee instead ends
the game at the first fault; with two players the outcome is the same.

**The trace** (``trace``: a text stream) is JSON Lines: a ``game`` record (rules, seats),
then, in order, every ``state`` sent (``seat``, ``state``), every ``move`` received
(``seat``, ``move`` as written; a ``refused`` record with the rule's ``code`` follows a move
the engine refused), every ``fault``, and an ``end`` record (winner, reason, places).
:func:`replay_trace` plays the moves through the engine again and checks that every state
matches.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import IO, Any, Final

from arena.economancy.specs import ProgramSpec, entry_labels
from arena.economancy.stream import ProgramProcess, ValueReader, shown
from arena.process import Closed, Line, TimedOut
from arena.seat_program import EXIT_GRACE, ProgramSeat, add_decision, close_all
from arena.seats import agent_seed
from engine.economancy import GAME, EconomancyRules
from engine.economancy.agents import EconomancyAgent, make_agent
from engine.protocol import MalformedMove, MoveRefused

DEFAULT_TIME_LIMIT: Final = 10.0
DEFAULT_STARTUP_TIME: Final = 5.0
SETTLE: Final = 0.05
"""Seconds a bare number with nothing after it waits for more digits."""
TRACE_VERSION: Final = 1
NOT_JSON_HINT: Final = (
    " (only the move goes to standard output, as JSON: debug text belongs on standard"
    " error, and JSON strings take double quotes)"
)
SILENT_HINT: Final = (
    " (it has written nothing at all: a program must flush its output after each move)"
)


class FaultReason(StrEnum):
    TIMEOUT = "timeout"
    CRASHED = "crashed"
    BAD_OUTPUT = "bad_output"
    ILLEGAL_MOVE = "illegal_move"


@dataclass(frozen=True, slots=True)
class Fault:
    seat: int
    reason: FaultReason
    detail: str
    day: int
    """The game's day count (1, 2, 3, 4, ...) when it happened."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "reason": self.reason.value,
            "detail": self.detail,
            "day": self.day,
        }


@dataclass(slots=True)
class SeatReport:
    seat: int
    label: str
    program: str
    moves: int = 0
    decision_s: float = 0.0
    max_decision_s: float = 0.0
    first_answer_s: float | None = None
    fault: Fault | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "label": self.label,
            "program": self.program,
            "moves": self.moves,
            "decision_ms": round(self.decision_s * 1000, 3),
            "max_decision_ms": round(self.max_decision_s * 1000, 3),
            "first_answer_ms": None
            if self.first_answer_s is None
            else round(self.first_answer_s * 1000, 3),
            "fault": self.fault.to_dict() if self.fault else None,
        }


@dataclass(frozen=True, slots=True)
class GameReport:
    seats: tuple[SeatReport, ...]
    rules: EconomancyRules
    winner: int | None
    """The winning seat, or None for a draw (the day limit)."""
    reason: str
    places: tuple[int, ...]
    days: int
    moves: int

    @property
    def faults(self) -> tuple[Fault, ...]:
        return tuple(s.fault for s in self.seats if s.fault is not None)

    @property
    def winner_label(self) -> str | None:
        return None if self.winner is None else self.seats[self.winner].label

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seats": [seat.to_dict() for seat in self.seats],
            "winner": self.winner,
            "winner_label": self.winner_label,
            "reason": self.reason,
            "places": list(self.places),
            "days": self.days,
            "moves": self.moves,
            "faults": [fault.to_dict() for fault in self.faults],
        }


# ---------------------------------------------------------------------- players


@dataclass(slots=True)
class Answer:
    value: Any = None
    reason: FaultReason | None = None
    detail: str = ""
    seconds: float = 0.0
    first: bool = False


class Player:
    """A seat's player as the referee drives it: a program reads the state as text, a
    built-in agent as the view's dict (each is made only for whoever reads it)."""

    needs_text = False
    needs_view = False

    def start(self) -> None:
        """Start it (a program's process)."""

    def ask(self, text: str, view: Mapping[str, Any] | None) -> Answer:
        raise NotImplementedError

    def tell_end(self, text: str, view: Mapping[str, Any] | None) -> None:
        """Send the end state."""

    def finish(self) -> None:
        """Close its input: nothing more will be sent."""

    def close(self, grace: float) -> None:
        """End it, ``grace`` seconds allowed to exit by itself."""


class BuiltinPlayer(Player):
    needs_view = True

    def __init__(self, agent: EconomancyAgent) -> None:
        self._agent = agent

    def ask(self, text: str, view: Mapping[str, Any] | None) -> Answer:
        assert view is not None
        start = time.perf_counter()
        try:
            move = self._agent.choose(view)
        except Exception as exc:
            detail = f"the agent raised {type(exc).__name__}: {exc}"[:300]
            return Answer(reason=FaultReason.CRASHED, detail=detail)
        return Answer([move], seconds=time.perf_counter() - start)

    def tell_end(self, text: str, view: Mapping[str, Any] | None) -> None:
        assert view is not None
        self._agent.game_over(view)


class ProgramPlayer(ProgramSeat[ProgramProcess], Player):
    needs_text = True

    def __init__(self, argv: Sequence[str], time_limit: float, startup_time: float) -> None:
        super().__init__(ProgramProcess(argv), time_limit, startup_time)
        self._reader = ValueReader()
        self._closed = False
        self._heard = False
        """Whether the program has written anything to its output yet."""

    def _drain(self) -> bool:
        """Read what the program wrote unasked; False once its output is closed."""
        while self._bot.has_output():
            got = self._bot.receive(0.0)
            if isinstance(got, Line):
                self._heard = True
                self._reader.feed(got.data)
            elif isinstance(got, Closed):
                self._closed = True
                return False
        return not self._closed

    def ask(self, text: str, view: Mapping[str, Any] | None) -> Answer:
        if self._start_error is not None:
            return Answer(reason=FaultReason.CRASHED, detail=self._start_error)
        self._drain()
        if self._reader.has_content():
            detail = f"wrote {shown(self._reader.pending.strip())} before it was asked"
            return Answer(reason=FaultReason.BAD_OUTPUT, detail=detail)
        if self._closed:
            return Answer(reason=FaultReason.CRASHED, detail=self._exit_detail())
        limit, first = self._next_limit()
        start = time.perf_counter()
        deadline = start + limit
        self._bot.send_bytes((text + "\n").encode())
        reader, bot = self._reader, self._bot
        while True:
            value, error = reader.next_value(closed=self._closed)
            now = time.perf_counter()
            if error is not None:
                if self._closed and not reader.has_content():
                    return Answer(reason=FaultReason.CRASHED, detail=self._exit_detail())
                if error.startswith("not JSON"):
                    error += NOT_JSON_HINT
                return Answer(reason=FaultReason.BAD_OUTPUT, detail=error, seconds=now - start)
            if value is not None:
                return Answer(value, seconds=now - start, first=first)
            if self._closed:
                return Answer(reason=FaultReason.CRASHED, detail=self._exit_detail())
            left = deadline - now
            if left <= 0:
                detail = f"no complete move within {limit:g} s"
                return Answer(
                    reason=FaultReason.TIMEOUT,
                    detail=detail if self._heard else detail + SILENT_HINT,
                    seconds=now - start,
                )
            bare = reader.has_content()  # a bare number waiting for what follows it
            got = bot.receive(min(left, SETTLE) if bare else left)
            if isinstance(got, Line):
                self._heard = True
                reader.feed(got.data)
            elif isinstance(got, Closed):
                self._closed = True
            elif isinstance(got, TimedOut) and bare:
                value, error = reader.next_value(closed=True)
                if value is not None:
                    return Answer(value, seconds=time.perf_counter() - start, first=first)

    def tell_end(self, text: str, view: Mapping[str, Any] | None) -> None:
        if self._start_error is None:
            self._bot.send_bytes((text + "\n").encode())

    def finish(self) -> None:
        self._bot.close_input()


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# ---------------------------------------------------------------------- the game


def make_players(
    specs: Sequence[ProgramSpec],
    rules: EconomancyRules,
    *,
    seed: int,
    game_index: int,
    time_limit: float,
    startup_time: float,
) -> list[Player]:
    players: list[Player] = []
    for seat, spec in enumerate(specs):
        if spec.builtin is not None:
            agent = make_agent(spec.builtin, agent_seed(seed, game_index, seat), rules)
            players.append(BuiltinPlayer(agent))
        else:
            assert spec.argv is not None
            players.append(ProgramPlayer(spec.argv, time_limit, startup_time))
    return players


def referee_game(
    specs: Sequence[ProgramSpec],
    *,
    rules: EconomancyRules | None = None,
    seed: int = 0,
    game_index: int = 0,
    labels: Sequence[str] | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    startup_time: float = DEFAULT_STARTUP_TIME,
    trace: IO[str] | None = None,
) -> GameReport:
    """Play one game with ``specs[j]`` at seat ``j`` and referee it (see the module
    docstring). Built-in agents are seeded from ``(seed, game_index, seat)``; the rules
    deal nothing. Every program is ended by the time this returns."""
    rules = rules or EconomancyRules()
    n = len(specs)
    if not GAME.min_seats <= n <= GAME.max_seats:
        raise ValueError(f"Economancy is played by 2 to 4 players, not {n}")
    if time_limit <= 0 or startup_time < 0:
        raise ValueError("the time limit must be positive and the startup time not negative")
    labels = list(labels) if labels is not None else entry_labels(specs)
    reports = tuple(SeatReport(seat, labels[seat], spec.text) for seat, spec in enumerate(specs))
    players = make_players(
        specs,
        rules,
        seed=seed,
        game_index=game_index,
        time_limit=time_limit,
        startup_time=startup_time,
    )

    def record(data: dict[str, Any]) -> None:
        if trace is not None:
            trace.write(_dumps(data) + "\n")

    state = GAME.setup(rules, n)
    faulted: set[int] = set()
    moves = 0
    record(
        {
            "type": "game",
            "version": TRACE_VERSION,
            "game": "economancy",
            "rules": rules.to_dict(),
            "seats": [{"label": r.label, "program": r.program} for r in reports],
            "seed": seed,
            "game_index": game_index,
        }
    )
    try:
        for player in players:
            player.start()
        while not state.over:
            seat = state.to_act()[0]
            player = players[seat]
            view = state.view(seat) if player.needs_view or trace is not None else None
            text = state.view_text(seat) if player.needs_text else ""
            if trace is not None:
                record({"type": "state", "seat": seat, "state": view})
            answer = player.ask(text, view)
            if answer.reason is None:
                record({"type": "move", "seat": seat, "move": answer.value})
                try:
                    state.apply(seat, GAME.parse_move(answer.value))
                except MalformedMove as exc:
                    _refusal(trace, exc.code)
                    answer.reason, answer.detail = FaultReason.BAD_OUTPUT, _wrote(answer, exc)
                except MoveRefused as exc:
                    _refusal(trace, exc.code)
                    answer.reason, answer.detail = FaultReason.ILLEGAL_MOVE, _wrote(answer, exc)
            if answer.reason is not None:
                fault = Fault(seat, answer.reason, answer.detail, state.day_count)
                reports[seat].fault = fault
                faulted.add(seat)
                record({"type": "fault", **fault.to_dict()})
                players[seat].finish()
                players[seat].close(0.0)
                state.forfeit(seat)
                continue
            moves += 1
            add_decision(reports[seat], answer.seconds, first=answer.first)
        for seat, player in enumerate(players):
            if seat in faulted:
                continue
            view = state.view(seat) if player.needs_view or trace is not None else None
            if trace is not None:
                record({"type": "state", "seat": seat, "state": view})
            player.tell_end(state.view_text(seat) if player.needs_text else "", view)
            player.finish()
    finally:
        close_all(players, EXIT_GRACE)
    result = state.result()
    assert result is not None
    report = GameReport(
        seats=reports,
        rules=rules,
        winner=state.winner,
        reason=result.reason,
        places=result.places,
        days=state.day_count,
        moves=moves,
    )
    record(
        {
            "type": "end",
            "winner": state.winner,
            "reason": result.reason,
            "places": list(result.places),
            "days": state.day_count,
        }
    )
    return report


def _refusal(trace: IO[str] | None, code: str) -> None:
    """Mark the move just traced as refused, with the rule's code."""
    if trace is not None:
        trace.write(_dumps({"type": "refused", "code": code}) + "\n")


def _wrote(answer: Answer, exc: Exception) -> str:
    return f"{_dumps(answer.value)[:80]}: {exc}"


# ---------------------------------------------------------------------- replay


class ReplayMismatch(ValueError):
    """A trace that the engine does not reproduce: the first difference, in words."""


@dataclass(slots=True)
class ReplayReport:
    states: int = 0
    moves: int = 0
    faults: int = 0
    winner: int | None = None
    reason: str = ""
    notes: list[str] = field(default_factory=list)


def replay_trace(lines: Iterable[str]) -> ReplayReport:
    """Play a trace's moves through the engine again; :class:`ReplayMismatch` at the first
    state, refusal or outcome that differs from the trace."""
    records = [json.loads(line) for line in lines if line.strip()]
    if not records or records[0].get("type") != "game":
        raise ReplayMismatch("a trace starts with its game record")
    head = records[0]
    if head.get("game") != "economancy":
        raise ReplayMismatch(f"not an Economancy trace: {head.get('game')!r}")
    rules = EconomancyRules.from_dict(head["rules"])
    state = GAME.setup(rules, len(head["seats"]))
    report = ReplayReport()
    pending: tuple[int, Any] | None = None

    def settle() -> None:
        nonlocal pending
        if pending is not None:
            seat, move = pending
            pending = None
            state.apply(seat, GAME.parse_move(move))

    for number, rec in enumerate(records[1:], start=2):
        kind = rec.get("type")
        if kind == "refused":
            if pending is None:
                raise ReplayMismatch(f"line {number}: a refusal with no move before it")
            seat, move = pending
            pending = None
            before = state.to_dict()
            try:
                state.apply(seat, GAME.parse_move(move))
            except (MalformedMove, MoveRefused) as exc:
                if exc.code != rec["code"]:
                    raise ReplayMismatch(
                        f"line {number}: refused as {exc.code}, the trace says {rec['code']}"
                    ) from None
            else:
                raise ReplayMismatch(f"line {number}: the engine accepts the refused {move!r}")
            assert state.to_dict() == before
            continue
        settle()
        if kind == "state":
            report.states += 1
            if state.view(rec["seat"]) != rec["state"]:
                raise ReplayMismatch(
                    f"line {number}: the state sent to seat {rec['seat']} differs from the "
                    f"engine's: {_dumps(state.view(rec['seat']))}"
                )
        elif kind == "move":
            report.moves += 1
            pending = (rec["seat"], rec["move"])
        elif kind == "fault":
            report.faults += 1
            state.forfeit(rec["seat"])
        elif kind == "end":
            result = state.result()
            if result is None:
                raise ReplayMismatch(f"line {number}: the trace ends a game still going on")
            if (state.winner, result.reason, list(result.places)) != (
                rec["winner"],
                rec["reason"],
                rec["places"],
            ):
                raise ReplayMismatch(
                    f"line {number}: the engine ends with winner {state.winner}, "
                    f"{result.reason}, places {list(result.places)}; the trace says "
                    f"{rec['winner']}, {rec['reason']}, {rec['places']}"
                )
            report.winner, report.reason = state.winner, result.reason
        else:
            raise ReplayMismatch(f"line {number}: unknown record type {kind!r}")
    settle()
    if not state.over:
        raise ReplayMismatch("the trace stops before the game's end")
    return report
