"""A Blef bot for `blef referee` and `blef tournament` (protocol: api_docs/bots.md).

It never bluffs: it bets the lowest high card or pair that its own hand proves, and
checks when it cannot raise that way. Run: blef referee random "exec:python3 THIS_FILE"
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
    counts = Counter(card["value"] for card in hand)  # values 0..5 are 9, 10, J, Q, K, A
    # Action ids 0..5 bet "high card 9..A", 6..11 "pair of 9s..As"; 88 is a check.
    proven = sorted([*counts, *(6 + v for v, n in counts.items() if n >= 2)])
    legal = state["legal_actions"]
    action = next((bet for bet in proven if bet in legal), 88)
    print(json.dumps({"action_id": action}), flush=True)
