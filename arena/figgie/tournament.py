"""Figgie tournaments on the tick simulator: seeded, parallel, resumable.

**Entries and seats.** Each AGENT argument is an entry (``name``, or ``name#k`` when a
name is given more than once). With seats *rotated* (the default), seat ``j`` of game
``k`` goes to entry ``(j + k) mod A`` (A entries), so every A games each entry sits in
every seat; with seats *fixed*, seat ``j`` goes to entry ``j mod A`` in every game.

**Seeds.** Game ``k`` is dealt from ``SHA-256(b"figgie/tournament/v1" + seed as 8 bytes +
k as 8 bytes)``, and every agent's randomness and the order within ticks follow from that
seed (:mod:`engine.figgie.sim`): a game's outcome depends only on ``(seed, k)`` and the
seating, whatever the number of processes.

**Statistics per entry**, over the games it plays (each seat it holds is one sample):

- ``mean_profit``: the mean of its seats' profits (final chips less 350), with a 95 %
  interval ``mean +- 1.96 s / sqrt(n)`` (the normal approximation; n is the number of
  seats it held, s their standard deviation);
- ``win_rate``: the share of its seats that ended with the most chips of their game, with
  the 95 % Wilson interval (:func:`arena.stats.wilson_interval`). **A tie for the most
  chips counts as a win for every tied seat**, so win rates can add up to more than 100 %;
  ``outright`` counts the wins that were not shared.

**Resuming.** With an output directory, the configuration is written to
``config.json`` and each finished game appended as one line of ``games.jsonl``; a run
with the same configuration skips the games already there and reports over all of
them, so an interrupted run resumes and a finished one reproduces its totals.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.programs import numbered
from arena.runs import GAMES_FILE, append_records, batch_size, claim_output, open_games, play_all
from arena.seats import seat_assignment
from arena.stats import Z_95, wilson_interval
from engine.figgie.agents import AGENTS, make_agent
from engine.figgie.sim import TICKS, play

SEATING = ("rotate", "fixed")


def entry_labels(names: Sequence[str]) -> list[str]:
    """``name``, or ``name#k`` (k from 1) for a name given more than once."""
    return numbered(names)


@dataclass(frozen=True, slots=True)
class FiggieTournament:
    """What to play (everything that decides the games, not how many processes)."""

    agents: tuple[str, ...]
    games: int
    seed: int
    players: int = 4
    seating: str = "rotate"
    ticks: int = TICKS

    def __post_init__(self) -> None:
        unknown = [name for name in self.agents if name not in AGENTS]
        if unknown:
            raise ValueError(f"No Figgie agent {unknown[0]!r}: the agents are {', '.join(AGENTS)}")
        if not self.agents:
            raise ValueError("a tournament needs at least one agent")
        if self.players not in (4, 5):
            raise ValueError(f"Figgie is played by 4 or 5 players, not {self.players}")
        if self.games < 1:
            raise ValueError("a tournament plays at least one game")
        if self.seating not in SEATING:
            raise ValueError(f"seats are {' or '.join(SEATING)}, not {self.seating!r}")
        if not 0 <= self.seed < 2**64:
            raise ValueError("the seed is a whole number from 0 to 2**64 - 1")
        if self.ticks < 1:
            raise ValueError("a game lasts at least one tick")

    @property
    def labels(self) -> list[str]:
        return entry_labels(list(self.agents))

    def seating_of(self, game: int) -> list[int]:
        """The entry (index) at each seat of game ``game``."""
        shift = game if self.seating == "rotate" else 0
        return list(seat_assignment(len(self.agents), self.players, shift))

    def game_seed(self, game: int) -> bytes:
        return hashlib.sha256(
            b"figgie/tournament/v1" + self.seed.to_bytes(8, "big") + game.to_bytes(8, "big")
        ).digest()

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "figgie",
            "agents": list(self.agents),
            "entries": self.labels,
            "players": self.players,
            "seating": self.seating,
            "seed": self.seed,
            "ticks": self.ticks,
        }


def play_game(config: FiggieTournament, game: int) -> dict[str, Any]:
    """Play game ``game`` of the tournament; its record (one JSON line)."""
    entries = config.seating_of(game)
    agents = [make_agent(config.agents[i]) for i in entries]
    record = play(agents, config.game_seed(game), config.ticks)
    labels = config.labels
    return {
        "game": game,
        "seats": [labels[i] for i in entries],
        "profits": list(record.profits),
        "deck": record.deck,
        "trades": record.trades,
        "stale": record.stale,
    }


def play_batch(config: FiggieTournament, games: Sequence[int]) -> list[dict[str, Any]]:
    return [play_game(config, k) for k in games]


@dataclass(slots=True)
class EntryFigures:
    """One entry's figures (see the module docstring)."""

    entry: str
    seats: int = 0
    total: float = 0.0
    squares: float = 0.0
    wins: int = 0
    outright: int = 0

    @property
    def mean_profit(self) -> float:
        return self.total / self.seats if self.seats else 0.0

    @property
    def profit_interval(self) -> tuple[float, float]:
        n = self.seats
        if n < 2:
            return (-math.inf, math.inf)
        mean = self.mean_profit
        variance = max(0.0, (self.squares - n * mean * mean) / (n - 1))
        half = Z_95 * math.sqrt(variance / n)
        return (mean - half, mean + half)

    @property
    def win_rate(self) -> float:
        return self.wins / self.seats if self.seats else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.seats)

    def to_dict(self) -> dict[str, Any]:
        low, high = self.profit_interval
        win_low, win_high = self.win_interval
        return {
            "entry": self.entry,
            "seats": self.seats,
            "mean_profit": round(self.mean_profit, 4),
            "profit_95": [round(low, 4), round(high, 4)],
            "wins": self.wins,
            "outright_wins": self.outright,
            "win_rate": round(self.win_rate, 4),
            "win_95": [round(win_low, 4), round(win_high, 4)],
        }


def summarise(labels: Sequence[str], records: Iterable[dict[str, Any]]) -> list[EntryFigures]:
    """Per-entry figures over ``records`` (ties for first count for every tied seat)."""
    figures = {label: EntryFigures(label) for label in labels}
    for record in records:
        profits = record["profits"]
        best = max(profits)
        leaders = sum(1 for p in profits if p == best)
        for label, profit in zip(record["seats"], profits, strict=True):
            entry = figures[label]
            entry.seats += 1
            entry.total += profit
            entry.squares += profit * profit
            if profit == best:
                entry.wins += 1
                entry.outright += leaders == 1
    return list(figures.values())


@dataclass(frozen=True, slots=True)
class FiggieResult:
    config: FiggieTournament
    records: tuple[dict[str, Any], ...]
    entries: tuple[EntryFigures, ...]
    played: int
    """Games played by this run (the rest were read from the output directory)."""
    jobs: int
    elapsed_s: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "tournament": {**self.config.to_dict(), "games": self.config.games},
            "ties": "a tie for the most chips counts as a win for every tied seat",
            "entries": [entry.to_dict() for entry in self.entries],
            "run": {
                "jobs": self.jobs,
                "played": self.played,
                "elapsed_s": round(self.elapsed_s, 3),
                "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            },
        }


def markdown_table(result: FiggieResult) -> str:
    """The figures as a Markdown table (one row per entry)."""
    config = result.config
    lines = [
        f"{config.games} games, {config.players} players, seats {config.seating}, "
        f"seed {config.seed}",
        "",
        "| entry | seats | mean profit | 95 % interval | win rate | 95 % interval |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for entry in result.entries:
        low, high = entry.profit_interval
        win_low, win_high = entry.win_interval
        lines.append(
            f"| {entry.entry} | {entry.seats} | {entry.mean_profit:+.1f} | "
            f"{low:+.1f} .. {high:+.1f} | {entry.win_rate:.1%} | "
            f"{win_low:.1%} .. {win_high:.1%} |"
        )
    return "\n".join(lines) + "\n"


def _read_done(out: Path, config: FiggieTournament) -> dict[int, dict[str, Any]]:
    claim_output(
        out,
        config.to_dict(),
        lambda stored: ValueError(
            f"{out} holds another tournament ({stored}); give another --out directory"
        ),
    )
    done: dict[int, dict[str, Any]] = {}
    games_path = out / GAMES_FILE
    if games_path.exists():
        text = games_path.read_text(encoding="utf-8")
        kept = []
        for line in text.splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by an interruption: that game is played again
            done[int(record["game"])] = record
            kept.append(line)
        clean = "".join(line + "\n" for line in kept)
        if clean != text:  # drop the torn line, so that what is appended starts a line
            games_path.write_text(clean, encoding="utf-8")
    return done


def run(
    config: FiggieTournament,
    *,
    jobs: int = 1,
    out: Path | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> FiggieResult:
    """Play the games of ``config`` not yet in ``out`` over ``jobs`` processes."""
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    started = time.perf_counter()
    done = _read_done(out, config) if out is not None else {}
    todo = [k for k in range(config.games) if k not in done]
    sink = open_games(out)

    def finished(records: list[dict[str, Any]]) -> None:
        for record in records:
            done[record["game"]] = record
        append_records(sink, records)
        if on_progress:
            on_progress(len(records))

    try:
        size = batch_size(len(todo), jobs, 25)
        play_all(play_batch, config, todo, jobs=jobs, size=size, finished=finished)
    finally:
        if sink is not None:
            sink.close()
    records = tuple(done[k] for k in range(config.games))
    entries = summarise(config.labels, records)
    return FiggieResult(
        config, records, tuple(entries), len(todo), jobs, time.perf_counter() - started
    )
