"""Tournaments: many refereed games, seats rotated, played over several processes.

**Entries.** Each AGENT argument is one *entry*, labelled by its name, or ``name#k`` when
several arguments share a name (``random random`` is two entries, ``random#1`` and
``random#2``: a handy check that the harness is fair). Results are per entry.

**Seats.** Game ``k`` seats agent ``(j + k) mod len(agents)`` at join position ``j`` (see
:mod:`arena.seats`), so with A entries every A consecutive games give each entry every
position. An entry may hold several seats in one game (two entries at a 4-player table
hold two seats each).

**Reproducibility.** Game ``k`` is refereed with seeds derived from ``(seed, k)`` only,
and the results are put back in game order, so the same seed gives the same games and the
same statistics whether the games run in one process or many (decision times aside, and
provided the external programs are themselves deterministic). Built-in agents are created
afresh for every game.

**Statistics per entry.**

- ``games``: games in which the entry held at least one seat; ``wins``: those won by one
  of its seats; ``win_rate`` = wins / games, with its standard error sqrt(p (1 - p) / n)
  and the 95% Wilson score interval.
- ``rounds_played``: rounds one of its seats took part in (held cards at the deal),
  counted per seat; ``rounds_won``: those of them the seat did not lose (a seat loses a
  round by a check going against it, or by forfeiting).
- ``mean_decision_ms``: the mean time per move actually made (forfeited turns excluded):
  for an external program from sending the request to reading the answer, for a built-in
  agent the time of its ``act`` call. A program's first answer in each game includes its
  start-up, so it is left out (the games' JSON keeps it as ``first_answer_ms``).
- ``forfeits``: seats forfeited, and how many for each reason.

**Head to head.** With exactly two entries, every game is won by one of them; the
p-value is the exact two-sided binomial test that the first entry's win probability is
1/2 (:func:`arena.stats.sign_test_p_value`). The test is fair when both entries hold
the same number of seats on average, which rotation gives (exactly so over an even number
of games when the number of players is odd).
"""

from __future__ import annotations

import datetime
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.referee import (
    DEFAULT_STARTUP_TIME,
    DEFAULT_TIME_LIMIT,
    GameReport,
    referee_game,
)
from arena.runs import batch_size, play_all
from arena.seats import seat_assignment
from arena.specs import AgentSpec, entry_labels
from arena.stats import proportion, sign_test_p_value, standard_error, wilson_interval
from engine.facts import MAX_PLAYERS, MIN_PLAYERS
from engine.rules import CLASSIC, Rules

_MAX_BATCH = 50


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """What to play: everything that determines the games (but not how many processes)."""

    agents: tuple[AgentSpec, ...]
    players: int
    games: int
    seed: int
    time_limit: float = DEFAULT_TIME_LIMIT
    startup_time: float = DEFAULT_STARTUP_TIME
    rules: Rules = CLASSIC
    """The rules of every game (the classic game by default)."""

    def __post_init__(self) -> None:
        if not self.agents:
            raise ValueError("a tournament needs at least one agent")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"a game has {MIN_PLAYERS}..{MAX_PLAYERS} players, not {self.players}")
        if self.games < 1:
            raise ValueError("a tournament plays at least one game")
        if self.time_limit <= 0 or self.startup_time < 0:
            raise ValueError("the time limit must be positive and the startup time not negative")

    @property
    def labels(self) -> list[str]:
        return entry_labels(self.agents)

    def seats(self, game_index: int) -> tuple[list[AgentSpec], list[str]]:
        """The agent and the entry label at each seat of game ``game_index``."""
        labels = self.labels
        order = seat_assignment(len(self.agents), self.players, game_index)
        return [self.agents[i] for i in order], [labels[i] for i in order]

    def to_dict(self) -> dict[str, Any]:
        return {
            "agents": [spec.text for spec in self.agents],
            "entries": self.labels,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "time_limit_s": self.time_limit,
            "startup_time_s": self.startup_time,
            "rules": self.rules.to_dict(),
        }


def play_tournament_game(config: TournamentConfig, game_index: int) -> GameReport:
    """Referee game ``game_index`` of the tournament (a summary, no transcript)."""
    specs, labels = config.seats(game_index)
    return referee_game(
        specs,
        seed=config.seed,
        game_index=game_index,
        labels=labels,
        time_limit=config.time_limit,
        startup_time=config.startup_time,
        keep_rounds=False,
        rules=config.rules,
    )


def play_batch(config: TournamentConfig, indices: Sequence[int]) -> list[GameReport]:
    """Referee several games: the unit of work sent to a worker process."""
    return [play_tournament_game(config, k) for k in indices]


# ---------------------------------------------------------------------- statistics


@dataclass(slots=True)
class EntryStats:
    """One entry's results over a tournament (see the module docstring)."""

    entry: str
    agent: str
    games: int = 0
    wins: int = 0
    seats: int = 0
    rounds_played: int = 0
    rounds_won: int = 0
    moves: int = 0
    timed_moves: int = 0
    decision_s: float = 0.0
    forfeit_reasons: Counter[str] = field(default_factory=Counter)

    @property
    def win_rate(self) -> float:
        return proportion(self.wins, self.games)

    @property
    def standard_error(self) -> float:
        return standard_error(self.wins, self.games)

    @property
    def wilson_95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def rounds_won_rate(self) -> float:
        return proportion(self.rounds_won, self.rounds_played)

    @property
    def mean_decision_ms(self) -> float | None:
        return self.decision_s * 1000 / self.timed_moves if self.timed_moves else None

    @property
    def forfeits(self) -> int:
        return sum(self.forfeit_reasons.values())

    def to_dict(self) -> dict[str, Any]:
        low, high = self.wilson_95
        mean_ms = self.mean_decision_ms
        return {
            "entry": self.entry,
            "agent": self.agent,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "standard_error": self.standard_error,
            "wilson_95": [low, high],
            "seats": self.seats,
            "rounds_played": self.rounds_played,
            "rounds_won": self.rounds_won,
            "rounds_won_rate": self.rounds_won_rate,
            "moves": self.moves,
            "mean_decision_ms": None if mean_ms is None else round(mean_ms, 4),
            "forfeits": self.forfeits,
            "forfeit_reasons": dict(sorted(self.forfeit_reasons.items())),
        }


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two entries' games against each other, and the test of "the first wins half"."""

    first: str
    second: str
    games: int
    first_wins: int
    p_value: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "second": self.second,
            "games": self.games,
            "first_wins": self.first_wins,
            "second_wins": self.games - self.first_wins,
            "p_value": self.p_value,
            "test": "exact two-sided binomial test of a 1/2 win probability for the first entry",
        }


def summarise(
    config: TournamentConfig, reports: Sequence[GameReport]
) -> tuple[list[EntryStats], HeadToHead | None]:
    """Per-entry statistics, and the head-to-head test when there are two entries."""
    stats = {
        label: EntryStats(label, spec.text)
        for label, spec in zip(config.labels, config.agents, strict=True)
    }
    both = first_wins = 0
    for report in reports:
        present = {seat.entry for seat in report.seats}
        winner = report.winner_seat.entry
        for label in present:
            stats[label].games += 1
        stats[winner].wins += 1
        for seat in report.seats:
            entry = stats[seat.entry]
            entry.seats += 1
            entry.rounds_played += seat.rounds_played
            entry.rounds_won += seat.rounds_won
            entry.moves += seat.moves
            entry.timed_moves += seat.timed_moves
            entry.decision_s += seat.decision_s
            if seat.forfeit is not None:
                entry.forfeit_reasons[seat.forfeit.reason.value] += 1
        if len(stats) == 2 and len(present) == 2:
            both += 1
            first_wins += winner == config.labels[0]
    head_to_head = None
    if len(stats) == 2:
        first, second = config.labels
        head_to_head = HeadToHead(
            first, second, both, first_wins, sign_test_p_value(first_wins, both)
        )
    return list(stats.values()), head_to_head


@dataclass(frozen=True, slots=True)
class TournamentResult:
    config: TournamentConfig
    games: tuple[GameReport, ...]
    entries: tuple[EntryStats, ...]
    head_to_head: HeadToHead | None
    jobs: int
    elapsed_s: float
    date: str

    def to_dict(self, *, games: bool = True) -> dict[str, Any]:
        """The JSON document: configuration, entries, head to head, each game's summary,
        and (under ``"run"``) what varies between runs of the same tournament."""
        data: dict[str, Any] = {
            "tournament": self.config.to_dict(),
            "entries": [entry.to_dict() for entry in self.entries],
            "head_to_head": self.head_to_head.to_dict() if self.head_to_head else None,
        }
        if games:
            data["games"] = [report.to_dict(rounds=False) for report in self.games]
        data["run"] = {"jobs": self.jobs, "date": self.date, "elapsed_s": round(self.elapsed_s, 3)}
        return data


# ---------------------------------------------------------------------- running


def run_tournament(
    config: TournamentConfig,
    *,
    jobs: int = 1,
    on_progress: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play every game of ``config``, over ``jobs`` processes (1: in this process).

    ``on_progress`` is called with the number of games just finished, as they finish.
    Worker processes are started with the ``spawn`` method: they share nothing with this
    process (no inherited threads or pipes of running programs), on every platform.
    """
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    started = time.perf_counter()
    date = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    reports: list[GameReport] = []

    def finished(done: list[GameReport]) -> None:
        reports.extend(done)
        if on_progress:
            on_progress(len(done))

    play_all(
        play_batch,
        config,
        range(config.games),
        jobs=jobs,
        size=batch_size(config.games, jobs, _MAX_BATCH),
        finished=finished,
    )
    reports.sort(key=lambda report: report.game_index)
    entries, head_to_head = summarise(config, reports)
    return TournamentResult(
        config=config,
        games=tuple(reports),
        entries=tuple(entries),
        head_to_head=head_to_head,
        jobs=jobs,
        elapsed_s=time.perf_counter() - started,
        date=date,
    )
