"""Ratings at hand in a real browser, on a phone and a desktop: the rated games reachable
from the first screen, the page that explains the numbers, and a profile with games in both
pools drawn as one chart per pool (each on an axis of that pool's own games); axe-core finds
nothing on any of them."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from benchmarks.load import Server
from tests.support.waiting import eventually
from tests.web.pages import axe_violations, with_axe

SIZES = [(390, 844), (1280, 800)]


def _in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_rated_games_are_reachable_from_the_first_screen(
    server: Server, new_page: Any, width: int, height: int
) -> None:
    page = new_page(width, height)
    with_axe(page)
    page.goto(server.url + "/")
    page.get_by_role("heading", name="Play Blef").wait_for()
    # Both ways in are on the first screen: the header's and the lobby's own link.
    assert _in_view(page, "#header-account") and _in_view(page, "#to-rated")
    assert page.locator("#header-account").inner_text() == "Rated play"
    page.locator("#to-rated").click()
    page.wait_for_url(re.compile(r"#/rated$"))
    expect(page.locator("#rated-title")).to_be_focused()
    assert _in_view(page, "#rated-title")
    assert page.get_by_role("button", name=re.compile("^Make an account")).is_visible()
    assert axe_violations(page) == []
    # From another screen, the header's link does the same.
    page.goto(server.url + "/#/ladder/standard-2")
    page.get_by_role("heading", name=re.compile("^Leaderboard")).wait_for()
    page.locator("#header-account").click()
    expect(page.locator("#rated-title")).to_be_focused()
    assert _in_view(page, "#rated-title")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_numbers_are_explained_in_plain_words_linked_from_where_ratings_are_shown(
    server: Server, new_page: Any, width: int, height: int
) -> None:
    page = new_page(width, height)
    with_axe(page)
    page.goto(server.url + "/#/ladder/standard-2")
    page.get_by_role("heading", name=re.compile("^Leaderboard")).wait_for()
    page.get_by_role("link", name="What the numbers mean").first.click()
    page.get_by_role("heading", name="What the ratings mean").wait_for()
    text = page.locator("#view").inner_text()
    assert "Everyone starts at 1500" in text and "provisional" in text
    assert "1500 + 30 × (best guess − 3 × unsureness)" in text
    assert axe_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def _play_rated_and_resign(http: httpx.Client, secret: str, pool: str) -> None:
    """Join ``pool`` letting computer players fill at once, then resign: one rated game."""
    me = {"Authorization": f"Bearer {secret}"}
    http.post("/ladder/queue", json={"pool": pool, "fill_after": 0}, headers=me)
    seat = eventually(
        lambda: (
            (answer := http.get("/ladder/queue", headers=me).json())["state"] == "seated" and answer
        ),
        "a seat with computer players",
    )
    http.post(
        f"/games/{seat['game_uuid']}/resign",
        headers={"Authorization": f"Bearer {seat['player_uuid']}"},
    )
    eventually(
        lambda: http.get("/ladder/queue", headers=me).json()["state"] == "idle",
        "the game settled",
    )


def test_a_profile_with_games_in_both_pools_draws_one_chart_per_pool(
    server: Server, new_page: Any
) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        secret = http.post("/ladder/accounts", json={"handle": "TwoPools"}).json()["secret"]
        _play_rated_and_resign(http, secret, "standard-2")
        _play_rated_and_resign(http, secret, "standard-3-8")
        _play_rated_and_resign(http, secret, "standard-2")
    for width, height in SIZES:
        page = new_page(width, height)
        with_axe(page)
        page.goto(server.url + "/#/player/TwoPools")
        for pool in ("standard-2", "standard-3-8"):
            page.locator(f"#rating-chart-{pool} canvas").wait_for()
        two = page.locator("#caption-standard-2").inner_text()
        many = page.locator("#caption-standard-3-8").inner_text()
        assert "first of these 2 games of this pool" in two
        assert "the one rated game of this pool" in many
        assert "last 2 rated games" in page.locator("#record-standard-2").inner_text()
        assert "0 wins, 2 losses" in page.locator("#record-standard-2").inner_text()
        rows = page.locator("#rating-history tbody tr")
        assert rows.count() == 3
        # Each row: when, the pool, the opponents (each a link to a profile), the place.
        newest = rows.first.locator("td")
        assert newest.nth(4).inner_text() == "standard, 2 players"
        assert newest.nth(3).get_by_role("link").count() == 1
        assert newest.nth(1).inner_text() == "2 of 2"
        middle = rows.nth(1).locator("td")
        assert middle.nth(3).get_by_role("link").count() == 2
        assert middle.nth(1).inner_text() == "3 of 3"
        assert axe_violations(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= width
