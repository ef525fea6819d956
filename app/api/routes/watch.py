"""Watching a game over a websocket, for ``blef serve``: ``/ws`` (also ``/ws/{stage}``).

The established iOS client opens ``<websocket URL>/<stage>`` with the request headers
``game_uuid`` and ``player_uuid`` (absent for an observer); browsers, which cannot set
headers on a websocket, may send them as query parameters instead. The first message is the
current state, then one message per change of the game, each
``{"statusCode": 200, "body": "<state object as a JSON string>"}`` with exactly the body
``GET /games/{game_uuid}`` gives the same viewer. Credentials the HTTP route would refuse get
one message ``{"statusCode": 400, "body": "{\\"error\\": ..., \\"code\\": ...}"}`` and the close
code 1008. Messages from the client are read and ignored; websocket pings are answered by the
server itself.

Each watcher polls its game's version every ``websocket_poll_seconds``, in a small thread
pool of its own so that watchers never hold up the HTTP routes' threads. At most
``max_websockets`` are open per process: one more is closed with code 1013 (try again later).

On AWS this route does not run: an API Gateway WebSocket API and app/websocket_handler.py
send the same messages, pushed from the table's stream.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated, Final, TypeVar

import anyio
import anyio.to_thread
from fastapi import APIRouter, Depends, WebSocket, WebSocketDisconnect

from app.api.deps import ServiceProvider
from app.api.errors import status_of
from app.service import GameService
from app.watch.messages import Credentials, credentials, error_message, state_message
from engine.errors import BlefError

log = logging.getLogger("blef.watch")

router = APIRouter(tags=["watch"])

CLOSE_REFUSED: Final = 1008
"""Policy violation: the credentials name no game, or no player of it."""
CLOSE_TRY_AGAIN_LATER: Final = 1013
"""Too many websockets open in this process; the client may reconnect later."""
POLL_THREADS: Final = 4
"""Threads the watchers' store reads share (a read of one game takes well under 1 ms)."""

T = TypeVar("T")


class Watchers:
    """The open websockets of one app: how many (bounded), how often they poll, and the
    threads their store reads run in."""

    def __init__(self, limit: int, poll_seconds: float, per_address: int = 0) -> None:
        self.limit = limit
        self.poll_seconds = poll_seconds
        self.per_address = per_address
        self.open = 0
        self.by_address: dict[str, int] = {}
        self._threads: anyio.CapacityLimiter | None = None

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
            self._threads = anyio.CapacityLimiter(POLL_THREADS)
        return await anyio.to_thread.run_sync(function, *args, limiter=self._threads)


def _watchers(websocket: WebSocket) -> Watchers:
    state = websocket.app.state
    watchers: Watchers | None = getattr(state, "watchers", None)
    if watchers is None:  # no await since the check: no other task can get here between
        settings = state.services.settings
        watchers = Watchers(
            settings.max_websockets,
            settings.websocket_poll_seconds,
            settings.max_websockets_per_address,
        )
        state.watchers = watchers
    return watchers


def watch_service(websocket: WebSocket) -> GameService:
    provider: ServiceProvider = websocket.app.state.services
    return provider.get()


WatchServiceDep = Annotated[GameService, Depends(watch_service)]


@router.websocket("/ws")
@router.websocket("/ws/{stage}")
async def watch(websocket: WebSocket, service: WatchServiceDep) -> None:
    """Send the game's state now and after every change, until the client goes."""
    watchers = _watchers(websocket)
    address = websocket.client.host if websocket.client else "unknown"
    await websocket.accept()
    if not watchers.enter(address):
        log.warning("websocket_refused", extra={"open": watchers.open})
        await websocket.close(CLOSE_TRY_AGAIN_LATER, "Too many websockets open; try again later")
        return
    try:
        await _serve(websocket, service, watchers)
    except WebSocketDisconnect:
        pass  # the client went while a message was being sent
    finally:
        watchers.leave(address)


async def _serve(websocket: WebSocket, service: GameService, watchers: Watchers) -> None:
    viewer = credentials(websocket.headers, websocket.query_params)
    version = await _send_state(websocket, service, watchers, viewer)
    if version is None:
        return
    async with anyio.create_task_group() as tasks:

        async def follow() -> None:
            try:
                await _follow(websocket, service, watchers, viewer, version)
            except WebSocketDisconnect:
                pass  # the client went while a message was being sent
            finally:  # the game went, or the client: stop reading too
                tasks.cancel_scope.cancel()

        tasks.start_soon(follow)
        await _until_disconnect(websocket)
        tasks.cancel_scope.cancel()


async def _send_state(
    websocket: WebSocket, service: GameService, watchers: Watchers, viewer: Credentials
) -> int | None:
    """Send the viewer's state and return its version; or send the refusal, close, and
    return None."""
    try:
        reply = await watchers.run(service.state, viewer.game_uuid, viewer.player_uuid)
    except BlefError as error:
        await websocket.send_text(error_message(status_of(error), error))
        await websocket.close(CLOSE_REFUSED, error.code)
        return None
    await websocket.send_text(state_message(reply.body))
    return int(reply.body["version"])


async def _follow(
    websocket: WebSocket,
    service: GameService,
    watchers: Watchers,
    viewer: Credentials,
    version: int,
) -> None:
    """Poll the game's version; send the state whenever it moved on."""
    seen: int | None = version
    while seen is not None:
        await anyio.sleep(watchers.poll_seconds)
        try:
            if await watchers.run(service.version, viewer.game_uuid) != seen:
                seen = await _send_state(websocket, service, watchers, viewer)
        except WebSocketDisconnect:
            raise
        except Exception as error:  # a store hiccup: try again at the next tick
            log.warning("websocket_poll_failed", extra={"error_type": type(error).__name__})


async def _until_disconnect(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends until it disconnects."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
