"""Built-in Economancy agents, found by name.

>>> sorted(AGENTS)
['greedy_attack', 'greedy_points', 'planner', 'random']
>>> make_agent("ours", seed=1).name
'planner'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.economancy.agents.base import EconomancyAgent
from engine.economancy.agents.baselines import GreedyAttackAgent, GreedyPointsAgent, RandomAgent
from engine.economancy.agents.planner import PlannerAgent
from engine.economancy.rules import EconomancyRules

AgentFactory = Callable[[int | None, EconomancyRules | None], EconomancyAgent]

AGENTS: Final[dict[str, AgentFactory]] = {
    "random": RandomAgent,
    "greedy_points": GreedyPointsAgent,
    "greedy_attack": GreedyAttackAgent,
    "planner": PlannerAgent,
}
ALIASES: Final = {"ours": "planner"}
"""``ours``: our strongest agent, whichever it is."""


def resolve_agent_name(name: str) -> str:
    """The built-in agent ``name`` means; ``KeyError`` naming the agents otherwise."""
    canonical = ALIASES.get(name, name)
    if canonical not in AGENTS:
        known = ", ".join(sorted([*AGENTS, *ALIASES]))
        raise KeyError(f"no built-in Economancy agent called {name!r}; known: {known}")
    return canonical


def make_agent(
    name: str, seed: int | None = None, rules: EconomancyRules | None = None
) -> EconomancyAgent:
    """A fresh agent called ``name`` (or an alias), seeded."""
    return AGENTS[resolve_agent_name(name)](seed, rules)


__all__ = ["AGENTS", "ALIASES", "EconomancyAgent", "make_agent", "resolve_agent_name"]
