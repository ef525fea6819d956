"""Agents that play from their own hand's exact probabilities, ignoring what others say."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from engine.agents._hands import most_probable, most_senior_at_least, own_odds, standing_odds
from engine.agents.base import Agent
from engine.observation import Observation


class ProbabilistAgent(Agent):
    """Bets and checks from the exact probability that each set exists, given its own cards.

    Let ``p[s]`` be the probability that set ``s`` exists among all cards in play, computed
    from the agent's own hand alone (:func:`engine.probability.set_probabilities`; the other
    players' bets are ignored). On its turn, with ``L`` the last bet:

    1. if ``p[L] < check_below``, it checks;
    2. otherwise let ``top`` be the most senior legal bet with ``p >= bet_above``. With
       probability ``bluff`` it bets 1 to 3 sets above ``top`` instead (never above 87); with
       probability ``spread`` it bets a uniformly chosen legal bet between the lowest legal
       bet and ``top``; otherwise it bets ``top``;
    3. when no legal bet reaches ``bet_above``, it checks if that wins more often than the
       most probable legal bet would if checked (``1 - p[L] > p[best]``), else bets it.

    The random choices in step 2 come from its own seeded generator, so the agent is
    deterministic given its seed, yet its bets do not reveal its hand exactly.

    **Any variant.** ``p`` is the exact chance of each set of the game's table given
    everything the agent sees (its hand, its team-mates' hands, the common cards) if it
    bets the set itself, counting its own jokers and the common ones
    (:func:`engine.odds.observed_odds`); the check in step 1 reads the last bet as its
    bettor bet it instead (an opponent's jokers are a random share of the unseen cards).
    In the classic game both are the closed form of :mod:`engine.probability`, as before.

    The defaults (``check_below = 0.15``, ``bet_above = 0.9``, ``bluff = 0.02``,
    ``spread = 0.05``) are cautious: it bets what it nearly holds. They were the best of a
    small grid in two-player self-play: checking only very unlikely bets pays because its
    own-hand probability ignores the evidence in the bet it faces.
    """

    name: ClassVar[str] = "probabilist"
    check_below: ClassVar[float] = 0.15
    bet_above: ClassVar[float] = 0.9
    bluff: ClassVar[float] = 0.02
    spread: ClassVar[float] = 0.05

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed).random

    def act(self, obs: Observation) -> int:
        return own_hand_action(
            obs, self._random, self.check_below, self.bet_above, self.bluff, self.spread
        )


def own_hand_action(
    obs: Observation,
    rnd: Callable[[], float],
    check_below: float,
    bet_above: float,
    bluff: float,
    spread: float,
) -> int:
    """The rule of :class:`ProbabilistAgent` with these parameters, in any variant."""
    low = obs.min_bet
    check = obs.rules.check
    if low >= check:
        return check
    p = own_odds(obs)
    p_last = standing_odds(obs, p) if low else 1.0
    if p_last < check_below:
        return check
    top = most_senior_at_least(p, low, bet_above)
    if top is None:
        best = most_probable(p, low)
        if low and 1.0 - p_last > p[best]:
            return check
        return best
    r = rnd()
    if r < bluff:
        return min(check - 1, top + 1 + int(rnd() * 3))
    if r < bluff + spread:
        return low + int(rnd() * (top - low + 1))
    return top


class BoldAgent(ProbabilistAgent):
    """A bolder :class:`ProbabilistAgent`: the same rule, betting on less and bluffing more.

    It bets sets it gives at least a 60% chance (``bet_above = 0.6``), checks bets it gives
    under 25% (``check_below = 0.25``), bluffs 10% of the time and spreads its bets 10% of
    the time (``bluff = spread = 0.1``). It loses to the cautious default (about 36% of
    two-player games) but is harder to read.
    """

    name: ClassVar[str] = "bold"
    check_below: ClassVar[float] = 0.25
    bet_above: ClassVar[float] = 0.6
    bluff: ClassVar[float] = 0.1
    spread: ClassVar[float] = 0.1
