"""Writes each move in pieces, flushing after each with a pause between them, as a program
that builds its output bit by bit does: '[', then the value, then ']' and a newline."""

import json
import sys
import time

from _moves import choose


def say(text):
    sys.stdout.write(text)
    sys.stdout.flush()
    time.sleep(0.002)


for line in sys.stdin:
    state = json.loads(line)
    if state["phase"]["name"] == "end":
        break
    say("[")
    say(json.dumps(choose(state)))
    say("]\n")
