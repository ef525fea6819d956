"""What every built-in Economancy agent is: a chooser of moves from the protocol's view.

An agent sees exactly what a player program sees (the state JSON of the protocol, with
``player`` its own seat) and answers the move's value (``3``, ``"Ghost"``, ``"Pass"``;
the JSON form wraps it in an array). It may rebuild a state from the view to look ahead
(:meth:`~engine.economancy.state.EconomancyState.from_view`): nothing hidden is in it.
Agents are seeded and deterministic given their seed and the views they are shown.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.economancy.rules import EconomancyRules
from engine.economancy.state import EconomancyState, Move


class EconomancyAgent:
    """Subclasses set ``name`` and implement :meth:`decide`."""

    name: ClassVar[str] = "agent"

    def __init__(self, seed: int | None = None, rules: EconomancyRules | None = None) -> None:
        self.random = random.Random(seed)
        self.rules = rules or EconomancyRules()

    def choose(self, view: Mapping[str, Any]) -> Move:
        """The move for ``view`` (a state in which this agent's seat is asked)."""
        state = EconomancyState.from_view(view, self.rules)
        return self.decide(state, int(view["player"]), view)

    def decide(self, state: EconomancyState, me: int, view: Mapping[str, Any]) -> Move:
        raise NotImplementedError

    def game_over(self, view: Mapping[str, Any]) -> None:
        """Told the end state once (agents that learn across games may use it)."""
