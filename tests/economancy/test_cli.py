"""``blef referee economancy`` and ``blef tournament economancy`` on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from app.cli import arena

runner = CliRunner(env={"COLUMNS": "200"})


@pytest.fixture
def cli() -> typer.Typer:
    app = typer.Typer()
    arena.register(app)
    return app


def test_the_referee_plays_writes_a_trace_and_replays_it(cli: typer.Typer, tmp_path: Path) -> None:
    trace = tmp_path / "game.jsonl"
    args = ["referee", "economancy", "ours", "greedy_attack", "--seed", "2", "--trace", str(trace)]
    result = runner.invoke(cli, [*args, "--rules", "cards=simple,day_limit=20"])
    assert result.exit_code == 0, result.output
    assert "Winner: planner (seat 0)" in result.output or "Draw" in result.output
    head = json.loads(trace.read_text().splitlines()[0])
    assert head["rules"]["cards"] == "simple"
    replayed = runner.invoke(cli, ["referee", "economancy", "--replay", str(trace)])
    assert replayed.exit_code == 0, replayed.output
    assert "states match" in replayed.output


def test_a_replay_of_a_tampered_trace_fails(cli: typer.Typer, tmp_path: Path) -> None:
    trace = tmp_path / "game.jsonl"
    runner.invoke(cli, ["referee", "economancy", "random", "random", "--trace", str(trace)])
    lines = trace.read_text().splitlines()
    lines[1] = lines[1].replace('"coins":3', '"coins":4', 1)
    trace.write_text("\n".join(lines) + "\n")
    result = runner.invoke(cli, ["referee", "economancy", "--replay", str(trace)])
    assert result.exit_code == 1
    assert "differs" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["referee", "economancy", "random"], "a game needs 2 to 4 programs"),
        (["referee", "economancy", "random", "nobody_at_all"], "not a built-in agent"),
        (["referee", "economancy", "random", "random", "--rules", "cards=all"], "cards must be"),
        (["referee", "economancy", "random", "random", "--rules", "colour=red"], "unknown rule"),
        (["tournament", "economancy", "random", "ours", "--players", "5"], "not '5'"),
    ],
)
def test_bad_arguments_are_refused_with_the_reason(
    cli: typer.Typer, args: list[str], message: str
) -> None:
    result = runner.invoke(cli, args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_a_tournament_prints_its_tables_and_resumes_from_its_directory(
    cli: typer.Typer, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    args = ["tournament", "economancy", "random", "greedy_points", "ours", "--players", "2,3"]
    args += ["--games", "2", "--out", str(out), "-q", "--rules", "day_limit=30"]
    first = runner.invoke(cli, [*args, "--markdown", str(tmp_path / "t.md")])
    assert first.exit_code == 0, first.output
    assert "8 games played now, 8 in all" in first.output
    assert "| 3 | planner | 2 |" in first.output
    again = runner.invoke(cli, args)
    assert "0 games played now, 8 in all" in again.output
    assert (tmp_path / "t.md").read_text().startswith("`blef tournament economancy random")


def test_blefs_referee_is_still_the_default(cli: typer.Typer) -> None:
    result = runner.invoke(cli, ["referee", "random", "random", "--seed", "1", "-q"])
    assert result.exit_code == 0, result.output
    assert "Winner: random_" in result.output
