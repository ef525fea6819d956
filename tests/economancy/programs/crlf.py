"""Ends every move with a Windows line ending: [3] then carriage return and newline."""

import json
import sys

from _moves import choose

for line in sys.stdin:
    state = json.loads(line)
    if state["phase"]["name"] == "end":
        break
    sys.stdout.buffer.write(json.dumps([choose(state)]).encode() + b"\r\n")
    sys.stdout.flush()
