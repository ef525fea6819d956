"""Writes its move as a bare value, not an array: 3 (a number, then a newline) or "Ghost"
(a JSON string)."""

import json
import sys

from _moves import choose

for line in sys.stdin:
    state = json.loads(line)
    if state["phase"]["name"] == "end":
        break
    print(json.dumps(choose(state)), flush=True)
