"""The one write path: every change of a game, a player's or the clock's, goes through
:meth:`WritePath.change`.

It loads the game, answers a repeated ``Idempotency-Key`` with the reply already given,
rebuilds the engine's :class:`Game`, lets the use case decide (a function of the document and
the game returning an :class:`Outcome`), stamps the times (``last_modified``, the move
deadline and when the game is next due, app/service/timing.py), then saves conditionally on
the version that was read, with the snapshots of the rounds that ended, in one atomic write.
A lost race is tried again when the use case allows it (:class:`Retry`), else it raises
:class:`ConflictError` (HTTP 409) and nothing is written. After a save every listener (the
websocket watchers, the clock of ``blef serve``) is told of the :class:`Change`, in the order
of the game's versions.

A use case never saves, never builds a reply by hand and never smuggles a result out: its
:class:`Outcome` says what to answer (a :data:`Reply`, built by :func:`reply`,
:func:`message` or :func:`state_of`), which rounds ended, whether anything changed at all,
and what to do once the change stands (``then``).
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import threading
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Final, TypeVar

from app.config.settings import Settings
from app.service import match_timing, timing
from app.service.errors import (
    ConflictError,
    GameNotFound,
    IdempotencyKeyReused,
    InvalidParameter,
    StaleVersion,
)
from app.service.match_record import logged_state
from app.service.parse import game_uuid as parse_game_uuid
from app.service.responses import snapshot_body, state_body
from app.store.base import Conflict, GameDoc, RoundSnapshot, Store
from engine.dealing import SeedSource
from engine.game import Game, RoundRecord
from engine.match import BLEF, Match
from engine.views import view_for

log = logging.getLogger("blef.service")

Body = dict[str, Any]
Reply = Callable[[GameDoc, Sequence[RoundSnapshot]], Body]
"""Builds a reply from the document as saved and the snapshots saved with it."""

KEEP_REPLIES: Final = 16
"""Idempotent replies kept per game. A retry comes within seconds, while the same few
moves are in flight; keeping few keeps the stored item (and each DynamoDB write) small."""
RETRIED_ATTEMPTS: Final = 8
_ORDER_STRIPES: Final = 64
TICK: Final = 0.001
"""The least step between two ``last_modified`` values: every version is strictly newer
than the one before, and an ended round's snapshot sits strictly between them."""


class Retry(Enum):
    """What the write path does when a request loses the race to save."""

    NEVER = "never"
    """Answer 409: the request was decided on a state that is gone."""
    ALWAYS = "always"
    """Apply it again to the fresher state: what the client asked is the same there (a join,
    every table request)."""
    IF_GAME_UNCHANGED = "if game unchanged"
    """Apply it again only if the engine's state is still the one it was decided on (a move:
    a reaction that won the race changed no card and no turn)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a use case decided: the reply, the rounds that ended, whether to write at all
    (``changed`` False: answer and write nothing), and what to do once the reply stands."""

    reply: Reply
    ended: Sequence[RoundRecord] = ()
    changed: bool = True
    then: Callable[[], None] | None = None


Decide = Callable[[GameDoc, Game], Outcome]
G = TypeVar("G")
T = TypeVar("T")


def reply(body: Body) -> Reply:
    """A reply that is the same whatever was saved."""
    return lambda _doc, _snapshots: body


def message(text: str) -> Reply:
    return reply({"message": text})


def unchanged(text: str) -> Outcome:
    """Nothing to change: answer ``text`` (``Request redundant - ...``) and write nothing."""
    return Outcome(message(text), changed=False)


def state_of(game: Game, nickname: str) -> Reply:
    """The state ``nickname`` sees right after the change, as saved."""
    return lambda doc, _snapshots: state_body(doc, view_for(game, nickname))


def ended_round(doc: GameDoc, snapshots: Sequence[RoundSnapshot]) -> Body:
    """The snapshot of the round the change ended, every hand shown."""
    return snapshot_body(doc, snapshots[0])


@dataclass(frozen=True, slots=True)
class Change:
    """A game as just saved (``doc``), as it was before (None when it was just created),
    and the snapshots of the rounds that ended in this change, oldest first."""

    doc: GameDoc
    previous: GameDoc | None
    snapshots: tuple[RoundSnapshot, ...] = ()


Listener = Callable[[Change], None]

Shape = Callable[[GameDoc, Game, Sequence[RoundSnapshot], Body], Body]
"""Turns a Blef use case's reply into another shape's, from the document as saved, the game
after the change, the snapshots saved with it and the use case's own reply."""

_SHAPE: ContextVar[tuple[str, Shape] | None] = ContextVar("blef_reply_shape", default=None)


@contextmanager
def answering(name: str, shape: Shape) -> Iterator[None]:
    """Within this block, a Blef change (:meth:`WritePath.change`) answers in another shape:
    ``shape`` of its reply, and that is what an ``Idempotency-Key`` keeps, so a repeat gets
    the first answer of that shape unchanged (how ``/blef/games`` answers its table,
    app/service/blef_tables.py). The key's request is marked ``name``: the same key sent
    once in each shape is two requests (the second is ``idempotency_key_reused``)."""
    token = _SHAPE.set((name, shape))
    try:
        yield
    finally:
        _SHAPE.reset(token)


class WritePath:
    """The one way a game is changed (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        clock: Callable[[], float],
        seed_source: SeedSource | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.seed_source = seed_source
        self._listeners: list[Listener] = []
        # A game's saves and their announcements happen under one of these locks, so that
        # listeners hear of a game's versions in order even when threads race to save.
        self._order = [threading.Lock() for _ in range(_ORDER_STRIPES)]

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every :class:`Change` saved from now on, in the thread
        that saved it, in the order of the game's versions. A listener must be quick and
        must not raise (what it raises is logged and ignored)."""
        self._listeners.append(listener)

    def announce(self, change: Change) -> None:
        for listener in self._listeners:
            try:
                listener(change)
            except Exception:
                log.exception("listener_failed")

    def load(self, game_uuid: str, kind: str | None = BLEF) -> GameDoc:
        """The game, or :class:`GameNotFound` in the established wording; with ``kind``,
        a game of another kind is not found either (a table of one game is never read or
        changed as another's)."""
        doc = self.store.load(game_uuid)
        if doc is None or (kind is not None and doc.kind != kind):
            raise _not_found(game_uuid)
        return doc

    def change(
        self,
        game_uuid: str,
        decide: Decide,
        *,
        key: str | None = None,
        fingerprint: str = "",
        retry: Retry = Retry.NEVER,
        expected_version: int | None = None,
        read: GameDoc | None = None,
    ) -> Body:
        """Apply ``decide`` to the Blef game (see the module docstring). With ``key``, a
        repeat of the same request (``fingerprint``) gets the first reply. With
        ``expected_version``, the change is refused (:class:`StaleVersion`) unless the game
        is still at that version: how the clock acts on what it decided from that version.
        ``read`` is the game as the caller has just read it: the first attempt starts from
        it instead of reading the game again. Inside :func:`answering`, the reply (and what
        the key keeps) is in that shape."""
        shaping = _SHAPE.get()
        if shaping is not None:
            name, shape = shaping
            fingerprint = _fingerprint(fingerprint, name)
            decide = _shaped(decide, shape)
        return self._change(
            game_uuid,
            BLEF,
            self._open_blef,
            decide,
            self._stamp,
            key=key,
            fingerprint=fingerprint,
            retry=retry,
            expected_version=expected_version,
            read=read,
        )

    def change_match(
        self,
        game_uuid: str,
        kind: str,
        decide: Callable[[GameDoc, Match], Outcome],
        *,
        key: str | None = None,
        fingerprint: str = "",
        retry: Retry = Retry.NEVER,
        expected_version: int | None = None,
        read: GameDoc | None = None,
    ) -> Body:
        """:meth:`change` for a table of ``kind`` (any game but Blef, engine/match.py): the
        same loading, idempotency, conditional save, retries and announcements; the times
        are the match's (app/service/match_timing.py). ``decide`` sees the match with no
        events yet: what it applies are the events this version shows."""
        return self._change(
            game_uuid,
            kind,
            self._open_match,
            decide,
            self._stamp_match,
            key=key,
            fingerprint=fingerprint,
            retry=retry,
            expected_version=expected_version,
            read=read,
        )

    def _open_blef(self, doc: GameDoc) -> tuple[Game, timing.Turn]:
        game = Game.from_dict(doc.state, seed_source=self.seed_source)
        return game, timing.turn_of(game)

    def _open_match(self, doc: GameDoc) -> tuple[Match, int]:
        match = Match.from_dict(doc.state, seeds=self.seed_source)
        match.events = []
        return match, match.step

    def _change(
        self,
        game_uuid: str,
        kind: str,
        open_game: Callable[[GameDoc], tuple[G, T]],
        decide: Callable[[GameDoc, G], Outcome],
        stamp: Callable[[GameDoc, GameDoc, G, T, Sequence[RoundRecord]], list[RoundSnapshot]],
        *,
        key: str | None,
        fingerprint: str,
        retry: Retry,
        expected_version: int | None,
        read: GameDoc | None,
    ) -> Body:
        gid = parse_game_uuid(game_uuid)
        decided_on: dict[str, Any] | None = None
        for attempt in range(1 if retry is Retry.NEVER else RETRIED_ATTEMPTS):
            doc = read if read is not None and attempt == 0 else self.load(gid, kind)
            if doc.kind != kind:
                raise _not_found(gid)
            if key is not None:
                earlier = _earlier_reply(doc, key, fingerprint)
                if earlier is not None:
                    return earlier
            if retry is Retry.IF_GAME_UNCHANGED:
                if decided_on is not None and doc.state != decided_on:
                    raise ConflictError
                decided_on = doc.state
            if expected_version is not None and doc.version != expected_version:
                raise StaleVersion
            game, turn_before = open_game(doc)
            work = replace(
                doc,
                player_uuids=dict(doc.player_uuids),
                replies=dict(doc.replies),
                social=copy.deepcopy(doc.social),
            )
            outcome = decide(work, game)
            if not outcome.changed:
                return _stands(outcome, outcome.reply(doc, ()))
            snapshots = stamp(doc, work, game, turn_before, outcome.ended)
            body = outcome.reply(work, snapshots)
            if key is not None:
                _remember(work, key, fingerprint, body)
            try:
                with self._order[zlib.crc32(gid.encode()) % _ORDER_STRIPES]:
                    self.store.save(work, doc.version, snapshots)
                    self.announce(Change(work, doc, tuple(snapshots)))
            except Conflict:
                log.info("conflict", extra={"attempt": attempt + 1})
                continue
            return _stands(outcome, body)
        if key is not None:  # the winner of the race may have been our own retry
            earlier = _earlier_reply(self.load(gid, kind), key, fingerprint)
            if earlier is not None:
                return earlier
        raise ConflictError

    def _stamp_match(
        self,
        doc: GameDoc,
        work: GameDoc,
        match: Match,
        step_before: int,
        _ended: Sequence[RoundRecord],
    ) -> list[RoundSnapshot]:
        """A match's new version: state (with its log of public events, when its kind keeps
        a record: app/service/match_record.py), version, times, and when it is next due."""
        now = self.clock()
        work.state = logged_state(doc.state, match)
        work.version = doc.version + 1
        work.last_modified = max(now, doc.last_modified + TICK)
        work.expires_at = int(now) + self.settings.game_ttl_seconds
        due = match_timing.plan(
            step_before,
            match,
            now=now,
            time_limit=work.time_limit,
            think_seconds=self.settings.ai_think_seconds,
            deadline_before=doc.move_deadline,
            due_before=doc.due_at,
        )
        work.move_deadline, work.due_at = due.move_deadline, due.due_at
        return []

    def _stamp(
        self,
        doc: GameDoc,
        work: GameDoc,
        game: Game,
        turn_before: timing.Turn,
        ended: Sequence[RoundRecord],
    ) -> list[RoundSnapshot]:
        """The new version's state, version, times and due time; the ended rounds'
        snapshots, each strictly between the version before and this one."""
        now = self.clock()
        work.state = game.to_dict()
        work.version = doc.version + 1
        # Strictly newer than the version before, with room for the ended rounds'
        # snapshots in between (clients order what they receive by last_modified).
        work.last_modified = max(now, doc.last_modified + TICK * (len(ended) + 1))
        work.expires_at = int(now) + self.settings.game_ttl_seconds
        due = timing.plan(
            turn_before,
            game,
            now=now,
            time_limit=work.time_limit,
            think_seconds=self.settings.ai_think_seconds,
            deadline_before=doc.move_deadline,
            due_before=doc.due_at,
        )
        work.move_deadline, work.due_at = due.move_deadline, due.due_at
        return [
            RoundSnapshot(
                work.game_uuid,
                record.number,
                record.to_dict(),
                work.last_modified - TICK * (len(ended) - i),
            )
            for i, record in enumerate(ended)
        ]


def _not_found(game_uuid: str) -> GameNotFound:
    # The established wording names the parameter, as for every bad input.
    reason = GameNotFound.default_message
    return GameNotFound(InvalidParameter("game_uuid", game_uuid, reason).message)


def _shaped(decide: Decide, shape: Shape) -> Decide:
    def shaped(doc: GameDoc, game: Game) -> Outcome:
        outcome = decide(doc, game)
        inner = outcome.reply

        def answer(saved: GameDoc, snapshots: Sequence[RoundSnapshot]) -> Body:
            return shape(saved, game, snapshots, inner(saved, snapshots))

        return replace(outcome, reply=answer)

    return shaped


def _stands(outcome: Outcome, body: Body) -> Body:
    if outcome.then is not None:
        outcome.then()
    return body


def fingerprint(*parts: str) -> str:
    """What identifies a request, so that an Idempotency-Key reused for another request is
    told apart from a retry."""
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


_fingerprint = fingerprint


def key_hash(key: str) -> str:
    """What is stored of an Idempotency-Key: its SHA-256, so a reader of the database (or
    of a backup) cannot replay a stored reply that holds a secret."""
    return "sha256:" + hashlib.sha256(key.encode()).hexdigest()


def earlier_reply(doc: GameDoc, key: str, fingerprint: str) -> Body | None:
    """The first answer given to the request keyed ``key`` on this game, unchanged; None if
    there was none (or it is no longer kept); :class:`IdempotencyKeyReused` if the key was
    first sent with another request (``fingerprint``)."""
    earlier = doc.replies.get(key_hash(key))
    if earlier is None:
        return None
    if earlier.get("fingerprint") != fingerprint:
        raise IdempotencyKeyReused
    body: Body = earlier["body"]
    return body


_earlier_reply = earlier_reply

PINNED: Final = "pinned"
"""Marks the one reply never evicted: the keyed create's (app/service/lobby.py), which no
later request could make again (its game exists once)."""


def remember_first(doc: GameDoc, key: str, fingerprint: str, body: Body) -> None:
    """Keep the answer of the request that made the game (keyed ``key``) for as long as the
    game lives: its replay gets it unchanged, whatever has happened at the table since."""
    doc.replies[key_hash(key)] = {
        "fingerprint": fingerprint,
        "body": json.loads(json.dumps(body)),
        PINNED: True,
    }


def _remember(doc: GameDoc, key: str, fingerprint: str, body: Body) -> None:
    doc.replies[key_hash(key)] = {"fingerprint": fingerprint, "body": json.loads(json.dumps(body))}
    evictable = [k for k, kept in doc.replies.items() if not kept.get(PINNED)]
    while len(evictable) > KEEP_REPLIES:
        del doc.replies[evictable.pop(0)]
