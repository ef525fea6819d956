"""Time standing still for the per-address token buckets of an app under test.

The buckets refill by a monotonic clock (app/api/fairness.py); a flood test that sends N
requests and expects the N+1st refused would pass or fail by how fast the machine is if
real time ran (a refill of one token every 3 s is reached by a slow, loaded run).
"""

from __future__ import annotations

from fastapi import FastAPI

from app.api.fairness import FairnessMiddleware


def buckets_frozen(app: FastAPI, now: float = 1_000.0) -> FastAPI:
    """``app`` with its fairness buckets on a clock that never moves (before its first
    request: Starlette builds the middleware stack then). Returns ``app``."""
    found = [m for m in app.user_middleware if m.cls is FairnessMiddleware]
    assert len(found) == 1, "the app has one fairness middleware"
    found[0].kwargs["clock"] = lambda: now
    return app
