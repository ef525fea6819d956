"""Prints its move without flushing: standard output to a pipe is block-buffered, so
nothing reaches the referee (a fault: timeout). Python buffers a pipe so by default; the
buffer is made explicit here so that PYTHONUNBUFFERED in the environment changes nothing."""

import json
import sys

from _moves import choose

out = open(sys.stdout.fileno(), "w", buffering=1 << 16, closefd=False)  # noqa: SIM115
for line in sys.stdin:
    state = json.loads(line)
    if state["phase"]["name"] == "end":
        break
    print(json.dumps([choose(state)]), file=out)
