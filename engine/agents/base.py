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
    learns_from_rounds: ClassVar[bool] = False
    """Whether :meth:`round_ended` changes how the agent plays. A service that makes a fresh
    agent in the middle of a game replays the finished rounds to such an agent first."""

    def act(self, obs: Observation) -> int:
        raise NotImplementedError

    def round_ended(self, record: RoundRecord) -> None:
        """Called with every finished round the agent took part in."""
