"""Each Lambda function imports only what it serves, and builds nothing at import: importing
its entry module (what a cold start pays before the first invocation) loads no AI agent and no
profanity filter in the HTTP function, no web framework in the websocket and clock functions,
no AWS SDK and no Powertools anywhere (both come with the first invocation), no
``pydantic.v1`` (FastAPI would import it for nothing: app/api/compat.py), and the HTTP
function's route table is built on first use, not at import. Checked in a fresh interpreter,
as a cold start is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EVERYWHERE = (
    "pydantic.v1",
    "boto3",
    "botocore",
    "aws_lambda_powertools",
    "engine.agents",
    "glin_profanity",
    "openskill",
    "confusable_homoglyphs",
    "app.ladder",
)
FORBIDDEN = {
    "app.entrypoints.http": (
        *EVERYWHERE,
        "engine.probability",
        "app.watch.pusher",
        "app.api.routes",  # the route table is built by the first invocation
        "pydantic_settings",  # so are the settings
    ),
    "app.entrypoints.websocket": (*EVERYWHERE, "fastapi", "starlette", "mangum", "pydantic"),
    "app.entrypoints.clock": (*EVERYWHERE, "fastapi", "starlette", "mangum", "pydantic"),
}
"""What each entry module must not load when imported."""
AFTER_BUILD = {
    "app.entrypoints.http": (
        "pydantic.v1",
        "engine.agents",
        "engine.probability",
        "glin_profanity",  # the nickname filter loads on the first join, not at cold start
        "openskill",  # the rating model loads on the first rated result
        "confusable_homoglyphs",  # the table of look-alikes on the first handle made
        "app.ladder.service",  # the ladder on its first request
    ),
}
"""What the HTTP function must not load even once its app is built."""
LAMBDA_ENVIRONMENT = {
    "BLEF_STORE": "dynamodb",
    "BLEF_TABLE_NAME": "blef-import-test",
    "AWS_DEFAULT_REGION": "eu-west-1",
}


def _loaded(module: str, then: str = "") -> set[str]:
    script = f"import json, sys, {module}\n{then}\nprint(json.dumps(sorted(sys.modules)))"
    env = {k: v for k, v in os.environ.items() if not k.startswith("BLEF_")}
    env |= LAMBDA_ENVIRONMENT
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return set(json.loads(out.stdout))


def _found(loaded: set[str], banned: tuple[str, ...]) -> list[str]:
    return sorted(
        name
        for name in loaded
        for prefix in banned
        if name.split(".")[: len(prefix.split("."))] == prefix.split(".")
    )


@pytest.mark.parametrize("module", sorted(FORBIDDEN))
def test_a_lambda_entry_module_loads_nothing_its_function_does_not_serve(module: str) -> None:
    loaded = _loaded(module)
    assert module in loaded
    assert _found(loaded, FORBIDDEN[module]) == []


def test_the_http_function_built_loads_no_agent_and_no_pydantic_v1() -> None:
    loaded = _loaded("app.entrypoints.http", "app.entrypoints.http.adapter()")
    assert "app.api.routes.lobby" in loaded  # built: the route table is there
    assert _found(loaded, AFTER_BUILD["app.entrypoints.http"]) == []


def test_the_import_check_sees_what_a_module_loads() -> None:
    assert "fastapi" in _loaded("app.entrypoints.http")
    assert _found(_loaded("pydantic.v1"), ("pydantic.v1",)) != []
