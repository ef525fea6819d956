"""A test player program that plays (or misbehaves) as told: ``bot.py MODE [FILE]``.

It plays safe legal moves (invest 0, stop attacking, the first usable defender, Pass) and:
``good`` writes ``[move]`` and a newline; ``nonewline`` writes ``[move]`` with no newline;
``bare`` writes the bare value (``0``, ``"Pass"``) with no newline; ``hyphen`` and
``underscore`` defend with the card the attacker's index names, read from the key
``attacker-card`` or ``attacker_card`` (and crash if it is missing); ``record`` plays like
``good`` and appends each state line to FILE; ``garbage`` writes text that is not JSON;
``crash`` writes to stderr and exits with status 3; ``sleep`` never answers; ``illegal``
invests one coin more than it has; ``early`` writes an extra move right after its first.
"""

import json
import sys
import time

mode = sys.argv[1]
path = sys.argv[2] if len(sys.argv) > 2 else None
DEFENDS = {"Sorcerer's Stipend": 0, "Wall of Wealth": 2}


def say(text):
    sys.stdout.write(text)
    sys.stdout.flush()


def safe_move(state):
    phase = state["phase"]
    me = state["players"][state["player"]]
    if phase["name"] == "investing":
        return 0
    if phase["name"] == "buy":
        return "Pass"
    if phase["attacker"] == state["player"]:
        return 0
    for i, card in enumerate(me["cards"]):
        if card["uses"] < DEFENDS.get(card["name"], 1):
            return i
    raise AssertionError("asked to defend with no usable defender")


for line in sys.stdin:
    if path:
        with open(path, "a") as log:
            log.write(line)
    state = json.loads(line)
    if state["phase"]["name"] == "end":
        break
    move = safe_move(state)
    if mode in ("hyphen", "underscore") and state["phase"]["name"] == "attacking":
        key = "attacker-card" if mode == "hyphen" else "attacker_card"
        index = state["phase"][key]
        if state["phase"]["attacker"] != state["player"]:
            assert isinstance(index, int) and not isinstance(index, bool)
        else:
            assert index is False
    if mode in ("good", "record", "hyphen", "underscore"):
        say(json.dumps([move]) + "\n")
    elif mode == "nonewline":
        say(json.dumps([move]))
    elif mode == "bare":
        say(json.dumps(move))
    elif mode == "garbage":
        say("I invest everything!\n")
    elif mode == "crash":
        sys.stderr.write("Traceback: something went wrong\n")
        sys.exit(3)
    elif mode == "sleep":
        time.sleep(60)
    elif mode == "illegal":
        coins = state["players"][state["player"]]["coins"]
        say(json.dumps([coins + 1 if state["phase"]["name"] == "investing" else move]) + "\n")
    elif mode == "early":
        say(json.dumps([move]) + "\n" + json.dumps([move]) + "\n")
