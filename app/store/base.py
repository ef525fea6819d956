"""The persistence boundary: one protocol, one document shape, one conflict error.

A game is stored as a :class:`GameDoc`: the engine's state dict plus what only the service
knows (the players' secret UUIDs, the room number, the version, recent idempotent replies).
Finished rounds are stored as :class:`RoundSnapshot` items holding the round's public record.

Every save is conditional on the version that was read: a store raises :class:`Conflict`
when someone else saved first, and then nothing of the attempted save is written. Snapshots
passed to :meth:`GameStore.save` are written in the same atomic step as the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.facts import Status
from engine.match import facts as match_facts
from engine.match import kind_of
from engine.serialise import StoredGame, summary


class Conflict(Exception):
    """The game changed (or was created) since it was read; nothing was written."""


@dataclass(slots=True)
class GameDoc:
    """Everything stored about one game.

    ``version`` is 1 when created and rises by one with every save. ``state`` is
    ``engine.Game.to_dict()``; ``player_uuids`` maps nickname to the player's secret UUID
    (canonical lower-case form); ``replies`` keeps recent idempotent responses by key;
    ``social`` holds what the table says around the game (recent reactions, nickname
    reports, hidden nicknames; see app/service/social.py), kept with the game and gone with it.
    """

    game_uuid: str
    room: int
    state: dict[str, Any]
    player_uuids: dict[str, str] = field(default_factory=dict)
    version: int = 1
    created_at: float = 0.0
    last_modified: float = 0.0
    expires_at: int = 0
    replies: dict[str, dict[str, Any]] = field(default_factory=dict)
    time_limit: int = 0
    move_deadline: float | None = None
    due_at: float | None = None
    social: dict[str, Any] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        """The game's kind (``"blef"`` for a game stored without one)."""
        return kind_of(self.state)

    @property
    def facts(self) -> StoredGame:
        """The public facts of the stored game, as the engine reads its own format."""
        state = self.state
        if "kind" in state:  # a match (engine/match.py): any game but Blef
            return match_facts(state)
        return summary(state)

    @property
    def public(self) -> bool:
        return self.facts.public

    @property
    def status(self) -> str:
        return self.facts.status.value

    @property
    def listed(self) -> bool:
        """Whether the game belongs in the public list: public, and still in the lobby."""
        return is_listed(self.facts)

    @property
    def nicknames(self) -> list[str]:
        return list(self.facts.nicknames)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_uuid": self.game_uuid,
            "room": self.room,
            "state": self.state,
            "player_uuids": self.player_uuids,
            "version": self.version,
            "created_at": self.created_at,
            "last_modified": self.last_modified,
            "expires_at": self.expires_at,
            "replies": self.replies,
            "time_limit": self.time_limit,
            "move_deadline": self.move_deadline,
            "due_at": self.due_at,
            "social": self.social,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameDoc:
        return cls(
            game_uuid=data["game_uuid"],
            room=int(data["room"]),
            state=data["state"],
            player_uuids=dict(data.get("player_uuids", {})),
            version=int(data["version"]),
            created_at=float(data.get("created_at", 0.0)),
            last_modified=float(data.get("last_modified", 0.0)),
            expires_at=int(data.get("expires_at", 0)),
            replies=dict(data.get("replies", {})),
            time_limit=int(data.get("time_limit", 0)),
            move_deadline=_optional_time(data.get("move_deadline")),
            due_at=_optional_time(data.get("due_at")),
            social=dict(data.get("social") or {}),
        )


def is_listed(facts: StoredGame) -> bool:
    """Whether a game with these facts belongs in the public list (see GameDoc.listed)."""
    return facts.public and facts.status is Status.NOT_STARTED


def _optional_time(value: Any) -> float | None:
    return None if value is None else float(value)


@dataclass(frozen=True, slots=True)
class RoundSnapshot:
    """A finished round: ``data`` is ``engine.RoundRecord.to_dict()`` (public, no secrets).

    ``last_modified`` is the snapshot's own time: after the state in which the round's last
    move was made and before the state that follows it, so that clients which order what
    they receive by ``last_modified`` (iOS) show the round's end, then what came next.
    """

    game_uuid: str
    round_number: int
    data: dict[str, Any]
    last_modified: float = 0.0


@dataclass(frozen=True, slots=True)
class DueGame:
    """A game the clock must act on at ``due_at``, as of ``version``."""

    game_uuid: str
    version: int
    due_at: float


@dataclass(frozen=True, slots=True)
class Report:
    """A player's report of another's nickname as offensive, kept for the operator (``blef
    reports``) past the game's own expiry, until ``expires_at``. One per (game, reporter,
    nickname): the same report again replaces it."""

    game_uuid: str
    reporter: str
    nickname: str
    reported_at: float
    expires_at: int


@dataclass(frozen=True, slots=True)
class PublicGame:
    """An entry of the public game list."""

    game_uuid: str
    room: int
    players: list[str]
    last_modified: float


class GameStore(Protocol):
    """Where games live: their documents, their ended rounds, the public list, the keys of
    keyed creates, and room numbers. Implementations: SqliteStore (embedded), DynamoStore
    (AWS), and the in-memory fake of the tests; all pass one contract suite (tests/store)."""

    def create(self, doc: GameDoc) -> None:
        """Store a new game (version 1). Raises Conflict if the UUID is already taken."""

    def load(self, game_uuid: str) -> GameDoc | None:
        """The current document (a strongly consistent read), or None if unknown/expired."""

    def save(
        self, doc: GameDoc, expected_version: int, snapshots: Sequence[RoundSnapshot] = ()
    ) -> None:
        """Replace the game if its stored version is still ``expected_version``.

        ``doc.version`` must be ``expected_version + 1``. The snapshots are written in the
        same atomic step. Raises Conflict (writing nothing) when the version moved on or
        the game does not exist.
        """

    def load_round(self, game_uuid: str, round_number: int) -> RoundSnapshot | None:
        """The snapshot of one finished round."""

    def load_rounds(self, game_uuid: str) -> list[RoundSnapshot]:
        """Every snapshot of a game, in round order."""

    def list_public(
        self,
        since: float,
        limit: int,
        after: tuple[float, str] | None = None,
        kind: str = "blef",
    ) -> list[PublicGame]:
        """Listed games (public, not started) of the game ``kind`` modified at or after
        ``since``, newest first (ties by game UUID, descending), at most ``limit`` of them;
        with ``after`` (the ``(last_modified, game_uuid)`` of the last entry of the previous
        page) only those that come after it in that order: how a client pages through the
        whole list."""

    def find_create_key(self, key_hash: str) -> str | None:
        """The game a keyed create made, by the hash of its Idempotency-Key, or None."""

    def claim_create_key(self, key_hash: str, game_uuid: str, expires_at: int) -> str:
        """Remember that the create keyed ``key_hash`` made ``game_uuid``, unless that key is
        already claimed: an atomic insert-if-absent. Returns the game the key belongs to
        (``game_uuid`` if this call claimed it, else the earlier claimant's game)."""

    def allocate_room(self) -> int:
        """A small display number for a new game: 1, 2, 3, ... (wrapping is allowed)."""

    def close(self) -> None:
        """Release connections."""


class DueGames(Protocol):
    """The index of games the clock must wake (their ``due_at``)."""

    def list_due(self, before: float, limit: int) -> list[DueGame]:
        """Games whose ``due_at`` is at or before ``before``, earliest first, at most
        ``limit``: what the clock rebuilds its agenda from, and what a sweep catches up on."""


class Expiry(Protocol):
    def purge_expired(self, now: float) -> int:
        """Delete games (and their rounds, and expired reports) that expired before ``now``;
        returns how many games went.
        A store whose database expires items itself (DynamoDB's TTL) deletes nothing."""


class Reports(Protocol):
    """The operator's list of nickname reports (``blef reports``)."""

    def add_report(self, report: Report) -> None:
        """Keep ``report`` (replacing one with the same game, reporter and nickname)."""

    def list_reports(self, limit: int) -> list[Report]:
        """The newest ``limit`` reports not yet expired, newest first."""


class Store(GameStore, DueGames, Expiry, Reports, Protocol):
    """All of it: what the service runs on (every implementation is all of it)."""
