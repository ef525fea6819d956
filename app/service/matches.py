"""Tables of any game but Blef: the lobby verbs, the view and the move, for every kind the
engine knows (engine/games.py; the table itself is engine/match.py).

The same service as Blef's: every change goes through the one write path
(:meth:`~app.service.writes.WritePath.change_match`), which refuses a game of another kind as
not found; a seat's secret is its ``player_uuid`` in ``GameDoc.player_uuids``; nicknames
keep the rules and the profanity filter of Blef's join; ``Idempotency-Key`` replays the first
reply (a create's and a join's key must be hard to guess, their replies hold a secret); the
public list is the store's, by kind; games expire as Blef's do. Built-in computer players
move when the clock wakes the game (app/service/match_due.py).

**Orders are rate-limited per seat**: a token bucket of ``Settings.order_burst`` moves refilled at
``Settings.order_rate`` a second, kept in the game's document (``social["orders"]``) and so
holding across processes; past it a move is refused (:class:`TooManyOrders`, 429) and
nothing is written.

**A lost race** (two moves on one version) is decided again on the fresher state (the
write path's retry): the second of two lifts of one ask finds the quote gone (any trade
cancels every quote) and is refused with the game's reason and a sentence that says so.
"""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Mapping
from typing import Any, Final

from app.service import parse, seats, social
from app.service.base import UseCases, nickname_of
from app.service.errors import (
    ConflictError,
    GameGone,
    InvalidParameter,
    MalformedByGame,
    NotAPlayer,
    RefusedByGame,
    SeatSecretRefused,
    TooManyOrders,
    UnknownGameKind,
)
from app.service.match_body import Body, refusals, table_body
from app.service.match_record import record_body
from app.service.profanity import refuse_profane
from app.service.writes import (
    Change,
    Outcome,
    Retry,
    earlier_reply,
    fingerprint,
    key_hash,
    remember_first,
    reply,
)
from app.store.base import Conflict, GameDoc
from engine import errors as rules
from engine.games import KINDS, definition
from engine.match import BLEF, Match, agent_nickname_stem
from engine.match_agents import agent_names, resolve

MAX_LISTED: Final = 50


def hosted(kind: str) -> str:
    """``kind`` if these use cases serve it (every game but Blef, whose tables are
    app/service/blef_tables.py's), else :class:`UnknownGameKind`."""
    if kind not in KINDS or kind == BLEF:
        hosted = ", ".join(KINDS)
        raise UnknownGameKind(f"No game called {kind[:40]!r} is hosted here; the games: {hosted}")
    return kind


def secret_of(value: str | None) -> str:
    if value is None or value == "":
        raise SeatSecretRefused("Send your seat's secret as Authorization: Bearer <player_uuid>")
    try:
        return parse.player_uuid(value)
    except InvalidParameter:
        raise SeatSecretRefused from None


def seat_of(doc: GameDoc, match: Match, secret: str) -> tuple[str, int]:
    try:
        nickname = nickname_of(doc, secret)
    except NotAPlayer:
        raise SeatSecretRefused from None
    return nickname, match.table.seat_of(nickname)


def seat_person(doc: GameDoc, match: Match, name: str, secret: str) -> None:
    """Seat the person ``name`` with ``secret``; a nickname hidden at this table (or its
    alias) is taken; refusals name the parameter, as a join's do."""
    try:
        if social.is_reserved_name(doc.social, name):
            raise rules.NicknameTaken
        match.join(name)
    except (rules.InvalidNickname, rules.NicknameTaken) as error:
        message = InvalidParameter("nickname", name, error.message).message
        raise type(error)(message) from None
    doc.player_uuids[name] = secret


def hide_reported(doc: GameDoc, match: Match) -> None:
    """Show as ``Player_<seat>`` every person whom every other person has reported."""
    table = match.table
    for nickname in social.to_hide(doc.social, table, doc.player_uuids):
        new = social.alias(doc.social, table, nickname)
        table.rename(nickname, new)
        doc.player_uuids[new] = doc.player_uuids.pop(nickname)
        social.hide(doc.social, doc.player_uuids, nickname, new)


def _drop(doc: GameDoc, nickname: str) -> None:
    """Forget a person who left the lobby or was removed: their secret (and any rematch
    seat bound to it) and what the table noted of them; if nobody is left, everything but
    who was hidden (and the seats moved away, still told so)."""
    secret = doc.player_uuids.pop(nickname, None)
    if secret is not None:
        seats.free(doc.social, seats.seat_key(secret))
    social.forget(doc.social, nickname)


def _take_order_token(doc: GameDoc, seat: int, now: float, burst: int, rate: float) -> None:
    """Spends one of ``seat``'s order tokens (``burst`` at most, refilled at ``rate`` a
    second), or refuses; ``burst`` 0 is no limit."""
    if not burst:
        return
    buckets: dict[str, Any] = doc.social.setdefault("orders", {})
    bucket = buckets.get(str(seat)) or {"tokens": float(burst), "at": now}
    tokens = min(float(burst), bucket["tokens"] + max(0.0, now - bucket["at"]) * rate)
    if tokens < 1.0:
        wait = math.ceil((1.0 - tokens) / rate)
        raise TooManyOrders(
            f"This seat sent more than {burst} moves at once or {rate:g} a second; wait {wait} s",
            retry_after=max(1, wait),
        )
    buckets[str(seat)] = {"tokens": tokens - 1.0, "at": now}


class Matches(UseCases):
    """The use cases of the tables' routes (see the module docstring)."""

    # ------------------------------------------------------------------ reading

    def game_info(self, kind: str) -> Body:
        game = definition(hosted(kind))
        return {
            "name": game.name,
            "title": game.title,
            "min_seats": game.min_seats,
            "max_seats": game.max_seats,
            "rules": game.rules_to_dict(game.default_rules()),
            "agents": agent_names(kind),
        }

    def list_tables(self, kind: str) -> Body:
        """The public tables of ``kind`` still in the lobby, newest first."""
        game = definition(hosted(kind))
        since = self.now - self.settings.public_list_window_seconds
        listed = self.store.list_public(since, MAX_LISTED, kind=kind)
        entries = []
        for entry in listed:
            doc = self.store.load(entry.game_uuid)
            if doc is None or doc.kind != kind or not doc.listed:
                continue
            entries.append(
                {
                    "game_uuid": doc.game_uuid,
                    "room": doc.room,
                    "seats": doc.nicknames,
                    "max_seats": game.max_seats,
                    "rules": doc.state.get("rules", {}),
                }
            )
        return {"games": entries}

    def table(self, kind: str, game_uuid: str, secret: str | None) -> Body:
        """The table as the Bearer's seat sees it (no secret: a spectator's view)."""
        hosted(kind)
        with refusals():
            doc = self.writes.load(parse.game_uuid(game_uuid), kind)
        match = Match.from_dict(doc.state)
        seat = None
        if secret is not None and secret != "":
            seat = seat_of(doc, match, secret_of(secret))[1]
        return table_body(doc, match, seat)

    def table_record(self, kind: str, game_uuid: str) -> Body:
        """A finished table's record, for anyone (app/service/match_record.py);
        :class:`~app.service.errors.GameNotFinished` while it is in the lobby or played."""
        hosted(kind)
        with refusals():
            doc = self.writes.load(parse.game_uuid(game_uuid), kind)
        return record_body(doc.game_uuid, doc.room, doc.state)

    # ------------------------------------------------------------------ the lobby

    def create_table(
        self,
        kind: str,
        rules_value: Mapping[str, Any] | None = None,
        public: bool = False,
        time_limit: object = 0,
        idempotency_key: str | None = None,
    ) -> Body:
        """A new table of ``kind`` in the lobby (nobody seated: the first to join is its
        admin). A repeat of a keyed create answers the same table."""
        hosted(kind)
        limit = parse.time_limit(time_limit)
        with refusals():
            match = Match.new(kind, rules_value)
        match.table.public = bool(public)
        key = None if idempotency_key is None else parse.strong_key(idempotency_key)
        request = fingerprint("table", kind, json.dumps(match.rules, sort_keys=True))
        request = fingerprint(request, str(bool(public)), str(limit))
        if key is not None:
            earlier = self.store.find_create_key(key_hash(key))
            if earlier is not None:
                return self._keyed_table(earlier, key, request)
        now = self.now
        doc = GameDoc(
            game_uuid=self.new_secret(),
            room=self.store.allocate_room(),
            state=match.to_dict(),
            created_at=now,
            last_modified=now,
            expires_at=int(now) + self.settings.game_ttl_seconds,
            time_limit=limit,
        )
        body = {"game_uuid": doc.game_uuid, "room": doc.room, "kind": kind}
        if key is not None:
            remember_first(doc, key, request, body)
        try:
            self.store.create(doc)
        except Conflict:
            raise ConflictError from None
        self.writes.announce(Change(doc, None))
        if key is not None:
            claimed = self.store.claim_create_key(key_hash(key), doc.game_uuid, doc.expires_at)
            if claimed != doc.game_uuid:
                return self._keyed_table(claimed, key, request)
        return body

    def _keyed_table(self, game_uuid: str, key: str, request: str) -> Body:
        doc = self.store.load(game_uuid)
        if doc is None:
            raise GameGone
        earlier = earlier_reply(doc, key, request)
        if earlier is None:
            raise GameGone("The first answer to this Idempotency-Key is no longer kept")
        return earlier

    def join_table(
        self,
        kind: str,
        game_uuid: str,
        nickname: str | None,
        idempotency_key: str | None = None,
    ) -> Body:
        """Seat a person; answers their secret and their seat (join order)."""
        hosted(kind)
        name = parse.nickname(nickname)
        refuse_profane(name)
        if idempotency_key is not None:
            parse.strong_key(idempotency_key)
        secret = self.new_secret()

        def seat(doc: GameDoc, match: Match) -> Outcome:
            seat_person(doc, match, name, secret)
            return Outcome(reply({"player_uuid": secret, "seat": match.table.seat_of(name)}))

        return self._change(
            kind, game_uuid, seat, idempotency_key, fingerprint("join", name), Retry.ALWAYS
        )

    def leave_table(
        self, kind: str, game_uuid: str, secret: str | None, idempotency_key: str | None = None
    ) -> Body:
        player = secret_of(secret)

        def leave(doc: GameDoc, match: Match) -> Outcome:
            nickname, _seat = seat_of(doc, match, player)
            match.table.leave(nickname)
            _drop(doc, nickname)
            if match.table.admin is None:  # nobody left: the AI players went too
                doc.player_uuids.clear()
                kept = {"hidden": doc.social.get("hidden", {})}
                if seats.MOVED in doc.social:
                    kept[seats.MOVED] = doc.social[seats.MOVED]
                doc.social = kept
            hide_reported(doc, match)  # whose last non-reporter just left
            return Outcome(lambda saved, _: table_body(saved, match, None))

        return self._change(
            kind, game_uuid, leave, idempotency_key, fingerprint("leave", player), Retry.ALWAYS
        )

    def ready_table(
        self,
        kind: str,
        game_uuid: str,
        secret: str | None,
        ready: bool,
        idempotency_key: str | None = None,
    ) -> Body:
        player = secret_of(secret)

        def set_ready(doc: GameDoc, match: Match) -> Outcome:
            nickname, seat = seat_of(doc, match, player)
            if not match.table.set_ready(nickname, ready):
                return Outcome(lambda saved, _: table_body(saved, match, seat), changed=False)
            return Outcome(lambda saved, _: table_body(saved, match, seat))

        request = fingerprint("ready", player, str(ready))
        return self._change(kind, game_uuid, set_ready, idempotency_key, request, Retry.ALWAYS)

    def start_table(
        self, kind: str, game_uuid: str, secret: str | None, idempotency_key: str | None = None
    ) -> Body:
        """The admin starts: the game is set up for the seats in join order."""
        player = secret_of(secret)

        def start(doc: GameDoc, match: Match) -> Outcome:
            nickname, seat = seat_of(doc, match, player)
            match.start(by=nickname, seeds=self.writes.seed_source, now=self.now)
            return Outcome(lambda saved, _: table_body(saved, match, seat))

        return self._change(kind, game_uuid, start, idempotency_key, fingerprint("start", player))

    def seat_agent(
        self,
        kind: str,
        game_uuid: str,
        secret: str | None,
        agent: str | None,
        idempotency_key: str | None = None,
    ) -> Body:
        """The admin seats a built-in computer player (``Name_(AI)``)."""
        hosted(kind)
        player = secret_of(secret)
        if agent is None or agent == "":
            raise InvalidParameter("agent", agent, "Name a built-in agent: " + _agents(kind))
        try:
            canonical = resolve(kind, agent)
        except KeyError:
            raise InvalidParameter("agent", agent, "The agents are: " + _agents(kind)) from None

        def seat_ai(doc: GameDoc, match: Match) -> Outcome:
            match.table.check_seat_free()
            nickname, seat = seat_of(doc, match, player)
            match.table.check_admin(nickname)
            ai = match.table.ai_nickname(agent_nickname_stem(canonical))
            match.join(ai, ai_agent=canonical)
            return Outcome(lambda saved, _: table_body(saved, match, seat))

        request = fingerprint("ai", player, canonical)
        return self._change(kind, game_uuid, seat_ai, idempotency_key, request, Retry.ALWAYS)

    def remove_from_table(
        self,
        kind: str,
        game_uuid: str,
        secret: str | None,
        nickname: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """The admin removes another player, person or computer, from the lobby."""
        player = secret_of(secret)
        name = parse.player_name(nickname)

        def remove(doc: GameDoc, match: Match) -> Outcome:
            admin, _seat = seat_of(doc, match, player)
            removed = match.table.player_named(name)
            match.table.remove(removed, by=admin)
            _drop(doc, removed)
            hide_reported(doc, match)
            return Outcome(lambda saved, _: table_body(saved, match, match.table.seat_of(admin)))

        request = fingerprint("remove", player, name)
        return self._change(kind, game_uuid, remove, idempotency_key, request, Retry.ALWAYS)

    # ------------------------------------------------------------------ playing

    def move(
        self,
        kind: str,
        game_uuid: str,
        secret: str | None,
        move: Any,
        idempotency_key: str | None = None,
    ) -> Body:
        """The Bearer's seat makes ``move`` (the game's move JSON); answers the table as it
        sees it after the move. Refused as the game refuses it (nothing changes)."""
        hosted(kind)
        player = secret_of(secret)
        with refusals():
            definition(kind).parse_move(move)  # malformed input is refused before any read
        tries = [0]

        def play(doc: GameDoc, match: Match) -> Outcome:
            tries[0] += 1
            _nickname, seat = seat_of(doc, match, player)
            now = self.now
            _take_order_token(doc, seat, now, self.settings.order_burst, self.settings.order_rate)
            try:
                match.apply(seat, move, now)
            except RefusedByGame:
                raise
            except rules.BlefError as error:
                if not isinstance(error, rules.GameNotStarted | rules.GameFinished):
                    raise
                raise RefusedByGame(error.message, error.code) from None
            except Exception as error:
                if tries[0] > 1 and not isinstance(error, MalformedByGame):
                    _lost_race(error)
                raise
            return Outcome(lambda saved, _: table_body(saved, match, seat))

        request = fingerprint("move", player, json.dumps(move, sort_keys=True))
        with refusals():
            return self._change(kind, game_uuid, play, idempotency_key, request, Retry.ALWAYS)

    # ------------------------------------------------------------------ the write path

    def _change(
        self,
        kind: str,
        game_uuid: str,
        decide: Any,
        key: str | None,
        request: str,
        retry: Retry = Retry.NEVER,
    ) -> Body:
        hosted(kind)
        with refusals():
            return self.writes.change_match(
                game_uuid, kind, decide, key=key, fingerprint=request, retry=retry
            )


def _lost_race(error: Exception) -> None:
    """A move refused on its retry: what it was meant for is gone since it was sent."""
    from engine.protocol import MoveRefused  # noqa: PLC0415

    if isinstance(error, MoveRefused):
        raise RefusedByGame(
            f"{error.message}. Another move came first and took what this one was meant for"
            " (a quote is gone once any trade is made); nothing was applied",
            error.code,
        ) from None


def _agents(kind: str) -> str:
    return ", ".join(agent_names(kind))


def new_seed() -> int:
    """A fresh seed for a computer player's move."""
    return secrets.randbits(63)
