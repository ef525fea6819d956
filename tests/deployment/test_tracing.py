"""X-Ray tracing through Powertools' Tracer: off unless ``BLEF_TRACING`` says so, and then
built by the first invocation (never at import); a handler runs the same either way."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from app.entrypoints import metrics


@pytest.fixture(autouse=True)
def fresh_tracer() -> Iterator[None]:
    metrics.reset_tracer()
    yield
    metrics.reset_tracer()


def test_tracing_is_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BLEF_TRACING", raising=False)
    with metrics.invocation("test"):
        pass
    assert metrics.tracer() is None


@pytest.mark.parametrize("value", ["1", "true", "on"])
def test_with_blef_tracing_on_the_first_invocation_builds_the_tracer(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("BLEF_TRACING", value)
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "true")  # no X-Ray daemon here
    ran = []
    with metrics.invocation("test"):
        ran.append(1)
    assert ran == [1]
    assert metrics.tracer() is not None


def test_importing_an_entry_module_with_tracing_on_loads_no_tracer() -> None:
    script = (
        "import os, sys; os.environ['BLEF_TRACING'] = '1'\n"
        "import app.entrypoints.http, app.entrypoints.clock, app.entrypoints.websocket\n"
        "print(sorted(m for m in sys.modules if m.startswith(('aws_lambda_powertools', "
        "'aws_xray_sdk'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
