"""What every section of the ladder's SQLite store shares: the connections (one per
thread, app/store/sqlite_threads.py) and the rows every section reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.ladder.sqlite.schema import prepare
from app.ladder.store import Account, Change, Rating, Result, Seat, Table
from app.store.sqlite_threads import ThreadConnections


class SqliteBase:
    """The file, its connections, and the reads of an account and a table."""

    def __init__(self, path: str | Path, *, busy_timeout_ms: int = 10_000) -> None:
        self.path = str(path)
        self._db = ThreadConnections(self.path, prepare, busy_timeout_ms)
        self._conn = self._db.get
        self._write = self._db.write

    def close(self) -> None:
        self._db.close()

    _ACCOUNT = (
        "SELECT account_id, handle, handle_key, secret_hash, created_at, state, pool, ticket,"
        " queued_at, table_id, bot, agent, fill_at, look_key FROM ladder_accounts"
    )

    @staticmethod
    def _account(row: Any) -> Account:
        (account_id, handle, key, hashed, created, state, pool, ticket, queued, table_id) = row[:10]
        bot, agent, fill_at, look = row[10:]
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
            look,
        )

    def _one(self, where: str, value: str) -> Account | None:
        row = self._conn().execute(f"{self._ACCOUNT} WHERE {where} = ?", (value,)).fetchone()
        return None if row is None else self._account(row)

    def account(self, account_id: str) -> Account | None:
        return self._one("account_id", account_id)

    @staticmethod
    def _seats(table: Table) -> str:
        return json.dumps(
            [
                [s.account_id, s.handle, s.player_uuid]
                + ([s.agent] if s.agent is not None or s.awaited else [])
                + ([True] if s.awaited else [])
                for s in table.seats
            ]
        )

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

    _RESULT = "SELECT table_id, game_uuid, pool, settled_at, changes FROM ladder_results"

    @staticmethod
    def _result(row: Any) -> Result:
        table_id, game_uuid, pool, settled_at, changes = row
        return Result(
            table_id,
            game_uuid,
            pool,
            settled_at,
            tuple(change_of(pool, c) for c in json.loads(changes)),
        )


def change_row(change: Change) -> list[Any]:
    b, a = change.before, change.after
    return [change.account_id, change.handle, change.place, b.mu, b.sigma, b.games, a.mu, a.sigma]


def change_of(pool: str, row: list[Any]) -> Change:
    account_id, handle, place, mu0, sigma0, games0, mu1, sigma1 = row
    return Change(
        account_id,
        handle,
        place,
        Rating(account_id, pool, mu0, sigma0, games0),
        Rating(account_id, pool, mu1, sigma1, games0 + 1),
    )
