"""One way to name a computer player: the page's names (app/web/static/playernames.js) under
node, with the levels the page knows compared with the ladder's own (app/ladder/bots.py):
the same agents, titles and accounts' handles, weakest first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.ladder.bots import LEVELS
from tests.web.node import NODE, node_test

TESTS = Path(__file__).with_name("playernames.test.mjs")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_page_names_computer_players_one_way_with_the_ladders_levels() -> None:
    levels = [[level.agent, level.title, level.handle] for level in LEVELS]
    result = node_test(TESTS, {"BLEF_LEVELS": json.dumps(levels)})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout and "# skipped 0" in result.stdout
