"""Prints debugging text to standard error before and after every move (the state, its
reasoning), as students do while developing."""

import json
import sys

from _moves import choose

for line in sys.stdin:
    state = json.loads(line)
    print("got state:", line.strip(), file=sys.stderr)
    if state["phase"]["name"] == "end":
        print("game over, bye", file=sys.stderr)
        break
    move = choose(state)
    print(f"thinking... I will play {move!r}", file=sys.stderr)
    print(json.dumps([move]), flush=True)
