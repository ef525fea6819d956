"""The levels' ratings benchmark places a game as a settlement does: the winner first, the
last one out second, and every place once."""

from __future__ import annotations

from types import ModuleType

import pytest

from engine.agents import make_agent
from engine.play import play_game
from tests.support.scripts import load_script


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script("benchmarks/level_ratings.py")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_places_run_from_the_winner_to_the_first_one_out(script: ModuleType, players: int) -> None:
    names = [f"p{i}" for i in range(players)]
    for seed in range(5):
        result = play_game(
            {n: make_agent("random", seed=seed * 10 + i) for i, n in enumerate(names)},
            seed=f"places/{players}/{seed}",
        )
        placed = script.places(result)
        assert sorted(placed.values()) == list(range(1, players + 1))
        assert placed[result.winner] == 1
        assert placed[result.rounds[-1].loser] == 2


def test_a_short_run_rates_every_level_in_both_pools(
    script: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert script.main(["--games", "6", "--seed", "3"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    assert len(rows) == 1 + 8  # the header, four levels in two pools
