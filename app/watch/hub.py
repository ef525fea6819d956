"""Every change, pushed in order: the in-process fan-out of ``blef serve``.

The service announces every saved :class:`~app.service.writes.Change` (in the order of each
game's versions, from whichever thread saved it). The :class:`Hub` hands each change to the
subscriptions of its game, and, when the game is public or has just stopped being public,
to the public-games subscriptions, each an unbounded-in-time but bounded-in-size queue
consumed by one websocket's task in the event loop. Nothing is polled, so no version is
skipped. A watcher too slow to keep up (its queue full) is told so and closed rather than
silently skipped (see app/api/routes/watch.py).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Final

from app.service.writes import Change
from engine.match import BLEF

QUEUE_LIMIT: Final = 1_000
"""Changes one watcher may fall behind by before it is closed (a game makes a few a second
at most; a watcher this far behind is not reading)."""


class Subscription:
    """The changes one websocket has still to send, in order."""

    def __init__(self, loop: asyncio.AbstractEventLoop, limit: int = QUEUE_LIMIT) -> None:
        self.loop = loop
        self.limit = limit
        self.queue: asyncio.Queue[Change | None] = asyncio.Queue()
        self.overflowed = False

    def put(self, change: Change) -> None:
        """From any thread: queue ``change`` in the watcher's event loop."""
        self.loop.call_soon_threadsafe(self._put, change)

    def _put(self, change: Change) -> None:
        if self.overflowed:
            return
        if self.queue.qsize() >= self.limit:
            self.overflowed = True
            self.queue.put_nowait(None)  # wakes the watcher to close
            return
        self.queue.put_nowait(change)


class Hub:
    """Subscriptions by game, and to the public games; a listener of the service."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[str, set[Subscription]] = {}
        self._public: set[Subscription] = set()

    def watch_game(self, game_uuid: str, subscription: Subscription) -> None:
        with self._lock:
            self._games.setdefault(game_uuid, set()).add(subscription)

    def watch_public(self, subscription: Subscription) -> None:
        with self._lock:
            self._public.add(subscription)

    def leave(self, subscription: Subscription) -> None:
        with self._lock:
            self._public.discard(subscription)
            for game_uuid in [g for g, subs in self._games.items() if subscription in subs]:
                subs = self._games[game_uuid]
                subs.discard(subscription)
                if not subs:
                    del self._games[game_uuid]

    def notice(self, change: Change) -> None:
        """The service's listener: hand ``change`` to whoever watches it."""
        doc = change.doc
        public = doc.kind == BLEF and (  # the public-games watchers list Blef's games only
            doc.listed or (change.previous is not None and change.previous.listed)
        )
        with self._lock:
            targets = list(self._games.get(doc.game_uuid, ()))
            if public:
                targets.extend(self._public)
        for subscription in targets:
            subscription.put(change)
