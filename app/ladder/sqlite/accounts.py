"""The ladder store in SQLite, accounts and keys: an account, its handle and its secrets
(one per device), the allowances shared by every process, and deletion.
"""

from __future__ import annotations

import json
import sqlite3

from app.ladder.sqlite.base import SqliteBase
from app.ladder.store import DELETED_HANDLE, IDLE, Account, LadderConflict


class AccountsSqlite(SqliteBase):
    """Accounts and keys (app/ladder/store.py ``AccountStore``)."""

    # ------------------------------------------------------------------ accounts

    def create_account(self, account: Account) -> None:
        try:
            with self._write() as conn:
                conn.execute(
                    "INSERT INTO ladder_accounts (account_id, handle, handle_key, secret_hash,"
                    " created_at, state, bot, agent, look_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        account.account_id,
                        account.handle,
                        account.handle_key,
                        account.secret_hash,
                        account.created_at,
                        IDLE,
                        int(account.bot),
                        account.agent,
                        account.look_key,
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
                " a.state, a.pool, a.ticket, a.queued_at, a.table_id, a.bot, a.agent, a.fill_at,"
                " a.look_key"
                " FROM ladder_secrets s JOIN ladder_accounts a ON a.account_id = s.account_id"
                " WHERE s.secret_hash = ?",
                (secret_hash,),
            )
            .fetchone()
        )
        return None if row is None else self._account(row)

    def account_by_handle(self, handle_key: str) -> Account | None:
        return self._one("handle_key", handle_key)

    # ------------------------------------------------------------------ devices

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
