"""``blef play economancy URL PROGRAM``: a course player program (examples/economancy) plays
a whole game at a table of a real server on 127.0.0.1, through the bridge's pipes and HTTP,
against the server's computer players moved by its clock."""

from __future__ import annotations

import contextlib
import io
import json
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.api.main import create_app
from app.cli import build
from app.cli.bridge import Table, TableError, bridge
from app.config.settings import Settings
from tests.support.served import served
from tests.support.waiting import eventually

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "economancy"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    settings = Settings(db_path=tmp_path / "served.db", run_clock=True, ai_think_seconds=0)
    with served(create_app(settings)) as address:
        yield f"http://{address}"


def _program(name: str) -> str:
    return f"{sys.executable} {EXAMPLES / name}"


def test_a_program_plays_a_whole_game_against_the_computer(server: str) -> None:
    out = io.StringIO()
    body = bridge(server, _program("greedy_points.py"), None, "Points", agents=("random",), out=out)
    assert body["status"] == "Finished", out.getvalue()
    assert body["seats"][0]["nickname"] == "Points"
    assert body["result"]["places"][0] in (1, 2)
    assert "finished:" in out.getvalue()


def test_a_program_joins_a_table_made_by_someone_else(server: str) -> None:
    host = Table(server)
    game = host.create()
    host.join(game, "ann")
    host.call("POST", f"/games/{game}/ai", {"agent": "greedy_attack"})
    results: list[dict[str, object]] = []

    def play() -> None:
        results.append(
            bridge(server, _program("random_player.py"), game, "Rand", out=io.StringIO())
        )

    thread = threading.Thread(target=play)
    thread.start()
    eventually(lambda: len(host.read(game)["seats"]) == 3, "the program's bridge joining")
    host.call("POST", f"/games/{game}/start", {})
    for _ in range(20_000):  # ann plays safe moves until the end (bounded against hanging)
        body = host.read(game)
        if body["status"] == "Finished" or not thread.is_alive():
            break
        if body["your_turn"]:
            phase = body["view"]["phase"]["name"]
            move = {"investing": [0], "buy": ["Pass"]}.get(phase, [0 if phase else 1])
            if phase == "attacking" and body["view"]["phase"]["attacker"] != body["you"]:
                move = [1]
            with contextlib.suppress(TableError):  # a lost race: read again
                host.move(game, move)
        threading.Event().wait(0.02)
    thread.join(120)
    assert results, "the program's bridge did not finish"
    assert results[0]["status"] == "Finished"


def test_the_command_line_plays_at_a_new_table(server: str) -> None:
    result = CliRunner().invoke(
        build(),
        ["play", "economancy", server, _program("greedy_points.py"), "--ai", "greedy_attack"],
    )
    assert result.exit_code == 0, result.output
    assert "finished:" in result.output
    created = result.output.split("created table ")[1].split()[0]
    with urllib.request.urlopen(f"{server}/economancy/games/{created}") as response:
        assert json.loads(response.read())["status"] == "Finished"
