"""The agents are ordered by strength: seeded samples of two-player games, seats alternated.

Each pair of games shares a seed with the join order swapped, so both agents take both
seats on the same first deal. The thresholds sit far above what the weaker side would need
to reach by luck (a coin would win 50%; 85% of 200 games is more than 9 standard errors
away), yet well below the measured rates (see benchmarks/agents_bench.py), so these are
regression tests of the designs, not coin flips.
"""

from __future__ import annotations

from engine.agents import make_agent
from engine.play import play_game


def win_share(name: str, opponent: str, games: int, tag: str) -> float:
    wins = 0
    for game in range(games):
        me, other = make_agent(name, 2 * game), make_agent(opponent, 2 * game + 1)
        agents = {"me": me, "other": other} if game % 2 == 0 else {"other": other, "me": me}
        wins += play_game(agents, seed=f"{tag}/{game // 2}").winner == "me"
    return wins / games


def test_the_probabilist_beats_random_in_nearly_every_game() -> None:
    share = win_share("probabilist", "random", 200, "strength/probabilist-random")
    assert share >= 0.95, f"won {share:.0%}"


def test_the_bayesian_agent_beats_random_in_at_least_85_percent_of_200_games() -> None:
    share = win_share("bayesian", "random", 200, "strength/bayesian-random")
    assert share >= 0.85, f"won {share:.0%}"


def test_the_bayesian_agent_beats_the_probabilist_in_at_least_60_percent_of_60_games() -> None:
    share = win_share("bayesian", "probabilist", 60, "strength/bayesian-probabilist")
    assert share >= 0.6, f"won {share:.0%}"


def test_the_cautious_probabilist_beats_the_bold_one_more_often_than_not() -> None:
    share = win_share("probabilist", "bold", 200, "strength/probabilist-bold")
    assert share > 0.5, f"won {share:.0%}"
