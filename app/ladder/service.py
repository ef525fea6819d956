"""The ladder's use cases: accounts, the quick-play queue and its matcher, rated results,
leaderboards and profiles. Plain values in and out, over a :class:`LadderStore` and the
game service's public use cases (create, change the rules, join, start, the record of a
finished game); it knows nothing of HTTP.

The matcher (:meth:`Ladder.match`) forms a table when enough accounts wait in a pool within
a rating window that widens the longer they wait; :meth:`Ladder.settle` applies a finished
rated game's result once. ``blef serve``'s clock thread calls :meth:`Ladder.tick` (both, for
every pool); tests call them directly.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import secrets
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Final

from app.ladder import bots
from app.ladder import rating as model
from app.ladder.errors import (
    AccountBusy,
    AlreadyAtTable,
    BotsCannotFill,
    CannotBecomeBot,
    HandleTaken,
    TooManyAccounts,
    UnknownAccount,
    UnknownHandle,
)
from app.ladder.pools import BY_NAME, POOLS, Pool, pool_named
from app.ladder.store import (
    QUEUED,
    SEATED,
    Account,
    Change,
    LadderConflict,
    LadderStore,
    Rating,
    Result,
    Seat,
    Table,
    Waiting,
)
from app.observability import metrics
from app.service import GameService, parse
from app.service.errors import (
    CredentialsMissing,
    GameNotFinished,
    GameNotFound,
    InvalidParameter,
    MissingParameter,
)
from app.service.profanity import refuse_profane
from app.service.writes import Change as GameChange
from engine.errors import BlefError

log = logging.getLogger("blef.ladder")

Body = dict[str, Any]

WINDOW_BASE: Final = 3.0
"""The rating window (in mu) of an account that has just joined the queue ..."""
WINDOW_PER_SECOND: Final = 0.1
"""... widening by this much per second waited (3 at once, 9 after a minute, 33 after five:
past the whole scale, so that anyone is eventually matched)."""
BOARD_DEFAULT: Final = 20
BOARD_MAX: Final = 100
BOARD_OFFSET_MAX: Final = 10_000
"""The furthest a board page may start (past the end, a page is empty)."""
RECENT_GAMES: Final = 20
ACCOUNTS_PER_ADDRESS: Final = 20
"""Accounts one client address may make in an hour, across every process (each process also
keeps its own tighter bucket: app/api/fairness.py): an account is a row kept for good."""
ALLOWANCE_SECONDS: Final = 3600
SWEEP_SECONDS: Final = 30.0
"""How often the clock looks at every open table (a settlement lost to a crash)."""
FORMING_STALE_SECONDS: Final = 120.0
"""A table still forming this long after its claim lost the process that was making its
game (a crash, a Lambda timeout): the sweep puts its accounts back in the queue."""


def secret_hash(secret: str) -> str:
    """What is stored of an account's secret: its SHA-256 (the secret is 256 random bits,
    so a fast hash is enough; a database reader cannot turn it back into the secret)."""
    return "sha256:" + hashlib.sha256(secret.encode()).hexdigest()


def window(waited: float) -> float:
    return WINDOW_BASE + WINDOW_PER_SECOND * max(0.0, waited)


def compatible(a: Waiting, b: Waiting, now: float) -> bool:
    """Whether ``a`` and ``b`` may sit together now: within the window of the one who has
    waited longer. (Within both windows would starve a long wait: two newcomers who requeue
    after every game, near each other and far from it, would always be matched first.)"""
    gap = abs(a.mu - b.mu)
    return gap <= max(window(now - a.queued_at), window(now - b.queued_at))


def pick_table(queue: list[Waiting], pool: Pool, now: float) -> list[Waiting] | None:
    """A table to form from ``queue`` (longest waiting first), or None if none can be: the
    longest waiting account that has enough compatible others, with the longest waiting of
    them, up to the pool's size."""
    for anchor in queue:
        group = [w for w in queue if w is anchor or compatible(anchor, w, now)]
        if len(group) >= pool.min_players:
            return group[: pool.max_players]
    return None


class Ladder:
    """The ladder's use cases (see the module docstring)."""

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

    # ------------------------------------------------------------------ accounts

    def create_account(self, handle: object, address: str | None = None) -> Body:
        """A new account with ``handle`` (the nickname rules, polite): its id, its handle and
        its secret, which is told this once and stored only as a hash. With the client's
        ``address``, at most :data:`ACCOUNTS_PER_ADDRESS` accounts an hour from it, counted
        in the store so that every process and Lambda instance shares the count (429)."""
        name = _handle(handle)
        refuse_profane(name)
        bots.refuse_reserved(name)
        if address is not None:
            self._take_account_allowance(address)
        secret = self._new_secret()
        account = Account(
            account_id=self._new_id(),
            handle=name,
            handle_key=name.casefold(),
            secret_hash=secret_hash(secret),
            created_at=self.now,
        )
        try:
            self.store.create_account(account)
        except LadderConflict:
            raise HandleTaken("handle", name, "This handle is taken; choose another") from None
        log.info("account_created")
        return {"account_id": account.account_id, "handle": name, "secret": secret}

    def _take_account_allowance(self, address: str) -> None:
        now = self.now
        hour = int(now // ALLOWANCE_SECONDS)
        ends = (hour + 1) * ALLOWANCE_SECONDS
        if not self.store.take_allowance(
            f"accounts/{address}", hour, ACCOUNTS_PER_ADDRESS, now=now, expires_at=ends
        ):
            log.info("account_allowance_spent")
            raise TooManyAccounts(retry_after=max(1, math.ceil(ends - now)))

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

    # ------------------------------------------------------------------ the queue

    def join_queue(self, secret: str | None, pool_name: object, fill_after: object = None) -> Body:
        """Wait in ``pool``'s queue (again the same: no change; another pool: moved there).
        Refused while seated at a rated game not yet over. A person may allow computer
        levels to fill the table after waiting ``fill_after`` seconds (a new join with a
        different wait moves them to the back of the queue)."""
        account = self.authenticate(secret)
        pool = pool_named(pool_name)
        fill = _fill_after(fill_after)
        if fill is not None and account.bot:
            raise BotsCannotFill
        if account.state == SEATED and account.table_id is not None:
            self.settle(account.table_id)  # a game over not yet settled: settle it now
            account = self._reload(account)
            if account.state == SEATED:
                raise AlreadyAtTable
        if account.state == QUEUED:
            same_fill = (account.fill_at is None) == (fill is None) and (
                fill is None or account.fill_at == (account.queued_at or 0.0) + fill
            )
            if account.pool == pool.name and same_fill:
                return self._status(account)
            self.store.dequeue(account.account_id)
        rated = self.store.rating(account.account_id, pool.name)
        mu = rated.mu if rated is not None else model.MU
        now, ticket = self.now, self._new_id()
        try:
            if fill is None:
                self.store.enqueue(account.account_id, pool.name, ticket, now, mu)
            else:
                self.store.enqueue_filled(
                    account.account_id, pool.name, ticket, now, mu, now + fill
                )
        except LadderConflict:
            raise AlreadyAtTable from None  # seated by a racing matcher, or moved meanwhile
        self.woken.set()
        if self.on_join is not None:
            try:
                self.on_join()
            except Exception:  # the join stands; the clock's next look matches it
                metrics.count(metrics.LADDER_MATCH_ERRORS)
                log.exception("ladder_match_failed")
        return self._status(self._reload(account))

    def leave_queue(self, secret: str | None) -> Body:
        """Leave the queue. If the matcher seated you first, you are seated: the answer says
        so (the leave lost the race; nothing else is changed)."""
        account = self.authenticate(secret)
        self.store.dequeue(account.account_id)
        return self._status(self._reload(account))

    def queue_status(self, secret: str | None) -> Body:
        return self._status(self.authenticate(secret))

    def _reload(self, account: Account) -> Account:
        fresh = self.store.account(account.account_id)
        assert fresh is not None
        return fresh

    def _status(self, account: Account) -> Body:
        if account.state == QUEUED:
            waited = max(0.0, self.now - (account.queued_at or self.now))
            waiting: Body = {
                "state": "waiting",
                "pool": account.pool,
                "waited_seconds": round(waited, 1),
                "bot": account.bot,
            }
            if account.fill_at is not None:
                waiting["fill_after"] = round(account.fill_at - (account.queued_at or 0.0), 1)
            return waiting
        if account.state == SEATED and account.table_id is not None:
            table = self.store.table(account.table_id)
            if table is not None and table.state == "playing":
                seat = next(s for s in table.seats if s.account_id == account.account_id)
                return {
                    "state": "seated",
                    "pool": table.pool,
                    "game_uuid": table.game_uuid,
                    "player_uuid": seat.player_uuid,
                    "bot": account.bot,
                }
            return {"state": "forming", "pool": table.pool if table else None, "bot": account.bot}
        body: Body = {"state": "idle", "bot": account.bot}
        last = self.store.history(account.account_id, 1)
        if last:
            body["last_result"] = _own_change(last[0], account.account_id)
        return body

    # ------------------------------------------------------------------ the matcher

    def match(self) -> list[Table]:
        """Form every table that can be formed now, in every pool; returns them."""
        formed = []
        for pool in POOLS:
            while True:
                group = pick_table(self.store.waiting(pool.name), pool, self.now)
                if group is None:
                    break
                table = self._form(pool, group)
                if table is not None:
                    formed.append(table)
            formed += self._fill(pool)
        return formed

    def _form(
        self, pool: Pool, group: list[Waiting], levels: Sequence[Account] = ()
    ) -> Table | None:
        table = Table(
            self._new_id(),
            pool.name,
            tuple(Seat(w.account_id, w.handle) for w in group)
            + tuple(Seat(a.account_id, a.handle) for a in levels),
            self.now,
        )
        try:
            self.store.claim(table, {w.account_id: w.ticket for w in group})
        except LadderConflict:
            return None  # someone left or was seated meanwhile: the next look decides
        agents = {a.account_id: a.agent for a in levels if a.agent is not None}
        try:
            seated = self._make_game(pool, table, agents)
        except Exception:
            metrics.count(metrics.LADDER_MATCH_ERRORS)
            log.exception("ladder_table_failed")
            self.store.release(table)
            return None
        try:
            self.store.seat(seated)
        except LadderConflict:  # released meanwhile as stale: its accounts queue again
            metrics.count(metrics.LADDER_MATCH_ERRORS)
            log.warning("ladder_table_released_while_forming")
            return None
        metrics.count(metrics.LADDER_TABLES_FORMED)
        for waited in group:
            metrics.seconds(metrics.LADDER_QUEUE_WAIT, table.formed_at - waited.queued_at)
        log.info(
            "ladder_table_formed",
            extra={"pool": pool.name, "players": len(group), "computers": len(levels)},
        )
        self.bell.ring(*(s.account_id for s in seated.seats))
        return seated

    def _make_game(self, pool: Pool, table: Table, agents: dict[str, str] | None = None) -> Table:
        """The table's game, made with the game service's use cases: created by the first
        seat (its admin), the pool's time limit set, joined by the others (a computer
        level's seat invited as the game's AI player), started."""
        agents = agents or {}
        first, *others = table.seats
        created = self.games.create_game(nickname=first.handle)
        game_uuid, admin = created["game_uuid"], created["player_uuid"]
        self.games.change_rules(game_uuid, admin, {"time_limit": pool.time_limit})
        seats = [replace(first, player_uuid=admin)]
        for seat in others:
            agent = agents.get(seat.account_id)
            if agent is not None:
                said = str(self.games.invite_ai(game_uuid, admin, agent)["message"])
                nickname = said.removesuffix(" joined the game")
                if nickname == said or " " in nickname:
                    raise RuntimeError(f"unexpected answer to an AI invitation: {said!r}")
                seats.append(replace(seat, ai_nickname=nickname))
                continue
            joined = self.games.join(game_uuid, seat.handle)
            seats.append(replace(seat, player_uuid=joined["player_uuid"]))
        self.games.start(game_uuid, admin)
        return replace(table, seats=tuple(seats), game_uuid=game_uuid, state="playing")

    # ------------------------------------------------------------------ results

    def notice(self, change: GameChange) -> None:
        """A listener of the game service: a game that has just finished may be rated."""
        previous = change.previous
        self.bell.ring(change.doc.game_uuid)
        if change.doc.status == "Finished" and (previous is None or previous.status != "Finished"):
            with self._lock:
                self._finished.add(change.doc.game_uuid)
            self.woken.set()

    def settle(self, table_id: str) -> Result | None:
        """Apply a finished rated game's result, once: read the stored game, place its
        players by the order they went out, rate them, and write it all in one conditional
        change. A repeat (a retry, a second clock, a crash before the answer) finds the
        result already there and changes nothing. None while the game is not over."""
        for _ in range(3):
            table = self.store.table(table_id)
            if table is None:
                return None
            if table.state != "playing" or table.game_uuid is None:
                return self.store.result(table_id)
            try:
                record = self.games.record(table.game_uuid)
            except GameNotFinished:
                return None
            except GameNotFound:
                record = None  # expired before anyone settled it: void, nobody rated
            result = self._result(table, table.game_uuid, record)
            try:
                self.store.settle(result)
            except LadderConflict:
                continue
            metrics.count(metrics.LADDER_GAMES_SETTLED)
            log.info("ladder_game_settled", extra={"pool": table.pool})
            self.bell.ring(*(s.account_id for s in table.seats))
            return result
        return self.store.result(table_id)

    def _result(self, table: Table, game_uuid: str, record: Body | None) -> Result:
        if record is None:
            return Result(table.table_id, game_uuid, table.pool, self.now)
        by_seat = model.places_of(record)
        seated = [p["nickname"] for p in record["players"]]
        # The game seats its players in a shuffled order, and may show a reported player
        # under an alias: each account's place is found by the name the game calls its
        # player now (its own view's ``you``; a computer level's seat by its AI player's
        # nickname), never by the order the table was formed in.
        places = [by_seat[seated.index(self._name_in_game(game_uuid, s))] for s in table.seats]
        rated = self._rated_seats(table)
        seats = [s for s in table.seats if s.account_id in rated]
        places = [p for s, p in zip(table.seats, places, strict=True) if s.account_id in rated]
        before = [
            self.store.rating(s.account_id, table.pool) or model.initial(s.account_id, table.pool)
            for s in seats
        ]
        after = model.rate(before, places) if seats else []
        changes = tuple(
            Change(s.account_id, s.handle, place, b, a)
            for s, place, b, a in zip(seats, places, before, after, strict=True)
        )
        return Result(table.table_id, game_uuid, table.pool, self.now, changes)

    def _name_in_game(self, game_uuid: str, seat: Seat) -> str:
        if seat.ai_nickname is not None:
            return seat.ai_nickname
        if seat.player_uuid is None:
            return seat.handle
        you: str = self.games.state(game_uuid, seat.player_uuid).body["you"]
        return you

    def settle_finished(self, everything: bool = False) -> int:
        """Settle the games heard to have finished (every open table's, with
        ``everything``); returns how many were settled."""
        with self._lock:
            finished, self._finished = self._finished, set()
        settled = 0
        for table in self.store.open_tables():
            if table.state == "playing" and (everything or table.game_uuid in finished):
                settled += self.settle(table.table_id) is not None
        return settled

    def settle_game(self, game_uuid: str) -> Result | None:
        """Settle the rated game ``game_uuid`` (a clock heard it finish); None if it is not
        a rated game, or not over."""
        table = self.store.table_of_game(game_uuid)
        return None if table is None else self.settle(table.table_id)

    def release_stale(self, older_than: float = FORMING_STALE_SECONDS) -> int:
        """Put back in the queue the accounts of every table still forming ``older_than``
        seconds after its claim (its maker is gone); returns how many tables."""
        released = 0
        for table in self.store.open_tables():
            if table.state == "forming" and table.formed_at <= self.now - older_than:
                self.store.release(table)
                released += 1
        if released:
            log.warning("ladder_stale_tables_released", extra={"tables": released})
        return released

    def longest_wait(self) -> float | None:
        """How long the longest waiting account of any pool has waited (None: nobody
        waits); recorded as a metric by each look."""
        waits = [self.now - w.queued_at for pool in POOLS for w in self.store.waiting(pool.name)]
        if not waits:
            return None
        metrics.seconds(metrics.LADDER_LONGEST_WAIT, max(waits))
        return max(waits)

    def reserve_look(self, now: float, at: float) -> bool:
        """Claim the matcher's next look at ``at`` unless one is pending (due after ``now``):
        True if the caller should ask for it (the AWS clock's delayed message)."""
        return self.store.reserve_look(now, at)

    def tick(self) -> None:
        """What the clock does: settle what finished, then match."""
        self.woken.clear()
        sweep = self.now >= self._next_sweep
        if sweep:
            self._next_sweep = self.now + SWEEP_SECONDS
            self.release_stale()
        self.settle_finished(everything=sweep)
        self.match()

    # ------------------------------------------------------------------ boards and profiles

    def leaderboard(
        self, pool_name: object, limit: object, secret: str | None, offset: object = None
    ) -> Body:
        """A page of the pool's board: ``limit`` rows from row ``offset`` (0 the best), each
        with its rank: 1 + how many rate strictly higher, so that equal ratings share a rank
        (1, 2, 2, 4), on every page alike. ``next_offset`` when there is more."""
        pool = pool_named(pool_name)
        count = _limit(limit)
        start = _offset(offset)
        page = self.store.leaderboard_page(pool.name, start, count + 1)
        rows: list[Body] = []
        previous: float | None = None
        rank = 0
        for i, (account, rating) in enumerate(page[:count]):
            score = rating.mu - 3 * rating.sigma
            if previous is None or score != previous:
                # the first row of a page asks the store; later ones follow from the row above
                rank = start + i + 1 if i else self.store.rank(account.account_id, pool.name) or 1
            previous = score
            rows.append(
                {
                    "rank": rank,
                    "handle": account.handle,
                    "bot": account.bot,
                    **_rating_body(rating),
                }
            )
        body: Body = {"pool": pool.name, "title": pool.title, "offset": start, "players": rows}
        if len(page) > count and start + count <= BOARD_OFFSET_MAX:
            body["next_offset"] = start + count
        if secret is not None:
            account = self.authenticate(secret)
            mine = self.store.rating(account.account_id, pool.name)
            body["you"] = {
                "handle": account.handle,
                "bot": account.bot,
                "rank": self.store.rank(account.account_id, pool.name),
                **(_rating_body(mine) if mine is not None else {"rated": False}),
            }
        return body

    def profile(self, handle: object) -> Body:
        key = handle.casefold() if isinstance(handle, str) else ""
        account = self.store.account_by_handle(key) if key else None
        if account is None:
            raise UnknownHandle("handle", handle, "No account has this handle")
        ratings = [
            {
                "pool": r.pool,
                "rank": self.store.rank(account.account_id, r.pool),
                **_rating_body(r),
            }
            for r in self.store.ratings(account.account_id)
        ]
        games = [
            {
                "game_uuid": result.game_uuid,
                "pool": result.pool,
                "settled_at": result.settled_at,
                "players": [c.handle for c in sorted(result.changes, key=lambda c: c.place)],
                **_own_change(result, account.account_id),
            }
            for result in self.store.history(account.account_id, RECENT_GAMES)
        ]
        body: Body = {"handle": account.handle, "bot": account.bot}
        level = _level_of(account)
        if level is not None:
            body["level"] = level.name
        return {**body, "ratings": ratings, "games": games}

    # ------------------------------------------------------------------ bots: accounts

    def become_bot(self, secret: str | None) -> Body:
        """The account becomes a bot, for good. Only before it has sat at any rated table
        (as lichess allows only accounts that have played no game): its games so far were
        a person's, and a rating earned by a person must not pass to a program. Again on a
        bot: the same answer, nothing changed."""
        account = self.authenticate(secret)
        if not account.bot:
            try:
                self.store.make_bot(account.account_id)
            except LadderConflict:
                raise CannotBecomeBot from None
            log.info("account_became_bot")
        return self.me(secret)

    # ------------------------------------------------------------------ bots: computer levels

    def levels(self) -> list[Body]:
        """The computer levels, weakest first, each with its account's handle and its
        rating in every pool (from the rated games it has played; unrated at first)."""
        body = []
        for level in bots.LEVELS:
            account = self._level_account(level)
            ratings = {}
            for pool in POOLS:
                rated = (
                    None if account is None else self.store.rating(account.account_id, pool.name)
                )
                ratings[pool.name] = _rating_body(rated) if rated is not None else {"rated": False}
            body.append(
                {
                    "level": level.name,
                    "title": level.title,
                    "agent": level.agent,
                    "handle": level.handle,
                    "bot": True,
                    "ratings": ratings,
                }
            )
        return body

    def _level_account(self, level: bots.Level) -> Account | None:
        """The level's account, made on first use (idempotently: a racing maker's wins).
        None if its handle belongs to an account that is not the level's (made before the
        prefix was reserved): that level then fills no table."""
        known = self._levels.get(level.name)
        if known is not None:
            return known
        key = level.handle.casefold()
        account = self.store.account_by_handle(key)
        if account is None:
            made = Account(
                account_id=self._new_id(),
                handle=level.handle,
                handle_key=key,
                secret_hash="none:" + self._new_secret(),  # no secret hashes to this
                created_at=self.now,
                bot=True,
                agent=level.agent,
            )
            with contextlib.suppress(LadderConflict):  # made meanwhile: read it
                self.store.create_account(made)
            account = self.store.account_by_handle(key)
        if account is None or account.agent != level.agent:
            log.error("ladder_level_handle_taken", extra={"level": level.name})
            return None
        self._levels[level.name] = account
        return account

    def _fill(self, pool: Pool) -> list[Table]:
        """Tables of people who have waited past their fill wait, each with the waiting
        people compatible with them who allow filling too, topped up to the pool's least
        size with computer levels of the nearest rating (mu), each level at most once."""
        formed = []
        for _ in range(len(self.store.waiting(pool.name))):
            now = self.now
            ready = [
                w
                for w in self.store.waiting(pool.name)
                if w.fill_at is not None and w.fill_at <= now
            ]
            if not ready:
                break
            anchor = ready[0]
            group = [anchor, *(w for w in ready[1:] if compatible(anchor, w, now))]
            group = group[: pool.max_players]
            need = max(0, pool.min_players - len(group))
            levels = self._levels_near(pool, anchor.mu, need)
            if len(levels) < need:
                break
            table = self._form(pool, group, levels)
            if table is not None:
                formed.append(table)
        return formed

    def _levels_near(self, pool: Pool, mu: float, count: int) -> list[Account]:
        rated = []
        for index, level in enumerate(bots.LEVELS):
            account = self._level_account(level)
            if account is None:
                continue
            rating = self.store.rating(account.account_id, pool.name)
            rated.append((abs((rating.mu if rating else model.MU) - mu), index, account))
        return [account for _, _, account in sorted(rated, key=lambda r: r[:2])[:count]]

    # ------------------------------------------------------------------ bots: repeated pairs

    def _rated_seats(self, table: Table) -> set[str]:
        """The accounts rated in ``table``'s game: all, but for any pair that has already
        shared :data:`~app.ladder.bots.PAIR_LIMIT` settled tables in the last 24 hours;
        both of such a pair are left unrated (the others are rated among themselves by
        their places), and nobody is rated if fewer than two are left."""
        since = self.now - bots.PAIR_WINDOW_SECONDS
        ids = [s.account_id for s in table.seats]
        over: set[str] = set()
        for i, first in enumerate(ids):
            for second in ids[i + 1 :]:
                if self.store.games_together(first, second, since) >= bots.PAIR_LIMIT:
                    over |= {first, second}
        rated = set(ids) - over
        return rated if len(rated) >= 2 else set()

    # ------------------------------------------------------------------ bots: events

    def events(self, secret: str | None, after: object) -> Body:
        """What the account has not been told yet, derived from the store (so every
        process answers alike, and the same cursor gets the same answer while nothing
        changes): ``game_over`` for each settled game since the cursor's (oldest first,
        with the place and rating change), then, at a table, ``game_started`` (the game and
        the account's own player UUID) if the cursor has not seen it, and ``your_turn``
        (with the player's view) if it is the account's move at a version the cursor has
        not been told. Returns ``events``, the next ``cursor`` and ``wait_on``: the keys
        of the bell a waiting poll listens on (left out of the HTTP answer)."""
        account = self.authenticate(secret)
        cursor = bots.parse_cursor(after)
        history = self.store.history(account.account_id, bots.EVENT_HISTORY)
        newest = history[0].table_id if history else None
        events: list[Body] = []
        if cursor is None:
            cursor = bots.Cursor(over=newest)
        else:
            unseen = []
            for result in history:
                if result.table_id == cursor.over:
                    break
                unseen.append(result)
            events += [_game_over(r, account.account_id) for r in reversed(unseen)]
        table_id, turn, wait_on = cursor.table, cursor.turn, [account.account_id]
        table = (
            self.store.table(account.table_id)
            if account.state == SEATED and account.table_id
            else None
        )
        if table is not None and table.state == "playing" and table.game_uuid is not None:
            seat = next(s for s in table.seats if s.account_id == account.account_id)
            game, player = table.game_uuid, seat.player_uuid
            assert player is not None
            wait_on.append(game)
            if table.table_id != cursor.table:
                table_id, turn = table.table_id, 0
                events.append(
                    {
                        "type": "game_started",
                        "game_uuid": game,
                        "player_uuid": player,
                        "pool": table.pool,
                    }
                )
            try:
                view = self.games.state(game, player).body
            except GameNotFound:
                view = {}
            if view.get("status") == "Running" and view.get("cp_nickname") == view.get("you"):
                version = int(view["version"])
                if version != turn:
                    turn = version
                    events.append(
                        {
                            "type": "your_turn",
                            "game_uuid": game,
                            "player_uuid": player,
                            "version": version,
                            "state": view,
                        }
                    )
        nxt = bots.Cursor(newest or cursor.over, table_id, turn)
        return {"events": events, "cursor": nxt.encode(), "wait_on": wait_on}

    # ------------------------------------------------------------------ devices and deletion
    # (passkeys themselves: app/ladder/passkeys.py)

    def new_device_secret(self, account_id: str) -> str:
        """A new secret for one more device of the account (a passkey sign-in): told once,
        kept only as its hash; the account's other secrets stay valid."""
        secret = self._new_secret()
        try:
            self.store.add_secret(account_id, secret_hash(secret), self.now)
        except LadderConflict:
            raise UnknownAccount from None  # deleted meanwhile
        return secret

    def delete_account(self, secret: str | None) -> None:
        """Delete the account: its secrets and passkeys, its ratings (off every board), its
        profile; its handle is free again and the results it shared show it as deleted.
        Refused (409) while queued or seated at a rated game not yet over."""
        account = self.authenticate(secret)
        if account.state == SEATED and account.table_id is not None:
            self.settle(account.table_id)  # a game over not yet settled: settle it now
            account = self._reload(account)
        if account.state == QUEUED:
            raise AccountBusy("You are waiting for a rated game: leave the queue first")
        if account.state == SEATED:
            raise AccountBusy(
                "You are at a rated game that is not over: finish it (or resign) first"
            )
        try:
            self.store.delete_account(account.account_id)
        except LadderConflict:
            if self.store.account(account.account_id) is None:
                raise UnknownAccount from None  # deleted by a racing request
            raise AccountBusy from None  # queued or seated by a racing request
        log.info("account_deleted")


def _handle(value: object) -> str:
    """A new handle: a nickname by the rules of engine/names.py, refused naming ``handle``."""
    if not isinstance(value, str) or value == "":
        raise MissingParameter("handle", None, "Handle missing - please supply one")
    try:
        return parse.nickname(value)
    except BlefError as error:
        reason = error.message.partition("\n")[2] or error.message
        raise InvalidParameter("handle", value, reason) from None


def _limit(value: object) -> int:
    if value is None:
        return BOARD_DEFAULT
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= BOARD_MAX:
        return value
    raise InvalidParameter("limit", value, f"Must be an integer between 1 and {BOARD_MAX}")


def _offset(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= BOARD_OFFSET_MAX:
        return value
    raise InvalidParameter("offset", value, f"Must be an integer between 0 and {BOARD_OFFSET_MAX}")


def _rating_body(rating: Rating) -> Body:
    return {
        "rating": round(rating.mu - 3 * rating.sigma, 2),
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "games": rating.games,
        "provisional": model.provisional(rating),
    }


def _own_change(result: Result, account_id: str) -> Body:
    """One account's line of a result: its place and its rating before and after."""
    for change in result.changes:
        if change.account_id == account_id:
            before = change.before.mu - 3 * change.before.sigma
            after = change.after.mu - 3 * change.after.sigma
            return {
                "game_uuid": result.game_uuid,
                "pool": result.pool,
                "place": change.place,
                "of": len(result.changes),
                "rating_before": round(before, 2),
                "rating_after": round(after, 2),
                "change": round(after - before, 2),
            }
    return {"game_uuid": result.game_uuid, "pool": result.pool, "void": True}


# ---------------------------------------------------------------------- bots


def _fill_after(value: object) -> int | None:
    if value is None:
        return None
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and 0 <= value <= bots.FILL_MAX_SECONDS
    ):
        return value
    raise InvalidParameter(
        "fill_after", value, f"Must be an integer number of seconds, 0 to {bots.FILL_MAX_SECONDS}"
    )


def _level_of(account: Account) -> bots.Level | None:
    return next(
        (lv for lv in bots.LEVELS if account.agent is not None and lv.agent == account.agent), None
    )


def _game_over(result: Result, account_id: str) -> Body:
    return {"type": "game_over", **_own_change(result, account_id)}


__all__ = ["BY_NAME", "Ladder", "pick_table", "secret_hash"]
