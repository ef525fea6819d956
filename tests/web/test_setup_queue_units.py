"""The set-up queue both table stores share (app/web/static/setup.js) under node: changes in
the order pressed whatever order the service answers in, a refusal kept in words while the
next change still goes, and moves never queued."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.node import NODE, node_test


def test_the_set_up_queue_sends_in_order_and_keeps_each_refusal_in_words() -> None:
    if NODE is None:
        pytest.skip("node is not installed")
    run = node_test(Path(__file__).with_name("setup_queue.test.mjs"))
    assert run.returncode == 0, run.stdout + run.stderr
