"""The referee: one game of Blef between built-in agents and external programs.

Every player is asked for a move in turn. A player that cannot give a legal move in time
**forfeits**: :meth:`engine.game.Game.forfeit` eliminates it at once and the game goes on
among the others. The reasons:

- ``timeout``: an external program gave no answer within the time limit (the first
  request to each program also allows ``startup_time`` more, for the program to start);
- ``crashed``: the program exited, closed its output, or could not be started (the
  detail gives the exit status and the end of its stderr); for a built-in agent, its
  ``act`` raised an exception;
- ``bad_output``: the answer is not a JSON line ``{"action_id": <integer>}``, or the
  program wrote a line when it was not its turn (as far as the referee can tell: such a
  line may also be taken for the answer to its next turn); for a built-in agent, ``act``
  returned something that is not an integer;
- ``illegal_action``: the action is not legal now (the detail says what was).

Built-in agents run in this process and have no time limit (they cannot be interrupted),
but their decision time is measured the same way. External programs are always ended by
the time :func:`referee_game` returns, whatever happened.

>>> from arena.specs import parse_agent
>>> report = referee_game([parse_agent("random"), parse_agent("random")], seed=7)
>>> report.winner in ("random_1", "random_2"), report.forfeits
(True, ())
"""

from __future__ import annotations

import operator
import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from arena.process import BotProcess, Closed, Line, TimedOut
from arena.protocol import (
    GAME_OVER,
    YOUR_TURN,
    BadAnswer,
    RoundLog,
    message,
    parse_answer,
    shown,
)
from arena.seat_program import EXIT_GRACE, ProgramSeat, add_decision, close_all
from arena.seats import agent_seed, game_master_seed, nickname
from arena.specs import AgentSpec, entry_labels, rules_text
from engine.agents import Agent, make_agent
from engine.dealing import seed_sequence
from engine.facts import MAX_PLAYERS, MIN_PLAYERS
from engine.game import Game, RoundRecord, Status
from engine.observation import Observation
from engine.rules import CLASSIC, Rules

DEFAULT_TIME_LIMIT: Final = 1.0
"""Seconds an external program has for each answer."""
DEFAULT_STARTUP_TIME: Final = 5.0
"""Extra seconds allowed for a program's first answer, in which it also starts up."""


class ForfeitReason(StrEnum):
    TIMEOUT = "timeout"
    CRASHED = "crashed"
    BAD_OUTPUT = "bad_output"
    ILLEGAL_ACTION = "illegal_action"


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Who forfeited, why, and in which round."""

    nickname: str
    reason: ForfeitReason
    detail: str
    round_number: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "nickname": self.nickname,
            "reason": self.reason.value,
            "detail": self.detail,
            "round_number": self.round_number,
        }


@dataclass(slots=True)
class SeatResult:
    """How one seat fared in one game.

    ``rounds_played`` counts the rounds the seat took part in (held cards at the deal),
    ``rounds_lost`` those it lost, by a check or by forfeiting. Decision times cover the
    moves actually made (a forfeited turn is not a decision), except an external program's
    first answer, which includes the program's start-up and is kept apart in
    ``first_answer_s``; ``timed_moves`` counts the moves in ``decision_s``.
    """

    seat: int
    """The join position, 0-based (the engine shuffles the seating order at the start)."""
    nickname: str
    entry: str
    """The label of the entry (the AGENT argument) playing this seat."""
    agent: str
    """The AGENT argument as written."""
    moves: int = 0
    timed_moves: int = 0
    decision_s: float = 0.0
    max_decision_s: float = 0.0
    first_answer_s: float | None = None
    rounds_played: int = 0
    rounds_lost: int = 0
    eliminated_in_round: int | None = None
    forfeit: Forfeit | None = None

    @property
    def rounds_won(self) -> int:
        """Rounds this seat took part in and did not lose."""
        return self.rounds_played - self.rounds_lost

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "nickname": self.nickname,
            "entry": self.entry,
            "agent": self.agent,
            "moves": self.moves,
            "rounds_played": self.rounds_played,
            "rounds_won": self.rounds_won,
            "eliminated_in_round": self.eliminated_in_round,
            "forfeit": self.forfeit.to_dict() if self.forfeit else None,
            "timed_moves": self.timed_moves,
            "decision_ms": _ms(self.decision_s),
            "max_decision_ms": _ms(self.max_decision_s),
            "first_answer_ms": _ms(self.first_answer_s),
        }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 3)


@dataclass(frozen=True, slots=True)
class TimedMove:
    round_number: int
    nickname: str
    action_id: int
    seconds: float


@dataclass(frozen=True, slots=True)
class GameReport:
    """The outcome of one refereed game. ``rounds`` and ``moves`` are kept on request only
    (a tournament keeps the summary, not thousands of transcripts)."""

    game_index: int
    seed: int
    seats: tuple[SeatResult, ...]
    seating: tuple[str, ...]
    winner: str
    n_rounds: int
    rounds: tuple[RoundRecord, ...] = ()
    moves: tuple[TimedMove, ...] = ()
    rules: Rules = CLASSIC

    @property
    def forfeits(self) -> tuple[Forfeit, ...]:
        return tuple(seat.forfeit for seat in self.seats if seat.forfeit is not None)

    @property
    def replay_command(self) -> str:
        """The ``blef referee`` command that plays this game again, with a transcript."""
        words = ["blef", "referee", *(seat.agent for seat in self.seats)]
        rules = rules_text(self.rules)
        if rules:
            words += ["--rules", rules]
        return shlex.join([*words, "--seed", str(self.seed), "--game", str(self.game_index)])

    @property
    def winner_seat(self) -> SeatResult:
        return next(seat for seat in self.seats if seat.nickname == self.winner)

    def to_dict(self, *, rounds: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game_index": self.game_index,
            "seed": self.seed,
            "seats": [seat.to_dict() for seat in self.seats],
            "seating": list(self.seating),
            "winner": self.winner,
            "winner_entry": self.winner_seat.entry,
            "n_rounds": self.n_rounds,
            "rules": self.rules.to_dict(),
            "forfeits": [f.to_dict() for f in self.forfeits],
            "replay": self.replay_command,
        }
        if rounds and self.rounds:
            data["rounds"] = [record.to_dict() for record in self.rounds]
            data["moves"] = [
                {
                    "round_number": m.round_number,
                    "player": m.nickname,
                    "action_id": m.action_id,
                    "decision_ms": round(m.seconds * 1000, 3),
                }
                for m in self.moves
            ]
        return data


# ---------------------------------------------------------------------- the players


@dataclass(frozen=True, slots=True)
class _Decision:
    action: int | None
    seconds: float = 0.0
    reason: ForfeitReason | None = None
    detail: str = ""
    first_answer: bool = False
    """An external program's first answer: its time includes the program's start-up."""


class _Player:
    """A seat's player, as the referee drives it."""

    def bind(self, game: Game, seat: int) -> None:
        """Told the player's seat once the game has started (and the seating is known)."""

    def decide(self, game: Game, me: str, rounds: RoundLog) -> _Decision:
        raise NotImplementedError

    def round_ended(self, record: RoundRecord) -> None:
        """Told every finished round the player took part in."""

    def game_over(self, game: Game, me: str, rounds: RoundLog) -> None:
        """Told once when the game is over, unless the player forfeited."""

    def abandon(self) -> None:
        """The player forfeited: stop it now."""

    def close(self, grace: float) -> None:
        """Release everything; ``grace`` seconds to end by itself."""


class _BuiltinPlayer(_Player):
    def __init__(self, agent: Agent) -> None:
        self._agent = agent
        self._obs: Observation | None = None
        self._error: str | None = None

    def bind(self, game: Game, seat: int) -> None:
        self._obs = Observation(game, seat)

    def decide(self, game: Game, me: str, rounds: RoundLog) -> _Decision:
        assert self._obs is not None
        if self._error is not None:
            return _Decision(None, reason=ForfeitReason.CRASHED, detail=self._error)
        start = time.perf_counter()
        try:
            answer = self._agent.act(self._obs)
        except Exception as exc:
            return _Decision(None, reason=ForfeitReason.CRASHED, detail=_raised("act", exc))
        seconds = time.perf_counter() - start
        try:
            action = operator.index(answer)  # an int, or an int-like such as numpy.int64
        except TypeError:
            detail = f"act returned {answer!r}, not an action id"[:300]
            return _Decision(None, reason=ForfeitReason.BAD_OUTPUT, detail=detail)
        return _Decision(action, seconds)

    def round_ended(self, record: RoundRecord) -> None:
        if self._error is None:
            try:
                self._agent.round_ended(record)
            except Exception as exc:  # reported as a crash at its next turn
                self._error = _raised("round_ended", exc)


def _raised(method: str, exc: Exception) -> str:
    return f"{method} raised {type(exc).__name__}: {exc}"[:300]


class _ProgramPlayer(ProgramSeat[BotProcess], _Player):
    def __init__(self, argv: Sequence[str], time_limit: float, startup_time: float) -> None:
        super().__init__(BotProcess(argv), time_limit, startup_time)

    def decide(self, game: Game, me: str, rounds: RoundLog) -> _Decision:
        if self._start_error is not None:
            return _Decision(None, reason=ForfeitReason.CRASHED, detail=self._start_error)
        bot = self._bot
        if bot.has_output():  # something written before it was asked
            early = bot.receive(0.0)
            if isinstance(early, Line):
                detail = f"wrote {_shown_line(early)} when it was not its turn"
                return _Decision(None, reason=ForfeitReason.BAD_OUTPUT, detail=detail)
            return _Decision(None, reason=ForfeitReason.CRASHED, detail=self._exit_detail())
        limit, first = self._next_limit()
        start = time.perf_counter()
        bot.send(message(game, me, YOUR_TURN, rounds))
        got = bot.receive(limit)
        seconds = time.perf_counter() - start
        if isinstance(got, TimedOut):
            return _Decision(
                None, reason=ForfeitReason.TIMEOUT, detail=f"no answer within {limit:g} s"
            )
        if isinstance(got, Closed):
            return _Decision(None, reason=ForfeitReason.CRASHED, detail=self._exit_detail())
        if got.too_long:
            detail = f"wrote a line longer than the limit: {_shown_line(got)}"
            return _Decision(None, reason=ForfeitReason.BAD_OUTPUT, detail=detail)
        answer = parse_answer(got.data)
        if isinstance(answer, BadAnswer):
            return _Decision(None, reason=ForfeitReason.BAD_OUTPUT, detail=answer.detail)
        return _Decision(answer, seconds, first_answer=first)

    def game_over(self, game: Game, me: str, rounds: RoundLog) -> None:
        if self._start_error is None:
            self._bot.send(message(game, me, GAME_OVER, rounds))
            self._bot.close_input()

    def abandon(self) -> None:
        self._bot.stop()


def _shown_line(line: Line) -> str:
    return shown(line.data)


def _bet_text(action: int, rules: Rules = CLASSIC) -> str:
    if 0 <= action < rules.check:
        return f"{action} ({rules.table.name(action)})"
    return f"{rules.check} (check)" if action == rules.check else str(action)


def legal_text(game: Game) -> str:
    """The legal actions of the current player, in words."""
    low = game.min_bet
    check = game.rules.check
    if low == 0:
        return f"a bet 0..{check - 1} (no check before the first bet of a round)"
    if low == check:
        return f"only {check} (check), after the highest bet"
    return f"a bet {low}..{check - 1}, above {_bet_text(low - 1, game.rules)}, or {check} (check)"


# ---------------------------------------------------------------------- the game


def referee_game(
    specs: Sequence[AgentSpec],
    *,
    seed: int,
    game_index: int = 0,
    labels: Sequence[str] | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    startup_time: float = DEFAULT_STARTUP_TIME,
    keep_rounds: bool = True,
    rules: Rules = CLASSIC,
) -> GameReport:
    """Play one game with ``specs[j]`` at seat ``j`` (the join order) and referee it, by
    ``rules`` (the classic game by default).

    Deals and seating come from ``(seed, game_index)``, as does each built-in agent's seed
    (with its seat): see :mod:`arena.seats`. ``labels`` names the entry playing each
    seat (by default each spec is its own entry). ``keep_rounds`` keeps every round and
    timed move in the report, for transcripts.
    """
    if not MIN_PLAYERS <= len(specs) <= MAX_PLAYERS:
        raise ValueError(f"a game has {MIN_PLAYERS}..{MAX_PLAYERS} players, not {len(specs)}")
    if time_limit <= 0 or startup_time < 0:
        raise ValueError("the time limit must be positive and the startup time not negative")
    labels = list(labels) if labels is not None else entry_labels(specs)
    if len(labels) != len(specs):
        raise ValueError("give one label per seat")
    game = Game(seed_source=seed_sequence(game_master_seed(seed, game_index)), rules=rules)
    results: dict[str, SeatResult] = {}
    for j, spec in enumerate(specs):
        nick = nickname(spec.name, j)
        game.join(nick)
        results[nick] = SeatResult(j, nick, labels[j], spec.text)
    players: dict[str, _Player] = {}
    forfeited: set[str] = set()
    finished = False
    try:
        for j, (nick, spec) in enumerate(zip(results, specs, strict=True)):
            if spec.argv is not None:
                program = _ProgramPlayer(spec.argv, time_limit, startup_time)
                program.start()  # programs start up while the others are being set up
                players[nick] = program
            else:
                assert spec.builtin is not None
                players[nick] = _BuiltinPlayer(
                    make_agent(spec.builtin, agent_seed(seed, game_index, j))
                )
        game.start()
        for seat, nick in enumerate(game.nicknames):
            players[nick].bind(game, seat)
        rounds, moves = _play(game, players, results, forfeited, keep_rounds)
        for nick, player in players.items():
            if nick not in forfeited:
                player.game_over(game, nick, rounds)
        finished = True
    finally:
        close_all(players.values(), EXIT_GRACE if finished else 0.0)
    winner = game.winner
    assert winner is not None
    return GameReport(
        game_index=game_index,
        seed=seed,
        seats=tuple(results.values()),
        seating=tuple(game.nicknames),
        winner=winner,
        n_rounds=len(rounds),
        rounds=rounds.records if keep_rounds else (),
        moves=tuple(moves),
        rules=rules,
    )


def _play(
    game: Game,
    players: dict[str, _Player],
    results: dict[str, SeatResult],
    forfeited: set[str],
    keep_moves: bool,
) -> tuple[RoundLog, list[TimedMove]]:
    rounds = RoundLog()
    moves: list[TimedMove] = []
    seating = game.nicknames
    while game.status is Status.RUNNING:
        me = game.current_player
        assert me is not None
        player = players[me]
        decision = player.decide(game, me, rounds)
        action = decision.action
        if decision.reason is None and action is not None and not game.is_legal(action):
            detail = f"played {_bet_text(action, game.rules)}; legal now: {legal_text(game)}"
            decision = _Decision(None, reason=ForfeitReason.ILLEGAL_ACTION, detail=detail)
        result = results[me]
        if decision.reason is not None or action is None:
            assert decision.reason is not None
            result.forfeit = Forfeit(me, decision.reason, decision.detail, game.round_number)
            forfeited.add(me)
            player.abandon()
            record: RoundRecord | None = game.forfeit(me)
        else:
            add_decision(result, decision.seconds, first=decision.first_answer)
            if not decision.first_answer:
                result.timed_moves += 1
            if keep_moves:
                moves.append(TimedMove(game.round_number, me, action, decision.seconds))
            record = game.apply(action)
        if record is None:
            continue
        rounds.add(record)
        for seat, nick in enumerate(seating):
            if not record.n_cards[seat]:
                continue
            seat_result = results[nick]
            seat_result.rounds_played += 1
            if seat == record.loser_seat:
                seat_result.rounds_lost += 1
                if not game.n_cards(nick):
                    seat_result.eliminated_in_round = record.number
            if nick not in forfeited:
                players[nick].round_ended(record)
    return rounds, moves
