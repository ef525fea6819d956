"""The rating pools, declared once: each a name, the size of its tables, and its rules (the
classic rules of engine/rules.py, with a move time limit so that a player who walks away
times out instead of holding the table)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.ladder.errors import UnknownPool


@dataclass(frozen=True, slots=True)
class Pool:
    name: str
    """The pool's id in URLs and bodies."""
    title: str
    min_players: int
    max_players: int
    time_limit: int
    """Seconds per move (the service's time limit; a timeout loses the round)."""


POOLS: Final = (
    Pool("standard-2", "standard, 2 players", 2, 2, 60),
    Pool("standard-3-8", "standard, 3–8 players", 3, 8, 60),
)
BY_NAME: Final = {pool.name: pool for pool in POOLS}


def pool_named(name: object) -> Pool:
    """The pool ``name`` names, or :class:`UnknownPool` (400)."""
    pool = BY_NAME.get(name) if isinstance(name, str) else None
    if pool is None:
        known = ", ".join(BY_NAME)
        raise UnknownPool("pool", name, f"Unknown pool; the pools are: {known}")
    return pool
