"""The per-request CPU benchmark (benchmarks/lambda_cpu.py) measures what it says: the real
handlers' requests and the DynamoDB operations each makes, with the fake's bookkeeping kept
out of the timed requests but still counted right; and the AWS clients the service makes are
configured as the benchmark's figures assume."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from app.cloud import clients as aws
from tests.support.scripts import REPO_DIR, load_script

ONE_KB = 1024


@pytest.fixture(scope="module")
def harness() -> ModuleType:
    return load_script("benchmarks/lambda_harness.py")


def test_the_services_aws_clients_leave_parameter_validation_to_aws(
    harness: ModuleType,
) -> None:
    # Every request is validated by DynamoDB (or SQS) itself; botocore's own walk over each
    # request's parameters costs CPU on every call, and mypy holds the shapes the service
    # builds to the SDK's types. So a malformed request reaches AWS (here, the fake) and is
    # refused there, instead of by botocore.
    fake = harness.FakeAws()
    client = fake.attach(aws.client("dynamodb", region_name="eu-west-1"))
    client.put_item(Item={"pk": {"S": "g"}, "sk": {"S": "s"}})  # no TableName
    assert fake.take_usage().calls == {"PutItem": 1}
    client.close()


def test_the_fake_counts_a_puts_units_from_the_larger_item_when_usage_is_taken(
    harness: ModuleType,
) -> None:
    fake = harness.FakeAws()
    client = fake.attach(aws.client("dynamodb", region_name="eu-west-1"))
    key = {"pk": {"S": "GAME#g"}, "sk": {"S": "STATE"}}
    big = {**key, "doc": {"S": "x" * (2 * ONE_KB)}}
    client.put_item(TableName="t", Item=big)
    client.put_item(TableName="t", Item=key)  # smaller: billed at the size it replaced
    assert fake.usage.write_units == 0  # nothing worked out while the requests ran
    usage = fake.take_usage()
    assert usage.calls == {"PutItem": 2}
    size = harness.item_size(big)
    assert usage.write_units == 2 * -(-size // ONE_KB)
    assert client.get_item(TableName="t", Key=key, ConsistentRead=True)["Item"] == key
    assert fake.take_usage().read_units == 1.0
    assert fake.take_usage().calls == {}
    client.close()


def test_a_short_run_plays_every_request_kind_with_the_aws_calls_each_one_makes() -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/lambda_cpu.py", "--games", "1", "--seed", "3"],
        cwd=REPO_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(result["app"]) == REPO_DIR / "app"
    actions = result["actions"]
    kinds = {"create", "join", "invite", "start", "bet", "check", "state", "clock", "push"}
    assert kinds <= set(actions)
    assert actions["check"]["aws_calls"] == {"GetItem": 1.0, "TransactWriteItems": 1.0}
    assert actions["bet"]["aws_calls"] == {"GetItem": 1.0, "PutItem": 1.0}
    assert actions["state"]["aws_calls"] == {"GetItem": 1.0}
    # a check writes the game and the round's snapshot in one transaction: twice the units
    assert actions["check"]["write_units"] >= 4 > actions["bet"]["write_units"] >= 1
    for figures in actions.values():
        assert figures["requests"] > 0 and figures["cpu_ms_median"] > 0
    assert result["floor_requests"] == sum(f["requests"] for f in actions.values())


def test_a_short_run_of_every_game_plays_economancy_and_figgie_tables_to_their_end() -> None:
    command = [sys.executable, "benchmarks/lambda_cpu.py", "--games", "1", "--seed", "3"]
    done = subprocess.run(
        [*command, "--games-of", "all", "--figgie-orders", "8"],
        cwd=REPO_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    actions = result["actions"]
    for game in ("economancy", "figgie"):
        for kind in ("create", "join", "start", "state", "clock", "schedule", "push"):
            assert f"{game}:{kind}" in actions
    assert actions["economancy:move"]["aws_calls"] == {"GetItem": 1.0, "PutItem": 1.0}
    assert actions["figgie:order"]["aws_calls"] == {"GetItem": 1.0, "PutItem": 1.0}
    # the end of trading: one clock message a table (one per due time: the start's, standing
    # for every trading version, which acts on the last), and no stale one
    per_game = result["requests_per_game"]
    assert per_game["figgie_4p"]["figgie:clock"] == per_game["figgie_5p"]["figgie:clock"] == 1
    assert "figgie:clock_stale" not in actions
    assert actions["figgie:clock"]["aws_calls"]["PutItem"] == 1.0
    assert per_game["economancy_4p_ai"]["economancy:ai"] == 3
    assert per_game["figgie_5p"]["figgie:join"] == 5
    for seats in (4, 5):
        simulated = result["figgie_sim_per_game"][f"figgie_{seats}p"]
        assert simulated["orders"] > simulated["trades"] > 0
    assert result["floor_requests"] == sum(f["requests"] for f in actions.values())


def test_against_measures_the_other_checkouts_app_in_its_own_interpreter(
    tmp_path: Path,
) -> None:
    other = tmp_path / "other"
    for part in ("app", "engine", "arena", "tests/support"):
        shutil.copytree(REPO_DIR / part, other / part, ignore=shutil.ignore_patterns("*.pyc"))
    (other / "tests" / "__init__.py").touch()
    command = ["benchmarks/lambda_cpu.py", "--against", str(other), "--pairs", "1"]
    done = subprocess.run(
        [sys.executable, *command, "--games", "1"],
        cwd=REPO_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["other_tree"] == str(other.resolve())
    check = result["actions"]["check"]
    assert check["this_ratio_to_floor"] > 0 and check["other_ratio_to_floor"] > 0
    assert check["this_cpu_over_other"] > 0
    assert set(result["floor_cpu_ms_median"]) == {"this", "other"}
