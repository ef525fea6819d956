"""The rating model.

OpenSkill's Plackett-Luce model (``openskill`` 6.x, its defaults: mu 25, sigma 25/3, beta
25/6, tau 25/300, kappa 0.0001), one rating per account per pool; the boards sort by the
ordinal mu - 3 sigma. A player is provisional for their first :data:`PROVISIONAL_GAMES`
games in a pool. The library is imported on the first rating, never at import.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from app.ladder.store import Rating

MU: Final = 25.0
SIGMA: Final = 25.0 / 3
PROVISIONAL_GAMES: Final = 10


def ordinal(mu: float, sigma: float) -> float:
    """The rating the boards sort by: mu - 3 sigma (OpenSkill's ordinal)."""
    return mu - 3 * sigma


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
