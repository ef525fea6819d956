"""The random agent."""

from __future__ import annotations

import random
from math import floor

from engine.agents.base import Agent
from engine.observation import Observation


class RandomAgent(Agent):
    """Plays a uniformly random legal action: any bet above the last one, or a check, in
    any variant (the bets of the game's table).

    A check is as likely as each single bet, so rounds end quickly once bets are high.
    Deterministic given its seed.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed).random

    def act(self, obs: Observation) -> int:
        low = obs.min_bet
        draw = self._random  # (read as an attribute, then called: cheaper than a method call)
        # Uniform over [low, check] (88 in the classic game, 140 with 32 cards); no check
        # before the first bet. (floor(random() * k) is uniform to within 2**-53, and much
        # cheaper than randrange; math.floor is cheaper than int() and, on these numbers of
        # 0 or more, the same.)
        if low:
            return low + floor(draw() * (obs.check + 1 - low))
        return floor(draw() * obs.check)
