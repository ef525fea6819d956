"""The embedded store: one SQLite file in WAL mode, safe to share between threads.

Each thread gets its own connection. A save is one ``BEGIN IMMEDIATE`` transaction: an
``UPDATE ... WHERE version = ?`` of the game row and the inserts of its round snapshots, so
either all of it is written or none. ``synchronous=NORMAL`` in WAL mode keeps every
committed change through a crash of the process; a power cut may lose the last commits.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from app.store.base import Conflict, DueGame, GameDoc, PublicGame, Report, RoundSnapshot
from app.store.sqlite_threads import ThreadConnections

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_uuid     TEXT PRIMARY KEY,
    version       INTEGER NOT NULL,
    doc           TEXT NOT NULL,
    listed        INTEGER NOT NULL,
    last_modified REAL NOT NULL,
    expires_at    INTEGER NOT NULL,
    room          INTEGER NOT NULL,
    nicknames     TEXT NOT NULL,
    due_at        REAL,
    kind          TEXT NOT NULL DEFAULT 'blef'
);
CREATE INDEX IF NOT EXISTS games_listed ON games (listed, last_modified);
CREATE TABLE IF NOT EXISTS rounds (
    game_uuid     TEXT NOT NULL,
    round_number  INTEGER NOT NULL,
    data          TEXT NOT NULL,
    expires_at    INTEGER NOT NULL,
    last_modified REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (game_uuid, round_number)
);
CREATE TABLE IF NOT EXISTS create_keys (
    key_hash      TEXT PRIMARY KEY,
    game_uuid     TEXT NOT NULL,
    expires_at    INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS reports (
    game_uuid     TEXT NOT NULL,
    reporter      TEXT NOT NULL,
    nickname      TEXT NOT NULL,
    reported_at   REAL NOT NULL,
    expires_at    INTEGER NOT NULL,
    PRIMARY KEY (game_uuid, reporter, nickname)
);
CREATE INDEX IF NOT EXISTS reports_newest ON reports (reported_at DESC);
CREATE TABLE IF NOT EXISTS counters (
    name  TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
"""

_MIGRATIONS = (
    # Files made before the game clock: add its columns (SQLite has no ADD COLUMN IF NOT
    # EXISTS, so each is tried and "duplicate column" ignored).
    "ALTER TABLE games ADD COLUMN due_at REAL",
    "ALTER TABLE rounds ADD COLUMN last_modified REAL NOT NULL DEFAULT 0",
    # Files made before games of other kinds: every game in them is Blef.
    "ALTER TABLE games ADD COLUMN kind TEXT NOT NULL DEFAULT 'blef'",
)
_DUE_INDEX = "CREATE INDEX IF NOT EXISTS games_due ON games (due_at) WHERE due_at IS NOT NULL"

_ROOM_WRAP = 9999


def _prepare(conn: sqlite3.Connection) -> None:
    """The games' schema, and the columns added since it first shipped."""
    conn.executescript(_SCHEMA)
    for statement in _MIGRATIONS:
        try:
            conn.execute(statement)
        except sqlite3.OperationalError as error:
            if "duplicate column" not in str(error):
                raise
    conn.execute(_DUE_INDEX)


class SqliteStore:
    """Games in a SQLite file (``":memory:"`` is refused: threads would not share it)."""

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout_ms: int = 10_000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = str(path)
        self.clock = clock
        """What "now" is when an expired row is told apart (the service's clock)."""
        self._db = ThreadConnections(self.path, _prepare, busy_timeout_ms)
        self._connection = self._db.get
        self._write = self._db.write

    def close(self) -> None:
        self._db.close()

    # ------------------------------------------------------------------ the protocol

    @staticmethod
    def _row(doc: GameDoc) -> tuple[int, str, int, float, int, int, str, float | None, str, str]:
        return (
            doc.version,
            json.dumps(doc.to_dict(), separators=(",", ":")),
            int(doc.listed),
            doc.last_modified,
            doc.expires_at,
            doc.room,
            json.dumps(doc.nicknames),
            doc.due_at,
            doc.kind,
            doc.game_uuid,
        )

    def create(self, doc: GameDoc) -> None:
        try:
            with self._write() as conn:
                conn.execute(
                    "INSERT INTO games (version, doc, listed, last_modified, expires_at, room,"
                    " nicknames, due_at, kind, game_uuid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    self._row(doc),
                )
        except sqlite3.IntegrityError:
            raise Conflict(f"game {doc.game_uuid} already exists") from None

    def load(self, game_uuid: str) -> GameDoc | None:
        row = (
            self._connection()
            .execute("SELECT doc, expires_at FROM games WHERE game_uuid = ?", (game_uuid,))
            .fetchone()
        )
        if row is None or (row[1] and row[1] < self.clock()):
            return None
        return GameDoc.from_dict(json.loads(row[0]))

    def save(
        self, doc: GameDoc, expected_version: int, snapshots: Sequence[RoundSnapshot] = ()
    ) -> None:
        if doc.version != expected_version + 1:
            raise ValueError("a saved game's version must be one above the version read")
        with self._write() as conn:
            updated = conn.execute(
                "UPDATE games SET version = ?, doc = ?, listed = ?, last_modified = ?,"
                " expires_at = ?, room = ?, nicknames = ?, due_at = ?, kind = ?"
                " WHERE game_uuid = ? AND version = ?",
                (*self._row(doc), expected_version),
            ).rowcount
            if updated != 1:
                raise Conflict(f"game {doc.game_uuid} is not at version {expected_version}")
            try:
                conn.executemany(
                    "INSERT INTO rounds (game_uuid, round_number, data, expires_at, last_modified)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [
                        (
                            s.game_uuid,
                            s.round_number,
                            json.dumps(s.data, separators=(",", ":")),
                            doc.expires_at,
                            s.last_modified,
                        )
                        for s in snapshots
                    ],
                )
            except sqlite3.IntegrityError:
                raise Conflict("that round snapshot already exists") from None

    def load_round(self, game_uuid: str, round_number: int) -> RoundSnapshot | None:
        row = (
            self._connection()
            .execute(
                "SELECT data, last_modified FROM rounds WHERE game_uuid = ? AND round_number = ?",
                (game_uuid, round_number),
            )
            .fetchone()
        )
        if row is None:
            return None
        return RoundSnapshot(game_uuid, round_number, json.loads(row[0]), row[1])

    def load_rounds(self, game_uuid: str) -> list[RoundSnapshot]:
        rows = (
            self._connection()
            .execute(
                "SELECT round_number, data, last_modified FROM rounds WHERE game_uuid = ?"
                " ORDER BY round_number",
                (game_uuid,),
            )
            .fetchall()
        )
        return [RoundSnapshot(game_uuid, n, json.loads(data), lm) for n, data, lm in rows]

    def list_public(
        self,
        since: float,
        limit: int,
        after: tuple[float, str] | None = None,
        kind: str = "blef",
    ) -> list[PublicGame]:
        page = ""
        args: tuple[object, ...] = (kind, since, int(self.clock()))
        if after is not None:
            page = " AND (last_modified < ? OR (last_modified = ? AND game_uuid < ?))"
            args = (*args, after[0], after[0], after[1])
        rows = (
            self._connection()
            .execute(
                "SELECT game_uuid, room, nicknames, last_modified FROM games"
                " WHERE listed = 1 AND kind = ? AND last_modified >= ? AND expires_at >= ?"
                + page
                + " ORDER BY last_modified DESC, game_uuid DESC LIMIT ?",
                (*args, limit),
            )
            .fetchall()
        )
        return [PublicGame(g, room, json.loads(nicks), lm) for g, room, nicks, lm in rows]

    def list_due(self, before: float, limit: int) -> list[DueGame]:
        rows = (
            self._connection()
            .execute(
                "SELECT game_uuid, version, due_at FROM games"
                " WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT ?",
                (before, limit),
            )
            .fetchall()
        )
        return [DueGame(g, version, due) for g, version, due in rows]

    def find_create_key(self, key_hash: str) -> str | None:
        row = (
            self._connection()
            .execute("SELECT game_uuid FROM create_keys WHERE key_hash = ?", (key_hash,))
            .fetchone()
        )
        return None if row is None else str(row[0])

    def claim_create_key(self, key_hash: str, game_uuid: str, expires_at: int) -> str:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO create_keys (key_hash, game_uuid, expires_at) VALUES (?, ?, ?)"
                " ON CONFLICT (key_hash) DO NOTHING",
                (key_hash, game_uuid, expires_at),
            )
            (owner,) = conn.execute(
                "SELECT game_uuid FROM create_keys WHERE key_hash = ?", (key_hash,)
            ).fetchone()
        return str(owner)

    def allocate_room(self) -> int:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO counters (name, value) VALUES ('room', 1)"
                " ON CONFLICT (name) DO UPDATE SET value = value + 1"
            )
            (value,) = conn.execute("SELECT value FROM counters WHERE name = 'room'").fetchone()
        return (int(value) - 1) % _ROOM_WRAP + 1

    def add_report(self, report: Report) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO reports (game_uuid, reporter, nickname, reported_at, expires_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_uuid, reporter, nickname)"
                " DO UPDATE SET reported_at = excluded.reported_at,"
                " expires_at = excluded.expires_at",
                (
                    report.game_uuid,
                    report.reporter,
                    report.nickname,
                    report.reported_at,
                    report.expires_at,
                ),
            )

    def list_reports(self, limit: int) -> list[Report]:
        # Read like load(): an expired report not yet purged is no longer there.
        rows = (
            self._connection()
            .execute(
                "SELECT game_uuid, reporter, nickname, reported_at, expires_at FROM reports"
                " WHERE expires_at >= ? ORDER BY reported_at DESC, game_uuid, reporter, nickname"
                " LIMIT ?",
                (self.clock(), max(limit, 0)),
            )
            .fetchall()
        )
        return [Report(g, who, nick, at, int(exp)) for g, who, nick, at, exp in rows]

    def purge_expired(self, now: float) -> int:
        """Delete expired games and their rounds, and expired reports (which outlive their
        game); returns how many games went."""
        cutoff = int(now)
        with self._write() as conn:
            conn.execute("DELETE FROM reports WHERE expires_at < ?", (cutoff,))
            conn.execute(
                "DELETE FROM rounds WHERE game_uuid IN"
                " (SELECT game_uuid FROM games WHERE expires_at < ?)",
                (cutoff,),
            )
            conn.execute("DELETE FROM create_keys WHERE expires_at < ?", (cutoff,))
            return conn.execute("DELETE FROM games WHERE expires_at < ?", (cutoff,)).rowcount
