"""One way to name a computer player: the page's names (app/web/static/playernames.js) under
node, with the levels the page knows compared with the ladder's own (app/ladder/bots.py):
the same agents, titles and accounts' handles, weakest first."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from app.ladder.bots import LEVELS

TESTS = Path(__file__).with_name("playernames.test.mjs")
ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_page_names_computer_players_one_way_with_the_ladders_levels() -> None:
    levels = [[level.agent, level.title, level.handle] for level in LEVELS]
    env = {**os.environ, "BLEF_LEVELS": json.dumps(levels)}
    result = subprocess.run(
        [str(NODE), "--test", str(TESTS)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout and "# skipped 0" in result.stdout
