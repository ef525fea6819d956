"""The engine benchmark's lean loop plays the same rules as the engine, so that the ratio it
reports compares equal work (benchmarks/economancy_engine.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine.economancy import EconomancyRules

BENCH = Path(__file__).parents[2] / "benchmarks" / "economancy_engine.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    sys.path.insert(0, str(BENCH.parent))  # the benchmark imports its neighbour conditions.py
    try:
        spec = importlib.util.spec_from_file_location("economancy_engine_bench", BENCH)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH.parent))
    return module


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize(
    ("cards", "bubble", "days"), [("base", 9, 100), ("simple", 9, 100), ("base", 5, 7)]
)
def test_the_lean_loop_and_the_engine_end_seeded_random_games_alike(
    bench: ModuleType, n: int, cards: str, bubble: int, days: int
) -> None:
    rules = EconomancyRules(cards=cards, bubble_attack=bubble, day_limit=days)
    outcomes = set()
    for seed in range(60):
        engine = bench.engine_game(seed, n, rules)
        lean = bench.lean_game(seed, n, rules.shop_kinds, rules.day_limit, bubble)
        assert engine == lean, seed  # winner, day count, every seat's coins and cards
        outcomes.add(engine[0])
    assert len(outcomes) > 1  # the games differ: winners vary (or draws)
