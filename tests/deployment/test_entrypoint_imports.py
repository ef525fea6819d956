"""Each Lambda function imports only what it serves: importing its entry module (what a cold
start pays) loads no AI agent and no profanity filter in the HTTP function, and no web
framework in the websocket and clock functions. Checked in a fresh interpreter, as a cold
start is."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {
    "app.entrypoints.http": (
        "engine.agents",
        "engine.probability",
        "app.watch.pusher",
        "glin_profanity",  # the nickname filter loads on the first join, not at cold start
    ),
    "app.entrypoints.websocket": (
        "fastapi",
        "starlette",
        "mangum",
        "engine.agents",
        "glin_profanity",
    ),
    "app.entrypoints.clock": ("fastapi", "starlette", "mangum", "engine.agents", "glin_profanity"),
}


def _loaded(module: str) -> set[str]:
    script = f"import json, sys, {module}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(json.loads(out.stdout))


@pytest.mark.parametrize("module", sorted(FORBIDDEN))
def test_a_lambda_entry_module_loads_nothing_its_function_does_not_serve(module: str) -> None:
    loaded = _loaded(module)
    assert module in loaded
    found = sorted(
        name
        for name in loaded
        for banned in FORBIDDEN[module]
        if name.split(".")[: len(banned.split("."))] == banned.split(".")
    )
    assert found == []


def test_the_import_check_sees_what_a_module_loads() -> None:
    assert "fastapi" in _loaded("app.entrypoints.http")
