"""The win-rate statistics, against values computed independently (R's binom.test, and
the Wilson formula by hand)."""

from __future__ import annotations

import doctest
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena import stats
from arena.stats import proportion, sign_test_p_value, standard_error, wilson_interval


def test_the_doctests_of_the_stats_module_pass() -> None:
    assert doctest.testmod(stats).failed == 0


@pytest.mark.parametrize(
    ("wins", "games", "expected"),
    [
        (5, 10, (0.2365931, 0.7634069)),
        (0, 10, (0.0, 0.2775328)),
        (10, 10, (0.7224672, 1.0)),
        (81, 263, (0.2553, 0.3662)),  # the worked example in Wilson-interval references
        (1, 1, (0.2065493, 1.0)),
    ],
)
def test_the_wilson_interval_matches_known_values(
    wins: int, games: int, expected: tuple[float, float]
) -> None:
    low, high = wilson_interval(wins, games)
    places = 4 if games == 263 else 6
    assert (round(low, places), round(high, places)) == pytest.approx(expected, abs=10**-places)


def test_the_wilson_interval_contains_the_rate_and_narrows_with_more_games() -> None:
    small = wilson_interval(30, 100)
    large = wilson_interval(300, 1000)
    assert small[0] < 0.3 < small[1]
    assert large[0] < 0.3 < large[1]
    assert large[1] - large[0] < small[1] - small[0]


def test_with_no_games_the_interval_is_everything_and_the_error_nothing() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert standard_error(0, 0) == 0.0
    assert proportion(0, 0) == 0.0
    assert sign_test_p_value(0, 0) == 1.0


def test_the_standard_error_is_that_of_a_binomial_proportion() -> None:
    assert standard_error(50, 100) == pytest.approx(0.05)
    assert standard_error(30, 120) == pytest.approx(math.sqrt(0.25 * 0.75 / 120))
    assert standard_error(0, 40) == 0.0


@pytest.mark.parametrize(
    ("wins", "games", "expected"),
    [
        (60, 100, 0.05688793),  # binom.test(60, 100)$p.value
        (40, 100, 0.05688793),  # symmetric
        (9, 10, 0.02148438),
        (5, 10, 1.0),
        (10, 10, 0.001953125),
        (0, 1, 1.0),
    ],
)
def test_the_sign_test_matches_the_exact_binomial_test(
    wins: int, games: int, expected: float
) -> None:
    assert sign_test_p_value(wins, games) == pytest.approx(expected, rel=1e-6)


def _exact_p_value(wins: int, games: int) -> float:
    """The two-sided p-value summed outcome by outcome, exactly: every outcome no more
    likely than the observed one (R's rule); under p = 1/2 each has weight C(n, i)."""
    observed = math.comb(games, wins)
    weights = (math.comb(games, i) for i in range(games + 1))
    return float(min(Fraction(1), Fraction(sum(w for w in weights if w <= observed), 2**games)))


@given(
    st.integers(min_value=1, max_value=400).flatmap(
        lambda n: st.tuples(st.integers(0, n), st.just(n))
    )
)
def test_the_sign_test_agrees_with_summing_exact_probabilities(case: tuple[int, int]) -> None:
    wins, games = case
    assert sign_test_p_value(wins, games) == pytest.approx(_exact_p_value(wins, games), rel=1e-9)


def test_the_sign_test_handles_a_tournament_of_many_games() -> None:
    # 52.5% over 4,000 games. 0.00164926637513570 is the exact sum (computed once with
    # fractions); the normal approximation with continuity correction gives 0.00165.
    assert sign_test_p_value(2100, 4000) == pytest.approx(0.0016492663751357, rel=1e-12)
    assert sign_test_p_value(2100, 4000) == pytest.approx(0.00165, abs=2e-5)


@pytest.mark.parametrize(("wins", "games"), [(-1, 10), (11, 10), (0, -1)])
def test_impossible_counts_are_refused(wins: int, games: int) -> None:
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(wins, games)
    with pytest.raises(ValueError, match="successes"):
        sign_test_p_value(wins, games)
