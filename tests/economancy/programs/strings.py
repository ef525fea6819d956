"""Writes every move as a string in an array: numbers as digits ["3"], card names in lower
case with a space after them ["ghost "], as some programs that build their output by hand
do."""

import json
import sys

from _moves import choose

for line in sys.stdin:
    state = json.loads(line)
    if state["phase"]["name"] == "end":
        break
    move = choose(state)
    text = str(move) if isinstance(move, int) else move.lower() + " "
    print(json.dumps([text]), flush=True)
