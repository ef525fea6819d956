"""The client's pure JS modules against the Python engine and service: bet names (both decks),
deal re-derivation and verification (every variant), set existence with jokers, the maximum
of cards and the reactions."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from app.service.social import REACTIONS
from engine.dealing import commitment, deal_hands, deal_round
from engine.facts import MAX_PLAYERS, MIN_PLAYERS, card_from_index, max_cards
from engine.rules import GROWING, SLOWLY_GROWING, Rules
from engine.sets import SETS, table_for
from tests.web.node import NODE, node_test

TESTS = Path(__file__).with_name("js_units.test.mjs")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _run(
    dump: object | None = None, variants: object | None = None
) -> subprocess.CompletedProcess[str]:
    env = {}
    if dump is not None:
        env["BLEF_JS_DUMP"] = json.dumps(dump)
    if variants is not None:
        env["BLEF_JS_VARIANTS"] = json.dumps(variants)
    return node_test(TESTS, env)


def test_the_js_unit_tests_pass_under_node() -> None:
    result = _run()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout


def test_the_page_names_deals_and_finds_every_set_and_knows_the_table_as_the_service() -> None:
    rng = random.Random(12)
    cases = []
    for _ in range(60):
        sizes = [rng.randint(1, 6) for _ in range(rng.randint(2, 4))]
        cases.append((rng.randbytes(32).hex(), sizes))
    result = _run(cases)
    assert result.returncode == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if "BLEF_DUMP " in x)
    dump = json.loads(line.split("BLEF_DUMP ", 1)[1])
    assert dump["names"] == [s.name for s in SETS]
    expected = [
        [list(h) for h in deal_hands(bytes.fromhex(seed), sizes)[0]] for seed, sizes in cases
    ]
    assert dump["deals"] == expected
    assert dump["maxCards"] == [max_cards(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
    assert dump["reactions"] == list(REACTIONS)
    pools = [[card_from_index(i) for hand in deal for i in hand] for deal in expected]
    assert dump["exists"] == [[s.exists_in(pool) for s in SETS] for pool in pools]


VARIANTS = [
    Rules(),
    Rules(deck_size=32),
    Rules(deck_size=32, jokers=1, common_cards=1),
    Rules(deck_size=32, jokers=2, blanks=1, common_cards=GROWING),
    Rules(jokers=3, blanks=2),
    Rules(common_cards=2),
    Rules(deck_size=32, blanks=4, common_cards=SLOWLY_GROWING),
    Rules(deck_size=24, jokers=12, blanks=12, common_cards=3),
]


def _round(rng: random.Random, rules: Rules) -> dict[str, object]:
    """A finished round's snapshot as the service shows it, dealt by the engine."""
    n = rng.randint(2, 5)
    top = rules.max_cards_for(n)
    sizes = [rng.randint(1, top) for _ in range(n)]
    if n > 2:
        sizes[rng.randrange(n)] = 0  # someone out: dealt nothing, skipped in the order
    seed = rng.randbytes(32)
    hands, common, _ = deal_round(seed, sizes, rules.common_count(sizes), rules.total_cards)
    names = [f"p{i}" for i in range(n)]
    return {
        "seed": seed.hex(),
        "commitment": commitment(seed),
        "players": [{"nickname": x, "n_cards": k} for x, k in zip(names, sizes, strict=True)],
        "hands": [
            {"nickname": x, "hand": [rules.card_dict(i) for i in hand]}
            for x, hand, k in zip(names, hands, sizes, strict=True)
            if k
        ],
        "common_hand": [rules.card_dict(i) for i in common],
        "rules": rules.to_dict(),
        "_piles": [[list(h) for h in hands if h], list(common)],
    }


def test_the_page_knows_the_32_card_bets_jokers_and_verifies_every_variant_s_deal() -> None:
    rng = random.Random(18)
    pools = []
    for _ in range(80):
        pools.append((rng.sample(range(32), rng.randint(2, 16)), rng.randint(0, 2)))
    rounds = [_round(rng, rules) for rules in VARIANTS for _ in range(6)]
    # A round with a hand or the common cards tampered with must fail in the page.
    tampered = []
    for r in rounds[:: len(rounds) // 8]:
        bad = json.loads(json.dumps(r))
        hand = bad["common_hand"] or bad["hands"][0]["hand"]  # type: ignore[index]
        seven = {"value": 0, "colour": 0}
        hand[0] = seven if hand[0] != seven else {"value": 1, "colour": 1}
        tampered.append(bad)
    given = [{k: v for k, v in r.items() if k != "_piles"} for r in [*rounds, *tampered]]
    variants = {"pools": pools, "rules": [r.to_dict() for r in VARIANTS], "rounds": given}
    result = _run(variants=variants)
    assert result.returncode == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if "BLEF_VARIANTS " in x)
    dump = json.loads(line.split("BLEF_VARIANTS ", 1)[1])
    table = table_for(32)
    assert dump["names"] == [s.name for s in table.sets]
    masks = [sum(1 << i for i in pool) for pool, _ in pools]
    assert dump["exists"] == [
        "".join("1" if table.exists_with(i, mask, wild) else "0" for i in range(table.n_bets))
        for mask, (_, wild) in zip(masks, pools, strict=True)
    ]
    assert dump["maxCards"] == [[r.max_cards_for(n) for n in range(2, 9)] for r in VARIANTS]
    assert dump["dealt"][: len(rounds)] == [r["_piles"] for r in rounds]
    assert dump["verified"] == [True] * len(rounds) + [False] * len(tampered)


def test_the_rating_helpers_pass_under_node() -> None:
    # The displayed scale, lines that add up, the stakes, one chart per pool
    # (tests/web/js_ratings.test.mjs).
    result = node_test(TESTS.with_name("js_ratings.test.mjs"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout
