"""The clock of ``blef serve``: a thread in the server's own process.

Its agenda is a heap of ``(due_at, game, version)``, one entry per game and due time. It is
rebuilt from the store when the clock starts (so a restart picks up every pending AI move
and deadline), and fed by the service's change notifications (every saved change that leaves
something due at a time not yet on the agenda: a Figgie market trading up to its deadline
adds one entry, not one per trade). The thread sleeps until the earliest entry is due (or a
new one arrives), then calls the service's :meth:`~app.service.due.WhenDue.advance_due`,
which acts on the entry's version or on a later one due at the same time, and whose
conditional write makes a stale entry (the game moved on to another time) a no-op. An
entry found early is put back at its new time; one whose advance failed (a store hiccup) is
tried again a little later, so nothing pending is lost.
Every ``purge_interval`` it also deletes expired games from the store.

Tests drive it without the thread: :meth:`LocalClock.run_due` acts on what is due by the
service's (fake) clock, in the calling thread.
"""

from __future__ import annotations

import heapq
import logging
import threading
from typing import TYPE_CHECKING, Final

from app.service import GameService
from app.service.writes import Change

if TYPE_CHECKING:
    from app.ladder.service import Ladder

log = logging.getLogger("blef.clock")

REBUILD_LIMIT: Final = 100_000
"""Pending games read back on start (each is one running game with a clock on it)."""
RETRY_SECONDS: Final = 1.0
"""How soon an entry whose advance failed is tried again."""
MAX_SLEEP_SECONDS: Final = 5.0
"""The longest the thread sleeps without looking at the agenda (a clock that jumps)."""
FAR_FUTURE_SECONDS: Final = 10 * 365 * 24 * 3600.0
LADDER_SECONDS: Final = 1.0
"""How often the ladder's matcher looks at the queues (sooner when a join or a game over
wakes it): the windows widen with time, so it must look even when nothing happens."""


class LocalClock:
    """The agenda and its thread (see the module docstring)."""

    def __init__(
        self,
        service: GameService,
        *,
        purge_interval: float = 600.0,
        ladder: Ladder | None = None,
    ) -> None:
        self.service = service
        self.ladder = ladder
        """The ladder whose matcher and settlements this thread runs (``blef serve``)."""
        self.purge_interval = purge_interval
        self._heap: list[tuple[float, str, int]] = []
        self._queued: set[tuple[str, float]] = set()
        """The (game, due time) pairs on the agenda."""
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._next_purge = 0.0
        self._next_ladder = 0.0
        service.subscribe(self.notice)

    # ------------------------------------------------------------------ the agenda

    def notice(self, change: Change) -> None:
        """A listener of the service: put a change that leaves something due on the agenda."""
        if change.doc.due_at is not None:
            self.schedule(change.doc.game_uuid, change.doc.version, change.doc.due_at)

    def schedule(self, game_uuid: str, version: int, due_at: float) -> None:
        with self._wake:
            if (game_uuid, due_at) in self._queued:
                return  # the entry for that time stands for this version too
            self._queued.add((game_uuid, due_at))
            heapq.heappush(self._heap, (due_at, game_uuid, version))
            self._wake.notify()

    def rebuild(self) -> int:
        """Put every game the store says is pending on the agenda; returns how many."""
        now = self.service.now
        pending = self.service.pending(now + FAR_FUTURE_SECONDS, REBUILD_LIMIT)
        for due in pending:
            self.schedule(due.game_uuid, due.version, due.due_at)
        return len(pending)

    def pending(self) -> int:
        with self._wake:
            return len(self._heap)

    # ------------------------------------------------------------------ acting

    def run_due(self) -> int:
        """Act on every entry due by now, in order; returns how many changed a game."""
        acted = 0
        while True:
            with self._wake:
                if not self._heap or self._heap[0][0] > self.service.now:
                    return acted
                due_at, game_uuid, version = heapq.heappop(self._heap)
                self._queued.discard((game_uuid, due_at))
            try:
                result = self.service.advance_due(game_uuid, version, due_at)
            except Exception:
                log.exception("clock_advance_failed")
                self.schedule(game_uuid, version, self.service.now + RETRY_SECONDS)
                continue
            acted += result.acted
            early = not result.acted and result.version is not None and result.due_at is not None
            if early and (result.version == version or result.due_at == due_at):
                assert result.version is not None
                assert result.due_at is not None
                self.schedule(game_uuid, result.version, result.due_at)  # it was early

    def run_until_idle(self, limit: int = 100_000) -> int:
        """Act until nothing is due by now (at most ``limit`` rounds of :meth:`run_due`);
        returns how many changes were made. With a think time of 0, this plays every AI
        move up to the next human's turn."""
        total = 0
        for _ in range(limit):
            acted = self.run_due()
            if not acted:
                return total
            total += acted
        return total

    def purge(self) -> int:
        """Delete expired games now; returns how many went."""
        gone = self.service.purge_expired()
        if gone:
            log.info("purged_expired_games", extra={"games": gone})
        return gone

    # ------------------------------------------------------------------ the thread

    def start(self) -> None:
        """Rebuild the agenda from the store and start the thread."""
        if self._thread is not None:
            return
        self._stopping = False
        self.rebuild()
        self._next_purge = self.service.now
        self._thread = threading.Thread(target=self._run, name="blef-clock", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        thread = self._thread
        if thread is None:
            return
        with self._wake:
            self._stopping = True
            self._wake.notify()
        thread.join(timeout=10)
        self._thread = None

    def _run(self) -> None:
        while True:
            with self._wake:
                if self._stopping:
                    return
                now = self.service.now
                wake_at = min(self._next_purge, self._heap[0][0] if self._heap else now + 60)
                if self.ladder is not None:  # at least every LADDER_SECONDS
                    wake_at = now if self.ladder.woken.is_set() else min(wake_at, self._next_ladder)
                if wake_at > now:
                    self._wake.wait(min(wake_at - now, MAX_SLEEP_SECONDS))
                    continue
            self.run_due()
            if self.ladder is not None and (
                self.ladder.woken.is_set() or self.service.now >= self._next_ladder
            ):
                try:
                    self.ladder.tick()
                except Exception:
                    log.exception("ladder_tick_failed")
                self._next_ladder = self.service.now + LADDER_SECONDS
            if self.service.now >= self._next_purge:
                try:
                    self.purge()
                except Exception:
                    log.exception("purge_failed")
                self._next_purge = self.service.now + self.purge_interval
