"""Watching over a websocket, for ``blef serve``: ``/ws`` (also ``/ws/{stage}``).

The established iOS client opens ``<websocket URL>/<stage>`` in two ways:

- **A game watcher**, with the request headers ``game_uuid`` and ``player_uuid`` (absent for
  an observer; browsers, which cannot set headers on a websocket, may send the game as a
  query parameter). The first message is the current state; then every change of the game,
  each as its own message, in order, none skipped: for a change that ended a round, first
  that round's snapshot (every hand, history ending with 89, ``loser``), then the state that
  follows. Each message is ``{"statusCode": 200, "body": "<JSON string>"}`` whose body is
  exactly what ``GET /games/{game_uuid}`` (or ``?round=N``) gives the same viewer; for a
  table of another game (Economancy, Figgie), what ``GET /{game}/games/{game_uuid}`` gives
  the watcher's seat (the secret also as ``Authorization: Bearer``), every version.
  Credentials the HTTP route would refuse get one message ``{"statusCode": 400, "body":
  "{\\"error\\": ..., \\"code\\": ...}"}`` (403 for a UUID retired by a seat move) and
  the close code 1008. A watcher whose player leaves is closed (1008, ``unknown_player``);
  one whose seat moves to another device is sent the 403 ``seat_moved`` refusal first.
- **A public-games watcher**, with no game at all (its start and join screens): the first
  messages are the games listed now, one each; then, for every change of a game that is or
  just stopped being public, ``{"game_uuid", "room", "public", "last_modified", "players"}``.

Changes come from the service's in-process notifications (app/watch/hub.py), not from polling.
What a watcher is sent (its seat's state, whether its seat is gone and why, an ended round)
comes from the same views the AWS pusher asks (app/service/watched.py), so the two runtimes
cannot disagree. Messages from the client are read and ignored; pings are answered by the
server.
At most ``max_websockets`` are open per process, and each address opens at most
``websocket_opens_burst`` at once, then ``websocket_opens_per_second``: one more is closed
with code 1013 and a reason that says which.

On AWS this route does not run: an API Gateway WebSocket API and app/entrypoints/websocket.py
send the same messages, pushed from the table's stream.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Final, TypeVar

import anyio
import anyio.to_thread
from fastapi import APIRouter, Depends, WebSocket, WebSocketDisconnect

from app.api.deps import ServiceProvider
from app.api.errors import status_of
from app.api.fairness import TokenBuckets
from app.service import GameService
from app.service.errors import SeatMoved
from app.service.seats import seat_key
from app.service.writes import Change
from app.store.base import GameDoc
from app.watch.hub import Hub, Subscription
from app.watch.messages import (
    Credentials,
    credentials,
    error_message,
    public_game_message,
    state_message,
)
from engine.errors import BlefError

if TYPE_CHECKING:
    from app.service.watched import WatchedViews

log = logging.getLogger("blef.watch")

router = APIRouter(tags=["watch"])

CLOSE_REFUSED: Final = 1008
"""Policy violation: the credentials name no game, or no player of it."""
CLOSE_TRY_AGAIN_LATER: Final = 1013
"""Too many websockets open in this process (or this watcher fell too far behind); the
client may reconnect later."""
READ_THREADS: Final = 4
"""Threads the watchers' store reads share (a read of one game takes well under 1 ms)."""

T = TypeVar("T")


class Watchers:
    """The open websockets of one app: how many (bounded), the hub that feeds them, and the
    threads their store reads run in; and how fast each address opens them (``opens``: a
    token bucket per address, None for no bound)."""

    def __init__(
        self,
        limit: int,
        service: GameService,
        per_address: int = 0,
        opens: TokenBuckets | None = None,
    ) -> None:
        self.limit = limit
        self.per_address = per_address
        self.opens = opens
        self.open = 0
        self.by_address: dict[str, int] = {}
        self.hub = Hub()
        from app.service.watched import WatchedViews  # noqa: PLC0415 (off the HTTP cold start)

        self.views = WatchedViews()
        service.subscribe(self.hub.notice)
        self._threads: anyio.CapacityLimiter | None = None

    def too_soon(self, address: str) -> float:
        """Take one of ``address``'s opens: 0.0 if it had one, else the seconds until it
        will (the open is refused, and takes nothing)."""
        return 0.0 if self.opens is None else self.opens.take(("websocket", address))

    def enter(self, address: str = "") -> bool:
        """Count one more websocket, unless the bound is reached, in all or for the client's
        address (so one client cannot hold every slot; 0: no bound per address)."""
        mine = self.by_address.get(address, 0)
        if self.open >= self.limit or (self.per_address and mine >= self.per_address):
            return False
        self.open += 1
        self.by_address[address] = mine + 1
        return True

    def leave(self, address: str = "") -> None:
        self.open -= 1
        mine = self.by_address.get(address, 0) - 1
        if mine > 0:
            self.by_address[address] = mine
        else:
            self.by_address.pop(address, None)

    async def run(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` in one of the watchers' threads (the store blocks)."""
        if self._threads is None:  # made inside the event loop, on first use
            self._threads = anyio.CapacityLimiter(READ_THREADS)
        return await anyio.to_thread.run_sync(function, *args, limiter=self._threads)


def watch_service(websocket: WebSocket) -> GameService:
    provider: ServiceProvider = websocket.app.state.services
    return provider.get()


WatchServiceDep = Annotated[GameService, Depends(watch_service)]


def _watchers(websocket: WebSocket, service: GameService) -> Watchers:
    state = websocket.app.state
    watchers: Watchers | None = getattr(state, "watchers", None)
    if watchers is None:  # no await since the check: no other task can get here between
        settings = service.settings
        opens = None
        if settings.websocket_opens_burst:
            opens = TokenBuckets(
                settings.websocket_opens_burst, settings.websocket_opens_per_second
            )
        watchers = Watchers(
            settings.max_websockets, service, settings.max_websockets_per_address, opens
        )
        state.watchers = watchers
    return watchers


@router.websocket("/ws")
@router.websocket("/ws/{stage}")
async def watch(websocket: WebSocket, service: WatchServiceDep) -> None:
    """Send the game's (or the public games') state now and after every change."""
    watchers = _watchers(websocket, service)
    address = websocket.client.host if websocket.client else "unknown"
    await websocket.accept()
    wait = watchers.too_soon(address)
    if wait:
        log.warning("websocket_refused", extra={"code": "too_many_websocket_opens"})
        await websocket.close(CLOSE_TRY_AGAIN_LATER, too_many_opens(wait))
        return
    if not watchers.enter(address):
        log.warning("websocket_refused", extra={"open": watchers.open})
        await websocket.close(CLOSE_TRY_AGAIN_LATER, "Too many websockets open; try again later")
        return
    subscription = Subscription(asyncio.get_running_loop())
    try:
        viewer = credentials(websocket.headers, websocket.query_params)
        async with anyio.create_task_group() as tasks:

            async def send() -> None:
                try:
                    if viewer.game_uuid:
                        await _follow_game(websocket, service, watchers, viewer, subscription)
                    else:
                        await _follow_public(websocket, service, watchers, subscription)
                except WebSocketDisconnect:
                    pass  # the client went while a message was being sent
                finally:  # the game went, or the client: stop reading too
                    tasks.cancel_scope.cancel()

            tasks.start_soon(send)
            await _until_disconnect(websocket)
            tasks.cancel_scope.cancel()
    except WebSocketDisconnect:
        pass
    finally:
        watchers.hub.leave(subscription)
        watchers.leave(address)


def too_many_opens(wait: float) -> str:
    """The close reason of an open past its address's rate (under the 123 bytes a close
    frame's reason may hold)."""
    return f"Too many websockets opened from your address; try again in {math.ceil(wait)} s"


async def _follow_game(
    websocket: WebSocket,
    service: GameService,
    watchers: Watchers,
    viewer: Credentials,
    subscription: Subscription,
) -> None:
    # Subscribe before reading, so no change between the read and the subscription is lost;
    # changes the read already shows are skipped by version.
    found = await _viewer(websocket, service, watchers, viewer)
    if found is None:
        return
    doc, nickname = found
    # The watcher is bound to the player's seat, not to a nickname a newcomer may take.
    seat = None if nickname is None else seat_key(doc.player_uuids[nickname])
    watchers.hub.watch_game(doc.game_uuid, subscription)
    found = await _viewer(websocket, service, watchers, viewer)  # the player may have left
    if found is None:
        return
    doc = found[0]
    views = watchers.views
    seen = -1
    while True:
        if doc.version > seen:
            seen = doc.version
            if not await _send_version(websocket, views, doc, seat):
                return
        change = await _next(websocket, subscription)
        if change is None:
            return
        if change.doc.version <= seen:
            continue
        for snapshot in change.snapshots:
            await websocket.send_text(state_message(views.round_body(change.doc, snapshot)))
        doc = change.doc


async def _send_version(
    websocket: WebSocket, views: WatchedViews, doc: GameDoc, seat: str | None
) -> bool:
    """Send the watcher of ``seat`` (None: an observer) its state in this version; or, when
    the seat is gone from it, why (a seat moved to another device gets the 403 refusal
    first) and close. Whether the watcher stays."""
    gone = views.gone(doc, seat)
    if gone == "seat_moved":
        await websocket.send_text(error_message(403, SeatMoved()))
        await websocket.close(CLOSE_REFUSED, SeatMoved.code)
        return False
    body = views.seat_body(doc, seat) if gone is None else None
    if body is None:  # the watcher's player left the game
        await websocket.close(CLOSE_REFUSED, "unknown_player")
        return False
    await websocket.send_text(state_message(body))
    return True


async def _viewer(
    websocket: WebSocket, service: GameService, watchers: Watchers, viewer: Credentials
) -> tuple[GameDoc, str | None] | None:
    """The game and the watcher's nickname in it (None: an observer); or, for credentials
    the state route would refuse, None after telling the client why and closing."""
    try:
        return await watchers.run(service.viewer, viewer.game_uuid, viewer.player_uuid, None)
    except BlefError as error:
        await websocket.send_text(error_message(status_of(error), error))
        await websocket.close(CLOSE_REFUSED, error.code)
        return None


async def _follow_public(
    websocket: WebSocket, service: GameService, watchers: Watchers, subscription: Subscription
) -> None:
    watchers.hub.watch_public(subscription)
    listed: list[GameDoc] = []
    for entry in await watchers.run(service.list_public):
        doc = await watchers.run(service.store.load, entry["game_uuid"])
        if doc is not None and doc.listed:
            listed.append(doc)
    seen = {doc.game_uuid: doc.version for doc in listed}
    for doc in listed:
        await websocket.send_text(public_game_message(doc))
    while True:
        change = await _next(websocket, subscription)
        if change is None:
            return
        if change.doc.version <= seen.get(change.doc.game_uuid, 0):
            continue
        seen[change.doc.game_uuid] = change.doc.version
        await websocket.send_text(public_game_message(change.doc))


async def _next(websocket: WebSocket, subscription: Subscription) -> Change | None:
    """The next change to send, or None (after closing) if the watcher fell too far behind."""
    change = await subscription.queue.get()
    if change is None or subscription.overflowed:
        log.warning("websocket_overflowed")
        await websocket.close(CLOSE_TRY_AGAIN_LATER, "Too far behind; reconnect")
        return None
    return change


async def _until_disconnect(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends until it disconnects."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
