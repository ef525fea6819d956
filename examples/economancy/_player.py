"""The protocol loop the Python example players share (imported, not run).

Read a state (one JSON value) from stdin; on an ``end`` state stop; otherwise write the
move as a one-element JSON array and a newline, and flush. The engine's built-in agent
decides; the repository's root is put on the import path so the examples run from
anywhere with ``python3 examples/economancy/<player>.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.economancy.agents import make_agent


def values(stream):
    """Every JSON value on ``stream``, whether or not a newline follows each."""
    decoder = json.JSONDecoder()
    buffer = ""
    while True:
        chunk = stream.readline()
        if not chunk:
            return
        buffer += chunk
        while True:
            text = buffer.lstrip()
            if not text:
                buffer = ""
                break
            try:
                value, end = decoder.raw_decode(text)
            except json.JSONDecodeError:
                buffer = text
                break  # incomplete: read more
            buffer = text[end:]
            yield value


def main(agent_name: str) -> None:
    agent = make_agent(agent_name)
    for state in values(sys.stdin):
        if state["phase"]["name"] in ("end", "fault"):
            agent.game_over(state)
            return
        sys.stdout.write(json.dumps([agent.choose(state)]) + "\n")
        sys.stdout.flush()
