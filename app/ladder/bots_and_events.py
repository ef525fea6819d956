"""The ladder's use cases, bots and events: an account turned bot for good, the computer
levels (each a bot account of its own, made on first use), and the events a bot polls for."""

from __future__ import annotations

import contextlib
import logging

from app.ladder import bots
from app.ladder.base import Body, LadderBase, own_change, rating_body, where_played
from app.ladder.errors import CannotBecomeBot
from app.ladder.handles import look_key
from app.ladder.pools import POOLS
from app.ladder.store import SEATED, Account, LadderConflict, Result
from app.service.errors import GameNotFound, SeatMoved

log = logging.getLogger("blef.ladder")


class BotsAndEvents(LadderBase):
    """Bots and events (see the module docstring)."""

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
                ratings[pool.name] = rating_body(rated) if rated is not None else {"rated": False}
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
                look_key=look_key(level.handle),
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
        self.still_here(account)  # a bot polling its events is there: its place is kept
        key = bots.cursor_key(account.account_id, account.secret_hash, account.created_at)
        cursor = bots.parse_cursor(after, key)
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
            events += [_game_over(self, r, account.account_id) for r in reversed(unseen)]
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
            self.seen_at(table, account.account_id)  # told its seat, now or before
            where = where_played(table)
            moved = False
            try:
                view = (
                    self.games.table(where["kind"], game, player)
                    if where
                    else self.games.state(game, player).body
                )
            except SeatMoved:  # the player took the seat to another device: its secret is
                view, moved = {}, True  # retired, and the new one is that device's alone
            except GameNotFound:
                view = {}
            if table.table_id != cursor.table:
                table_id, turn = table.table_id, 0
                seat_said: Body = {"seat_moved": True} if moved else {"player_uuid": player}
                events.append(
                    {
                        "type": "game_started",
                        "game_uuid": game,
                        **seat_said,
                        "pool": table.pool,
                        **where,
                    }
                )
            mine = (
                view.get("your_turn") is True
                if where
                else view.get("cp_nickname") == view.get("you")
            )
            if view.get("status") == "Running" and mine:
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
        return {"events": events, "cursor": nxt.encode(key), "wait_on": wait_on}


def _game_over(ladder: LadderBase, result: Result, account_id: str) -> Body:
    table = ladder.store.table(result.table_id) if not result.changes else None
    return {"type": "game_over", **own_change(result, account_id, table)}
