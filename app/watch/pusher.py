"""The AWS pusher: from the games table's stream to every watcher's websocket.

The table's stream (``NEW_AND_OLD_IMAGES``) reaches the pusher through an event source
mapping whose filter lets three kinds of record through (infra/blef_infra/watch.py), and
this module checks them again:

- **A game changed**: its live item (``sk = STATE``) inserted or modified. The new image holds
  the whole game document, so nothing is read back: every watcher of the game is sent the
  state object for its viewer, built exactly as ``GET /games/{game_uuid}`` builds it (for a
  table of another game, ``GET /{game}/games/{game_uuid}``'s body for the watcher's seat:
  :func:`app.service.match_body.watched_body`). **Every** version in the batch is sent, in
  version order (records of a batch are sorted, so one out of order changes nothing).
- **A round ended**: a round item (``sk = ROUND#nnnn``) inserted, in the same transaction as
  the state that follows the round. Every watcher is sent the round's snapshot (every hand,
  the history ending with 89, ``loser``, the round item's own ``last_modified``), built as
  the local websocket builds it, just **before** the first state of
  the batch that is past that round (a later round, or Finished).
- **A watcher connected**: a watcher item (``sk = CONN#<connection id>``) inserted by
  ``$connect``. API Gateway lets no message through before ``$connect`` has answered, so
  this is how a new connection gets its first message, the game's current state (read from
  the table), as the local websocket sends on connecting.

A change of a game that is listed, or was listed before the change (the old image), is also
sent to every public-games watcher, as :func:`app.watch.messages.public_game_message`: the
game's UUID, room, ``public`` ("true"/"false"), ``last_modified`` and nicknames, never a
state or a hand.

The pusher shapes no message itself: a version's state for a seat, whether a seat is gone
and why, and an ended round come from its ``SeatViews`` (app/service/watched.py, given by the
websocket function's runtime), built as the HTTP routes build them.

A watcher is bound to the seat of the player who connected (app/service/seats.py), never to
a nickname: each version is shaped for the player in that seat as the version names them, so
a renamed player goes on watching as themselves. Whether a watcher stays is decided **once
per batch, from the newest version the pusher knows**: the newest of the batch, or, when the
seat is absent there, the game as stored now (read once), since a batch may lag behind the
table (two joins close together, a retried batch) and a watcher may have connected from a
seat that joined after the batch's versions. A seat present in that newest version is sent
each version of the batch it sits in (a version from before its player joined is skipped,
never a reason to close); a seat absent there, its player gone (left, removed) or its seat
moved to another device, is sent a last message saying which, ``{"error", "code":
"unknown_player"}`` or ``"seat_moved"``, and its connection is closed and forgotten: nothing
of their seat, nor of whoever takes their nickname next, reaches it.

Messages are posted through the API Gateway management API: each connection's messages one
after the other, in order, and connections a few at a time in threads. A connection API
Gateway reports gone (``GoneException``, 410) has its items deleted and is sent nothing
more; a new connection is given a moment first, in case its handshake has not quite
finished. Any other failure to post is logged and skipped: the next change sends the whole
state again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

from botocore.exceptions import BotoCoreError, ClientError

from app.service.errors import SeatMoved
from app.store.base import GameDoc, RoundSnapshot
from app.store.dynamo.stream import ended_round, state_doc
from app.watch.connections import Connections, Watcher
from app.watch.messages import (
    envelope,
    public_game_message,
    state_message,
)
from engine.facts import Status
from engine.match import BLEF

log = logging.getLogger("blef.watch")

POST_THREADS: Final = 8
"""Connections posted to at once (each connection's messages one after the other)."""
WELCOME_RETRY_SECONDS: Final = (0.25, 0.75)
"""Pauses before posting a new connection's first message again after a 410."""

Outcome = Literal["sent", "gone", "failed"]


class ManagementApi(Protocol):
    """The calls of boto3's ``apigatewaymanagementapi`` client the pusher makes."""

    def post_to_connection(self, *, Data: bytes, ConnectionId: str) -> Any: ...  # noqa: N803 (boto3 names)

    def delete_connection(self, *, ConnectionId: str) -> Any: ...  # noqa: N803 (boto3 names)


class GameReader(Protocol):
    """Where a new watcher's game is read from (a GameStore)."""

    def load(self, game_uuid: str) -> GameDoc | None: ...


class SeatViews(Protocol):
    """What the pusher is told of a stored game, built as the HTTP routes build it
    (app/service/watched.py): it shapes nothing itself."""

    def seat_body(self, doc: GameDoc, seat: str | None) -> dict[str, Any] | None: ...

    def gone(self, doc: GameDoc, seat: str | None) -> str | None: ...

    def round_body(self, doc: GameDoc, snapshot: RoundSnapshot) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class PushReport:
    """What one batch of stream records led to."""

    games: int = 0
    """Games whose change was pushed."""
    sent: int = 0
    gone: int = 0
    """Connections found gone, whose items were deleted."""
    failed: int = 0


@dataclass(frozen=True, slots=True)
class _Delivery:
    watcher: Watcher
    data: bytes
    welcome: bool
    last: bool = False
    """The connection is closed once this message is posted (its player left the game)."""


LEFT_MESSAGE: Final = envelope(
    403,
    {"error": "You are no longer a player of this game", "code": "unknown_player"},
).encode()
"""What a watcher whose player has left (or was removed) is sent before it is closed."""
MOVED_MESSAGE: Final = envelope(
    403, {"error": SeatMoved.default_message, "code": SeatMoved.code}
).encode()
"""What a watcher of a seat that moved to another device is sent before it is closed."""


@dataclass(frozen=True, slots=True)
class StateChange:
    """One version of a game from the stream, with the version before it (None on insert,
    or when the stream carried no old image)."""

    doc: GameDoc
    previous: GameDoc | None

    @property
    def public(self) -> bool:
        """Whether public-games watchers are told of it: listed now, or until now."""
        if self.doc.kind != BLEF:  # the iOS public list is of Blef games only
            return False
        return self.doc.listed or (self.previous is not None and self.previous.listed)


@dataclass(slots=True)
class GameBatch:
    """What a batch holds of one game: its versions and its ended rounds, each sorted."""

    changes: list[StateChange]
    rounds: list[RoundSnapshot]

    def in_order(self) -> list[StateChange | RoundSnapshot]:
        """The versions in version order, each ended round just before the first version
        that is past it (a later round, or the game finished); a round whose next state is
        not in this batch comes last."""
        rounds = sorted(self.rounds, key=lambda r: r.round_number)
        ordered: list[StateChange | RoundSnapshot] = []
        for change in sorted(self.changes, key=lambda c: c.doc.version):
            while rounds and _past(change.doc, rounds[0]):
                ordered.append(rounds.pop(0))
            ordered.append(change)
        return ordered + rounds


def _past(doc: GameDoc, snapshot: RoundSnapshot) -> bool:
    facts = doc.facts
    return facts.round_number > snapshot.round_number or facts.status is Status.FINISHED


@dataclass(slots=True)
class Batch:
    """A batch of stream records, read: each game's changes, and the watchers that
    connected."""

    games: dict[str, GameBatch]
    joined: list[Watcher]


class _Messages:
    """The messages for one game document, each viewer's built once."""

    def __init__(self, doc: GameDoc, views: SeatViews) -> None:
        self.doc = doc
        self.views = views
        self._by_seat: dict[str | None, bytes | None] = {}

    def for_seat(self, seat: str | None) -> bytes | None:
        """The state for the player in ``seat`` (None: an observer), or None if that seat
        is not in this version of the game."""
        if seat not in self._by_seat:
            body = self.views.seat_body(self.doc, seat)
            self._by_seat[seat] = None if body is None else state_message(body).encode()
        return self._by_seat[seat]

    def farewell(self, seat: str | None) -> bytes | None:
        """None if a watcher of ``seat`` stays (an observer, or a seat present in this
        version); else the last message to send it before closing it: its seat moved to
        another device, or its player is no longer in the game."""
        gone = self.views.gone(self.doc, seat)
        if gone is None:
            return None
        return MOVED_MESSAGE if gone == SeatMoved.code else LEFT_MESSAGE


class _Newest:
    """The newest version of one game the pusher knows: the newest of the batch, or the
    game as stored now, read once and only when a seat is absent from the batch's newest
    (the stream may lag behind the table)."""

    def __init__(
        self,
        game_uuid: str,
        batch_newest: GameDoc | None,
        games: GameReader,
        views: SeatViews,
    ) -> None:
        self.game_uuid = game_uuid
        self._messages = None if batch_newest is None else _Messages(batch_newest, views)
        self._games = games
        self._views = views
        self._read = False

    def messages_for(self, seat: str | None) -> _Messages | None:
        """The newest known version's messages, as far as ``seat`` is concerned (None: the
        game is gone)."""
        known = self._messages
        if known is not None and known.farewell(seat) is None:
            return known
        if not self._read:
            self._read = True
            stored = self._games.load(self.game_uuid)
            if stored is not None and (known is None or stored.version > known.doc.version):
                self._messages = _Messages(stored, self._views)
        return self._messages


def read_records(records: Iterable[Mapping[str, Any]]) -> Batch:
    """Each changed game's versions and ended rounds, and the watchers that connected, in a
    batch of DynamoDB stream records (anything else is ignored; a record repeated by a retry
    counts once)."""
    games: dict[str, GameBatch] = {}
    joined: list[Watcher] = []
    for record in records:
        stream = record.get("dynamodb") or {}
        image = stream.get("NewImage")
        event_name = record.get("eventName")
        if not image or event_name not in ("INSERT", "MODIFY"):
            continue
        doc = state_doc(image)
        if doc is not None:
            batch = games.setdefault(doc.game_uuid, GameBatch([], []))
            if all(c.doc.version != doc.version for c in batch.changes):
                batch.changes.append(StateChange(doc, state_doc(stream.get("OldImage"))))
            continue
        if event_name != "INSERT":
            continue
        snapshot = ended_round(image)
        if snapshot is not None:
            batch = games.setdefault(snapshot.game_uuid, GameBatch([], []))
            if all(r.round_number != snapshot.round_number for r in batch.rounds):
                batch.rounds.append(snapshot)
            continue
        watcher = Watcher.from_item(dict(image))
        if watcher is not None and not watcher.public:
            joined.append(watcher)
    return Batch(games, joined)


def _game_of(game: GameBatch) -> str:
    """The game a batch's items belong to."""
    if game.changes:
        return game.changes[0].doc.game_uuid
    return game.rounds[0].game_uuid


def _code(error: ClientError) -> str | None:
    return error.response.get("Error", {}).get("Code")


def _gone(error: ClientError) -> bool:
    code = _code(error)
    status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
    return code == "GoneException" or status == 410


class Pusher:
    """Sends each stream batch's changes to the watchers (see the module docstring)."""

    def __init__(
        self,
        connections: Connections,
        games: GameReader,
        management: ManagementApi,
        views: SeatViews,
        *,
        threads: int = POST_THREADS,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.connections = connections
        self.games = games
        self.management = management
        self.views = views
        self.threads = threads
        self._sleep = sleep

    def handle(self, event: Mapping[str, Any]) -> PushReport:
        batch = read_records(event.get("Records") or [])
        deliveries: list[_Delivery] = []
        newest: dict[str, _Newest] = {}
        public_watchers: list[Watcher] | None = None
        for game_uuid, game in batch.games.items():
            watchers = self.connections.watchers(game_uuid)
            versions = [c.doc for c in game.changes]
            latest = max(versions, key=lambda d: d.version) if versions else None
            known = newest[game_uuid] = _Newest(game_uuid, latest, self.games, self.views)
            for item in game.in_order():
                if isinstance(item, RoundSnapshot):
                    deliveries += self._snapshot(game, item, watchers)
                    continue
                messages = _Messages(item.doc, self.views)
                for watcher in watchers:  # a version without the watcher's seat is skipped
                    data = messages.for_seat(watcher.seat)
                    if data is not None:
                        deliveries.append(_Delivery(watcher, data, False))
                if item.public:
                    if public_watchers is None:
                        public_watchers = self.connections.public_watchers()
                    data = public_game_message(item.doc).encode()
                    deliveries += [_Delivery(w, data, False) for w in public_watchers]
            for watcher in watchers:  # judged by the newest version known, once
                deliveries += self._farewell(known, watcher, welcome=False)
        served = {d.watcher.connection_id for d in deliveries}
        for watcher in batch.joined:
            if watcher.connection_id in served:  # it has this batch's states already
                continue
            assert watcher.game_uuid is not None  # read_records keeps game watchers only
            if watcher.game_uuid not in newest:
                newest[watcher.game_uuid] = _Newest(watcher.game_uuid, None, self.games, self.views)
            deliveries += self._welcome(newest[watcher.game_uuid], watcher)

        outcomes = self._post_all(deliveries)
        report = PushReport(
            games=len(batch.games),
            sent=outcomes.count("sent"),
            gone=outcomes.count("gone"),
            failed=outcomes.count("failed"),
        )
        log.info(
            "pushed",
            extra={
                "games": report.games,
                "welcomed": len(batch.joined),
                "public_watchers": len(public_watchers or ()),
                "sent": report.sent,
                "gone": report.gone,
                "failed": report.failed,
            },
        )
        return report

    def _snapshot(
        self, game: GameBatch, snapshot: RoundSnapshot, watchers: list[Watcher]
    ) -> list[_Delivery]:
        """The ended round for every watcher, with the game's fields taken from the state
        written with it (the first one past the round), as the local websocket does."""
        after = [c.doc for c in game.changes if _past(c.doc, snapshot)]
        doc = min(after, key=lambda d: d.version) if after else self.games.load(_game_of(game))
        if doc is None:
            return []
        data = state_message(self.views.round_body(doc, snapshot)).encode()
        return [_Delivery(watcher, data, False) for watcher in watchers]

    @staticmethod
    def _farewell(known: _Newest, watcher: Watcher, *, welcome: bool) -> list[_Delivery]:
        """The last message of a watcher whose seat is absent from the newest version
        known (then it is closed); nothing for one that stays."""
        messages = known.messages_for(watcher.seat)
        if messages is None:  # the game is gone (expired): nothing more to send
            return []
        last = messages.farewell(watcher.seat)
        return [] if last is None else [_Delivery(watcher, last, welcome, last=True)]

    @classmethod
    def _welcome(cls, known: _Newest, watcher: Watcher) -> list[_Delivery]:
        """A new watcher's first message: the newest known state for its seat (or, for a
        seat gone since it connected, why it is closed)."""
        messages = known.messages_for(watcher.seat)
        if messages is None:
            return []
        data = messages.for_seat(watcher.seat)
        if data is None:
            return cls._farewell(known, watcher, welcome=True)
        return [_Delivery(watcher, data, True)]

    def _post_all(self, deliveries: list[_Delivery]) -> list[Outcome]:
        """Each connection's messages in order, one after the other; connections in
        parallel. A connection found gone is sent nothing more."""
        queues: dict[str, list[_Delivery]] = {}
        for delivery in deliveries:
            queues.setdefault(delivery.watcher.connection_id, []).append(delivery)
        if len(queues) <= 1:
            return [o for queue in queues.values() for o in self._post_queue(queue)]
        with ThreadPoolExecutor(max_workers=min(self.threads, len(queues))) as pool:
            return [o for found in pool.map(self._post_queue, queues.values()) for o in found]

    def _post_queue(self, queue: list[_Delivery]) -> list[Outcome]:
        outcomes: list[Outcome] = []
        for delivery in queue:
            outcomes.append(self._post(delivery))
            if outcomes[-1] == "gone":
                break
            if delivery.last:
                self._close(delivery.watcher)
                break
        return outcomes

    def _close(self, watcher: Watcher) -> None:
        """Close a connection whose player left, and forget it (whether or not API Gateway
        still knew it: nothing more is ever sent to it)."""
        try:
            self.management.delete_connection(ConnectionId=watcher.connection_id)
        except ClientError as error:
            if not _gone(error):
                log.warning("close_failed", extra={"error_code": _code(error)})
        except BotoCoreError as error:
            log.warning("close_failed", extra={"error_type": type(error).__name__})
        self.connections.forget(watcher)

    def _post(self, delivery: _Delivery) -> Outcome:
        pauses = WELCOME_RETRY_SECONDS if delivery.welcome else ()
        for attempt in range(len(pauses) + 1):
            if attempt:
                self._sleep(pauses[attempt - 1])
            try:
                self.management.post_to_connection(
                    ConnectionId=delivery.watcher.connection_id, Data=delivery.data
                )
            except ClientError as error:
                if _gone(error):
                    continue
                log.warning("push_failed", extra={"error_code": _code(error)})
                return "failed"
            except BotoCoreError as error:
                log.warning("push_failed", extra={"error_type": type(error).__name__})
                return "failed"
            return "sent"
        self.connections.forget(delivery.watcher)
        return "gone"
