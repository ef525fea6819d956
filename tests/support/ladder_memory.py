"""The ladder store in memory, for the ladder's service tests; held to the same contract as
LadderSqlite (tests/ladder/test_store_contract.py). One lock makes each change atomic."""

from __future__ import annotations

import threading
from dataclasses import replace

from app.ladder.sqlite import ordinal
from app.ladder.store import (
    IDLE,
    QUEUED,
    SEATED,
    Account,
    LadderConflict,
    Rating,
    Result,
    Table,
    Waiting,
)


class LadderMemory:
    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._accounts: dict[str, Account] = {}
        self._mu: dict[str, float] = {}
        self._tables: dict[str, Table] = {}
        self._ratings: dict[tuple[str, str], Rating] = {}
        self._results: list[Result] = []
        self._history: dict[str, list[Result]] = {}
        """Every settled table each account sat at (rated for it or not), oldest first."""

    def create_account(self, account: Account) -> None:
        with self._lock:
            if any(a.handle_key == account.handle_key for a in self._accounts.values()):
                raise LadderConflict("handle taken")
            self._accounts[account.account_id] = replace(account, state=IDLE)

    def account_by_secret(self, secret_hash: str) -> Account | None:
        with self._lock:
            return next((a for a in self._accounts.values() if a.secret_hash == secret_hash), None)

    def account_by_handle(self, handle_key: str) -> Account | None:
        with self._lock:
            return next((a for a in self._accounts.values() if a.handle_key == handle_key), None)

    def account(self, account_id: str) -> Account | None:
        with self._lock:
            return self._accounts.get(account_id)

    def enqueue(self, account_id: str, pool: str, ticket: str, at: float, mu: float) -> None:
        self._enqueue(account_id, pool, ticket, at, mu, None)

    def _enqueue(
        self, account_id: str, pool: str, ticket: str, at: float, mu: float, fill: float | None
    ) -> None:
        with self._lock:
            account = self._accounts.get(account_id)
            if account is None or account.state != IDLE:
                raise LadderConflict("not idle")
            self._accounts[account_id] = replace(
                account,
                state=QUEUED,
                pool=pool,
                ticket=ticket,
                queued_at=at,
                table_id=None,
                fill_at=fill,
            )
            self._mu[account_id] = mu

    def dequeue(self, account_id: str) -> bool:
        with self._lock:
            account = self._accounts.get(account_id)
            if account is None or account.state != QUEUED:
                return False
            self._accounts[account_id] = replace(
                account, state=IDLE, pool=None, ticket=None, queued_at=None
            )
            return True

    def waiting(self, pool: str) -> list[Waiting]:
        with self._lock:
            queued = [a for a in self._accounts.values() if a.state == QUEUED and a.pool == pool]
            queued.sort(key=lambda a: (a.queued_at or 0.0, a.account_id))
            return [
                Waiting(
                    a.account_id,
                    a.handle,
                    a.ticket or "",
                    a.queued_at or 0.0,
                    self._mu[a.account_id],
                    a.fill_at,
                    a.bot,
                )
                for a in queued
            ]

    def claim(self, table: Table, tickets: dict[str, str]) -> None:
        with self._lock:
            for account_id, ticket in tickets.items():
                a = self._accounts.get(account_id)
                if a is None or a.state != QUEUED or a.ticket != ticket or a.pool != table.pool:
                    raise LadderConflict(f"{account_id} is no longer waiting")
            for account_id in tickets:
                a = self._accounts[account_id]
                self._accounts[account_id] = replace(a, state=SEATED, table_id=table.table_id)
            self._tables[table.table_id] = replace(table, state="forming")

    def release(self, table: Table) -> None:
        with self._lock:
            for a in list(self._accounts.values()):
                if a.state == SEATED and a.table_id == table.table_id:
                    self._accounts[a.account_id] = replace(a, state=QUEUED, table_id=None)
            if self._tables.get(table.table_id, table).state == "forming":
                self._tables.pop(table.table_id, None)

    def seat(self, table: Table) -> None:
        with self._lock:
            stored = self._tables.get(table.table_id)
            if stored is None or stored.state != "forming":
                raise LadderConflict("the table is not forming")
            self._tables[table.table_id] = replace(table, state="playing")

    def table(self, table_id: str) -> Table | None:
        with self._lock:
            return self._tables.get(table_id)

    def open_tables(self) -> list[Table]:
        with self._lock:
            return [t for t in self._tables.values() if t.state != "settled"]

    def settle(self, result: Result) -> None:
        with self._lock:
            table = self._tables.get(result.table_id)
            if table is None or table.state != "playing":
                raise LadderConflict("settled already")
            for change in result.changes:
                stored = self._ratings.get((change.account_id, result.pool))
                if (stored.games if stored else 0) != change.before.games:
                    raise LadderConflict("a rating moved on")
            for change in result.changes:
                self._ratings[(change.account_id, result.pool)] = change.after
            self._tables[result.table_id] = replace(table, state="settled")
            self._results.append(result)
            sat = {s.account_id for s in table.seats} | {c.account_id for c in result.changes}
            for account_id in sat:
                self._history.setdefault(account_id, []).append(result)
            for a in list(self._accounts.values()):
                if a.state == SEATED and a.table_id == result.table_id:
                    self._accounts[a.account_id] = replace(
                        a, state=IDLE, table_id=None, pool=None, ticket=None, queued_at=None
                    )

    def result(self, table_id: str) -> Result | None:
        with self._lock:
            return next((r for r in self._results if r.table_id == table_id), None)

    def rating(self, account_id: str, pool: str) -> Rating | None:
        with self._lock:
            return self._ratings.get((account_id, pool))

    def ratings(self, account_id: str) -> list[Rating]:
        with self._lock:
            return sorted(
                (r for (a, _), r in self._ratings.items() if a == account_id),
                key=lambda r: r.pool,
            )

    def leaderboard(self, pool: str, limit: int) -> list[tuple[Account, Rating]]:
        with self._lock:
            rows = [(self._accounts[a], r) for (a, p), r in self._ratings.items() if p == pool]
            rows.sort(key=lambda ar: (-ordinal(ar[1].mu, ar[1].sigma), ar[0].handle_key))
            return rows[: max(limit, 0)]

    def rank(self, account_id: str, pool: str) -> int | None:
        with self._lock:
            mine = self._ratings.get((account_id, pool))
            if mine is None:
                return None
            me = ordinal(mine.mu, mine.sigma)
            return 1 + sum(
                1
                for (_, p), r in self._ratings.items()
                if p == pool and ordinal(r.mu, r.sigma) > me
            )

    def history(self, account_id: str, limit: int) -> list[Result]:
        with self._lock:
            return self._history.get(account_id, [])[::-1][: max(limit, 0)]

    def results(self, pool: str) -> list[Result]:
        with self._lock:
            return [r for r in self._results if r.pool == pool]

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ bots and levels

    def enqueue_filled(
        self, account_id: str, pool: str, ticket: str, at: float, mu: float, fill_at: float
    ) -> None:
        self._enqueue(account_id, pool, ticket, at, mu, fill_at)

    def make_bot(self, account_id: str) -> None:
        with self._lock:
            account = self._accounts.get(account_id)
            if account is None or account.state != IDLE or self._history.get(account_id):
                raise LadderConflict("not idle, or has played")
            self._accounts[account_id] = replace(account, bot=True)

    def games_together(self, first: str, second: str, since: float) -> int:
        with self._lock:
            theirs = {id(r) for r in self._history.get(second, [])}
            return sum(
                1 for r in self._history.get(first, []) if id(r) in theirs and r.settled_at >= since
            )
