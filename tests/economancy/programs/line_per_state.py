"""Reads exactly one line per state, answers [move] and a newline, flushes."""

import json
import sys

from _moves import choose

while True:
    line = sys.stdin.readline()
    if not line:
        break
    state = json.loads(line)
    if state["phase"]["name"] == "end":
        break
    print(json.dumps([choose(state)]), flush=True)
