"""The cost per 1,000 games printed in the deployment guide is arithmetic over measured
figures; these tests check that arithmetic on figures small enough to price by hand."""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.scripts import load_script


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script("benchmarks/cost_per_game.py")


def action(cpu_ms: float, writes: float = 0.0, reads: float = 0.0, sqs: float = 0.0) -> dict:
    return {
        "cpu_ms_median": cpu_ms,
        "write_units": writes,
        "read_units": reads,
        "sqs_messages": sqs,
    }


MEASURED = {
    "date": "2026-11-25",
    "games_per_table": 1,
    "python": "3.11",
    "actions": {
        "bet": action(1.0, writes=2.0, reads=1.0),
        "state": action(0.5, reads=1.0),
        "schedule": action(0.1, sqs=1.0),
        "clock": action(2.0, writes=3.0, reads=1.0),
    },
    "requests_per_game": {"2p_ai": {"bet": 10, "state": 20, "schedule": 10, "clock": 5}},
}


def test_a_game_is_priced_by_hand_at_the_deployed_memory_size(script: ModuleType) -> None:
    row = script.cost(MEASURED, "2p_ai", 512)
    scale = 1769 / 512
    billed_ms = (
        10 * math.ceil(1.0 * scale)
        + 20 * math.ceil(0.5 * scale)
        + 10 * math.ceil(0.1 * scale)
        + 5 * math.ceil(2.0 * scale)
    )
    assert row["billed_ms"] == billed_ms
    lambda_dollars = 45 * 0.20 / 1e6 + billed_ms / 1000 * 0.5 * 0.0000133334
    dynamo_dollars = (10 * 2 + 5 * 3) * 0.625 / 1e6 + (10 + 20 + 5) * 0.125 / 1e6
    sqs_dollars = 10 * 3 * 0.40 / 1e6
    http_dollars = 30 * 1.00 / 1e6
    assert row["lambda"] == pytest.approx(1000 * lambda_dollars)
    assert row["dynamodb"] == pytest.approx(1000 * dynamo_dollars)
    assert row["sqs"] == pytest.approx(1000 * sqs_dollars)
    assert row["http_api"] == pytest.approx(1000 * http_dollars)
    assert row["total"] == pytest.approx(
        1000 * (lambda_dollars + dynamo_dollars + sqs_dollars + http_dollars)
    )


def test_the_clocks_share_counts_only_the_clocks_own_functions(script: ModuleType) -> None:
    whole = script.cost(MEASURED, "2p_ai", 512)
    clock = script.cost(MEASURED, "2p_ai", 512, script.CLOCK_ACTIONS)
    scale = 1769 / 512
    billed_ms = 10 * math.ceil(0.1 * scale) + 5 * math.ceil(2.0 * scale)
    expected = (
        15 * 0.20 / 1e6
        + billed_ms / 1000 * 0.5 * 0.0000133334
        + 5 * 3 * 0.625 / 1e6
        + 5 * 0.125 / 1e6
        + 10 * 3 * 0.40 / 1e6
    )
    assert clock["total"] == pytest.approx(1000 * expected)
    assert clock["http_api"] == 0
    assert 0 < clock["total"] < whole["total"]


def test_the_printed_table_carries_the_clocks_column(
    script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    measured = tmp_path / "measured.json"
    measured.write_text(json.dumps(MEASURED))
    assert script.main([str(measured)]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("| per 1,000 games"))
    row = next(
        line for line in out.splitlines() if line.startswith("| Blef, 2 players, 1 of them AI")
    )
    cells = [c.strip() for c in row.strip("|").split("|")]
    columns = [c.strip() for c in header.strip("|").split("|")]
    assert len(cells) == len(columns)
    clock = script.cost(MEASURED, "2p_ai", script.deployed_memory_mb(), script.CLOCK_ACTIONS)
    assert cells[columns.index("of which the clock $")] == f"{clock['total']:.3f}"


FIGGIE = {
    "date": "2026-11-26",
    "games_per_table": 1,
    "python": "3.11",
    "actions": {
        "figgie:create": action(1.0, writes=1.0),
        "figgie:order": action(1.0, writes=2.0, reads=1.0),
        "figgie:order_refused": action(1.0, reads=1.0),
        "figgie:state": action(0.5, reads=1.0),
        "figgie:schedule": action(0.1, sqs=1.0),
        "figgie:clock": action(1.0, writes=3.0, reads=1.0),
        "figgie:clock_stale": action(0.2, reads=1.0),
    },
    # a table that traded 10 orders (2 refused), with 3 changes in the lobby
    "requests_per_game": {
        "figgie_4p": {
            "figgie:create": 1,
            "figgie:order": 10,
            "figgie:order_refused": 2,
            "figgie:state": 12,
            "figgie:schedule": 13,
            "figgie:clock": 1,
            "figgie:clock_stale": 10,
        }
    },
    "figgie_sim_per_game": {"figgie_4p": {"orders": 200.0}},
}


def test_a_figgie_game_has_the_simulators_orders_each_read_by_every_seat(
    script: ModuleType,
) -> None:
    counts = script.requests_of_game(FIGGIE, "figgie_4p")
    assert counts == {
        "figgie:create": 1,
        "figgie:order": 200,
        "figgie:state": 200 * 4,  # every one of the 4 seats reads each new version
        "figgie:schedule": 3 + 200,  # the lobby's changes, then one per order
        "figgie:clock": 1,  # the end of trading
        "figgie:clock_stale": 200,  # each order's message, come at the deadline
    }


def test_a_figgie_game_is_priced_from_its_scaled_requests(script: ModuleType) -> None:
    row = script.cost(FIGGIE, "figgie_4p", 1769)  # one vCPU: a millisecond is billed as one
    assert row["http_requests"] == 1 + 200 + 800
    assert row["invocations"] == 1 + 200 + 800 + 203 + 1 + 200
    assert row["billed_ms"] == 1 + 200 + 800 + 203 + 1 + 200
    assert row["wru"] == 1 + 200 * 2 + 3
    assert row["rru"] == 200 + 800 + 1 + 200
    assert row["sqs"] == pytest.approx(1000 * 203 * 3 * 0.40 / 1e6)


def test_the_clocks_share_of_a_figgie_game_counts_its_stale_messages(script: ModuleType) -> None:
    clock = script.cost(FIGGIE, "figgie_4p", 1769, script.CLOCK_ACTIONS)
    assert clock["invocations"] == 203 + 1 + 200
    assert clock["http_api"] == 0
