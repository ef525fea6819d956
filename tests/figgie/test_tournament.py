"""Figgie tournaments: seats, seeds, statistics with ties, resuming, processes, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from app.cli import arena
from arena.figgie.tournament import FiggieTournament, entry_labels, run, summarise

runner = CliRunner(env={"COLUMNS": "200"})


@pytest.fixture
def cli() -> typer.Typer:
    app = typer.Typer()
    arena.register(app)
    return app


def test_entries_given_twice_are_numbered_and_seats_rotate_or_stay():
    assert entry_labels(["random", "ours", "random"]) == ["random#1", "ours", "random#2"]
    rotating = FiggieTournament(("random", "ours"), 4, 1)
    assert rotating.seating_of(0) == [0, 1, 0, 1] and rotating.seating_of(1) == [1, 0, 1, 0]
    fixed = FiggieTournament(("random", "ours"), 4, 1, seating="fixed")
    assert fixed.seating_of(3) == [0, 1, 0, 1]


def test_a_bad_configuration_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="the agents are"):
        FiggieTournament(("oracle",), 4, 1)
    with pytest.raises(ValueError, match="4 or 5"):
        FiggieTournament(("random",), 4, 1, players=6)
    with pytest.raises(ValueError, match="rotate or fixed"):
        FiggieTournament(("random",), 4, 1, seating="shuffled")


def test_a_tie_for_the_most_chips_is_a_win_for_every_tied_seat():
    records = [
        {"seats": ["a", "b", "c", "d"], "profits": [10, 10, -5, -15]},
        {"seats": ["a", "b", "c", "d"], "profits": [-10, 30, -5, -15]},
    ]
    figures = {f.entry: f for f in summarise(["a", "b", "c", "d"], records)}
    assert (figures["a"].wins, figures["a"].outright) == (1, 0)
    assert (figures["b"].wins, figures["b"].outright) == (2, 1)
    assert figures["b"].mean_profit == 20
    low, high = figures["b"].profit_interval
    assert low < 20 < high


def test_an_interrupted_run_resumes_and_reproduces_the_totals(tmp_path: Path):
    config = FiggieTournament(("fairvalue", "marketmaker", "random", "bayesian"), 8, 5)
    whole = run(config)
    out = tmp_path / "run"
    partial = FiggieTournament(config.agents, 5, 5)
    run(partial, out=out)
    with pytest.raises(ValueError, match="another tournament"):
        run(FiggieTournament(config.agents, 8, 6), out=out)
    lines = (out / "games.jsonl").read_text().splitlines()
    assert len(lines) == 5
    (out / "games.jsonl").write_text("\n".join(lines) + '\n{"game": 7, "cut')  # torn line
    (out / "config.json").write_text(json.dumps(config.to_dict()))
    resumed = run(config, out=out)
    assert resumed.played == 3
    assert resumed.records == whole.records
    assert [f.to_dict() for f in resumed.entries] == [f.to_dict() for f in whole.entries]
    again = run(config, out=out)
    assert again.played == 0 and again.records == whole.records


@pytest.mark.slow
def test_two_processes_play_the_same_games_as_one():
    config = FiggieTournament(("fairvalue", "marketmaker", "random", "conservative"), 6, 9)
    assert run(config, jobs=2).records == run(config).records


@pytest.mark.slow
def test_the_cli_plays_a_tournament_and_referees_a_game(cli: typer.Typer, tmp_path: Path):
    out = tmp_path / "figures.json"
    result = runner.invoke(
        cli,
        [
            "tournament",
            "figgie",
            "ours",
            "random",
            "random",
            "random",
            "--games",
            "3",
            "--seed",
            "1",
            "-q",
            "--json",
            str(out),
            "--markdown",
            str(tmp_path / "t.md"),
        ],
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(out.read_text())
    assert [e["entry"] for e in figures["entries"]] == ["ours", "random#1", "random#2", "random#3"]
    assert "tie for the most chips counts as a win" in result.output
    assert "| ours | 3 |" in (tmp_path / "t.md").read_text()
    result = runner.invoke(
        cli, ["referee", "figgie", "ours", "bayesian", "fairvalue", "marketmaker", "--seed", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "Settlement:" in result.output and "Replay: --seed 2 --game 0" in result.output
    bad = runner.invoke(cli, ["referee", "figgie", "ours", "oracle", "random", "random"])
    assert bad.exit_code != 0 and "the agents are" in bad.output
