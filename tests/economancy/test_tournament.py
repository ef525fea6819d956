"""Tournaments: every table, seats rotated, honest counts, resumable, the same with jobs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.economancy.specs import parse_program
from arena.economancy.tournament import (
    GAMES_FILE,
    ResumeError,
    TournamentConfig,
    markdown,
    parse_sizes,
    run_tournament,
)
from engine.economancy import EconomancyRules


def config(games: int = 3, seed: int = 4) -> TournamentConfig:
    specs = tuple(parse_program(name) for name in ("random", "greedy_points", "ours"))
    return TournamentConfig(
        specs, sizes=(2, 3), games=games, seed=seed, rules=EconomancyRules(day_limit=30)
    )


def test_every_combination_of_each_size_plays_with_seats_rotated() -> None:
    result = run_tournament(config())
    keys = [rec["key"] for rec in result.records]
    assert len(keys) == (3 + 1) * 3  # three pairs and one table of three, three games each
    three = [rec["seats"] for rec in result.records if rec["players"] == 3]
    assert three == [
        ["random", "greedy_points", "planner"],
        ["greedy_points", "planner", "random"],
        ["planner", "random", "greedy_points"],
    ]
    stats = result.stats
    for (size, _), entry in stats.items():
        assert entry.wins + entry.draws + entry.losses == entry.games
        assert entry.games == (6 if size == 2 else 3)
    table = markdown(result, "blef tournament economancy random greedy_points ours")
    assert "| 3 | planner | 3 |" in table


def _counts(result: object) -> list[dict[str, object]]:
    entries = result.to_dict()["entries"]  # type: ignore[attr-defined]
    return [{k: v for k, v in e.items() if k != "mean_decision_ms"} for e in entries]


def test_a_resumed_tournament_plays_only_the_missing_games_and_reproduces_the_totals(
    tmp_path: Path,
) -> None:
    whole = run_tournament(config(), out=tmp_path / "a")
    games = tmp_path / "a" / GAMES_FILE
    lines = games.read_bytes().splitlines(keepends=True)
    games.write_bytes(b"".join(lines[:5]) + lines[5][:10])  # interrupted mid-line
    resumed = run_tournament(config(), out=tmp_path / "a")
    assert resumed.played == len(lines) - 5
    assert _counts(resumed) == _counts(whole)
    assert len(games.read_text().splitlines()) == len(lines)
    again = run_tournament(config(), out=tmp_path / "a")
    assert again.played == 0
    assert _counts(again) == _counts(whole)


def test_another_tournament_in_the_same_directory_is_refused(tmp_path: Path) -> None:
    run_tournament(config(games=1), out=tmp_path)
    with pytest.raises(ResumeError, match="another tournament"):
        run_tournament(config(games=1, seed=5), out=tmp_path)


@pytest.mark.slow
def test_parallel_jobs_give_the_same_games(tmp_path: Path) -> None:
    one = run_tournament(config(games=2))
    two = run_tournament(config(games=2), jobs=2)
    strip = [{k: v for k, v in rec.items() if k != "decision_ms"} for rec in one.records]
    assert [{k: v for k, v in rec.items() if k != "decision_ms"} for rec in two.records] == strip
    assert json.dumps(one.to_dict()["tables"]) == json.dumps(two.to_dict()["tables"])


def test_table_sizes_are_read_and_checked() -> None:
    assert parse_sizes("4, 2,3,2") == (2, 3, 4)
    with pytest.raises(ValueError, match="2, 3 or 4 players, not '5'"):
        parse_sizes("2,5")
