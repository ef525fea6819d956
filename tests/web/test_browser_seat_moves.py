"""A seat taken to another device by its link, in a real browser against a live `blef
serve`: the device the link came from says in words that the seat moved (and watches), and
a browser that already holds a seat in that game is asked before a link replaces it."""

from __future__ import annotations

import re
from typing import Any

from benchmarks.load import Server
from tests.web.pages import create_and_join, seat, state


def test_the_device_a_seat_moved_away_from_says_so_and_watches(
    server: Server, new_page: Any
) -> None:
    page = new_page()
    game = create_and_join(page, server.url, "alice")
    old = seat(page, game)
    assert old is not None
    page.get_by_text("Play on another device").click()
    link = page.locator("#take-link").input_value()

    phone = new_page(390, 844)
    phone.goto(link)
    phone.wait_for_url(re.compile(f"#/game/{game}$"))
    phone.locator(".you").get_by_text("alice", exact=True).wait_for()
    moved = seat(phone, game)
    assert moved is not None and moved["player_uuid"] != old["player_uuid"]

    page.locator("#notice", has_text="Your seat moved to another device").wait_for()
    assert seat(page, game) is None
    page.locator(".you", has_text="You are watching.").wait_for()
    retired = page.request.get(
        f"{server.url}/games/{game}", headers={"Authorization": f"Bearer {old['player_uuid']}"}
    )
    assert retired.status == 403 and retired.json()["code"] == "seat_moved"
    assert state(phone, server.url, game)["you"] == "alice"


def test_a_seat_link_never_replaces_the_seat_this_browser_holds_in_that_game_without_asking(
    server: Server, new_page: Any
) -> None:
    page = new_page()
    game = create_and_join(page, server.url, "alice")
    joined = page.request.post(f"{server.url}/games/{game}/join", data={"nickname": "throwaway"})
    assert joined.ok, joined.text()
    throwaway = joined.json()["player_uuid"]
    link = f"{server.url}/#/take/{game}/{throwaway}"

    page.goto(link)
    asked = page.locator("#take-ask")
    asked.get_by_text("You already have a seat in this game").wait_for()
    assert "alice" in asked.inner_text()
    page.get_by_role("button", name="Keep my seat as alice").click()
    page.wait_for_url(re.compile(f"#/game/{game}$"))
    page.locator(".you").get_by_text("alice", exact=True).wait_for()
    assert state(page, server.url, game)["you"] == "alice"
    untouched = page.request.get(
        f"{server.url}/games/{game}", headers={"Authorization": f"Bearer {throwaway}"}
    )
    assert untouched.ok  # declined: the link's seat was not moved either

    page.goto(link)
    page.get_by_role("button", name="Take the seat from the link").click()
    page.locator(".you").get_by_text("throwaway", exact=True).wait_for()
    assert state(page, server.url, game)["you"] == "throwaway"
    other = new_page()
    other.goto(f"{server.url}/#/game/{game}")
    assert seat(other, game) is None  # each browser, and each game, keeps its own seat


def test_a_seat_link_works_once(server: Server, new_page: Any) -> None:
    page = new_page()
    game = create_and_join(page, server.url, "alice")
    page.get_by_text("Play on another device").click()
    link = page.locator("#take-link").input_value()
    phone = new_page(390, 844)
    phone.goto(link)
    phone.locator(".you").get_by_text("alice", exact=True).wait_for()

    late = new_page()
    late.goto(link)
    late.locator("#toast", has_text="This link was already used").wait_for()
    late.locator(".you", has_text="You are watching.").wait_for()
    assert seat(late, game) is None
    assert state(phone, server.url, game)["you"] == "alice"
