"""Every built-in agent plays only legal moves, never checks first, and replays from its seed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.agents import make_agent
from engine.facts import CHECK, Colour, Value
from engine.play import play_game
from tests.agents.helpers import AGENT_NAMES, NAMES, Recording, Situation, card, mid_game


@settings(max_examples=60)
@given(
    seed=st.integers(0, 2**32),
    n_players=st.integers(2, 8),
    random_moves=st.integers(0, 60),
    agent_seed=st.integers(0, 2**32),
)
def test_every_agent_answers_any_reachable_situation_with_a_legal_action(
    seed: int, n_players: int, random_moves: int, agent_seed: int
) -> None:
    obs = mid_game(seed, n_players, random_moves)
    if obs is None:
        return
    for name in AGENT_NAMES:
        action = make_agent(name, agent_seed).act(obs)
        assert action in obs.legal_actions, (name, action)


@pytest.mark.parametrize("n_players", [2, 3, 5, 8])
def test_mixed_tables_of_every_agent_play_whole_games_by_the_rules(n_players: int) -> None:
    for game_seed in range(3):
        agents = {
            name: Recording(make_agent(AGENT_NAMES[i % len(AGENT_NAMES)], 100 * game_seed + i))
            for i, name in enumerate(NAMES[:n_players])
        }
        result = play_game(agents, seed=f"rules/{n_players}/{game_seed}")
        assert result.winner in agents
        for agent in agents.values():
            assert CHECK not in agent.first_moves


@pytest.mark.parametrize("name", AGENT_NAMES)
def test_no_agent_ever_checks_as_the_first_move_of_a_round(name: str) -> None:
    opponent = "probabilist" if name == "random" else "random"
    recorded = Recording(make_agent(name, 5))
    for seed in range(4):
        play_game({"me": recorded, "you": make_agent(opponent, seed)}, seed=f"first/{seed}")
    assert recorded.first_moves
    assert CHECK not in recorded.first_moves


@pytest.mark.parametrize("name", AGENT_NAMES)
def test_an_agent_replays_the_same_game_from_the_same_seeds(name: str) -> None:
    def play() -> list[list[tuple[int, int]]]:
        agents = {"me": make_agent(name, 11), "you": make_agent("probabilist", 12)}
        return [r.seats_history for r in play_game(agents, seed="replay").rounds]

    assert play() == play()


@pytest.mark.parametrize("name", ["probabilist", "bold", "bayesian"])
def test_no_thinking_agent_checks_a_bet_its_own_hand_already_proves(name: str) -> None:
    # I hold the ace of hearts; the other player (one card) bet "high card ace".
    for seed in range(20):
        table = Situation((card(Value.ACE, Colour.HEARTS),), (1, 1), [(1, 5)])
        assert make_agent(name, seed).act(table) != CHECK  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["probabilist", "bold", "bayesian"])
def test_every_thinking_agent_checks_a_bet_that_cannot_exist(name: str) -> None:
    # Two cards in play, and the last bet is four nines.
    for seed in range(20):
        table = Situation((card(Value.NINE, Colour.CLUBS),), (1, 1), [(1, 70)])
        assert make_agent(name, seed).act(table) == CHECK  # type: ignore[arg-type]
