"""What a watcher of a game is sent, for both runtimes' watchers: the AWS pusher
(app/watch/pusher.py), which knows only this interface (its ``SeatViews``), and ``blef serve``'s
websocket route (app/api/routes/watch.py): a version's state for a seat, whether a seat is gone
from a version and why, an ended round. Built exactly as the HTTP routes build them (``GET
/games/{uuid}``, ``GET /{game}/games/{uuid}``: :func:`app.service.match_body.watched_body`), so
a socket and a poll never disagree.
"""

from __future__ import annotations

from typing import Any, Literal

from app.service.match_body import watched_body
from app.service.responses import snapshot_body
from app.service.seats import moved, seated
from app.store.base import GameDoc, RoundSnapshot

Gone = Literal["seat_moved", "unknown_player"]


class WatchedViews:
    """The pusher's views of a stored game (stateless: one serves every batch)."""

    def seat_body(self, doc: GameDoc, seat: str | None) -> dict[str, Any] | None:
        """The state for the player in ``seat`` (None: an observer), or None when that seat
        is not in this version of the game."""
        nickname = None if seat is None else seated(doc.player_uuids, seat)
        if seat is not None and nickname is None:
            return None
        return watched_body(doc, nickname)

    def gone(self, doc: GameDoc, seat: str | None) -> Gone | None:
        """Why a watcher of ``seat`` must go, judged by this version: its seat moved to
        another device, or its player is no longer in the game; None if it stays (an
        observer, or a seat present here)."""
        if seat is None or seated(doc.player_uuids, seat) is not None:
            return None
        return "seat_moved" if moved(doc.social, seat) else "unknown_player"

    def round_body(self, doc: GameDoc, snapshot: RoundSnapshot) -> dict[str, Any]:
        """An ended round, with the game's fields from ``doc`` (the state that follows it)."""
        return snapshot_body(doc, snapshot)
