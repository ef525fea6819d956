"""The agent protocol every built-in player follows."""

from __future__ import annotations

from typing import ClassVar

from engine.game import RoundRecord
from engine.observation import Observation


class Agent:
    """A player program. Built-in agents are seeded and deterministic given their seed.

    Subclasses set ``name`` and implement :meth:`act`. :meth:`round_ended` is told every
    finished round (all hands are public then); agents that learn from it override it.
    """

    name: ClassVar[str] = "agent"

    def act(self, obs: Observation) -> int:
        raise NotImplementedError

    def round_ended(self, record: RoundRecord) -> None:
        """Called with every finished round the agent took part in."""
