"""Prints debugging text to standard output before its move (a fault: only the move may be
written there)."""

import json
import sys

from _moves import choose

for line in sys.stdin:
    state = json.loads(line)
    if state["phase"]["name"] == "end":
        break
    print("thinking...", flush=True)
    print(json.dumps([choose(state)]), flush=True)
