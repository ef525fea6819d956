"""Built-in agents are found by name, and the established service's AI names still work."""

from __future__ import annotations

import pytest

from engine.agents import AGENTS, ALIASES, make_agent, resolve_agent_name
from engine.errors import UnknownAgent
from engine.facts import AI_NICKNAME_PATTERN
from engine.game import Game


def test_the_built_in_agents_are_random_two_probability_agents_and_the_bayesian() -> None:
    assert set(AGENTS) == {"random", "probabilist", "bold", "bayesian"}


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_each_agent_is_made_by_its_name_and_carries_it(name: str) -> None:
    assert make_agent(name, seed=1).name == name


@pytest.mark.parametrize("name", sorted([*AGENTS, *ALIASES]))
def test_every_agent_name_and_alias_makes_a_valid_ai_nickname(name: str) -> None:
    game = Game()
    game.join("ann")  # an AI is seated by a human admin
    nickname = game.ai_nickname(name)
    assert nickname == f"{name}_(AI)"
    assert AI_NICKNAME_PATTERN.fullmatch(nickname)
    game.join(nickname, ai_agent=resolve_agent_name(name))


def test_the_established_ai_names_map_to_the_own_hand_probability_agents() -> None:
    assert resolve_agent_name("Dazhbog") == "probabilist"
    assert resolve_agent_name("Porevit") == "bold"
    assert make_agent("Dazhbog", seed=3).name == "probabilist"
    assert make_agent("Porevit", seed=3).name == "bold"
    assert all(target in AGENTS for target in ALIASES.values())


def test_an_unknown_name_is_refused_with_the_names_that_exist() -> None:
    with pytest.raises(UnknownAgent, match=r"Svarog.*known agents: .*Dazhbog.*bayesian"):
        make_agent("Svarog")
