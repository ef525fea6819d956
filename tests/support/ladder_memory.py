"""The ladder store in memory, for the ladder's service tests; held to the same contract as
LadderSqlite and LadderDynamo (tests/ladder/test_store_<section>.py). One lock makes each
change atomic."""

from __future__ import annotations

import threading
from dataclasses import replace

from app.ladder.rating import ordinal
from app.ladder.store import (
    DELETED_HANDLE,
    IDLE,
    QUEUED,
    SEATED,
    Account,
    Challenge,
    LadderConflict,
    Passkey,
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
        self._secrets: dict[str, str] = {}  # secret hash -> account id
        self._passkeys: dict[str, Passkey] = {}
        self._challenges: dict[str, Challenge] = {}
        self._deleted: set[str] = set()
        self._allowances: dict[tuple[str, int], int] = {}
        self._look: float | None = None
        self._seen: dict[str, float] = {}  # a queued account's last renewal
        self._history: dict[str, list[Result]] = {}
        """Every settled table each account sat at (rated for it or not), oldest first."""

    def create_account(self, account: Account) -> None:
        with self._lock:
            if any(
                a.handle_key == account.handle_key
                or (account.look_key is not None and a.look_key == account.look_key)
                for a in self._accounts.values()
            ):
                raise LadderConflict("handle taken")
            if account.secret_hash in self._secrets:
                raise LadderConflict("secret taken")
            self._accounts[account.account_id] = replace(account, state=IDLE)
            self._secrets[account.secret_hash] = account.account_id

    def account_by_secret(self, secret_hash: str) -> Account | None:
        with self._lock:
            account_id = self._secrets.get(secret_hash)
            return None if account_id is None else self._accounts.get(account_id)

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
            self._seen.pop(account_id, None)

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
                    self._seen.get(a.account_id),
                )
                for a in queued
            ]

    def renew(self, account_id: str, pool: str, ticket: str, at: float, every: float) -> bool:
        with self._lock:
            a = self._accounts.get(account_id)
            if a is None or a.state != QUEUED or a.pool != pool or a.ticket != ticket:
                return False
            if self._seen.get(account_id, a.queued_at or 0.0) > at - every:
                return False
            self._seen[account_id] = at
            return True

    def drop_absent(self, account_id: str, pool: str, ticket: str, seen_before: float) -> bool:
        with self._lock:
            a = self._accounts.get(account_id)
            if a is None or a.state != QUEUED or a.pool != pool or a.ticket != ticket:
                return False
            if self._seen.get(account_id, a.queued_at or 0.0) >= seen_before:
                return False
            self._accounts[account_id] = replace(
                a, state=IDLE, pool=None, ticket=None, queued_at=None
            )
            self._seen.pop(account_id, None)
            return True

    def mark_seen(self, table_id: str, account_id: str) -> None:
        with self._lock:
            table = self._tables.get(table_id)
            if table is None:
                return
            seats = tuple(
                replace(s, awaited=False) if s.account_id == account_id else s for s in table.seats
            )
            self._tables[table_id] = replace(table, seats=seats)

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
                    self._seen.pop(a.account_id, None)
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

    def table_of_game(self, game_uuid: str) -> Table | None:
        with self._lock:
            return next((t for t in self._tables.values() if t.game_uuid == game_uuid), None)

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
        return self.leaderboard_page(pool, 0, limit)

    def leaderboard_page(self, pool: str, offset: int, limit: int) -> list[tuple[Account, Rating]]:
        with self._lock:
            rows = [(self._accounts[a], r) for (a, p), r in self._ratings.items() if p == pool]
            rows.sort(key=lambda ar: (-ordinal(ar[1].mu, ar[1].sigma), ar[0].handle_key))
            start = max(offset, 0)
            return rows[start : start + max(limit, 0)]

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
            if account_id in self._deleted:
                return []
            return self._history.get(account_id, [])[::-1][: max(limit, 0)]

    def results(self, pool: str) -> list[Result]:
        with self._lock:
            return [r for r in self._results if r.pool == pool]

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ devices and passkeys

    def add_secret(self, account_id: str, secret_hash: str, at: float) -> None:
        with self._lock:
            if account_id not in self._accounts or secret_hash in self._secrets:
                raise LadderConflict("no such account, or the secret is taken")
            self._secrets[secret_hash] = account_id

    def forget_secret(self, secret_hash: str) -> bool:
        with self._lock:
            return self._secrets.pop(secret_hash, None) is not None

    def secret_count(self, account_id: str) -> int:
        with self._lock:
            return sum(1 for a in self._secrets.values() if a == account_id)

    def put_challenge(self, challenge: Challenge) -> None:
        with self._lock:
            self._challenges[challenge.challenge] = challenge

    def take_challenge(self, challenge: str) -> Challenge | None:
        with self._lock:
            return self._challenges.pop(challenge, None)

    def purge_challenges(self, before: float) -> int:
        with self._lock:
            old = [k for k, c in self._challenges.items() if c.expires_at < before]
            for key in old:
                del self._challenges[key]
            return len(old)

    def add_passkey(self, passkey: Passkey) -> None:
        with self._lock:
            if passkey.account_id not in self._accounts or passkey.credential_id in self._passkeys:
                raise LadderConflict("no such account, or the passkey is stored already")
            self._passkeys[passkey.credential_id] = passkey

    def passkey(self, credential_id: str) -> Passkey | None:
        with self._lock:
            return self._passkeys.get(credential_id)

    def passkeys(self, account_id: str) -> list[Passkey]:
        with self._lock:
            mine = [p for p in self._passkeys.values() if p.account_id == account_id]
            return sorted(mine, key=lambda p: (p.created_at, p.credential_id))

    def use_passkey(
        self, credential_id: str, sign_count: int, new_sign_count: int, at: float
    ) -> None:
        with self._lock:
            stored = self._passkeys.get(credential_id)
            if stored is None or stored.sign_count != sign_count:
                raise LadderConflict("the passkey's counter moved on")
            self._passkeys[credential_id] = replace(
                stored, sign_count=new_sign_count, last_used_at=at
            )

    # ------------------------------------------------------------------ deletion

    def delete_account(self, account_id: str) -> None:
        with self._lock:
            account = self._accounts.get(account_id)
            if account is None or account.state != IDLE:
                raise LadderConflict("not idle, or no such account")
            del self._accounts[account_id]
            self._deleted.add(account_id)
            self._mu.pop(account_id, None)
            for mine in (self._secrets, self._passkeys, self._challenges):
                for key, value in list(mine.items()):
                    owner = value if isinstance(value, str) else value.account_id
                    if owner == account_id:
                        del mine[key]
            for key in [k for k in self._ratings if k[0] == account_id]:
                del self._ratings[key]
            renamed: dict[str, Result] = {}
            for i, result in enumerate(self._results):
                if any(c.account_id == account_id for c in result.changes):
                    changes = tuple(
                        replace(c, handle=DELETED_HANDLE) if c.account_id == account_id else c
                        for c in result.changes
                    )
                    self._results[i] = renamed[result.table_id] = replace(result, changes=changes)
            self._history.pop(account_id, None)
            for lines in self._history.values():  # the same objects in every history
                lines[:] = [renamed.get(r.table_id, r) for r in lines]
            for table_id, table in list(self._tables.items()):
                if any(s.account_id == account_id for s in table.seats):
                    seats = tuple(
                        replace(s, handle=DELETED_HANDLE) if s.account_id == account_id else s
                        for s in table.seats
                    )
                    self._tables[table_id] = replace(table, seats=seats)

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

    # ------------------------------------------------------------------ the matcher's lease

    def reserve_look(self, now: float, at: float) -> bool:
        with self._lock:
            if self._look is not None and self._look > now:
                return False
            self._look = at
            return True

    # ------------------------------------------------------------------ allowances

    def take_allowance(
        self, key: str, window: int, limit: int, *, now: float, expires_at: float
    ) -> bool:
        with self._lock:
            used = self._allowances.get((key, window), 0)
            if used >= limit:
                return False
            self._allowances[(key, window)] = used + 1
            return True
