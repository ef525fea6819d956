"""The rating model.

OpenSkill's Plackett-Luce model (``openskill`` 6.x, its defaults: mu 25, sigma 25/3, beta
25/6, tau 25/300, kappa 0.0001), one rating per account per pool; the boards sort by the
ordinal mu - 3 sigma. A player is provisional for their first :data:`PROVISIONAL_GAMES`
games in a pool. The library is imported on the first rating, never at import.

What people are shown is the ordinal on a familiar scale (docs/ratings.md):
``display = round(1500 + 30 * (mu - 3 sigma))``. A new player's ordinal is 0 (25 - 3 *
25/3), so everyone starts at 1500; between two settled players, the library predicts that
the one 100 points higher wins about 7 games in 10 (tests/ladder/test_rating_scale.py). A
change is always the difference of the two rounded figures, so a line "1500 → 1603 (+103)"
adds up as it reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from app.ladder.store import Rating

MU: Final = 25.0
SIGMA: Final = 25.0 / 3
PROVISIONAL_GAMES: Final = 10
DISPLAY_BASE: Final = 1500
"""A new player's displayed rating (ordinal 0)."""
DISPLAY_SCALE: Final = 30
"""Displayed points per unit of the ordinal."""


def ordinal(mu: float, sigma: float) -> float:
    """The rating the boards sort by: mu - 3 sigma (OpenSkill's ordinal)."""
    return mu - 3 * sigma


def display(mu: float, sigma: float) -> int:
    """The rating people see: 1500 + 30 * (mu - 3 sigma), rounded once to a whole number.
    Monotone in the ordinal, so a board sorted by one is sorted by the other."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * ordinal(mu, sigma))


def shown(rating: Rating) -> int:
    return display(rating.mu, rating.sigma)


def initial(account_id: str, pool: str) -> Rating:
    return Rating(account_id, pool, MU, SIGMA, 0)


def provisional(rating: Rating) -> bool:
    return rating.games < PROVISIONAL_GAMES


def rate(before: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """The ratings after one game, ``places[i]`` the place of ``before[i]`` (1 the winner)."""
    from openskill.models import PlackettLuce  # noqa: PLC0415 (loaded on first use)

    model = PlackettLuce(mu=MU, sigma=SIGMA)
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = model.rate(teams, ranks=[float(p) for p in places])
    return [
        Rating(r.account_id, r.pool, float(team[0].mu), float(team[0].sigma), r.games + 1)
        for r, team in zip(before, rated, strict=True)
    ]


def stakes(before: Sequence[Rating]) -> list[tuple[int, int]]:
    """What each player of a table stands to win and lose on the displayed scale, computed
    by the model: ``(if first, if last)`` for ``before[i]``: first with the others behind in
    their seat order, or last with the others ahead in that order (at a two-player table,
    exactly the two outcomes; the model's ties would understate a loss among many). Each is
    the rounded rating after minus the rounded rating before."""
    out = []
    n = len(before)
    for i, rating in enumerate(before):
        others = [j for j in range(n) if j != i]
        first = [0] * n
        last = [0] * n
        for k, j in enumerate(others):
            first[j], last[j] = k + 2, k + 1
        first[i], last[i] = 1, n
        now = shown(rating)
        out.append((shown(rate(before, first)[i]) - now, shown(rate(before, last)[i]) - now))
    return out
