"""The random agent."""

from __future__ import annotations

import random

from engine.agents.base import Agent
from engine.facts import CHECK, N_BETS
from engine.observation import Observation


class RandomAgent(Agent):
    """Plays a uniformly random legal action: any bet above the last one, or a check.

    A check is as likely as each single bet, so rounds end quickly once bets are high.
    Deterministic given its seed.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed).random

    def act(self, obs: Observation) -> int:
        low = obs.min_bet
        # Uniform over [low, 88], where 88 is the check; no check before the first bet.
        # (floor(random() * k) is uniform to within 2**-53, and much cheaper than randrange.)
        if low:
            return low + int(self._random() * (CHECK + 1 - low))
        return int(self._random() * N_BETS)
