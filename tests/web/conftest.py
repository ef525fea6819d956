"""Browser tests: a live ``blef serve`` on 127.0.0.1 and Debian's chromium driven by
Playwright (never a downloaded browser; `make install` installs the Debian package)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.load import Server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 30_000
"""Playwright's wait for anything (an element, a navigation, an ``expect`` assertion's
retries): generous, for a loaded 2-core CI machine. The assertions' own default is 5 s."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    where = tmp_path_factory.mktemp("web")
    db = where / "blef.db"
    env = {"BLEF_DB_PATH": str(db), "BLEF_AI_THINK_SECONDS": "0.2"}
    with Server(db, where / "serve.log", env=env) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("/usr/bin/chromium is missing: run `make install`")
        pytest.skip("/usr/bin/chromium is missing: run `make install`")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as pw:
        # Playwright gives every launch a fresh temporary profile (user-data-dir).
        launched = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """Pages each in a context of its own (its own localStorage: its own person)."""
    contexts: list[Any] = []

    def make(width: int = 1000, height: int = 900) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
