"""The smoke test plays a whole game against a real ``blef serve`` process, over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.load import Server, free_port
from deployment import smoke_test


@pytest.fixture
def served_url(tmp_path: Path) -> Iterator[str]:
    """``blef serve`` on a free port and a fresh SQLite file; stopped afterwards."""
    with Server(tmp_path / "blef.db", tmp_path / "server.log") as server:
        yield server.url


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
    status = smoke_test.main(["--url", f"http://127.0.0.1:{free_port()}", "--timeout", "2"])
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
