"""A games store in memory: the fake the service's unit tests run on (tests/service).

It keeps the store protocol's whole contract (tests/store runs the same contract suite on it
as on SQLite and DynamoDB): conditional saves that write nothing on a lost race, snapshots
written with their game, expiry read like the real stores, the public list's order and
paging, create keys claimed once. Every document is copied in and out, so a caller can never
change what is stored by changing what it holds.
"""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from app.store.base import Conflict, DueGame, GameDoc, PublicGame, Report, RoundSnapshot

_ROOM_WRAP = 9999


@dataclass
class MemoryStore:
    clock: Callable[[], float] = time.time
    games: dict[str, GameDoc] = field(default_factory=dict)
    rounds: dict[tuple[str, int], RoundSnapshot] = field(default_factory=dict)
    create_keys: dict[str, tuple[str, int]] = field(default_factory=dict)
    reports: dict[tuple[str, str, str], Report] = field(default_factory=dict)
    saves: int = 0
    """How many saves were written (a lost race writes nothing and is not counted)."""
    _room: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def create(self, doc: GameDoc) -> None:
        with self._lock:
            if doc.game_uuid in self.games:
                raise Conflict(f"game {doc.game_uuid} already exists")
            self.games[doc.game_uuid] = copy.deepcopy(doc)

    def load(self, game_uuid: str) -> GameDoc | None:
        with self._lock:
            doc = self.games.get(game_uuid)
            if doc is None or (doc.expires_at and doc.expires_at < self.clock()):
                return None
            return copy.deepcopy(doc)

    def save(
        self, doc: GameDoc, expected_version: int, snapshots: Sequence[RoundSnapshot] = ()
    ) -> None:
        if doc.version != expected_version + 1:
            raise ValueError("a saved game's version must be one above the version read")
        with self._lock:
            stored = self.games.get(doc.game_uuid)
            if stored is None or stored.version != expected_version:
                raise Conflict(f"game {doc.game_uuid} is not at version {expected_version}")
            keys = [(s.game_uuid, s.round_number) for s in snapshots]
            if any(key in self.rounds for key in keys) or len(set(keys)) != len(keys):
                raise Conflict("that round snapshot already exists")
            self.games[doc.game_uuid] = copy.deepcopy(doc)
            for key, snapshot in zip(keys, snapshots, strict=True):
                self.rounds[key] = copy.deepcopy(snapshot)
            self.saves += 1

    def load_round(self, game_uuid: str, round_number: int) -> RoundSnapshot | None:
        with self._lock:
            return copy.deepcopy(self.rounds.get((game_uuid, round_number)))

    def load_rounds(self, game_uuid: str) -> list[RoundSnapshot]:
        with self._lock:
            found = [s for (g, _), s in self.rounds.items() if g == game_uuid]
            return copy.deepcopy(sorted(found, key=lambda s: s.round_number))

    def list_public(
        self,
        since: float,
        limit: int,
        after: tuple[float, str] | None = None,
        kind: str = "blef",
    ) -> list[PublicGame]:
        now = int(self.clock())
        with self._lock:
            listed = [
                d
                for d in self.games.values()
                if d.listed and d.kind == kind and d.last_modified >= since and d.expires_at >= now
            ]
        listed.sort(key=lambda d: (d.last_modified, d.game_uuid), reverse=True)
        if after is not None:
            listed = [d for d in listed if (d.last_modified, d.game_uuid) < after]
        return [
            PublicGame(d.game_uuid, d.room, list(d.nicknames), d.last_modified)
            for d in listed[:limit]
        ]

    def list_due(self, before: float, limit: int) -> list[DueGame]:
        with self._lock:
            due = [
                DueGame(d.game_uuid, d.version, d.due_at)
                for d in self.games.values()
                if d.due_at is not None and d.due_at <= before
            ]
        return sorted(due, key=lambda d: d.due_at)[:limit]

    def find_create_key(self, key_hash: str) -> str | None:
        with self._lock:
            claim = self.create_keys.get(key_hash)
            return None if claim is None else claim[0]

    def claim_create_key(self, key_hash: str, game_uuid: str, expires_at: int) -> str:
        with self._lock:
            return self.create_keys.setdefault(key_hash, (game_uuid, expires_at))[0]

    def allocate_room(self) -> int:
        with self._lock:
            self._room += 1
            return (self._room - 1) % _ROOM_WRAP + 1

    def add_report(self, report: Report) -> None:
        with self._lock:
            self.reports[(report.game_uuid, report.reporter, report.nickname)] = report

    def list_reports(self, limit: int) -> list[Report]:
        now = self.clock()
        with self._lock:
            kept = [r for r in self.reports.values() if r.expires_at >= now]
        kept.sort(key=lambda r: (-r.reported_at, r.game_uuid, r.reporter, r.nickname))
        return kept[: max(limit, 0)]

    def purge_expired(self, now: float) -> int:
        cutoff = int(now)
        with self._lock:
            gone = [g for g, d in self.games.items() if d.expires_at < cutoff]
            for game_uuid in gone:
                del self.games[game_uuid]
            self.rounds = {k: s for k, s in self.rounds.items() if k[0] not in gone}
            self.create_keys = {k: c for k, c in self.create_keys.items() if c[1] >= cutoff}
            self.reports = {k: r for k, r in self.reports.items() if r.expires_at >= cutoff}
            return len(gone)

    def close(self) -> None:
        """Nothing to release."""
