"""``blef referee`` and ``blef tournament`` on the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from app.cli import arena
from tests.arena.helpers import HONEST, bot_agent


@pytest.fixture
def cli() -> typer.Typer:
    app = typer.Typer()
    arena.register(app)
    return app


runner = CliRunner(env={"COLUMNS": "200"})


def test_the_referee_prints_the_game_and_writes_its_json(cli: typer.Typer, tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    result = runner.invoke(
        cli,
        ["referee", "random", HONEST, "--seed", "3", "--startup-time", "20", "--json", str(out)],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert f"Winner: {data['winner']}" in result.output
    assert "Round 1" in result.output
    assert "Replay: --seed 3 --game 0" in result.output
    assert data["rounds"]
    assert data["replay"].startswith("blef referee random 'exec:")


def test_the_referee_reports_a_forfeit(cli: typer.Typer) -> None:
    result = runner.invoke(
        cli,
        ["referee", bot_agent("garbage"), "random", "--seed", "1", "--startup-time", "20", "-q"],
    )
    assert result.exit_code == 0, result.output
    assert "Winner: random_2" in result.output
    assert "testbot_1 forfeited in round 1: bad_output: not a JSON line" in result.output


def test_a_tournament_prints_its_table_and_writes_json_and_markdown(
    cli: typer.Typer, tmp_path: Path
) -> None:
    out, md = tmp_path / "t.json", tmp_path / "t.md"
    args = ["tournament", HONEST, "random", "--games", "4", "--seed", "5", "--startup-time", "20"]
    result = runner.invoke(cli, [*args, "--json", str(out), "--markdown", str(md)])
    assert result.exit_code == 0, result.output
    assert "honest_bettor" in result.output
    assert "Head to head" in result.output
    data = json.loads(out.read_text())
    assert data["tournament"]["games"] == 4
    assert data["tournament"]["players"] == 2  # one seat per agent by default
    assert [e["entry"] for e in data["entries"]] == ["honest_bettor", "random"]
    assert len(data["games"]) == 4
    table = md.read_text()
    assert table.startswith("`blef tournament 'exec:")
    assert "--games 4 --seed 5 --jobs 1" in table
    assert "| honest_bettor | 4 |" in table


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["referee", "random", "nobody"], "Invalid agent_name 'nobody': unknown AI agent"),
        (["referee", "random"], "a game needs 2 to 8 agents"),
        (["tournament", "random", "exec:/no/such/bot"], "not on the PATH"),
        (["tournament", "random", "--players", "9"], "less than or equal to 8"),
        (["tournament", "random"], "give --players"),
    ],
)
def test_bad_arguments_are_refused_with_the_reason(
    cli: typer.Typer, args: list[str], message: str
) -> None:
    result = runner.invoke(cli, args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.replace("│", " ").split())


def test_the_blef_command_has_the_arena_commands() -> None:
    blef = Path(sys.executable).with_name("blef")
    if not blef.exists():
        pytest.skip("the blef script is not installed next to this Python")
    done = subprocess.run(
        [str(blef), "tournament", "random", "random", "--players", "3", "--games", "3", "-q"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "random#1" in done.stdout


def test_the_referee_and_the_tournament_take_rules(cli: typer.Typer) -> None:
    rules = "deck=32,jokers=1,common=2,max=5,initial=2"
    result = runner.invoke(cli, ["referee", "bold", "random", "--seed", "3", "--rules", rules])
    assert result.exit_code == 0, result.output
    assert f"Replay: --rules {rules} --seed 3 --game 0" in result.output
    result = runner.invoke(
        cli,
        [
            "tournament",
            "probabilist",
            "random",
            "--games",
            "4",
            "--seed",
            "2",
            "-q",
            "--rules",
            rules,
        ],
    )
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("rules", "says"),
    [
        ("deck=33", "deck_size must be 24 or 32"),
        ("jokers=1,jokers=2", "given twice"),
        ("colour=1", "unknown rule"),
        ("jokers=12,common=12", "no card to deal"),
    ],
)
def test_bad_rules_are_a_usage_error(cli: typer.Typer, rules: str, says: str) -> None:
    for command in (["referee", "random", "random"], ["tournament", "random", "random"]):
        result = runner.invoke(cli, [*command, "--rules", rules])
        assert result.exit_code == 2, result.output
        assert says in result.output


def test_the_referee_is_blefs_by_default_and_also_by_its_name(cli: typer.Typer) -> None:
    plain = runner.invoke(cli, ["referee", "random", "random", "--seed", "4", "-q"])
    named = runner.invoke(cli, ["referee", "blef", "random", "random", "--seed", "4", "-q"])
    options_first = runner.invoke(cli, ["referee", "--seed", "4", "random", "random", "-q"])
    assert plain.exit_code == named.exit_code == options_first.exit_code == 0, plain.output
    winner = plain.output.splitlines()[0]
    assert winner.startswith("Winner: ")  # (the rest holds timings, which vary)
    assert named.output.splitlines()[0] == options_first.output.splitlines()[0] == winner
