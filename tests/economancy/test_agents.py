"""The built-in agents: legal, deterministic, and the planner stronger than the baselines."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.economancy import GAME, EconomancyRules, EconomancyState
from engine.economancy.agents import AGENTS, make_agent, resolve_agent_name


def _play(names: list[str], seed: int, rules: EconomancyRules) -> EconomancyState:
    agents = [make_agent(name, seed * 10 + i, rules) for i, name in enumerate(names)]
    state = GAME.setup(rules, len(names))
    while not state.over:
        for seat in state.to_act():
            if state.over or seat not in state.to_act():
                continue
            move = agents[seat].choose(state.view(seat))
            assert move in state.legal_moves(seat)
            state.apply(seat, move)
    return state


@settings(max_examples=15, deadline=None)
@given(
    st.lists(st.sampled_from(sorted(AGENTS)), min_size=2, max_size=4),
    st.integers(0, 10**6),
    st.sampled_from(["base", "simple"]),
    st.sampled_from([9, 5]),
)
def test_every_agent_plays_only_legal_moves(
    names: list[str], seed: int, cards: str, bubble: int
) -> None:
    _play(names, seed, EconomancyRules(cards=cards, bubble_attack=bubble, day_limit=40))


def test_an_agent_is_deterministic_given_its_seed() -> None:
    rules = EconomancyRules()
    first = _play(["planner", "random"], 3, rules).to_dict()
    assert _play(["planner", "random"], 3, rules).to_dict() == first


def test_ours_is_the_planner_and_unknown_names_are_refused() -> None:
    assert resolve_agent_name("ours") == "planner"
    with pytest.raises(KeyError, match="known: greedy_attack"):
        resolve_agent_name("nobody")


@pytest.mark.parametrize("opponent", ["random", "greedy_points", "greedy_attack"])
def test_the_planner_beats_each_baseline_heads_up_in_most_of_twenty_seeded_games(
    opponent: str,
) -> None:
    rules = EconomancyRules()
    wins = 0
    for seed in range(20):
        names = ["planner", opponent] if seed % 2 == 0 else [opponent, "planner"]
        state = _play(names, seed, rules)
        wins += state.winner is not None and names[state.winner] == "planner"
    assert wins >= 18


def _investing_view(coins: list[int], armies: list[list[str]]) -> dict[str, object]:
    return {
        "day": 2,
        "phase": {"name": "investing"},
        "shop": dict.fromkeys(("Worker", "Thug", "Board of Monopoly", "Incantation"), 2),
        "players": [
            {"coins": c, "buys": 1, "cards": [{"name": n, "uses": 0} for n in army]}
            for c, army in zip(coins, armies, strict=True)
        ],
        "player": 0,
    }


def test_the_planner_matches_a_rival_able_to_eliminate_it_rather_than_a_richer_rival() -> None:
    # Seat 1 is the richest but cannot attack; seat 2's two Thugs outnumber our one
    # defender, so seat 2 winning the investment would eliminate us: we match or beat all
    # of seat 2's coins (a tie for the highest investment means nobody attacks).
    view = _investing_view(
        [5, 9, 3],
        [
            ["Sorcerer's Stipend", "Worker"],
            ["Sorcerer's Stipend", "Board of Monopoly"],
            ["Sorcerer's Stipend", "Thug", "Thug"],
        ],
    )
    invested = make_agent("planner", seed=1).choose(view)
    assert isinstance(invested, int)
    assert invested >= 3
