"""Writes its move with extra whitespace around and inside it: '  [ 3 ]\t \n\n'."""

import json
import sys

from _moves import choose

for line in sys.stdin:
    state = json.loads(line)
    if state["phase"]["name"] == "end":
        break
    sys.stdout.write("  [ " + json.dumps(choose(state)) + " ]\t \n\n")
    sys.stdout.flush()
