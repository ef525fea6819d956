"""An explicit, parametric model of how a player bets and checks from their own hand.

The :class:`~engine.agents.bayesian.BayesianAgent` reads the other players' moves through
this model: the likelihood of a move given a hypothetical hand is what weights that hand in
its posterior, and the model's prediction of a check is how it expects its next opponent to
answer a bet.

**The model.** A player who holds a hand sees the probability ``p[s]`` of each set ``s``
(:func:`engine.probability.set_probabilities`). With probability ``noise`` they play a
uniformly random legal action. Otherwise, facing a last bet ``L``:

* they check with probability ``sigmoid(sharpness * (check_below - p[L]))``, a soft version
  of "check when the last bet is less likely than ``check_below``";
* else they draw a threshold ``t`` uniformly from ``[bet_low, bet_high]`` and bet the most
  senior legal set with ``p >= t``; if no legal set reaches ``t``, the most probable legal
  set (the most senior of equals).

So a bet ``b`` is explained by the thresholds ``t`` for which it is the most senior credible
set: ``max(p[b+1:]) < t <= p[b]`` (and, if ``b`` is the most probable legal set, every
``t`` above ``p[b]`` as well). Its likelihood is the share of ``[bet_low, bet_high]`` those
thresholds cover. A :class:`~engine.agents.probabilist.ProbabilistAgent` with
``check_below = c`` and ``bet_above = a`` is close to this model with a narrow window around
``a``; a uniformly random player is the model with ``noise = 1``.
"""

from __future__ import annotations

import math
from typing import Final, NamedTuple

from engine.facts import CHECK, N_BETS

_SHARPNESS: Final = 25.0
_LAST: Final = N_BETS - 1


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


class BidModel(NamedTuple):
    """One parameterisation of the bidding model (see the module docstring)."""

    bet_low: float
    bet_high: float
    check_below: float
    noise: float

    @property
    def threshold(self) -> float:
        """The middle of the threshold window: the model's typical bar for a bet."""
        return (self.bet_low + self.bet_high) / 2

    @property
    def is_random(self) -> bool:
        return self.noise >= 1.0

    def check_probability(self, p_last: float, low: int) -> float:
        """The chance of a check when the last bet has probability ``p_last`` and the lowest
        legal bet is ``low`` (so ``88 - low`` bets and the check are legal)."""
        if low >= N_BETS:
            return 1.0
        uniform = 1.0 / (CHECK + 1 - low)
        if self.noise >= 1.0:
            return uniform
        rule = _sigmoid(_SHARPNESS * (self.check_below - p_last))
        return self.noise * uniform + (1.0 - self.noise) * rule

    def bet_share(self, p: tuple[float, ...], low: int, bet: int) -> float:
        """The chance that a player who bets (does not check) bets ``bet``, without noise."""
        pb = p[bet]
        above = max(p[bet + 1 :]) if bet < _LAST else -1.0
        if above >= pb:
            return 0.0
        upper = pb
        if bet == low or pb >= max(p[low:bet]):
            upper = 2.0  # the fallback: the most probable legal set, for any higher t
        lo, hi = self.bet_low, self.bet_high
        covered = min(upper, hi) - max(above, lo)
        if covered <= 0.0:
            return 0.0
        return covered / (hi - lo)

    def likelihood(self, p: tuple[float, ...], low: int, action: int) -> float:
        """The probability of ``action`` (a bet, or a check) by a player whose probabilities
        are ``p``, when the lowest legal bet is ``low``."""
        if low >= N_BETS:
            return 1.0 if action == CHECK else 0.0  # only a check is left
        n_actions = CHECK + 1 - low if low else N_BETS
        uniform = 1.0 / n_actions
        if self.noise >= 1.0:
            return uniform
        check = _sigmoid(_SHARPNESS * (self.check_below - p[low - 1])) if low else 0.0
        rule = check if action == CHECK else (1.0 - check) * self.bet_share(p, low, action)
        return self.noise * uniform + (1.0 - self.noise) * rule


RANDOM_MODEL: Final = BidModel(0.0, 1.0, 0.5, 1.0)
"""A player who picks a uniformly random legal action."""

DEFAULT_MODEL: Final = BidModel(0.5, 0.9, 0.25, 0.15)
"""The model assumed for a player the agent has not yet seen reveal a hand."""


def model_grid() -> tuple[BidModel, ...]:
    """The candidate models an agent chooses between for each opponent: four threshold
    windows times four check thresholds, with 10% noise, and the uniformly random player."""
    windows = ((0.05, 0.35), (0.3, 0.6), (0.55, 0.8), (0.75, 1.0))
    checks = (0.1, 0.25, 0.4, 0.55)
    grid = [BidModel(lo, hi, c, 0.1) for lo, hi in windows for c in checks]
    return (*grid, RANDOM_MODEL)
