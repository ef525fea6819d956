"""The table's live connection in a real browser: while its websocket is open the page asks
the service for nothing and shows what the socket brings; while the socket is down it follows
the game by asking, and stops asking once the socket is back. Against a live `blef serve`,
the socket cut by Playwright's websocket routing."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlparse

import pytest

from benchmarks.load import Server
from tests.support.waiting import eventually
from tests.web.pages import create_and_join, seat, settled_count

QUIET_MS = 3500
"""A span in which a page that polls every 1.5 s would ask at least twice."""


class StateGets:
    """Counts a page's GETs of one game's state (not of its rounds, odds or record)."""

    def __init__(self, page: Any, game: str) -> None:
        self.path = f"/games/{game}"
        self.count = 0
        page.on("request", self._seen)

    def _seen(self, request: Any) -> None:
        url = urlparse(request.url)
        if request.method == "GET" and url.path == self.path and not url.query:
            self.count += 1


def _react(page: Any, server: Server, game: str, reaction: str) -> None:
    """A reaction sent by this page's player straight to the service (not through the page)."""
    token = seat(page, game)
    assert token is not None
    reply = page.request.post(
        f"{server.url}/games/{game}/react",
        data={"reaction": reaction},
        headers={"Authorization": f"Bearer {token['player_uuid']}"},
    )
    assert reply.ok, reply.text()


def _live(page: Any, state: str) -> None:
    page.locator(f".table-screen[data-live='{state}']").wait_for()


def _reactions(page: Any) -> Any:
    return page.get_by_role("list", name="Recent reactions")


@pytest.mark.slow
def test_while_the_socket_is_open_nothing_is_polled_and_a_pushed_change_shows_without_asking(
    server: Server, new_page: Any
) -> None:
    host = new_page()
    game = create_and_join(host, server.url, "alice")
    _live(host, "open")
    watcher = new_page()
    gets = StateGets(watcher, game)
    watcher.goto(f"{server.url}/#/game/{game}")
    _live(watcher, "open")
    # The read as the page loads and the one catch-up read as the socket opens (each may
    # come late on a loaded machine; a poll too, if the socket was slow to open).
    asked_before = settled_count(watcher, lambda: gets.count, 2, "the page's first reads")

    host_gets = StateGets(host, game)
    watcher.wait_for_timeout(QUIET_MS)
    assert gets.count == asked_before, "the watcher polled while its socket was open"
    assert host_gets.count == 0, "the player polled while their socket was open"

    _react(host, server, game, "👍")
    _reactions(watcher).get_by_text("alice 👍").wait_for()
    assert gets.count == asked_before, "the pushed state was fetched instead of shown"
    # The player's own view (their seat) is fetched once per push, never polled.
    _reactions(host).get_by_text("alice 👍").wait_for()
    assert 1 <= host_gets.count <= 2

    # Back into view (a socket may have died silently while the device slept): one read.
    watcher.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    eventually(lambda: gets.count > asked_before, "the read as the page comes back", watcher)
    assert gets.count == asked_before + 1


@pytest.mark.slow
def test_with_the_socket_cut_the_table_follows_the_game_by_polling_and_stops_once_it_is_back(
    server: Server, new_page: Any
) -> None:
    host = new_page()
    game = create_and_join(host, server.url, "alice")
    watcher = new_page()
    routed: list[Any] = []
    asked_by_then: list[int] = []  # the page's reads when each socket that got through opened
    allowed = {"now": True}

    def route(ws: Any) -> None:
        if allowed["now"]:
            asked_by_then.append(gets.count)
            ws.connect_to_server()
            routed.append(ws)
        else:
            ws.close(code=1013, reason="cut by the test")

    watcher.route_web_socket(re.compile(r"/ws(\?|$)"), route)
    gets = StateGets(watcher, game)
    watcher.goto(f"{server.url}/#/game/{game}")
    _live(watcher, "open")
    opened = settled_count(watcher, lambda: gets.count, 2, "the page's first reads")

    allowed["now"] = False
    routed[-1].close(code=1001, reason="cut by the test")
    _live(watcher, "closed")
    # The read as the socket closes, then the polls.
    asked_at_cut = settled_count(watcher, lambda: gets.count, opened + 1, "the read at the cut")
    _react(host, server, game, "🎉")
    _reactions(watcher).get_by_text("alice 🎉").wait_for()
    # Two reads at least after the one at the cut: the page keeps asking, not once.
    eventually(lambda: gets.count >= asked_at_cut + 2, "two polls while cut", watcher)
    assert len(routed) == 1, "no socket got through while cut"

    allowed["now"] = True
    # The next try (after waits of 2, 4, then 8 s at most, each stretched by a half) opens.
    eventually(lambda: len(routed) == 2, "the page trying its socket again", watcher)
    watcher.locator(".table-screen[data-live='open']").wait_for()
    asked_when_back = settled_count(
        watcher, lambda: gets.count, asked_by_then[1] + 1, "the catch-up read as it opens"
    )
    watcher.wait_for_timeout(QUIET_MS)
    assert gets.count == asked_when_back, "the page kept polling once its socket was back"
    _react(host, server, game, "😮")
    _reactions(watcher).get_by_text("alice 😮").wait_for()


@pytest.mark.slow
def test_the_lobby_reads_the_public_games_as_it_opens_then_only_listens(
    server: Server, new_page: Any
) -> None:
    lobby = new_page()
    lists: list[str] = []
    lobby.on(
        "request",
        lambda r: lists.append(r.url) if urlparse(r.url).path == "/games" else None,
    )
    lobby.goto(server.url + "/")
    lobby.get_by_role("heading", name="Public games waiting for players").wait_for()
    # The read as the page loads, and the one as its socket opens.
    assert settled_count(lobby, lambda: len(lists), 2, "the lobby's first reads") == 2

    api = lobby.request
    game = api.post(f"{server.url}/games/create").json()["game_uuid"]
    token = api.post(f"{server.url}/games/{game}/join", data={"nickname": "listed"}).json()
    made = api.post(
        f"{server.url}/games/{game}/make-public",
        headers={"Authorization": f"Bearer {token['player_uuid']}"},
    )
    assert made.ok, made.text()
    lobby.locator(".games li", has_text="hosted by listed").wait_for()
    assert len(lists) == 2, "the lobby asked for the list while its socket was open"
