"""``blef reports`` on the command line, reading the store the settings name."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from app.cli import build
from app.store.base import Report
from app.store.sqlite import SqliteStore
from tests.support.dynamo import moto_dynamo_table

T0 = 1_763_700_000.0  # 2025-11-21T04:40:00Z
LATER = int(time.time()) + 30 * 24 * 3600

runner = CliRunner(env={"COLUMNS": "200", "BLEF_STORE": "sqlite"})


@pytest.fixture
def cli() -> typer.Typer:
    return build()


def _store_with(path: Path, *reports: Report) -> None:
    store = SqliteStore(path)
    try:
        for report in reports:
            store.add_report(report)
    finally:
        store.close()


def test_an_operator_sees_the_reports_newest_first_with_time_game_and_names(
    cli: typer.Typer, tmp_path: Path
) -> None:
    db = tmp_path / "blef.db"
    _store_with(
        db,
        Report("game-a", "alice", "rude1", T0, LATER),
        Report("game-b", "Łukasz", "Żółć", T0 + 60, LATER),
    )
    result = runner.invoke(cli, ["reports", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "2025-11-21T04:41:00+00:00  game-b  Łukasz reported Żółć",
        "2025-11-21T04:40:00+00:00  game-a  alice reported rude1",
    ]


def test_the_limit_keeps_only_the_newest(cli: typer.Typer, tmp_path: Path) -> None:
    db = tmp_path / "blef.db"
    _store_with(db, *(Report("g", "alice", f"n{i}", T0 + i, LATER) for i in range(5)))
    result = runner.invoke(cli, ["reports", "--db", str(db), "--limit", "2"])
    assert result.exit_code == 0, result.output
    assert [line.split()[-1] for line in result.output.splitlines()] == ["n4", "n3"]


def test_json_output_is_an_array_of_the_reports(cli: typer.Typer, tmp_path: Path) -> None:
    db = tmp_path / "blef.db"
    _store_with(db, Report("game-a", "alice", "ΑΒΓ", T0, LATER))
    result = runner.invoke(cli, ["reports", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [
        {
            "reported_at": "2025-11-21T04:40:00+00:00",
            "game_uuid": "game-a",
            "reporter": "alice",
            "nickname": "ΑΒΓ",
        }
    ]


def test_an_empty_store_says_there_are_no_reports(cli: typer.Typer, tmp_path: Path) -> None:
    db = tmp_path / "blef.db"
    result = runner.invoke(cli, ["reports", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert result.output == "No reports.\n"
    as_json = runner.invoke(cli, ["reports", "--db", str(db), "--json"])
    assert json.loads(as_json.output) == []


def test_expired_reports_are_not_shown(cli: typer.Typer, tmp_path: Path) -> None:
    db = tmp_path / "blef.db"
    _store_with(db, Report("g", "alice", "gone", T0, int(time.time()) - 60))
    result = runner.invoke(cli, ["reports", "--db", str(db)])
    assert result.output == "No reports.\n"


@pytest.mark.parametrize("limit", ["0", "-3", "many"])
def test_a_bad_limit_is_refused_without_touching_the_store(
    cli: typer.Typer, tmp_path: Path, limit: str
) -> None:
    db = tmp_path / "blef.db"
    result = runner.invoke(cli, ["reports", "--db", str(db), "--limit", limit])
    assert result.exit_code == 2
    assert not db.exists()


def test_with_blef_store_dynamodb_it_reads_the_reports_from_the_table(cli: typer.Typer) -> None:
    with moto_dynamo_table() as table:
        store = table.store()
        store.add_report(Report("game-a", "alice", "rude1", T0, LATER))
        store.add_report(Report("game-b", "bob", "rude2", T0 + 1, LATER))
        env = {"BLEF_STORE": "dynamodb", "BLEF_TABLE_NAME": table.table_name}
        result = runner.invoke(cli, ["reports", "--json"], env=env)
    assert result.exit_code == 0, result.output
    assert [r["nickname"] for r in json.loads(result.output)] == ["rude2", "rude1"]
