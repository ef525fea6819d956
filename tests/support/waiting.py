"""Waiting for what comes by itself (a poll, a computer player's move, the queue seating
someone, a program joining a table), in tests that run a served app or a browser: on the
condition, up to a generous deadline, never a number of polls (how many fit in a span depends
on the machine's load: a loaded 2-core CI machine ran out of 2,000 polls)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

PATIENCE = 60.0
"""Seconds a test waits for something that comes by itself before it fails."""

T = TypeVar("T")


def eventually(ask: Callable[[], T], what: str, page: Any = None, seconds: float = PATIENCE) -> T:
    """The first truthy answer of ``ask``, asked every 0.1 s until ``seconds`` have passed
    (then the test fails, saying ``what`` never came). With a Playwright ``page``, the wait is
    the page's own (Playwright goes on handling the page's events, which counters rely on)."""
    deadline = time.monotonic() + seconds
    while True:
        answer = ask()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:g} s in vain for {what}: {answer!r}")
        if page is not None:
            page.wait_for_timeout(100)
        else:
            time.sleep(0.1)
