"""What the game service tells the ladder of a finished game: a typed value, so that the
ladder never reads a game's document nor parses a message (app/ladder/results.py)."""

from __future__ import annotations

from dataclasses import dataclass

from app.service.seats import seat_key


@dataclass(frozen=True, slots=True)
class FinishedSeat:
    """One seat of a finished game: who sat there and the place they took (1 the best;
    tied seats share a place)."""

    place: int
    player_uuid: str | None = None
    """A person's seat: the secret it was given when it joined (None for an AI player)."""
    agent: str | None = None
    """An AI player's seat: the built-in agent that played it (None for a person)."""
    seat_keys: frozenset[str] = frozenset()
    """Every seat key (a one-way hash of a secret, app/service/seats.py) the seat has had:
    the secret it was given, and those it had before it moved to another device."""

    def held_by(self, player_uuid: str) -> bool:
        """Whether ``player_uuid`` is this seat's secret, now or before a move."""
        return player_uuid == self.player_uuid or seat_key(player_uuid) in self.seat_keys


@dataclass(frozen=True, slots=True)
class TableFinished:
    """A finished game: its kind (``"blef"``, ``"economancy"``, ``"figgie"``), its UUID
    and its seats in order (Blef's as the game seated them, another game's in join order)."""

    kind: str
    game_uuid: str
    seats: tuple[FinishedSeat, ...]
