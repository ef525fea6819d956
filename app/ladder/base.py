"""What every area of the ladder's use cases shares: its store, the game service, the
clock and the ids it makes, the bell and the matcher's wake-up, and who is asking.

Each area (app/ladder/accounts.py, queue.py, results.py, bots_and_events.py) is a class
of use cases over :class:`LadderBase`; :class:`app.ladder.service.Ladder` is all of them
together. An area that needs another's use case calls it through ``self``: the few it
needs are declared here, and the area that owns each one implements it.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any, Final

from app.ladder import bots
from app.ladder import rating as model
from app.ladder.errors import UnknownAccount
from app.ladder.pools import game_path, kind_of_pool
from app.ladder.store import QUEUED, Account, Change, LadderStore, Rating, Result, Table
from app.service import GameService
from app.service.errors import CredentialsMissing

Body = dict[str, Any]

RENEW_SECONDS: Final = 5.0
"""A queued place's renewal is written at most this often (a flood writes no more)."""
ABSENT_SECONDS: Final = 20.0
"""A place not renewed for this long is dropped from the queue before the next match: the
waiting page asks every second, a bot's events poll every few seconds."""
ARRIVE_SECONDS: Final = 30.0
"""A person seated at a rated table who has not been told the seat this long after the
table formed never came: the table is called off, unrated (half a move's time limit)."""


def secret_hash(secret: str) -> str:
    """What is stored of an account's secret: its SHA-256 (the secret is 256 random bits,
    so a fast hash is enough; a database reader cannot turn it back into the secret)."""
    return "sha256:" + hashlib.sha256(secret.encode()).hexdigest()


class LadderBase:
    """The ladder's parts (``clock``, ``new_id`` and ``new_secret`` are injectable for tests)."""

    def __init__(
        self,
        store: LadderStore,
        games: GameService,
        *,
        clock: Callable[[], float] = time.time,
        new_id: Callable[[], str] = lambda: uuid.uuid4().hex,
        new_secret: Callable[[], str] = lambda: secrets.token_urlsafe(32),
        on_join: Callable[[], None] | None = None,
    ) -> None:
        self.store = store
        self.games = games
        self._clock = clock
        self._new_id = new_id
        self._new_secret = new_secret
        self._finished: set[str] = set()
        self._lock = threading.Lock()
        self._next_sweep = 0.0
        self.woken = threading.Event()
        """Set when the matcher has something to look at (a join, a game over)."""
        self.on_join = on_join
        """Called after each join (on AWS: match now, and ask the clock to look again
        later while anyone waits, app/clock/ladder.py); ``blef serve``'s clock thread
        watches :attr:`woken` instead."""
        self.bell = bots.Bell()
        """Rung on every change a waiting events poll may be told of (see :meth:`events`)."""
        self._levels: dict[str, Account] = {}

    @property
    def now(self) -> float:
        return self._clock()

    def authenticate(self, secret: str | None) -> Account:
        """The account ``secret`` belongs to: 401 without one, 401 for one that names none."""
        if secret is None or secret == "":
            raise CredentialsMissing(
                "Authorization", None, "Send your account secret as a Bearer token"
            )
        account = self.store.account_by_secret(secret_hash(secret))
        if account is None:
            raise UnknownAccount
        return account

    def me(self, secret: str | None) -> Body:
        account = self.authenticate(secret)
        return {"account_id": account.account_id, "handle": account.handle, "bot": account.bot}

    def still_here(self, account: Account) -> None:
        """The account asked about its place (``GET /ladder/queue``, its events): a queued
        place is renewed (written at most once per :data:`RENEW_SECONDS`), and a seat it
        has not been told yet is seen. Presence is what keeps a place and what keeps a
        table from being called off (docs/ladder.md, "Presence")."""
        if account.state == QUEUED and account.pool is not None and account.ticket is not None:
            self.store.renew(
                account.account_id, account.pool, account.ticket, self.now, RENEW_SECONDS
            )

    def seen_at(self, table: Table, account_id: str) -> None:
        """The account is told its seat at ``table`` now: the seat is no longer awaited."""
        if any(s.account_id == account_id and s.awaited for s in table.seats):
            self.store.mark_seen(table.table_id, account_id)

    def _reload(self, account: Account) -> Account:
        fresh = self.store.account(account.account_id)
        assert fresh is not None
        return fresh

    # ------------------------------------------------------------------ owned by other areas

    def settle(self, table_id: str) -> Result | None:
        """Apply a finished rated game's result, once (app/ladder/results.py)."""
        raise NotImplementedError

    def settle_finished(self, everything: bool = False) -> int:
        """Settle the games heard to have finished (app/ladder/results.py)."""
        raise NotImplementedError

    def _level_account(self, level: bots.Level) -> Account | None:
        """A computer level's account (app/ladder/bots_and_events.py)."""
        raise NotImplementedError


def rating_body(rating: Rating) -> Body:
    return {
        "rating": round(rating.mu - 3 * rating.sigma, 2),
        "display_rating": model.shown(rating),
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "games": rating.games,
        "provisional": model.provisional(rating),
    }


def change_body(change: Change, of: int) -> Body:
    """A place and a rating change: the ordinals to two decimals, their change the
    difference of those two rounded figures, and the same on the displayed scale (whole
    numbers), so that each line adds up as it reads."""
    before = round(change.before.mu - 3 * change.before.sigma, 2)
    after = round(change.after.mu - 3 * change.after.sigma, 2)
    shown_before, shown_after = model.shown(change.before), model.shown(change.after)
    return {
        "place": change.place,
        "of": of,
        "rating_before": before,
        "rating_after": after,
        "change": round(after - before, 2),
        "display_before": shown_before,
        "display_after": shown_after,
        "display_change": shown_after - shown_before,
        "provisional": model.provisional(change.after),
    }


def own_change(result: Result, account_id: str, table: Table | None = None) -> Body:
    """One account's line of a result: its place and its rating before and after. A void
    result of ``table`` called off because someone never came says so: ``called_off`` and
    the ``absent`` handles."""
    for change in result.changes:
        if change.account_id == account_id:
            return {
                "game_uuid": result.game_uuid,
                "pool": result.pool,
                **change_body(change, len(result.changes)),
            }
    void: Body = {"game_uuid": result.game_uuid, "pool": result.pool, "void": True}
    absent = [s.handle for s in table.seats if s.awaited] if table is not None else []
    if absent and not result.changes:
        void |= {"called_off": True, "absent": absent}
    return void


def where_played(table: Table) -> Body:
    """Where a table of another game than Blef is played: its ``kind`` and ``path`` (the
    tables' routes of that game). Nothing for Blef's pools, whose answers stay as they were
    (the game is at ``/games/{game_uuid}``)."""
    kind = kind_of_pool(table.pool)
    if kind == "blef" or table.game_uuid is None:
        return {}
    return {"kind": kind, "path": game_path(kind, table.game_uuid)}
