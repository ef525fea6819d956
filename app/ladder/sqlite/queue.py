"""The ladder store in SQLite, the queue and placing: a pool's queue, the tables the
matcher claims, seats and releases, and the lease on the matcher's next look.
"""

from __future__ import annotations

from dataclasses import replace

from app.ladder.sqlite.base import SqliteBase
from app.ladder.store import IDLE, QUEUED, SEATED, LadderConflict, Table, Waiting


class QueueSqlite(SqliteBase):
    """The queue and placing (app/ladder/store.py ``QueueStore``)."""

    # ------------------------------------------------------------------ the queue

    def enqueue(self, account_id: str, pool: str, ticket: str, at: float, mu: float) -> None:
        self._enqueue(account_id, pool, ticket, at, mu, None)

    def enqueue_filled(
        self, account_id: str, pool: str, ticket: str, at: float, mu: float, fill_at: float
    ) -> None:
        self._enqueue(account_id, pool, ticket, at, mu, fill_at)

    def _enqueue(
        self, account_id: str, pool: str, ticket: str, at: float, mu: float, fill: float | None
    ) -> None:
        with self._write() as conn:
            changed = conn.execute(
                "UPDATE ladder_accounts SET state = ?, pool = ?, ticket = ?, queued_at = ?,"
                " mu = ?, table_id = NULL, fill_at = ?, seen_at = NULL"
                " WHERE account_id = ? AND state = ?",
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
                "SELECT account_id, handle, ticket, queued_at, mu, fill_at, bot, seen_at"
                " FROM ladder_accounts WHERE state = 'queued' AND pool = ?"
                " ORDER BY queued_at, account_id",
                (pool,),
            )
            .fetchall()
        )
        return [
            Waiting(a, h, t, q, mu, fill, bool(bot), seen)
            for a, h, t, q, mu, fill, bot, seen in rows
        ]

    def renew(self, account_id: str, pool: str, ticket: str, at: float, every: float) -> bool:
        with self._write() as conn:
            changed = conn.execute(
                "UPDATE ladder_accounts SET seen_at = ? WHERE account_id = ? AND state = ?"
                " AND pool = ? AND ticket = ? AND COALESCE(seen_at, queued_at) <= ?",
                (at, account_id, QUEUED, pool, ticket, at - every),
            ).rowcount
        return changed == 1

    def drop_absent(self, account_id: str, pool: str, ticket: str, seen_before: float) -> bool:
        with self._write() as conn:
            changed = conn.execute(
                "UPDATE ladder_accounts SET state = ?, pool = NULL, ticket = NULL,"
                " queued_at = NULL, seen_at = NULL WHERE account_id = ? AND state = ?"
                " AND pool = ? AND ticket = ? AND COALESCE(seen_at, queued_at) < ?",
                (IDLE, account_id, QUEUED, pool, ticket, seen_before),
            ).rowcount
        return changed == 1

    # ------------------------------------------------------------------ tables

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
                "UPDATE ladder_accounts SET state = ?, table_id = NULL, seen_at = NULL"
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

    def mark_seen(self, table_id: str, account_id: str) -> None:
        with self._write() as conn:
            row = conn.execute(
                "SELECT table_id, pool, state, game_uuid, formed_at, seats FROM ladder_tables"
                " WHERE table_id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                return
            table = self._table(row)
            seats = tuple(
                replace(s, awaited=False) if s.account_id == account_id else s for s in table.seats
            )
            if seats != table.seats:
                conn.execute(
                    "UPDATE ladder_tables SET seats = ? WHERE table_id = ?",
                    (self._seats(replace(table, seats=seats)), table_id),
                )

    def table_of_game(self, game_uuid: str) -> Table | None:
        row = self._conn().execute(f"{self._TABLE} WHERE game_uuid = ?", (game_uuid,)).fetchone()
        return None if row is None else self._table(row)

    def open_tables(self) -> list[Table]:
        rows = self._conn().execute(f"{self._TABLE} WHERE state != 'settled'").fetchall()
        return [self._table(row) for row in rows]

    # ------------------------------------------------------------------ the matcher's lease

    def reserve_look(self, now: float, at: float) -> bool:
        with self._write() as conn:
            row = conn.execute("SELECT due_at FROM ladder_leases WHERE name = 'look'").fetchone()
            if row is not None and float(row[0]) > now:
                return False  # a look is pending
            conn.execute(
                "INSERT INTO ladder_leases (name, due_at) VALUES ('look', ?)"
                " ON CONFLICT (name) DO UPDATE SET due_at = excluded.due_at",
                (at,),
            )
            return True
