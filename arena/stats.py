"""Statistics for win rates: standard error, Wilson interval, and an exact two-sided test.

A tournament gives, per player, ``wins`` out of ``games``: a binomial proportion. These
helpers summarise it without any third-party dependency.

>>> round(standard_error(50, 100), 4)
0.05
>>> tuple(round(x, 4) for x in wilson_interval(5, 10))
(0.2366, 0.7634)
>>> round(sign_test_p_value(60, 100), 5)
0.05689
"""

from __future__ import annotations

import math
from typing import Final

Z_95: Final = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def _check(successes: int, trials: int) -> None:
    if trials < 0 or not 0 <= successes <= max(trials, 0):
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")


def proportion(successes: int, trials: int) -> float:
    """``successes / trials``, and 0.0 when there were no trials."""
    _check(successes, trials)
    return successes / trials if trials else 0.0


def standard_error(successes: int, trials: int) -> float:
    """The estimated standard error of the proportion, sqrt(p (1 - p) / n) (0.0 for n = 0).

    Note it is 0 when p is 0 or 1; the Wilson interval is the better summary there.
    """
    if not trials:
        _check(successes, trials)
        return 0.0
    p = proportion(successes, trials)
    return math.sqrt(p * (1.0 - p) / trials)


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    Unlike the normal ("Wald") interval it stays inside [0, 1] and keeps a sensible width
    at 0 or n successes. With no trials it is the whole of [0, 1].

    >>> tuple(round(x, 4) for x in wilson_interval(0, 10))
    (0.0, 0.2775)
    """
    _check(successes, trials)
    if not trials:
        return (0.0, 1.0)
    n = trials
    p = successes / n
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1.0 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def sign_test_p_value(successes: int, trials: int) -> float:
    """The exact two-sided binomial test of "the success probability is 1/2".

    The p-value is the probability, under p = 1/2, of an outcome at least as far from
    n/2 as the one observed: ``min(1, 2 * P(X <= min(k, n - k)))`` for X ~ Binomial(n, 1/2).
    It is computed with exact integers (fine for the tens of thousands of games a
    tournament plays), then rounded to a float: below about 1e-308 that is 0.0. With no
    trials there is no evidence: 1.0.

    >>> sign_test_p_value(9, 10)
    0.021484375
    """
    _check(successes, trials)
    if not trials:
        return 1.0
    k = min(successes, trials - successes)
    # Sum C(n, i) for i = 0..k with exact integers, each term from the previous one.
    term = 1
    tail = 1
    for i in range(1, k + 1):
        term = term * (trials - i + 1) // i
        tail += term
    # Integer true division rounds correctly even when both numbers are huge.
    return min(1.0, 2 * tail / (1 << trials))
