"""The rating pools, declared once: each a name, the game it plays, the size of its tables,
and its rules (a game's default rules: Blef's classic rules of engine/rules.py; with a move
time limit so that a player who walks away times out instead of holding the table).

Each pool has its own ratings and board. A pool of another game than Blef (``kind``) plays
its tables through the game service's tables of other games (app/service/matches.py); the
ladder knows the kind only as a name and imports no game's package."""

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
    """Seconds per move (the service's time limit; at Blef a timeout loses the round, at
    another game the service plays the seat's safest move, app/service/match_due.py)."""
    kind: str = "blef"
    """The game its tables play (``"blef"``, ``"economancy"``, ``"figgie"``)."""

    @property
    def blef(self) -> bool:
        return self.kind == "blef"


POOLS: Final = (
    Pool("standard-2", "standard, 2 players", 2, 2, 60),
    Pool("standard-3-8", "standard, 3–8 players", 3, 8, 60),
    Pool("economancy-2", "Economancy, 2 players", 2, 2, 60, "economancy"),
    Pool("economancy-3-4", "Economancy, 3–4 players", 3, 4, 60, "economancy"),
    Pool("figgie-4-5", "Figgie, 4–5 players", 4, 5, 60, "figgie"),
)
BY_NAME: Final = {pool.name: pool for pool in POOLS}


def kind_of_pool(name: str) -> str:
    """The game ``name``'s tables play (``"blef"`` for a name no longer listed)."""
    pool = BY_NAME.get(name)
    return "blef" if pool is None else pool.kind


def game_path(kind: str, game_uuid: str) -> str:
    """Where a table's game is read and played: Blef's established routes, or the tables'
    routes of another game."""
    return f"/games/{game_uuid}" if kind == "blef" else f"/{kind}/games/{game_uuid}"


def pool_named(name: object) -> Pool:
    """The pool ``name`` names, or :class:`UnknownPool` (400)."""
    pool = BY_NAME.get(name) if isinstance(name, str) else None
    if pool is None:
        known = ", ".join(BY_NAME)
        raise UnknownPool("pool", name, f"Unknown pool; the pools are: {known}")
    return pool
