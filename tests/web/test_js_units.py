"""The client's pure JS modules against the Python engine and service: bet names, deal
re-derivation, the maximum of cards and the reactions."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from app.service.social import REACTIONS
from engine.dealing import deal_hands
from engine.facts import MAX_PLAYERS, MIN_PLAYERS, card_from_index, max_cards
from engine.sets import SETS

TESTS = Path(__file__).with_name("js_units.test.mjs")
ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _run(dump: object | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if dump is not None:
        env["BLEF_JS_DUMP"] = json.dumps(dump)
    return subprocess.run(
        [str(NODE), "--test", str(TESTS)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


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
