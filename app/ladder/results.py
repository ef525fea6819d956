"""The ladder's use cases, ratings and boards: a finished rated game settled once (its
players placed, rated, written in one conditional change), the boards and profiles."""

from __future__ import annotations

import logging
from typing import Final

from app.ladder import bots
from app.ladder import rating as model
from app.ladder.base import (
    Body,
    LadderBase,
    change_body,
    own_change,
    rating_body,
    where_played,
)
from app.ladder.errors import NotRatedGame, UnknownHandle
from app.ladder.pools import kind_of_pool, pool_named
from app.ladder.store import Account, Change, LadderConflict, Result, Seat, Table
from app.observability import metrics
from app.service import parse
from app.service.errors import GameNotFinished, GameNotFound, InvalidParameter
from app.service.finished import TableFinished
from app.service.writes import Change as GameChange

log = logging.getLogger("blef.ladder")

BOARD_DEFAULT: Final = 20
BOARD_MAX: Final = 100
BOARD_OFFSET_MAX: Final = 10_000
"""The furthest a board page may start (past the end, a page is empty)."""
RECENT_GAMES: Final = 20


class Results(LadderBase):
    """Ratings and boards (see the module docstring)."""

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
                finished: TableFinished | None = self.games.finished(table.game_uuid)
            except GameNotFinished:
                return None
            except GameNotFound:
                finished = None  # expired before anyone settled it: void, nobody rated
            result = self._result(table, table.game_uuid, finished)
            try:
                self.store.settle(result)
            except LadderConflict:
                continue
            metrics.count(metrics.LADDER_GAMES_SETTLED)
            log.info("ladder_game_settled", extra={"pool": table.pool})
            self.bell.ring(*(s.account_id for s in table.seats))
            return result
        return self.store.result(table_id)

    def _result(self, table: Table, game_uuid: str, finished: TableFinished | None) -> Result:
        if finished is None:
            return Result(table.table_id, game_uuid, table.pool, self.now)
        # The game seats its players in a shuffled order: each account's place is found by
        # who sat there (a person by the player UUID the table was given, a computer level
        # by its agent), never by the order the table was formed in, nor by a name.
        places = [_place_of(finished, s) for s in table.seats]
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
                    **rating_body(rating),
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
                **(rating_body(mine) if mine is not None else {"rated": False}),
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
                **rating_body(r),
            }
            for r in self.store.ratings(account.account_id)
        ]
        history = self.store.history(account.account_id, RECENT_GAMES)
        games = [
            {
                "game_uuid": result.game_uuid,
                "pool": result.pool,
                "settled_at": result.settled_at,
                "players": [c.handle for c in sorted(result.changes, key=lambda c: c.place)],
                "opponents": [
                    {"handle": c.handle, "place": c.place}
                    for c in sorted(result.changes, key=lambda c: c.place)
                    if c.account_id != account.account_id
                ],
                **own_change(result, account.account_id),
            }
            for result in history
        ]
        body: Body = {"handle": account.handle, "bot": account.bot}
        level = _level_of(account)
        if level is not None:
            body["level"] = level.name
        return {
            **body,
            "ratings": ratings,
            "games": games,
            "recent_record": _record(history, account.account_id),
        }

    def rated_table(self, game_uuid: object) -> Body:
        """The rated table that plays ``game_uuid``, for anyone who may watch the game: its
        pool, and each seat's handle (in the order the table was formed; a computer level's
        seat also its agent, by which its player is found in the game), rating and what it
        stands to win or lose (the model's change if first, if last), or, once settled,
        each seat's place and change. 400 for what is not a UUID, 404 for a game no rated table
        plays."""
        wanted = parse.game_uuid(game_uuid if isinstance(game_uuid, str) else None)
        table = self.store.table_of_game(wanted)
        if table is None or table.game_uuid is None:
            raise NotRatedGame("game_uuid", game_uuid, "No rated table plays this game")
        result = self.store.result(table.table_id) if table.state == "settled" else None
        kind = kind_of_pool(table.pool)
        levels = {lv.handle: lv for lv in bots.LEVELS}
        accounts = {s.account_id: self.store.account(s.account_id) for s in table.seats}
        bot = {i: a is not None and a.bot for i, a in accounts.items()}
        seats: list[Body] = []
        if result is not None:
            changes = {c.account_id: c for c in result.changes}
            for seat in table.seats:
                line: Body = _seat_line(seat, levels, bot[seat.account_id], kind)
                change = changes.get(seat.account_id)
                seats.append(
                    {**line, **change_body(change, len(changes))}
                    if change is not None
                    else {**line, "rated": False}
                )
            return {
                "game_uuid": table.game_uuid,
                "pool": table.pool,
                **where_played(table),
                "state": "settled",
                "seats": seats,
            }
        rated = self._rated_seats(table)
        before = {
            s.account_id: self.store.rating(s.account_id, table.pool)
            or model.initial(s.account_id, table.pool)
            for s in table.seats
        }
        playing = [s for s in table.seats if s.account_id in rated]
        stakes = dict(
            zip(
                (s.account_id for s in playing),
                model.stakes([before[s.account_id] for s in playing]),
                strict=True,
            )
        )
        for seat in table.seats:
            rating = before[seat.account_id]
            line = {**_seat_line(seat, levels, bot[seat.account_id], kind), **rating_body(rating)}
            if seat.account_id in stakes:
                win, loss = stakes[seat.account_id]
                line |= {"rated": True, "if_first": win, "if_last": loss}
            else:
                line["rated"] = False
            seats.append(line)
        return {
            "game_uuid": table.game_uuid,
            "pool": table.pool,
            **where_played(table),
            "state": table.state,
            "seats": seats,
        }


def _place_of(finished: TableFinished, seat: Seat) -> int:
    """The place ``seat`` took: a person's by its player UUID, a computer level's by the
    agent of the level whose handle it is (each level sits at most once at a table)."""
    if seat.player_uuid is not None:
        uuid = seat.player_uuid  # (the seat's first secret: it may have moved since)
        found = [s.place for s in finished.seats if s.held_by(uuid)]
    elif finished.kind != "blef":  # seated as the agent the table stored for it
        found = [s.place for s in finished.seats if s.agent is not None and s.agent == seat.agent]
    else:
        agent = next((lv.agent for lv in bots.LEVELS if lv.handle == seat.handle), seat.agent)
        found = [s.place for s in finished.seats if s.agent is not None and s.agent == agent]
    if len(found) != 1:
        raise ValueError(f"seat {seat.account_id} is not at game {finished.game_uuid} once")
    return found[0]


def _seat_line(seat: Seat, levels: dict[str, bots.Level], bot: bool, kind: str) -> Body:
    line: Body = {"handle": seat.handle, "bot": bot or seat.handle in levels}
    level = levels.get(seat.handle)
    if level is not None:
        line |= {"agent": bots.level_agent(level, kind), "level": level.name}
    return line


def _record(history: list[Result], account_id: str) -> list[Body]:
    """Each pool's wins (first places) and losses (any other place) in ``history``, the
    games rated for the account (a void game counts for neither)."""
    by_pool: dict[str, Body] = {}
    for result in history:
        place = next((c.place for c in result.changes if c.account_id == account_id), None)
        if place is None:
            continue
        line = by_pool.setdefault(result.pool, {"pool": result.pool, "wins": 0, "losses": 0})
        line["wins" if place == 1 else "losses"] += 1
    return sorted(by_pool.values(), key=lambda line: str(line["pool"]))


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


def _level_of(account: Account) -> bots.Level | None:
    return next(
        (lv for lv in bots.LEVELS if account.agent is not None and lv.agent == account.agent), None
    )
