"""The Lambda entry point: the same app through Mangum, invoked with API Gateway HTTP API
(payload 2.0) events, on DynamoDB (moto in-process), for whole games."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from moto import mock_aws

from app.config.settings import get_settings
from app.entrypoints import http as lambda_handler
from app.store.dynamo.store import DynamoStore
from tests.support.api import next_action
from tests.support.apigw import invoke
from tests.support.dynamo import fake_aws_env, serialised_moto_dynamodb
from tests.support.emf import SERVICE, UUID, counted, emf_lines


@pytest.fixture
def handler(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setenv("BLEF_STORE", "dynamodb")
    monkeypatch.setenv("BLEF_TABLE_NAME", "blef-lambda-test")
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "blef-api")  # logs as on Lambda
    get_settings.cache_clear()
    lambda_handler.use(None)
    with fake_aws_env(), mock_aws(), serialised_moto_dynamodb():
        assert invoke(lambda_handler.handler, "GET", "/health")[0] == 200
        adapter = lambda_handler.adapter()
        store = adapter.app.state.services.get().store  # type: ignore[attr-defined]
        assert isinstance(store, DynamoStore)
        store.create_table()
        yield lambda_handler.handler
    lambda_handler.use(None)
    get_settings.cache_clear()


def test_a_whole_game_is_played_through_the_lambda_handler(
    handler: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    status, body = invoke(handler, "GET", "/games/create")
    assert status == 200
    game = body["game_uuid"]
    players = {
        name: invoke(handler, "GET", f"/games/{game}/join", query={"nickname": name})[1][
            "player_uuid"
        ]
        for name in ("alice", "bob")
    }
    players["carol"] = invoke(handler, "POST", f"/games/{game}/join", body={"nickname": "carol"})[
        1
    ]["player_uuid"]
    admin = players["alice"]
    assert (
        invoke(handler, "GET", f"/games/{game}/make-public", query={"admin_uuid": admin})[0] == 200
    )
    listed = invoke(handler, "GET", "/games")[1]
    assert [g["game_uuid"] for g in listed] == [game]
    status, body = invoke(
        handler, "POST", f"/games/{game}/start", headers={"Authorization": f"Bearer {admin}"}
    )
    assert (status, body) == (202, {"message": "Game started"})

    rng = random.Random(4)
    plays = 0
    for _ in range(3000):
        status, state = invoke(handler, "GET", f"/games/{game}")
        assert status == 200
        if state["status"] == "Finished":
            break
        mover = players[state["cp_nickname"]]
        action = next_action(state, rng)
        if rng.random() < 0.5:
            status, reply = invoke(
                handler,
                "GET",
                f"/games/{game}/play",
                query={"player_uuid": mover, "action_id": action},
            )
        else:
            status, reply = invoke(
                handler,
                "POST",
                f"/games/{game}/play",
                body={"action_id": action},
                headers={"Authorization": f"Bearer {mover}", "Idempotency-Key": f"m{_}"},
            )
        assert status == 200, reply
        plays += 1
    else:
        pytest.fail("the game did not finish")

    final = invoke(handler, "GET", f"/games/{game}")[1]
    for number in range(1, final["round_number"]):
        status, snapshot = invoke(handler, "GET", f"/games/{game}", query={"round": number})
        assert status == 200 and snapshot["history"][-1]["action_id"] == 89
    status, record = invoke(handler, "GET", f"/games/{game}/record")
    assert status == 200 and len(record["rounds"]) == final["round_number"]

    logs = capsys.readouterr().out
    lines = [json.loads(line) for line in logs.splitlines() if line.startswith("{")]
    lines = [line for line in lines if "_aws" not in line]  # the metrics' lines, below
    assert all("request_id" in line and line["service"] == "blef" for line in lines)
    # every request succeeded: the API's own access log has them (infra/blef_infra/api.py)
    assert not [line for line in lines if line["message"] == "request"]
    for secret in players.values():
        assert secret not in logs
    assert '"hand"' not in logs and "colour" not in logs

    # The business metrics: one EMF line per invocation that counted something.
    emf = emf_lines(logs)
    assert counted(emf) == {
        ("GamesCreated", SERVICE): 1,
        ("GamesStarted", SERVICE): 1,
        ("Moves", SERVICE): plays,
        ("GamesFinished", SERVICE): 1,
    }
    assert not UUID.search(json.dumps(emf))


def test_refusals_are_counted_by_their_code(
    handler: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    game = invoke(handler, "GET", "/games/create")[1]["game_uuid"]
    alice = invoke(handler, "GET", f"/games/{game}/join", query={"nickname": "alice"})[1]
    capsys.readouterr()

    assert invoke(handler, "GET", "/games/not-a-uuid")[0] == 400
    assert invoke(handler, "GET", "/games/not-a-uuid")[0] == 400
    start = {"Authorization": f"Bearer {alice['player_uuid']}"}
    assert invoke(handler, "POST", f"/games/{game}/start", headers=start)[0] == 403
    assert invoke(handler, "GET", "/no/such/route")[0] == 404

    out = capsys.readouterr().out
    lines = [json.loads(line) for line in out.splitlines() if line.startswith('{"level"')]
    access = [(line["route"], line["status"]) for line in lines if line["message"] == "request"]
    # a refusal has its access line, with the function's request id and the game's tag
    assert access == [
        ("/games/{game_uuid}", 400),
        ("/games/{game_uuid}", 400),
        ("/games/{game_uuid}/start", 403),
        ("unmatched", 404),
    ]
    assert all(line["request_id"] for line in lines)
    started = next(line for line in lines if line.get("route") == "/games/{game_uuid}/start")
    assert started["game"] and started["game"] not in game  # a tag of the game, never its UUID
    emf = emf_lines(out)
    refusals = {dims: value for (name, dims), value in counted(emf).items() if name == "Refusals"}
    assert refusals == {
        (("code", "invalid_parameter"), ("service", "blef")): 2,
        (("code", "too_few_players"), ("service", "blef")): 1,
        (("code", "not_found"), ("service", "blef")): 1,
    }
    assert not UUID.search(json.dumps(emf))


def test_the_handler_answers_errors_in_the_established_format(handler: Any) -> None:
    status, body = invoke(handler, "GET", "/games/not-a-uuid")
    assert status == 400 and body["code"] == "invalid_parameter"
    status, body = invoke(handler, "POST", "/games/create", headers={"content-type": "text/plain"})
    assert status == 200 and "game_uuid" in body


def test_on_lambda_the_client_is_api_gateway_s_source_ip_whatever_the_forwarded_header_says(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    monkeypatch.setenv("BLEF_RATE_LIMIT_BURST", "2")
    monkeypatch.setenv("BLEF_RATE_LIMIT_PER_SECOND", "0.001")
    monkeypatch.setenv("BLEF_TRUSTED_PROXIES", "0.0.0.0/0")  # for blef serve only
    handler = request.getfixturevalue("handler")
    codes = [
        invoke(handler, "POST", "/games/create", headers={"X-Forwarded-For": f"198.51.100.{i}"})[0]
        for i in range(3)
    ]
    assert codes == [200, 200, 429]  # one bucket: the event's sourceIp, 203.0.113.7
