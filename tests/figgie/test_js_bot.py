"""The JavaScript Figgie bot in examples/ reads the same odds as the engine: its goal
chances for any hand equal :func:`engine.figgie.decks.goal_probabilities`, and the order it
wants is one the engine reads as a move (so the protocol is the only contract)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dealing import seed_sequence
from engine.figgie import GAME
from engine.figgie.decks import SUITS, goal_probabilities

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "examples" / "figgie" / "fair_value.js"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def _bot(expression: str, cases: list[object]) -> list[object]:
    """``expression`` evaluated by the bot's module for each case (``c``), in one node run."""
    script = (
        f"const bot = require({json.dumps(str(BOT))});"
        "const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        f"console.log(JSON.stringify(cases.map((c) => {expression})));"
    )
    done = subprocess.run(
        ["node", "-e", script], input=json.dumps(cases), capture_output=True, text=True, check=True
    )
    return list(json.loads(done.stdout))


hands = st.lists(st.integers(0, 6), min_size=4, max_size=4)  # every deck holds 6 of a suit


@settings(max_examples=20, deadline=None)
@given(st.lists(hands, min_size=1, max_size=40))
def test_the_js_bot_reads_the_goal_chances_the_engine_reads(counts: list[list[int]]) -> None:
    cases = [dict(zip(SUITS, hand, strict=True)) for hand in counts]
    theirs = _bot("bot.goalChances(c)", list(cases))
    for hand, chances in zip(counts, theirs, strict=True):
        assert chances == pytest.approx(goal_probabilities(hand))


def test_every_order_the_js_bot_wants_is_a_move_the_engine_reads() -> None:
    """Views of seeded games at their start: the bot's order parses as a Figgie move."""
    views = []
    for n in range(20):
        state = GAME.setup(GAME.default_rules(), 4 + n % 2, seed_sequence(n), now=0.0)
        views.extend(state.view(seat) for seat in range(state.n_seats))
    orders = _bot("bot.nextOrder(c)", list(views))
    parsed = [GAME.parse_move(order) for order in orders if order is not None]
    assert parsed, "the bot wants to trade at the start of some game"
    assert len(parsed) == len(orders)
