"""Paths and small helpers for the arena tests.

External programs are started with the interpreter running the tests (``sys.executable``).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

from arena.specs import AgentSpec, parse_agent

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
TEST_BOT = HERE / "bots" / "testbot.py"
HONEST_BOT = ROOT / "examples" / "bots" / "honest_bettor.py"
NODE_BOT = ROOT / "examples" / "bots" / "lowest_bettor.js"

TIMING_KEYS = ("_ms", "_s")


def exec_agent(*argv: str | Path) -> str:
    """The AGENT argument running ``argv`` with this Python."""
    return "exec:" + shlex.join([sys.executable, *map(str, argv)])


def bot_agent(mode: str, *args: str | Path) -> str:
    """The AGENT argument of tests/arena/bots/testbot.py in ``mode``."""
    return exec_agent(TEST_BOT, mode, *args)


HONEST = exec_agent(HONEST_BOT)


def specs(*texts: str) -> list[AgentSpec]:
    return [parse_agent(text) for text in texts]


def without_timings(data: Any) -> Any:
    """``data`` without what varies from run to run: times, and the ``run`` section."""
    if isinstance(data, dict):
        return {
            key: without_timings(value)
            for key, value in data.items()
            if key != "run" and not key.endswith(TIMING_KEYS)
        }
    if isinstance(data, list):
        return [without_timings(item) for item in data]
    return data
