"""SQLite connections for the embedded stores (the games', the ladder's): one per thread,
the schema made once per store, writes as immediate transactions, closed together."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class ThreadConnections:
    """A connection per thread to the file at ``path`` (``:memory:`` cannot be shared
    between threads, so it is refused). ``prepare`` makes the schema, once per store, by the
    first connection: switching to WAL takes an exclusive lock that other new connections
    would otherwise race for, and WAL mode then stays with the file."""

    def __init__(
        self,
        path: str,
        prepare: Callable[[sqlite3.Connection], None],
        busy_timeout_ms: int = 10_000,
    ) -> None:
        if path == ":memory:":
            raise ValueError("an SQLite store needs a file; threads cannot share ':memory:'")
        self.path = path
        self._prepare = prepare
        self._busy_timeout_ms = busy_timeout_ms
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._ready = False

    def get(self) -> sqlite3.Connection:
        """This thread's connection (made on first use)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            # Each connection is used by its own thread only; the flag lets close() run anywhere.
            conn = sqlite3.connect(
                self.path,
                timeout=self._busy_timeout_ms / 1000,
                isolation_level=None,
                check_same_thread=False,
            )
            conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
            conn.execute("PRAGMA synchronous = NORMAL")
            with self._lock:
                if not self._ready:
                    conn.execute("PRAGMA journal_mode = WAL")
                    self._prepare(conn)
                    self._ready = True
                self._connections.append(conn)
            self._local.conn = conn
        return conn

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """An immediate transaction on this thread's connection, rolled back on any error."""
        conn = self.get()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
        self._local = threading.local()
