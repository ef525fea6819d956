"""Prints its move, then keeps working before it reads the next state; after the end state
it does not exit but keeps running, ignoring the end of its input (the referee must stop
it)."""

import json
import sys
import time

from _moves import choose

for line in sys.stdin:
    state = json.loads(line)
    if state["phase"]["name"] == "end":
        break
    print(json.dumps([choose(state)]), flush=True)
    time.sleep(0.01)  # still busy after answering
while True:
    time.sleep(1)
