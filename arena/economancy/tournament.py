"""Economancy tournaments: every table of the entries, seats rotated, resumable.

**Tables.** For each table size ``p`` asked (2, 3, 4), every combination of ``p`` entries
plays ``games`` games (a size larger than the number of entries is skipped). Game ``k`` of
a table seats its entries rotated by ``k``: entry ``(j + k) mod p`` of the combination at
seat ``j``, so over ``p`` consecutive games every entry holds every seat.

**Seeds.** Game ``i`` of the whole schedule (tables in order, then games) seeds its
built-in agents from ``(seed, i, seat)``; the rules deal nothing. The same arguments give
the same games whatever ``jobs`` is, and whether the run was interrupted and resumed.

**Resuming.** With an output directory, ``config.json`` records what is played and
``games.jsonl`` gets one line per finished game, appended and flushed as each ends. A run
with the same arguments skips the games already there (a torn last line is dropped) and
plays the rest; the totals are always computed from the file, so they come out the same.
Other arguments on an existing directory are refused.

**Statistics**, per table size and entry: games it sat in, wins, draws (the day limit:
nobody won), faults, each rate with its 95 % Wilson interval; per table, who won how often.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, Final

from arena.economancy.referee import DEFAULT_STARTUP_TIME, DEFAULT_TIME_LIMIT, referee_game
from arena.economancy.specs import ProgramSpec, entry_labels, parse_program
from arena.runs import CONFIG_FILE, GAMES_FILE, append_records, claim_output, open_games, play_all
from arena.seats import seat_assignment
from arena.stats import proportion, wilson_interval
from engine.economancy import EconomancyRules

_BATCH: Final = 10


@dataclass(frozen=True, slots=True)
class Table:
    size: int
    entries: tuple[int, ...]
    """Indices of the entries at this table, in the order given."""


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    entries: tuple[ProgramSpec, ...]
    sizes: tuple[int, ...] = (2,)
    games: int = 10
    seed: int = 0
    rules: EconomancyRules = field(default_factory=EconomancyRules)
    time_limit: float = DEFAULT_TIME_LIMIT
    startup_time: float = DEFAULT_STARTUP_TIME

    def __post_init__(self) -> None:
        if len(self.entries) < 2:
            raise ValueError("a tournament needs at least two entries")
        if not self.sizes or any(not 2 <= p <= 4 for p in self.sizes):
            raise ValueError("table sizes are 2, 3 or 4 players")
        if self.games < 1:
            raise ValueError("each table plays at least one game")

    @property
    def labels(self) -> list[str]:
        return entry_labels(self.entries)

    def tables(self) -> list[Table]:
        out = []
        for size in sorted(set(self.sizes)):
            for combo in combinations(range(len(self.entries)), size):
                out.append(Table(size, combo))
        return out

    def schedule(self) -> list[tuple[str, Table, int]]:
        """Every game: its key, its table, its number at that table."""
        labels = self.labels
        return [
            (f"{t.size}p:{'+'.join(labels[i] for i in t.entries)}:{k}", t, k)
            for t in self.tables()
            for k in range(self.games)
        ]

    def game(self, index: int) -> tuple[str, Table, int]:
        """Game ``index`` of :meth:`schedule`, without building it."""
        tables = self.tables()
        table, k = tables[index // self.games], index % self.games
        labels = self.labels
        return f"{table.size}p:{'+'.join(labels[i] for i in table.entries)}:{k}", table, k

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "economancy",
            "entries": [spec.text for spec in self.entries],
            "labels": self.labels,
            "players": list(self.sizes),
            "games": self.games,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "time_limit_s": self.time_limit,
            "startup_time_s": self.startup_time,
        }


def play_game(config: TournamentConfig, index: int) -> dict[str, Any]:
    """Referee game ``index`` of the schedule; its record (one line of games.jsonl)."""
    key, table, k = config.game(index)
    labels = config.labels
    order = [table.entries[i] for i in seat_assignment(table.size, table.size, k)]
    report = referee_game(
        [config.entries[i] for i in order],
        rules=config.rules,
        seed=config.seed,
        game_index=index,
        labels=[labels[i] for i in order],
        time_limit=config.time_limit,
        startup_time=config.startup_time,
    )
    seats = [labels[i] for i in order]
    return {
        "key": key,
        "index": index,
        "players": table.size,
        "seats": seats,
        "winner": report.winner_label,
        "draw": report.winner is None,
        "reason": report.reason,
        "places": list(report.places),
        "days": report.days,
        "moves": report.moves,
        "faults": [
            {"label": seats[f.seat], "reason": f.reason.value, "detail": f.detail}
            for f in report.faults
        ],
        "decision_ms": [round(s.decision_s * 1000, 3) for s in report.seats],
        "timed_moves": [s.moves - (s.first_answer_s is not None) for s in report.seats],
    }


def play_batch(config: TournamentConfig, indices: Sequence[int]) -> list[dict[str, Any]]:
    return [play_game(config, i) for i in indices]


# ---------------------------------------------------------------------- statistics


@dataclass(slots=True)
class EntryStats:
    label: str
    size: int
    games: int = 0
    wins: int = 0
    draws: int = 0
    faults: int = 0
    moves: int = 0
    decision_ms: float = 0.0

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws

    def to_dict(self) -> dict[str, Any]:
        def rate(k: int) -> dict[str, Any]:
            low, high = wilson_interval(k, self.games)
            return {"count": k, "rate": proportion(k, self.games), "wilson_95": [low, high]}

        return {
            "entry": self.label,
            "players": self.size,
            "games": self.games,
            "wins": rate(self.wins),
            "draws": rate(self.draws),
            "losses": self.losses,
            "faults": rate(self.faults),
            "mean_decision_ms": round(self.decision_ms / self.moves, 4) if self.moves else None,
        }


def summarise(
    config: TournamentConfig, records: Iterable[dict[str, Any]]
) -> dict[tuple[int, str], EntryStats]:
    stats: dict[tuple[int, str], EntryStats] = {}
    for rec in records:
        size = rec["players"]
        faulted = {f["label"] for f in rec["faults"]}
        for seat, label in enumerate(rec["seats"]):
            entry = stats.setdefault((size, label), EntryStats(label, size))
            entry.moves += rec["timed_moves"][seat]
            entry.decision_ms += rec["decision_ms"][seat]
        for label in dict.fromkeys(rec["seats"]):
            entry = stats[(size, label)]
            entry.games += 1
            entry.wins += rec["winner"] == label
            entry.draws += rec["draw"]
            entry.faults += label in faulted
    return dict(sorted(stats.items(), key=lambda item: (item[0][0], -item[1].wins)))


@dataclass(slots=True)
class TournamentResult:
    config: TournamentConfig
    records: list[dict[str, Any]]
    played: int
    """Games played by this run (the others were in the output already)."""

    @property
    def stats(self) -> dict[tuple[int, str], EntryStats]:
        return summarise(self.config, self.records)

    def tables(self) -> list[dict[str, Any]]:
        """Per table: games, and each entry's wins and the draws."""
        out: dict[str, dict[str, Any]] = {}
        for rec in self.records:
            name = rec["key"].rsplit(":", 1)[0]
            row = out.setdefault(name, {"table": name, "games": 0, "wins": {}, "draws": 0})
            row["games"] += 1
            row["draws"] += rec["draw"]
            if rec["winner"] is not None:
                row["wins"][rec["winner"]] = row["wins"].get(rec["winner"], 0) + 1
        return list(out.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "tournament": self.config.to_dict(),
            "entries": [s.to_dict() for s in self.stats.values()],
            "tables": self.tables(),
            "games": len(self.records),
            "played_now": self.played,
        }


def markdown(result: TournamentResult, command: str = "") -> str:
    lines = []
    if command:
        lines += [f"`{command}`", ""]
    lines += [
        "| players | entry | games | wins | win rate (95% Wilson) | draws | faults | ms/move |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for s in result.stats.values():
        low, high = wilson_interval(s.wins, s.games)
        ms = f"{s.decision_ms / s.moves:.2f}" if s.moves else "-"
        lines.append(
            f"| {s.size} | {s.label} | {s.games} | {s.wins} | "
            f"{proportion(s.wins, s.games):.1%} ({low:.1%}-{high:.1%}) | {s.draws} | "
            f"{s.faults} | {ms} |"
        )
    lines += ["", "| table | games | wins | draws |", "|---|---|---|---|"]
    for row in result.tables():
        wins = ", ".join(f"{k} {v}" for k, v in sorted(row["wins"].items(), key=lambda x: -x[1]))
        lines.append(f"| {row['table']} | {row['games']} | {wins} | {row['draws']} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- running


class ResumeError(ValueError):
    """An output directory holding another tournament."""


def _load(out: Path, config: TournamentConfig) -> list[dict[str, Any]]:
    config_path = out / CONFIG_FILE
    claim_output(
        out,
        config.to_dict(),
        lambda found: ResumeError(
            f"{out} holds another tournament ({config_path}); use another directory"
        ),
    )
    games = out / GAMES_FILE
    if not games.exists():
        return []
    keys = {key for key, _, _ in config.schedule()}
    records, good = [], 0
    raw = games.read_bytes()
    for line in raw.splitlines(keepends=True):
        try:
            rec = json.loads(line)
        except ValueError:
            break  # a torn last line: dropped, and played again
        if not line.endswith(b"\n") or rec.get("key") not in keys:
            break
        records.append(rec)
        good += len(line)
    if good != len(raw):
        with games.open("r+b") as handle:
            handle.truncate(good)
    return records


def run_tournament(
    config: TournamentConfig,
    *,
    out: Path | None = None,
    jobs: int = 1,
    on_progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """Play every game of ``config`` not already in ``out`` (if given), over ``jobs``
    processes; ``on_progress(done, total)`` after each game."""
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    schedule = config.schedule()
    records = _load(out, config) if out is not None else []
    done = {rec["key"] for rec in records}
    todo = [i for i, (key, _, _) in enumerate(schedule) if key not in done]
    total = len(schedule)
    sink = open_games(out)
    count = len(records)

    def keep(batch: list[dict[str, Any]]) -> None:
        nonlocal count
        for rec in batch:
            records.append(rec)
            append_records(sink, [rec])
            count += 1
            if on_progress:
                on_progress(count, total)

    try:
        play_all(play_batch, config, todo, jobs=jobs, size=_BATCH, finished=keep)
    finally:
        if sink is not None:
            sink.close()
    records.sort(key=lambda rec: int(rec["index"]))
    return TournamentResult(config, records, played=len(todo))


def parse_sizes(text: str) -> tuple[int, ...]:
    """``"2,3,4"`` -> ``(2, 3, 4)``; ValueError naming the bad size."""
    sizes = []
    for raw in text.split(","):
        part = raw.strip()
        if not part:
            continue
        if part not in ("2", "3", "4"):
            raise ValueError(f"a table has 2, 3 or 4 players, not {part!r}")
        sizes.append(int(part))
    if not sizes:
        raise ValueError("give at least one table size (2, 3 or 4)")
    return tuple(sorted(set(sizes)))


__all__ = ["TournamentConfig", "parse_program", "parse_sizes", "run_tournament"]
