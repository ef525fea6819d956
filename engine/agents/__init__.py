"""Built-in agents, found by name.

>>> sorted(AGENTS)
['bayesian', 'bold', 'probabilist', 'random']
>>> make_agent("Dazhbog", seed=1).name
'probabilist'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.agents.base import Agent
from engine.agents.bayesian import BayesianAgent
from engine.agents.probabilist import BoldAgent, ProbabilistAgent
from engine.agents.random_agent import RandomAgent
from engine.errors import UnknownAgent

AgentFactory = Callable[[int | None], Agent]

AGENTS: Final[dict[str, AgentFactory]] = {
    "random": RandomAgent,
    "probabilist": ProbabilistAgent,
    "bold": BoldAgent,
    "bayesian": BayesianAgent,
}
"""Every built-in agent by its own name."""

ALIASES: Final[dict[str, str]] = {
    "Dazhbog": "probabilist",
    "Porevit": "bold",
}
"""Names of the established service's AI players, mapped to the closest built-in agent.

Both established agents weight bets by the probability that each set exists given their own
cards, so both map to the own-hand probability agents: ``Dazhbog`` to the cautious
``probabilist`` and ``Porevit`` to its bolder parameterisation ``bold``.
"""


def resolve_agent_name(name: str) -> str:
    """The built-in agent a name refers to (its own name or an established alias)."""
    canonical = ALIASES.get(name, name)
    if canonical not in AGENTS:
        known = ", ".join(sorted([*AGENTS, *ALIASES]))
        raise UnknownAgent(f"Invalid agent_name {name!r}: unknown AI agent; known agents: {known}")
    return canonical


def make_agent(name: str, seed: int | None = None) -> Agent:
    """A fresh agent called ``name`` (or an alias of one), seeded with ``seed``."""
    return AGENTS[resolve_agent_name(name)](seed)


__all__ = [
    "AGENTS",
    "ALIASES",
    "Agent",
    "BayesianAgent",
    "BoldAgent",
    "ProbabilistAgent",
    "RandomAgent",
    "make_agent",
    "resolve_agent_name",
]
