"""Economancy's pure client modules (app/web/static/econcards.js) against the Python engine:
the card table, who the page says has chosen (and what it asks of whom) at every step of real
games, and its reading of every fight those games had."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest

from engine.economancy import GAME
from engine.economancy.agents import make_agent
from engine.economancy.cards import CARDS
from engine.economancy.rules import EconomancyRules
from engine.economancy.state import ATTACKING, BUY, INVESTING
from tests.web.node import NODE, node_test

TESTS = Path(__file__).with_name("econ_units.test.mjs")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _run(dump: object | None = None, where: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {}
    if dump is not None and where is not None:
        path = where / "econ_dump.json"
        path.write_text(json.dumps(dump), encoding="utf-8")
        env["BLEF_ECON_DUMP"] = str(path)
    return node_test(TESTS, env)


def test_the_economancy_js_unit_tests_pass_under_node() -> None:
    result = _run()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout


def _games(
    seed: int,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[list[int]], list[list[str]]]:
    """Steps (a seat's view and who is still to choose), fights, and what the engine says:
    the seats that have chosen, and the question each seat still to choose is asked."""
    rng = random.Random(seed)
    steps: list[dict[str, Any]] = []
    fights: list[dict[str, Any]] = []
    chosen: list[list[int]] = []
    asked: list[list[str]] = []
    for g in range(24):
        rules = EconomancyRules(
            cards=rng.choice(["base", "simple"]), bubble_attack=rng.choice([9, 5]), day_limit=30
        )
        n = 2 + g % 3
        state = GAME.setup(rules, n)
        agents = [
            make_agent(
                rng.choice(["random", "greedy_attack", "greedy_points"]),
                seed=rng.randrange(1 << 30),
                rules=rules,
            )
            for _ in range(n)
        ]
        while not state.over:
            to_act = list(state.to_act())
            steps.append({"view": state.view(to_act[0]), "to_act": to_act})
            chosen.append(
                sorted(state.pending)
                if state.phase != ATTACKING or state.attacker_card >= 0
                else []
            )
            question = (
                "invest"
                if state.phase == INVESTING
                else "buy"
                if state.phase == BUY
                else "attack"
                if state.attacker_card < 0
                else "defend"
            )
            asked.append([question] * len(to_act))
            seat = to_act[rng.randrange(len(to_act))]
            move = agents[seat].decide(state, seat, state.view(seat))
            for event in state.apply(seat, move):
                if event.kind == "fight":
                    fights.append({"ev": event.to_dict(), "rules": rules.to_dict()})
    return steps, fights, chosen, asked


def test_the_page_reads_who_has_chosen_and_every_fight_as_the_engine_plays_them(
    tmp_path: Path,
) -> None:
    steps, fights, chosen, asked = _games(31)
    assert len(fights) > 50 and any(f["ev"]["fainted"] for f in fights)
    result = _run({"steps": steps, "fights": fights}, tmp_path)
    assert result.returncode == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if "BLEF_ECON " in x)
    dump = json.loads(line.split("BLEF_ECON ", 1)[1])
    assert dump["cards"] == [
        [
            c.name,
            c.cost,
            c.attack,
            c.defence,
            c.points,
            c.per_player,
            list(c.income),
            c.attacks,
            c.defends,
            c.simple and c.cost is not None,
        ]
        for c in CARDS
    ]
    assert dump["chosen"] == chosen
    assert dump["asked"] == asked
    assert dump["fights"] == [[True, True]] * len(fights)
