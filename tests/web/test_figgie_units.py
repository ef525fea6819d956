"""Figgie's pure client modules (figgiemarket.js, figgiedeal.js) against the engine: what the
page offers a seat in each suit is exactly what the engine would take, the settlement's rows
and the replay's chips are the engine's payouts, and the page re-derives the engine's deals
(and refuses a tampered one)."""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from engine.figgie.decks import goal_probabilities
from engine.figgie.game import FiggieGame, FiggieRules, FiggieState, Order
from engine.figgie.market import ASK, BID, CANCEL_ASK, CANCEL_BID, HIT, LIFT
from engine.protocol import MoveRefused
from tests.web.node import NODE, node_test

TESTS = Path(__file__).with_name("figgie_units.test.mjs")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _run(cases: object | None, where: Path) -> subprocess.CompletedProcess[str]:
    env = {}
    if cases is not None:
        path = where / "figgie-cases.json"
        path.write_text(json.dumps(cases))
        env["FIGGIE_JS_CASES"] = str(path)
    return node_test(TESTS, env, timeout=120)


def test_the_figgie_js_unit_tests_pass_under_node(tmp_path: Path) -> None:
    result = _run(None, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout


def _random_order(rng: random.Random, max_price: int) -> Order:
    kind = rng.choice([BID, BID, ASK, ASK, CANCEL_BID, CANCEL_ASK, LIFT, HIT])
    suit = rng.randrange(4)
    if kind in (BID, ASK):
        return Order(kind, suit, rng.randint(1, max_price))
    return Order(kind, suit)


def _engine_choices(state: FiggieState, seat: int) -> list[list[object]]:
    """What the engine takes from ``seat`` in each suit, as the page's canDo reads it."""
    market = state.market
    top = market.max_price
    out: list[list[object]] = []
    for suit in range(4):
        bids = [p for p in range(1, top + 1) if market.refusal(seat, BID, suit, p) is None]
        asks = [p for p in range(1, top + 1) if market.refusal(seat, ASK, suit, p) is None]
        # canDo gives the range's ends; the engine's allowed prices must be exactly that range
        assert bids == list(range(1, (max(bids) if bids else 0) + 1))
        assert asks == list(range(min(asks) if asks else top + 1, top + 1))
        out.append(
            [
                max(bids) if bids else 0,
                min(asks) if asks else top + 1,
                market.refusal(seat, LIFT, suit) is None,
                market.refusal(seat, HIT, suit) is None,
                market.refusal(seat, CANCEL_BID, suit) is None,
                market.refusal(seat, CANCEL_ASK, suit) is None,
            ]
        )
    return out


def _games(rng: random.Random) -> tuple[list[dict[str, Any]], list[Any], list[dict[str, Any]]]:
    game = FiggieGame()
    positions: list[dict[str, Any]] = []
    expected: list[Any] = []
    settled: list[dict[str, Any]] = []
    for g in range(10):
        n = 4 if g % 2 else 5
        rules = FiggieRules(max_price=rng.choice([12, 30]), starting_chips=rng.choice([350, 200]))
        seed = rng.randbytes(32)
        state = game.setup(rules, n, partial(bytes, seed), now=0.0)
        for k in range(rng.randint(20, 160)):
            seat = rng.randrange(n)
            with contextlib.suppress(MoveRefused):
                state.apply(seat, _random_order(rng, rules.max_price), now=k * 0.5)
            if k % 9 == 0:
                positions.append({"view": state.view(seat, now=k * 0.5), "seat": seat})
                expected.append(_engine_choices(state, seat))
        state.advance(state.deadline)
        settled.append({"view": state.view(0), "starting_chips": rules.starting_chips})
    return positions, expected, settled


def test_the_page_offers_exactly_the_orders_the_engine_takes_and_reads_its_settlements_and_deals(
    tmp_path: Path,
) -> None:
    rng = random.Random(32)
    positions, expected, settled = _games(rng)
    tampered = []
    for g in settled[:4]:
        bad = json.loads(json.dumps(g["view"]["settlement"]))
        hands = bad["initial_hands"]
        a, b = hands[0], hands[1]
        moved = next(s for s in a if a[s] > 0 and any(b[t] > 0 for t in b if t != s))
        other = next(t for t in b if t != moved and b[t] > 0)
        a[moved] -= 1
        a[other] += 1
        b[other] -= 1
        b[moved] += 1
        tampered.append({"settlement": bad, "commitment": g["view"]["commitment"]})
    wrong_seed = json.loads(json.dumps(settled[0]["view"]["settlement"]))
    wrong_seed["seed"] = "00" * 32
    tampered.append({"settlement": wrong_seed, "commitment": settled[0]["view"]["commitment"]})

    suits = ("spades", "clubs", "hearts", "diamonds")
    known_cards = [[rng.randint(0, 6) for _ in range(4)] for _ in range(40)]
    for g in settled:
        known_cards += [[h[s] for s in suits] for h in g["view"]["settlement"]["initial_hands"]]
    cases = {
        "positions": positions,
        "settled": settled,
        "tampered": tampered,
        "counts": known_cards,
    }
    result = _run(cases, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    line = next(x for x in result.stdout.splitlines() if "FIGGIE_DUMP " in x)
    dump = json.loads(line.split("FIGGIE_DUMP ", 1)[1])

    # every kind of choice is open somewhere among the positions, and closed somewhere
    for column in range(2, 6):
        seen = {suit[column] for position in expected for suit in position}
        assert seen == {True, False}, column
    assert dump["can"] == expected
    assert sum(len(g["view"]["tape"]) for g in settled) > 20
    rows = []
    for g in settled:
        st = g["view"]["settlement"]
        goal = st["goal_suit"]
        counts = [h[goal] for h in st["hands"]]
        rows.append(
            [
                [
                    c,
                    st["payouts"][i],
                    st["chips"][i],
                    st["chips"][i] - g["starting_chips"],
                    c == max(counts) and c > 0,
                ]
                for i, c in enumerate(counts)
            ]
        )
    assert dump["rows"] == rows
    assert dump["lastChips"] == [g["view"]["settlement"]["chips"] for g in settled]
    # The replay frame's steps: the deal, every trade, the settlement; the trades bring the
    # deal to the final hands, and the last step is the engine's settlement.
    for framed, g in zip(dump["framed"], settled, strict=True):
        st = g["view"]["settlement"]
        assert framed["n"] == len(g["view"]["tape"]) + 2
        assert framed["traded"] == framed["hands"] == st["hands"]
        assert framed["chips"] == st["chips"]
        assert framed["deal"] == [True]
    assert dump["verified"] == [True] * len(settled) + [False] * len(tampered)
    hands = [
        [
            [h[s] for s in ("spades", "clubs", "hearts", "diamonds")]
            for h in g["view"]["settlement"]["initial_hands"]
        ]
        for g in settled
    ]
    assert [d["hands"] for d in dump["dealt"]] == hands
    for found, known in zip(dump["chances"], known_cards, strict=True):
        try:
            want = goal_probabilities(known)
        except ValueError:
            assert found is None
            continue
        assert found == pytest.approx(want, abs=1e-12)
