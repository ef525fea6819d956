"""The ladder store in SQLite, bots: an account turned bot for good, and how often two
accounts have sat together (the repeated-pairing rule).
"""

from __future__ import annotations

from app.ladder.sqlite.base import SqliteBase
from app.ladder.store import IDLE, LadderConflict


class BotsSqlite(SqliteBase):
    """Bots (app/ladder/store.py ``BotStore``)."""

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
