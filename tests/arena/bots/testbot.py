"""A test bot that plays (or misbehaves) as told: ``testbot.py MODE [FILE]``.

Modes: ``lowest`` bets the lowest legal set, checking when only a check is left; ``record``
plays like ``lowest`` and appends every line it receives to FILE; ``sleep`` never answers;
``crash`` writes to stderr and exits with status 3; ``exit`` exits quietly without
answering; ``garbage`` answers with text that is not JSON; ``wrong_type`` answers with a
string action id; ``illegal`` answers with a bet below the lowest legal one (or a check when
no check is allowed); ``spawn`` starts a helper process,
writes its own pid and the helper's to FILE, and never answers.
"""

import json
import os
import subprocess
import sys
import time

mode = sys.argv[1]
path = sys.argv[2] if len(sys.argv) > 2 else None


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    if path and mode == "record":
        with open(path, "a") as log:
            log.write(line)
    state = json.loads(line)
    if state["event"] == "game_over":
        break
    legal = state["legal_actions"]
    lowest = {"action_id": legal[0]}
    if mode in ("lowest", "record"):
        say(json.dumps(lowest))
    elif mode == "sleep":
        time.sleep(60)
    elif mode == "crash":
        sys.stderr.write("Traceback: something went wrong\n")
        sys.exit(3)
    elif mode == "exit":
        sys.exit(0)
    elif mode == "garbage":
        say("I raise you three aces!")
    elif mode == "wrong_type":
        say(json.dumps({"action_id": str(legal[0])}))
    elif mode == "illegal":
        say(json.dumps({"action_id": legal[0] - 1 if legal[0] > 0 else 88}))
    elif mode == "spawn":
        helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        with open(path, "w") as out:
            out.write(f"{helper.pid} {os.getpid()}\n")
        time.sleep(60)
