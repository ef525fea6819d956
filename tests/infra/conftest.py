"""Synthesise the stacks once per test session (synthesis takes seconds, through node).

aws_cdk is imported inside the fixtures, never at module import, so collecting the rest of
the test suite stays fast.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.infra.helpers import PLACEHOLDER_STACK

if TYPE_CHECKING:
    from aws_cdk.assertions import Match, Template

ENVIRONMENTS = ("dev", "prod")


@dataclass(frozen=True)
class Synthesised:
    templates: Mapping[str, Template]
    """By environment name."""
    messages: Mapping[str, list[tuple[str, str, str]]]
    """By stack name: (level, construct path, text) of each synthesis message."""


@pytest.fixture(scope="session")
def synthesised(tmp_path_factory: pytest.TempPathFactory) -> Synthesised:
    """Both environments, plus a stack whose Lambda asset folder is missing, in one app.

    Under pytest-xdist the workers share one synthesis: the first to take the lock writes
    the cloud assembly into the run's common temporary folder, the others read it.
    """
    from aws_cdk import cx_api
    from aws_cdk.assertions import Template

    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    outdir = shared / "blef-cdk.out"
    with (shared / "blef-cdk.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (outdir / "manifest.json").is_file():
            _synthesise(shared / "blef-cdk-input", outdir)
    assembly = cx_api.CloudAssembly(str(outdir))

    templates = {
        env: Template.from_json(_read_json(outdir / f"Blef-{env}.template.json"))
        for env in ENVIRONMENTS
    }
    messages = {
        stack.stack_name: [(str(m.level.value), m.id, str(m.entry.data)) for m in stack.messages]
        for stack in assembly.stacks
    }
    return Synthesised(templates=templates, messages=messages)


def _synthesise(workdir: Path, outdir: Path) -> None:
    import aws_cdk as cdk

    from infra.blef_infra import BlefStack, settings_for

    asset = workdir / "asset"
    (asset / "app" / "entrypoints").mkdir(parents=True, exist_ok=True)
    (asset / "app" / "entrypoints" / "http.py").write_text(
        "def handler(event, context):\n    return {}\n"
    )
    (asset / "app" / "entrypoints" / "websocket.py").write_text(
        "def route(event, context):\n    return {}\n\n\ndef push(event, context):\n    return {}\n"
    )

    app = cdk.App(outdir=str(outdir))
    for env in ENVIRONMENTS:
        BlefStack(app, f"Blef-{env}", settings=settings_for(env), asset_dir=asset)
    BlefStack(app, PLACEHOLDER_STACK, settings=settings_for("dev"), asset_dir=workdir / "missing")
    app.synth()


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def templates(synthesised: Synthesised) -> Mapping[str, Template]:
    return synthesised.templates


@pytest.fixture(scope="session")
def dev(templates: Mapping[str, Template]) -> Template:
    return templates["dev"]


@pytest.fixture(scope="session")
def prod(templates: Mapping[str, Template]) -> Template:
    return templates["prod"]


@pytest.fixture(scope="session")
def match() -> type[Match]:
    from aws_cdk.assertions import Match

    return Match
