"""Ratings recomputed apart from the project: OpenSkill's Plackett-Luce model called
directly (not app/ladder/rating.py) over a pool's stored results in the order they were
settled, checked against every stored rating and every result's before and after."""

from __future__ import annotations

from openskill.models import PlackettLuce

from app.ladder.store import LadderStore


def assert_ratings_recomputed(store: LadderStore, pool: str) -> int:
    """Asserts; returns how many rated results were replayed."""
    model = PlackettLuce(mu=25.0, sigma=25.0 / 3)
    mine: dict[str, tuple[float, float, int]] = {}
    replayed = 0
    for result in store.results(pool):
        if not result.changes:
            continue
        replayed += 1
        before = [mine.get(c.account_id, (25.0, 25.0 / 3, 0)) for c in result.changes]
        for change, (mu, sigma, games) in zip(result.changes, before, strict=True):
            assert abs(change.before.mu - mu) < 1e-9 and abs(change.before.sigma - sigma) < 1e-9
            assert change.before.games == games
        teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in before]
        rated = model.rate(teams, ranks=[float(c.place) for c in result.changes])
        for change, team, (_, _, games) in zip(result.changes, rated, before, strict=True):
            mine[change.account_id] = (float(team[0].mu), float(team[0].sigma), games + 1)
            assert abs(change.after.mu - team[0].mu) < 1e-9
    for account_id, (mu, sigma, games) in mine.items():
        stored = store.rating(account_id, pool)
        assert stored is not None
        assert abs(stored.mu - mu) < 1e-9 and abs(stored.sigma - sigma) < 1e-9
        assert stored.games == games
    return replayed
