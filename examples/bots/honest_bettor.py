"""A Blef bot for `blef referee` and `blef tournament` (protocol: api_docs/bots.md).

It never bluffs: it bets the lowest high card or pair that its own hand and the common
cards prove, and checks when it cannot raise that way. Plays every variant (state["rules"]).
Run: blef referee random "exec:python3 THIS_FILE"
"""

import json
import sys
from collections import Counter

for line in sys.stdin:  # one JSON object per line
    state = json.loads(line)
    if state["event"] == "game_over":  # the last message: state["winner"] won
        break
    me = state["you"]
    hand = next(h["hand"] for h in state["hands"] if h["nickname"] == me)
    n = state["rules"]["deck_size"] // 4  # 6 values (9..A), or 8 with 32 cards (7..A)
    check = 88 if n == 6 else 140  # the action id of a check
    # Values 0..n-1; a joker is -1, a blank -2 (left out: no proof of a value).
    counts = Counter(c["value"] for c in hand + state["common_hand"] if c["value"] >= 0)
    # Action ids 0..n-1 bet "high card", n..2n-1 "pair of", lowest value first.
    proven = sorted([*counts, *(n + v for v, k in counts.items() if k >= 2)])
    legal = state["legal_actions"]
    action = next((bet for bet in proven if bet in legal), check)
    print(json.dumps({"action_id": action}), flush=True)
