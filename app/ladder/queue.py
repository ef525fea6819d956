"""The ladder's use cases, the queue and placing: joining and leaving a pool's queue, the
matcher that forms a table when enough accounts wait within a rating window that widens the
longer they wait (topped up with computer levels for those who allow it), the table's game
made through the game service's use cases, and what the clock does (:meth:`Queue.tick`)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from app.ladder import bots
from app.ladder import rating as model
from app.ladder.base import (
    ABSENT_SECONDS,
    ARRIVE_SECONDS,
    Body,
    LadderBase,
    own_change,
    where_played,
)
from app.ladder.errors import AlreadyAtTable, BotsCannotFill
from app.ladder.pools import POOLS, Pool, kind_of_pool, pool_named
from app.ladder.store import (
    QUEUED,
    SEATED,
    Account,
    LadderConflict,
    Result,
    Seat,
    Table,
    Waiting,
)
from app.observability import metrics
from app.service.errors import GameNotFound, InvalidParameter

log = logging.getLogger("blef.ladder")

WINDOW_BASE: Final = 3.0
"""The rating window (in mu) of an account that has just joined the queue ..."""
WINDOW_PER_SECOND: Final = 0.1
"""... widening by this much per second waited (3 at once, 9 after a minute, 33 after five:
past the whole scale, so that anyone is eventually matched)."""
SWEEP_SECONDS: Final = 30.0
"""How often the clock looks at every open table (a settlement lost to a crash)."""
FORMING_STALE_SECONDS: Final = 120.0
"""A table still forming this long after its claim lost the process that was making its
game (a crash, a Lambda timeout): the sweep puts its accounts back in the queue."""


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


class Queue(LadderBase):
    """The queue and placing (see the module docstring)."""

    def join_queue(self, secret: str | None, pool_name: object, fill_after: object = None) -> Body:
        """Wait in ``pool``'s queue (again the same: no change; another pool: moved there).
        Refused while seated at a rated game not yet over. A person may allow computer
        levels to fill the table after waiting ``fill_after`` seconds, counted from when
        they joined (a new join in the same pool with another wait keeps their place)."""
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
                self.still_here(account)
                return self._status(account)
            self.store.dequeue(account.account_id)
        rated = self.store.rating(account.account_id, pool.name)
        mu = rated.mu if rated is not None else model.MU
        now, ticket = self.now, self._new_id()
        if account.state == QUEUED and account.pool == pool.name and account.queued_at:
            now = account.queued_at  # only the fill wait changed: the place is kept
        try:
            if fill is None:
                self.store.enqueue(account.account_id, pool.name, ticket, now, mu)
            else:
                self.store.enqueue_filled(
                    account.account_id, pool.name, ticket, now, mu, now + fill
                )
        except LadderConflict:
            raise AlreadyAtTable from None  # seated by a racing matcher, or moved meanwhile
        if now != self.now:  # a kept place is renewed now, not at its join
            self.store.renew(account.account_id, pool.name, ticket, self.now, 0.0)
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
        so in words (``too_late`` and ``message``: the leave lost the race; nothing else is
        changed). Not being told a seat here, the seat stays awaited: a person who does
        not then open the table leaves it to be called off."""
        account = self.authenticate(secret)
        left = self.store.dequeue(account.account_id)
        body = self._status(self._reload(account), present=False)
        if not left and body["state"] in ("seated", "forming"):
            body["too_late"] = True
            body["message"] = (
                "Too late to cancel: your table was formed before your Cancel arrived."
                f" Open it within {ARRIVE_SECONDS:.0f} seconds of its forming, or it is called"
                " off and nobody's rating changes"
            )
        return body

    def queue_status(self, secret: str | None) -> Body:
        """Your place; asking is being here (:meth:`still_here`): it renews a queued place
        and marks a seat you are told as seen."""
        account = self.authenticate(secret)
        self.still_here(account)
        return self._status(account)

    def _status(self, account: Account, present: bool = True) -> Body:
        if account.state == QUEUED:
            waited = max(0.0, self.now - (account.queued_at or self.now))
            waiting: Body = {
                "state": "waiting",
                "pool": account.pool,
                "waited_seconds": round(waited, 1),
                "bot": account.bot,
                "looking": len(self.store.waiting(account.pool or "")),
                "absent_after": ABSENT_SECONDS,
            }
            if account.fill_at is not None:
                waiting["fill_after"] = round(account.fill_at - (account.queued_at or 0.0), 1)
            return waiting
        if account.state == SEATED and account.table_id is not None:
            table = self.store.table(account.table_id)
            if table is not None and table.state == "playing":
                seat = next(s for s in table.seats if s.account_id == account.account_id)
                if present:
                    self.seen_at(table, account.account_id)
                seated: Body = {
                    "state": "seated",
                    "pool": table.pool,
                    "game_uuid": table.game_uuid,
                    **self._seat_said(table.game_uuid, seat.player_uuid),
                    "bot": account.bot,
                }
                return seated | where_played(table)
            return {"state": "forming", "pool": table.pool if table else None, "bot": account.bot}
        body: Body = {"state": "idle", "bot": account.bot}
        last = self.store.history(account.account_id, 1)
        if last:
            table = self.store.table(last[0].table_id) if not last[0].changes else None
            body["last_result"] = own_change(last[0], account.account_id, table)
        return body

    def _seat_said(self, game_uuid: str | None, player_uuid: str | None) -> Body:
        """What a seated account is told of its seat: the secret the table gave it, or,
        once that seat moved to another device (the secret retired, the new one that
        device's alone), ``seat_moved`` and no secret."""
        if game_uuid is not None and player_uuid is not None:
            try:
                if self.games.seat_moved(game_uuid, player_uuid):
                    return {"seat_moved": True}
            except GameNotFound:  # gone (purged): the seat's secret opens nothing anyway
                pass
        return {"player_uuid": player_uuid}

    def match(self) -> list[Table]:
        """Form every table that can be formed now, in every pool, of the people there
        (a place not renewed for :data:`ABSENT_SECONDS` is dropped first); returns them.
        Tables whose people did not all come are called off first."""
        self.call_off_absent()
        formed = []
        for pool in POOLS:
            self.drop_absent(pool)
            while True:
                group = pick_table(self.store.waiting(pool.name), pool, self.now)
                if group is None:
                    break
                table = self._form(pool, group)
                if table is not None:
                    formed.append(table)
            formed += self._fill(pool)
        return formed

    def drop_absent(self, pool: Pool) -> int:
        """Drop from ``pool``'s queue every place not renewed for :data:`ABSENT_SECONDS`
        (a closed tab, a sleeping phone, a bot that stopped polling): nobody is seated at a
        table they will not see. Returns how many."""
        cutoff = self.now - ABSENT_SECONDS
        dropped = 0
        for w in self.store.waiting(pool.name):
            if w.last_seen < cutoff and self.store.drop_absent(
                w.account_id, pool.name, w.ticket, cutoff
            ):
                dropped += 1
                self.bell.ring(w.account_id)
        if dropped:
            metrics.count(metrics.LADDER_ABSENT_DROPPED, dropped)
            log.info("ladder_absent_dropped", extra={"pool": pool.name, "places": dropped})
        return dropped

    def awaiting_arrival(self) -> bool:
        """Whether a playing table waits for a person to come to it (a later look may call
        it off): the AWS clock keeps looking while one does."""
        return any(
            t.state == "playing" and any(s.awaited for s in t.seats)
            for t in self.store.open_tables()
        )

    def call_off_absent(self) -> int:
        """Call off, unrated, every playing table a person has not come to (never told the
        seat) :data:`ARRIVE_SECONDS` after it formed: its result is void (nobody's rating
        changes, everyone is free to queue again), and the absent seats resign from the
        game, so that it ends for those who came. Returns how many tables."""
        called = 0
        for table in self.store.open_tables():
            if table.state != "playing" or table.game_uuid is None:
                continue
            absent = [s for s in table.seats if s.awaited]
            if not absent or table.formed_at > self.now - ARRIVE_SECONDS:
                continue
            try:
                self.store.settle(Result(table.table_id, table.game_uuid, table.pool, self.now))
            except LadderConflict:
                continue  # settled meanwhile (its game ended first)
            kind = kind_of_pool(table.pool)
            for seat in absent:
                if seat.player_uuid is None or kind != "blef":
                    continue  # another game goes on: the clock plays an absent seat's turns
                try:
                    self.games.resign(table.game_uuid, seat.player_uuid)
                except Exception:  # the table is void whatever the game does now
                    log.exception("ladder_absent_resign_failed")
            called += 1
            metrics.count(metrics.LADDER_TABLES_CALLED_OFF)
            log.info("ladder_table_called_off", extra={"pool": table.pool, "absent": len(absent)})
            self.bell.ring(table.game_uuid, *(s.account_id for s in table.seats))
        return called

    def _form(
        self, pool: Pool, group: list[Waiting], levels: Sequence[Account] = ()
    ) -> Table | None:
        table = Table(
            self._new_id(),
            pool.name,
            tuple(Seat(w.account_id, w.handle, awaited=True) for w in group)
            + tuple(Seat(a.account_id, a.handle) for a in levels),
            self.now,
        )
        try:
            self.store.claim(table, {w.account_id: w.ticket for w in group})
        except LadderConflict:
            return None  # someone left or was seated meanwhile: the next look decides
        agents = {a.account_id: a.agent for a in levels if a.agent is not None}
        if not pool.blef:
            agents = {a.account_id: _kind_agent(a, pool.kind) for a in levels}
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
        if not pool.blef:
            return self._make_match(pool, table, agents)
        first, *others = table.seats
        created = self.games.create_game(nickname=first.handle)
        game_uuid, admin = created["game_uuid"], created["player_uuid"]
        self.games.change_rules(game_uuid, admin, {"time_limit": pool.time_limit})
        seats = [replace(first, player_uuid=admin)]
        for seat in others:
            agent = agents.get(seat.account_id)
            if agent is not None:
                self.games.invite_ai(game_uuid, admin, agent)
                seats.append(replace(seat, agent=agent))
                continue
            joined = self.games.join(game_uuid, seat.handle)
            seats.append(replace(seat, player_uuid=joined["player_uuid"]))
        self.games.start(game_uuid, admin)
        return replace(table, seats=tuple(seats), game_uuid=game_uuid, state="playing")

    def _make_match(self, pool: Pool, table: Table, agents: dict[str, str]) -> Table:
        """A table of another game than Blef, made with the game service's tables' use
        cases (app/service/matches.py): created with the pool's time limit, joined by the
        first seat (its admin), then the others (a computer level's seat as the game's
        built-in agent), started. Its seats are in join order, the table's order."""
        games, kind = self.games, pool.kind
        first, *others = table.seats
        game_uuid = games.create_table(kind, time_limit=pool.time_limit)["game_uuid"]
        admin = games.join_table(kind, game_uuid, first.handle)["player_uuid"]
        seats = [replace(first, player_uuid=admin)]
        for seat in others:
            agent = agents.get(seat.account_id)
            if agent is not None:
                games.seat_agent(kind, game_uuid, admin, agent)
                seats.append(replace(seat, agent=agent))
                continue
            joined = games.join_table(kind, game_uuid, seat.handle)
            seats.append(replace(seat, player_uuid=joined["player_uuid"]))
        games.start_table(kind, game_uuid, admin)
        return replace(table, seats=tuple(seats), game_uuid=game_uuid, state="playing")

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

    def release_stale(self, older_than: float = FORMING_STALE_SECONDS) -> int:
        """Put back in the queue the accounts of every table still forming ``older_than``
        seconds after its claim (its maker is gone); returns how many tables."""
        released = 0
        for table in self.store.open_tables():
            if table.state == "forming" and table.formed_at <= self.now - older_than:
                self.store.release(table)
                released += 1
                for seat in table.seats:  # back as they were, and given the grace anew
                    back = self.store.account(seat.account_id)
                    if back is not None and back.state == QUEUED and back.pool and back.ticket:
                        self.store.renew(back.account_id, back.pool, back.ticket, self.now, 0.0)
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


def _kind_agent(account: Account, kind: str) -> str:
    level = next(lv for lv in bots.LEVELS if lv.handle == account.handle)
    return bots.level_agent(level, kind)


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
