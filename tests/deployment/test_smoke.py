"""The smoke test plays a whole game against a real ``blef serve`` process, over HTTP."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from deployment import smoke_test

REPO_DIR = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def served_url(tmp_path: Path) -> Iterator[str]:
    """``blef serve`` on a free port and a fresh SQLite file; stopped afterwards."""
    port = _free_port()
    db = tmp_path / "blef.db"
    env = {k: v for k, v in os.environ.items() if not k.startswith("BLEF_")}
    env["BLEF_STORE"] = "sqlite"
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from app.cli import main; main()",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            str(db),
        ],
        cwd=REPO_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(server, url, db, tmp_path / "server.log")
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def _wait_until_serving(server: subprocess.Popen[bytes], url: str, db: Path, log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"blef serve exited with {server.returncode}:\n{log.read_text()}")
        try:
            # The list reads the store, so it also proves that this is our server: our file.
            if httpx.get(f"{url}/games", timeout=2).status_code == 200 and db.exists():
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    pytest.fail(f"blef serve did not answer within 30 s:\n{log.read_text()}")


def test_the_smoke_test_plays_a_whole_game_against_blef_serve(
    served_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = smoke_test.main(["--url", served_url])
    output = capsys.readouterr()
    assert status == 0, output.out + output.err
    assert "PASS: game" in output.out
    assert "snapshots: rounds 1.." in output.out


def test_the_smoke_test_fails_with_a_message_when_nothing_answers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = smoke_test.main(["--url", f"http://127.0.0.1:{_free_port()}", "--timeout", "2"])
    assert status == 1
    assert "FAIL: GET /games/create" in capsys.readouterr().err


def test_legal_actions_follow_the_last_bet_of_the_current_round() -> None:
    history = [
        {"player": "a", "action_id": 40},
        {"player": "b", "action_id": 88},
        {"player": "b", "action_id": 89},
        {"player": "b", "action_id": 5},
    ]
    assert smoke_test.legal_actions(history) == [*range(6, 88), 88]
    assert smoke_test.legal_actions(history[:3]) == list(range(88))


def test_the_player_checks_once_the_round_has_two_bets_and_otherwise_bets_lowest() -> None:
    one_bet = [{"player": "a", "action_id": 3}]
    two_bets = [*one_bet, {"player": "b", "action_id": 4}]
    assert smoke_test.choose([*range(4, 88), 88], one_bet) == 4
    assert smoke_test.choose([*range(5, 88), 88], two_bets) == 88
    assert smoke_test.choose([88], [{"player": "a", "action_id": 87}]) == 88
