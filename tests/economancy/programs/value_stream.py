"""Reads raw bytes until a JSON value completes (no reliance on lines), answers [move] with
no newline at all, flushes."""

import json
import os
import sys

from _moves import choose

decoder = json.JSONDecoder()
buffer = ""
while True:
    try:
        state, end = decoder.raw_decode(buffer.lstrip())
    except json.JSONDecodeError:
        chunk = os.read(0, 7)  # small reads: values arrive in pieces
        if not chunk:
            break
        buffer += chunk.decode()
        continue
    buffer = buffer.lstrip()[end:]
    if state["phase"]["name"] == "end":
        break
    sys.stdout.write(json.dumps([choose(state)]))
    sys.stdout.flush()
