"""What the game service tells the ladder of a finished game: a typed value, so that the
ladder never reads a game's document nor parses a message (app/ladder/results.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FinishedSeat:
    """One seat of a finished game: who sat there and the place they took (1 the best;
    tied seats share a place)."""

    place: int
    player_uuid: str | None = None
    """A person's seat: the secret it was given when it joined (None for an AI player)."""
    agent: str | None = None
    """An AI player's seat: the built-in agent that played it (None for a person)."""


@dataclass(frozen=True, slots=True)
class TableFinished:
    """A finished game: its kind (``"blef"``), its UUID and its seats in order."""

    kind: str
    game_uuid: str
    seats: tuple[FinishedSeat, ...]
