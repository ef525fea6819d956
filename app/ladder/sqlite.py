"""The ladder in SQLite (the same file as the games, its own tables). Each change of an
account's state is one ``BEGIN IMMEDIATE`` transaction whose updates are conditional on the
state read (``WHERE state = ...``): a lost condition rolls everything back."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from app.config.sqlite import ThreadConnections
from app.ladder.store import (
    DELETED_HANDLE,
    IDLE,
    QUEUED,
    SEATED,
    Account,
    Challenge,
    Change,
    LadderConflict,
    Passkey,
    Rating,
    Result,
    Seat,
    Table,
    Waiting,
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS ladder_accounts (
    account_id  TEXT PRIMARY KEY,
    handle      TEXT NOT NULL,
    handle_key  TEXT NOT NULL UNIQUE,
    secret_hash TEXT NOT NULL UNIQUE,
    created_at  REAL NOT NULL,
    state       TEXT NOT NULL,
    pool        TEXT,
    ticket      TEXT,
    queued_at   REAL,
    mu          REAL,
    table_id    TEXT
);
CREATE INDEX IF NOT EXISTS ladder_queue ON ladder_accounts (pool, queued_at)
    WHERE state = 'queued';
CREATE TABLE IF NOT EXISTS ladder_tables (
    table_id   TEXT PRIMARY KEY,
    pool       TEXT NOT NULL,
    state      TEXT NOT NULL,
    game_uuid  TEXT,
    formed_at  REAL NOT NULL,
    seats      TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ladder_open ON ladder_tables (state) WHERE state != 'settled';
CREATE INDEX IF NOT EXISTS ladder_table_game ON ladder_tables (game_uuid);
CREATE TABLE IF NOT EXISTS ladder_ratings (
    account_id TEXT NOT NULL,
    pool       TEXT NOT NULL,
    mu         REAL NOT NULL,
    sigma      REAL NOT NULL,
    ordinal    REAL NOT NULL,
    games      INTEGER NOT NULL,
    PRIMARY KEY (account_id, pool)
);
CREATE INDEX IF NOT EXISTS ladder_board ON ladder_ratings (pool, ordinal DESC);
CREATE TABLE IF NOT EXISTS ladder_results (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id   TEXT NOT NULL UNIQUE,
    game_uuid  TEXT NOT NULL,
    pool       TEXT NOT NULL,
    settled_at REAL NOT NULL,
    changes    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ladder_history (
    account_id TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    PRIMARY KEY (account_id, seq)
);
CREATE TABLE IF NOT EXISTS ladder_passkeys (
    credential_id TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL,
    public_key    BLOB NOT NULL,
    sign_count    INTEGER NOT NULL,
    created_at    REAL NOT NULL,
    last_used_at  REAL
);
CREATE INDEX IF NOT EXISTS ladder_passkeys_of ON ladder_passkeys (account_id);
CREATE TABLE IF NOT EXISTS ladder_challenges (
    challenge  TEXT PRIMARY KEY,
    ceremony   TEXT NOT NULL,
    account_id TEXT,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS ladder_challenges_expiry ON ladder_challenges (expires_at);
"""

_SECRETS = """
CREATE TABLE IF NOT EXISTS ladder_secrets (
    secret_hash TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL,
    created_at  REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS ladder_secrets_of ON ladder_secrets (account_id);
CREATE TABLE IF NOT EXISTS ladder_allowances (
    key        TEXT NOT NULL,
    window     INTEGER NOT NULL,
    used       INTEGER NOT NULL,
    expires_at REAL NOT NULL,
    PRIMARY KEY (key, window)
);
CREATE INDEX IF NOT EXISTS ladder_allowances_expiry ON ladder_allowances (expires_at);
"""
"""Every secret that opens an account (one per device). Made with its first rows copied from
``ladder_accounts.secret_hash`` (a file from before several secrets), once: in the same
transaction that makes the table, so a secret forgotten later is never copied back."""


def ordinal(mu: float, sigma: float) -> float:
    """The rating the boards sort by: mu - 3 sigma (OpenSkill's ordinal)."""
    return mu - 3 * sigma


_BOT_COLUMNS = (("bot", "INTEGER NOT NULL DEFAULT 0"), ("agent", "TEXT"), ("fill_at", "REAL"))
"""The accounts' columns added with bot accounts (a file made before them gains them)."""


def _prepare(conn: sqlite3.Connection) -> None:
    conn.executescript(_SCHEMA)
    have = {row[1] for row in conn.execute("PRAGMA table_info(ladder_accounts)")}
    for name, kind in _BOT_COLUMNS:
        if name not in have:
            conn.execute(f"ALTER TABLE ladder_accounts ADD COLUMN {name} {kind}")
    conn.execute("BEGIN IMMEDIATE")
    try:
        existed = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ladder_secrets'"
        ).fetchone()
        for statement in filter(str.strip, _SECRETS.split(";")):
            conn.execute(statement)
        if existed is None:
            conn.execute(
                "INSERT OR IGNORE INTO ladder_secrets (secret_hash, account_id, created_at)"
                " SELECT secret_hash, account_id, created_at FROM ladder_accounts"
            )
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


class LadderSqlite:
    def __init__(self, path: str | Path, *, busy_timeout_ms: int = 10_000) -> None:
        self.path = str(path)
        self._db = ThreadConnections(self.path, _prepare, busy_timeout_ms)
        self._conn = self._db.get
        self._write = self._db.write

    def close(self) -> None:
        self._db.close()

    # ------------------------------------------------------------------ accounts

    _ACCOUNT = (
        "SELECT account_id, handle, handle_key, secret_hash, created_at, state, pool, ticket,"
        " queued_at, table_id, bot, agent, fill_at FROM ladder_accounts"
    )

    @staticmethod
    def _account(row: Any) -> Account:
        (account_id, handle, key, hashed, created, state, pool, ticket, queued, table_id) = row[:10]
        bot, agent, fill_at = row[10:]
        return Account(
            account_id,
            handle,
            key,
            hashed,
            created,
            state,
            pool,
            ticket,
            queued,
            table_id,
            bool(bot),
            agent,
            fill_at,
        )

    def _one(self, where: str, value: str) -> Account | None:
        row = self._conn().execute(f"{self._ACCOUNT} WHERE {where} = ?", (value,)).fetchone()
        return None if row is None else self._account(row)

    def create_account(self, account: Account) -> None:
        try:
            with self._write() as conn:
                conn.execute(
                    "INSERT INTO ladder_accounts (account_id, handle, handle_key, secret_hash,"
                    " created_at, state, bot, agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        account.account_id,
                        account.handle,
                        account.handle_key,
                        account.secret_hash,
                        account.created_at,
                        IDLE,
                        int(account.bot),
                        account.agent,
                    ),
                )
                conn.execute(
                    "INSERT INTO ladder_secrets (secret_hash, account_id, created_at)"
                    " VALUES (?, ?, ?)",
                    (account.secret_hash, account.account_id, account.created_at),
                )
        except sqlite3.IntegrityError:
            raise LadderConflict("handle taken") from None

    def account_by_secret(self, secret_hash: str) -> Account | None:
        row = (
            self._conn()
            .execute(
                "SELECT a.account_id, a.handle, a.handle_key, a.secret_hash, a.created_at,"
                " a.state, a.pool, a.ticket, a.queued_at, a.table_id, a.bot, a.agent, a.fill_at"
                " FROM ladder_secrets s JOIN ladder_accounts a ON a.account_id = s.account_id"
                " WHERE s.secret_hash = ?",
                (secret_hash,),
            )
            .fetchone()
        )
        return None if row is None else self._account(row)

    def account_by_handle(self, handle_key: str) -> Account | None:
        return self._one("handle_key", handle_key)

    def account(self, account_id: str) -> Account | None:
        return self._one("account_id", account_id)

    # ------------------------------------------------------------------ the queue

    def enqueue(self, account_id: str, pool: str, ticket: str, at: float, mu: float) -> None:
        self._enqueue(account_id, pool, ticket, at, mu, None)

    def _enqueue(
        self, account_id: str, pool: str, ticket: str, at: float, mu: float, fill: float | None
    ) -> None:
        with self._write() as conn:
            changed = conn.execute(
                "UPDATE ladder_accounts SET state = ?, pool = ?, ticket = ?, queued_at = ?,"
                " mu = ?, table_id = NULL, fill_at = ? WHERE account_id = ? AND state = ?",
                (QUEUED, pool, ticket, at, mu, fill, account_id, IDLE),
            ).rowcount
            if changed != 1:
                raise LadderConflict("not idle")

    def dequeue(self, account_id: str) -> bool:
        with self._write() as conn:
            changed = conn.execute(
                "UPDATE ladder_accounts SET state = ?, pool = NULL, ticket = NULL,"
                " queued_at = NULL WHERE account_id = ? AND state = ?",
                (IDLE, account_id, QUEUED),
            ).rowcount
        return changed == 1

    def waiting(self, pool: str) -> list[Waiting]:
        rows = (
            self._conn()
            .execute(
                "SELECT account_id, handle, ticket, queued_at, mu, fill_at, bot"
                " FROM ladder_accounts WHERE state = 'queued' AND pool = ?"
                " ORDER BY queued_at, account_id",
                (pool,),
            )
            .fetchall()
        )
        return [Waiting(a, h, t, q, mu, fill, bool(bot)) for a, h, t, q, mu, fill, bot in rows]

    # ------------------------------------------------------------------ tables

    @staticmethod
    def _seats(table: Table) -> str:
        return json.dumps(
            [
                [s.account_id, s.handle, s.player_uuid]
                + ([s.ai_nickname] if s.ai_nickname is not None else [])
                for s in table.seats
            ]
        )

    def claim(self, table: Table, tickets: dict[str, str]) -> None:
        with self._write() as conn:
            for account_id, ticket in tickets.items():
                changed = conn.execute(
                    "UPDATE ladder_accounts SET state = ?, table_id = ?"
                    " WHERE account_id = ? AND state = ? AND ticket = ? AND pool = ?",
                    (SEATED, table.table_id, account_id, QUEUED, ticket, table.pool),
                ).rowcount
                if changed != 1:
                    raise LadderConflict(f"{account_id} is no longer waiting")
            conn.execute(
                "INSERT INTO ladder_tables (table_id, pool, state, game_uuid, formed_at, seats)"
                " VALUES (?, ?, 'forming', NULL, ?, ?)",
                (table.table_id, table.pool, table.formed_at, self._seats(table)),
            )

    def release(self, table: Table) -> None:
        with self._write() as conn:
            conn.execute(
                "UPDATE ladder_accounts SET state = ?, table_id = NULL"
                " WHERE table_id = ? AND state = ?",
                (QUEUED, table.table_id, SEATED),
            )
            conn.execute(
                "DELETE FROM ladder_tables WHERE table_id = ? AND state = 'forming'",
                (table.table_id,),
            )

    def seat(self, table: Table) -> None:
        with self._write() as conn:
            changed = conn.execute(
                "UPDATE ladder_tables SET state = 'playing', game_uuid = ?, seats = ?"
                " WHERE table_id = ? AND state = 'forming'",
                (table.game_uuid, self._seats(table), table.table_id),
            ).rowcount
            if changed != 1:
                raise LadderConflict("the table is not forming")

    @staticmethod
    def _table(row: Any) -> Table:
        table_id, pool, state, game_uuid, formed_at, seats = row
        return Table(
            table_id,
            pool,
            tuple(Seat(*seat) for seat in json.loads(seats)),
            formed_at,
            state,
            game_uuid,
        )

    _TABLE = "SELECT table_id, pool, state, game_uuid, formed_at, seats FROM ladder_tables"

    def table(self, table_id: str) -> Table | None:
        row = self._conn().execute(f"{self._TABLE} WHERE table_id = ?", (table_id,)).fetchone()
        return None if row is None else self._table(row)

    def table_of_game(self, game_uuid: str) -> Table | None:
        row = self._conn().execute(f"{self._TABLE} WHERE game_uuid = ?", (game_uuid,)).fetchone()
        return None if row is None else self._table(row)

    def open_tables(self) -> list[Table]:
        rows = self._conn().execute(f"{self._TABLE} WHERE state != 'settled'").fetchall()
        return [self._table(row) for row in rows]

    # ------------------------------------------------------------------ results

    def settle(self, result: Result) -> None:
        with self._write() as conn:
            changed = conn.execute(
                "UPDATE ladder_tables SET state = 'settled' WHERE table_id = ?"
                " AND state = 'playing'",
                (result.table_id,),
            ).rowcount
            if changed != 1:
                raise LadderConflict("settled already")
            for change in result.changes:
                after = change.after
                if change.before.games == 0:
                    conn.execute(
                        "INSERT OR IGNORE INTO ladder_ratings"
                        " (account_id, pool, mu, sigma, ordinal, games) VALUES (?, ?, ?, ?, ?, ?)",
                        (
                            after.account_id,
                            after.pool,
                            after.mu,
                            after.sigma,
                            ordinal(after.mu, after.sigma),
                            after.games,
                        ),
                    )
                    if conn.execute("SELECT changes()").fetchone()[0] != 1:
                        raise LadderConflict("a rating moved on")  # rated meanwhile
                    continue
                updated = conn.execute(
                    "UPDATE ladder_ratings SET mu = ?, sigma = ?, ordinal = ?, games = ?"
                    " WHERE account_id = ? AND pool = ? AND games = ?",
                    (
                        after.mu,
                        after.sigma,
                        ordinal(after.mu, after.sigma),
                        after.games,
                        after.account_id,
                        after.pool,
                        change.before.games,
                    ),
                ).rowcount
                if updated != 1:
                    raise LadderConflict("a rating moved on")
            seq = conn.execute(
                "INSERT INTO ladder_results (table_id, game_uuid, pool, settled_at, changes)"
                " VALUES (?, ?, ?, ?, ?)",
                (
                    result.table_id,
                    result.game_uuid,
                    result.pool,
                    result.settled_at,
                    json.dumps([_change_row(c) for c in result.changes]),
                ),
            ).lastrowid
            (seats,) = conn.execute(
                "SELECT seats FROM ladder_tables WHERE table_id = ?", (result.table_id,)
            ).fetchone()
            sat = {seat[0] for seat in json.loads(seats)} | {c.account_id for c in result.changes}
            conn.executemany(
                "INSERT INTO ladder_history (account_id, seq) VALUES (?, ?)",
                [(account_id, seq) for account_id in sorted(sat)],
            )

            conn.execute(
                "UPDATE ladder_accounts SET state = ?, table_id = NULL, pool = NULL,"
                " ticket = NULL, queued_at = NULL WHERE table_id = ? AND state = ?",
                (IDLE, result.table_id, SEATED),
            )

    _RESULT = "SELECT table_id, game_uuid, pool, settled_at, changes FROM ladder_results"

    @staticmethod
    def _result(row: Any) -> Result:
        table_id, game_uuid, pool, settled_at, changes = row
        return Result(
            table_id,
            game_uuid,
            pool,
            settled_at,
            tuple(_change_of(pool, c) for c in json.loads(changes)),
        )

    def result(self, table_id: str) -> Result | None:
        row = self._conn().execute(f"{self._RESULT} WHERE table_id = ?", (table_id,)).fetchone()
        return None if row is None else self._result(row)

    def rating(self, account_id: str, pool: str) -> Rating | None:
        row = (
            self._conn()
            .execute(
                "SELECT account_id, pool, mu, sigma, games FROM ladder_ratings"
                " WHERE account_id = ? AND pool = ?",
                (account_id, pool),
            )
            .fetchone()
        )
        return None if row is None else Rating(*row)

    def ratings(self, account_id: str) -> list[Rating]:
        rows = (
            self._conn()
            .execute(
                "SELECT account_id, pool, mu, sigma, games FROM ladder_ratings"
                " WHERE account_id = ? ORDER BY pool",
                (account_id,),
            )
            .fetchall()
        )
        return [Rating(*row) for row in rows]

    def leaderboard(self, pool: str, limit: int) -> list[tuple[Account, Rating]]:
        return self.leaderboard_page(pool, 0, limit)

    def leaderboard_page(self, pool: str, offset: int, limit: int) -> list[tuple[Account, Rating]]:
        rows = (
            self._conn()
            .execute(
                "SELECT r.account_id, r.pool, r.mu, r.sigma, r.games FROM ladder_ratings r"
                " JOIN ladder_accounts a ON a.account_id = r.account_id WHERE r.pool = ?"
                " ORDER BY r.ordinal DESC, a.handle_key LIMIT ? OFFSET ?",
                (pool, max(limit, 0), max(offset, 0)),
            )
            .fetchall()
        )
        board = []
        for row in rows:
            account = self.account(row[0])
            assert account is not None
            board.append((account, Rating(*row)))
        return board

    def rank(self, account_id: str, pool: str) -> int | None:
        mine = self.rating(account_id, pool)
        if mine is None:
            return None
        (above,) = (
            self._conn()
            .execute(
                "SELECT COUNT(*) FROM ladder_ratings WHERE pool = ? AND ordinal > ?",
                (pool, ordinal(mine.mu, mine.sigma)),
            )
            .fetchone()
        )
        return int(above) + 1

    def history(self, account_id: str, limit: int) -> list[Result]:
        rows = (
            self._conn()
            .execute(
                "SELECT r.table_id, r.game_uuid, r.pool, r.settled_at, r.changes"
                " FROM ladder_history h JOIN ladder_results r ON r.seq = h.seq"
                " WHERE h.account_id = ? ORDER BY h.seq DESC LIMIT ?",
                (account_id, max(limit, 0)),
            )
            .fetchall()
        )
        return [self._result(row) for row in rows]

    def results(self, pool: str) -> list[Result]:
        rows = (
            self._conn().execute(f"{self._RESULT} WHERE pool = ? ORDER BY seq", (pool,)).fetchall()
        )
        return [self._result(row) for row in rows]

    # ------------------------------------------------------------------ devices and passkeys

    def add_secret(self, account_id: str, secret_hash: str, at: float) -> None:
        try:
            with self._write() as conn:
                added = conn.execute(
                    "INSERT INTO ladder_secrets (secret_hash, account_id, created_at)"
                    " SELECT ?, account_id, ? FROM ladder_accounts WHERE account_id = ?",
                    (secret_hash, at, account_id),
                ).rowcount
                if added != 1:
                    raise LadderConflict("no such account")
        except sqlite3.IntegrityError:
            raise LadderConflict("secret taken") from None

    def forget_secret(self, secret_hash: str) -> bool:
        with self._write() as conn:
            gone = conn.execute(
                "DELETE FROM ladder_secrets WHERE secret_hash = ?", (secret_hash,)
            ).rowcount
        return gone == 1

    def secret_count(self, account_id: str) -> int:
        (count,) = (
            self._conn()
            .execute("SELECT COUNT(*) FROM ladder_secrets WHERE account_id = ?", (account_id,))
            .fetchone()
        )
        return int(count)

    # ------------------------------------------------------------------ bots and levels

    def enqueue_filled(
        self, account_id: str, pool: str, ticket: str, at: float, mu: float, fill_at: float
    ) -> None:
        self._enqueue(account_id, pool, ticket, at, mu, fill_at)

    def make_bot(self, account_id: str) -> None:
        with self._write() as conn:
            changed = conn.execute(
                "UPDATE ladder_accounts SET bot = 1 WHERE account_id = ? AND state = ?"
                " AND NOT EXISTS (SELECT 1 FROM ladder_history WHERE account_id = ?)",
                (account_id, IDLE, account_id),
            ).rowcount
            if changed != 1:
                raise LadderConflict("not idle, or has played")

    def games_together(self, first: str, second: str, since: float) -> int:
        (count,) = (
            self._conn()
            .execute(
                "SELECT COUNT(*) FROM ladder_history a JOIN ladder_history b ON b.seq = a.seq"
                " JOIN ladder_results r ON r.seq = a.seq WHERE a.account_id = ?"
                " AND b.account_id = ? AND r.settled_at >= ?",
                (first, second, since),
            )
            .fetchone()
        )
        return int(count)

    def put_challenge(self, challenge: Challenge) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO ladder_challenges (challenge, ceremony, account_id, expires_at)"
                " VALUES (?, ?, ?, ?)",
                (
                    challenge.challenge,
                    challenge.ceremony,
                    challenge.account_id,
                    challenge.expires_at,
                ),
            )

    def take_challenge(self, challenge: str) -> Challenge | None:
        with self._write() as conn:
            row = conn.execute(
                "DELETE FROM ladder_challenges WHERE challenge = ?"
                " RETURNING challenge, ceremony, account_id, expires_at",
                (challenge,),
            ).fetchone()
        return None if row is None else Challenge(*row)

    def purge_challenges(self, before: float) -> int:
        with self._write() as conn:
            gone: int = conn.execute(
                "DELETE FROM ladder_challenges WHERE expires_at < ?", (before,)
            ).rowcount
        return gone

    _PASSKEY = (
        "SELECT credential_id, account_id, public_key, sign_count, created_at, last_used_at"
        " FROM ladder_passkeys"
    )

    @staticmethod
    def _passkey(row: Any) -> Passkey:
        credential_id, account_id, public_key, sign_count, created_at, last_used_at = row
        return Passkey(
            credential_id, account_id, bytes(public_key), sign_count, created_at, last_used_at
        )

    def add_passkey(self, passkey: Passkey) -> None:
        try:
            with self._write() as conn:
                added = conn.execute(
                    "INSERT INTO ladder_passkeys (credential_id, account_id, public_key,"
                    " sign_count, created_at, last_used_at)"
                    " SELECT ?, account_id, ?, ?, ?, ? FROM ladder_accounts WHERE account_id = ?",
                    (
                        passkey.credential_id,
                        passkey.public_key,
                        passkey.sign_count,
                        passkey.created_at,
                        passkey.last_used_at,
                        passkey.account_id,
                    ),
                ).rowcount
                if added != 1:
                    raise LadderConflict("no such account")
        except sqlite3.IntegrityError:
            raise LadderConflict("passkey stored already") from None

    def passkey(self, credential_id: str) -> Passkey | None:
        row = (
            self._conn()
            .execute(f"{self._PASSKEY} WHERE credential_id = ?", (credential_id,))
            .fetchone()
        )
        return None if row is None else self._passkey(row)

    def passkeys(self, account_id: str) -> list[Passkey]:
        rows = (
            self._conn()
            .execute(
                f"{self._PASSKEY} WHERE account_id = ? ORDER BY created_at, credential_id",
                (account_id,),
            )
            .fetchall()
        )
        return [self._passkey(row) for row in rows]

    def use_passkey(
        self, credential_id: str, sign_count: int, new_sign_count: int, at: float
    ) -> None:
        with self._write() as conn:
            changed = conn.execute(
                "UPDATE ladder_passkeys SET sign_count = ?, last_used_at = ?"
                " WHERE credential_id = ? AND sign_count = ?",
                (new_sign_count, at, credential_id, sign_count),
            ).rowcount
            if changed != 1:
                raise LadderConflict("the passkey's counter moved on")

    # ------------------------------------------------------------------ deletion

    def delete_account(self, account_id: str) -> None:
        with self._write() as conn:
            gone = conn.execute(
                "DELETE FROM ladder_accounts WHERE account_id = ? AND state = ?",
                (account_id, IDLE),
            ).rowcount
            if gone != 1:
                raise LadderConflict("not idle, or no such account")
            for table in ("ladder_secrets", "ladder_passkeys", "ladder_challenges"):
                conn.execute(f"DELETE FROM {table} WHERE account_id = ?", (account_id,))
            conn.execute("DELETE FROM ladder_ratings WHERE account_id = ?", (account_id,))
            shared = conn.execute(
                "SELECT r.seq, r.table_id, r.changes FROM ladder_history h"
                " JOIN ladder_results r ON r.seq = h.seq WHERE h.account_id = ?",
                (account_id,),
            ).fetchall()
            for seq, table_id, changes in shared:
                rows = [
                    [a, DELETED_HANDLE if a == account_id else h, *rest]
                    for a, h, *rest in json.loads(changes)
                ]
                conn.execute(
                    "UPDATE ladder_results SET changes = ? WHERE seq = ?", (json.dumps(rows), seq)
                )
                seats = conn.execute(
                    "SELECT seats FROM ladder_tables WHERE table_id = ?", (table_id,)
                ).fetchone()
                if seats is not None:
                    kept = [
                        [a, DELETED_HANDLE if a == account_id else h, *rest]
                        for a, h, *rest in json.loads(seats[0])
                    ]
                    conn.execute(
                        "UPDATE ladder_tables SET seats = ? WHERE table_id = ?",
                        (json.dumps(kept), table_id),
                    )
            conn.execute("DELETE FROM ladder_history WHERE account_id = ?", (account_id,))

    # ------------------------------------------------------------------ allowances

    def take_allowance(
        self, key: str, window: int, limit: int, *, now: float, expires_at: float
    ) -> bool:
        with self._write() as conn:
            # Counts whose time is over go as new ones are taken (an indexed range).
            conn.execute("DELETE FROM ladder_allowances WHERE expires_at < ?", (now,))
            row = conn.execute(
                "SELECT used FROM ladder_allowances WHERE key = ? AND window = ?",
                (key, window),
            ).fetchone()
            if row is not None and int(row[0]) >= limit:
                return False
            conn.execute(
                "INSERT INTO ladder_allowances (key, window, used, expires_at)"
                " VALUES (?, ?, 1, ?) ON CONFLICT (key, window) DO UPDATE SET used = used + 1",
                (key, window, expires_at),
            )
            return True


def _change_row(change: Change) -> list[Any]:
    b, a = change.before, change.after
    return [change.account_id, change.handle, change.place, b.mu, b.sigma, b.games, a.mu, a.sigma]


def _change_of(pool: str, row: list[Any]) -> Change:
    account_id, handle, place, mu0, sigma0, games0, mu1, sigma1 = row
    return Change(
        account_id,
        handle,
        place,
        Rating(account_id, pool, mu0, sigma0, games0),
        Rating(account_id, pool, mu1, sigma1, games0 + 1),
    )
