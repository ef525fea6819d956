"""The ladder's tables in SQLite, made by the first connection of a store (and a file made
before a later column or table gains it)."""

from __future__ import annotations

import contextlib
import sqlite3

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
CREATE TABLE IF NOT EXISTS ladder_leases (
    name   TEXT PRIMARY KEY,
    due_at REAL NOT NULL
);
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


_BOT_COLUMNS = (
    ("bot", "INTEGER NOT NULL DEFAULT 0"),
    ("agent", "TEXT"),
    ("fill_at", "REAL"),
    ("look_key", "TEXT"),
    ("seen_at", "REAL"),
)
"""The accounts' columns added with bot accounts, and ``seen_at`` with presence in the
queue (a file made before them gains them)."""


def _backfill_looks(conn: sqlite3.Connection) -> None:
    """Give each account made before look keys its look key, unless another account holds
    that look already (two old look-alikes: the later keeps none)."""
    old = conn.execute(
        "SELECT account_id, handle FROM ladder_accounts WHERE look_key IS NULL"
        " ORDER BY created_at, account_id"
    ).fetchall()
    if not old:
        return
    from app.ladder.handles import look_key  # noqa: PLC0415 (the table loads when needed)

    for account_id, handle in old:
        with contextlib.suppress(sqlite3.IntegrityError):
            conn.execute(
                "UPDATE ladder_accounts SET look_key = ? WHERE account_id = ?",
                (look_key(handle), account_id),
            )


def prepare(conn: sqlite3.Connection) -> None:
    conn.executescript(_SCHEMA)
    have = {row[1] for row in conn.execute("PRAGMA table_info(ladder_accounts)")}
    for name, kind in _BOT_COLUMNS:
        if name not in have:
            conn.execute(f"ALTER TABLE ladder_accounts ADD COLUMN {name} {kind}")
    conn.execute(
        "CREATE UNIQUE INDEX IF NOT EXISTS ladder_accounts_look ON ladder_accounts (look_key)"
        " WHERE look_key IS NOT NULL"
    )
    _backfill_looks(conn)
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
