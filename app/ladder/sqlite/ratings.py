"""The ladder store in SQLite, ratings and boards: a settlement (one transaction), the
results and each account's history, the ratings, the boards and ranks.
"""

from __future__ import annotations

import json

from app.ladder.rating import ordinal
from app.ladder.sqlite.base import SqliteBase, change_row
from app.ladder.store import IDLE, SEATED, Account, LadderConflict, Rating, Result


class RatingsSqlite(SqliteBase):
    """Settlements, results, ratings and boards (app/ladder/store.py ``RatingStore``)."""

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
                    json.dumps([change_row(c) for c in result.changes]),
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

    def result(self, table_id: str) -> Result | None:
        row = self._conn().execute(f"{self._RESULT} WHERE table_id = ?", (table_id,)).fetchone()
        return None if row is None else self._result(row)

    def results(self, pool: str) -> list[Result]:
        rows = (
            self._conn().execute(f"{self._RESULT} WHERE pool = ? ORDER BY seq", (pool,)).fetchall()
        )
        return [self._result(row) for row in rows]

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
