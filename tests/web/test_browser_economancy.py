"""A newcomer plays Economancy in Chromium, at phone and desktop sizes: makes a table from the
lobby with its rules, invites a computer player, starts, plays every choice the game asks
(invest, attack, defend, buy) through the page's controls until the game ends, and axe-core
finds nothing on the lobby's panel, the room, the table, the rules page and the end.

Everything is served by a live `blef serve` on 127.0.0.1 (tests/web/conftest.py): the page, the
contract's `/economancy/games/...` routes and the computer player's moves by the clock.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.web.pages import AXE, seat

TABLE_URL = re.compile(r"#/economancy/([0-9a-f-]{36})$")
SIZES = [pytest.param((390, 844), id="phone"), pytest.param((1100, 900), id="desktop")]


def _axe(page: Any, where: str = "document") -> list[dict[str, Any]]:
    """Every axe-core violation (any impact) in `where` (a selector, or the document)."""
    target = "document" if where == "document" else f"document.querySelector({where!r})"
    result = page.evaluate(f"async () => (await axe.run({target})).violations")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]]}
        for v in result
    ]


def _open(new_page: Any, size: tuple[int, int]) -> Any:
    page = new_page(*size)
    page.add_init_script(path=str(AXE))
    return page


def _table(page: Any, base: str, game: str) -> dict[str, Any]:
    """The table as the service shows it to this page's seat."""
    mine = seat(page, game)
    assert mine is not None
    reply = page.request.get(
        f"{base}/economancy/games/{game}",
        headers={"Authorization": f"Bearer {mine['player_uuid']}"},
    )
    assert reply.ok, reply.text()
    return reply.json()  # type: ignore[no-any-return]


def _play_one(page: Any, seen: set[str]) -> bool:
    """Make the choice the dock asks for, if it is shown; whether a choice was made. Buys
    points when it can (so the game ends), defends with its first card, attacks once."""
    dock = page.locator(".econ-dock")
    if not dock.is_visible():
        return False
    try:
        title = dock.locator("#dock-title").inner_text(timeout=2000)
        if "invest" in title:
            seen.add("invest")
            box = page.locator("#invest-amount")
            box.fill("1" if "attack" not in seen else "0")
            if page.locator("#invest-button").is_disabled():
                box.fill("0")
            page.locator("#invest-button").click(timeout=2000)
        elif "attack" in title:
            first = dock.locator("button[id^=attack-]").first
            if "attack" not in seen and first.count():
                first.click(timeout=2000)
            else:
                page.keyboard.press("s")  # the shortcut to stop attacking
            seen.add("attack")
        elif "defend" in title:
            seen.add("defend")
            dock.locator("button[id^=defend-]").first.click(timeout=2000)
        elif "buy" in title:
            seen.add("buy")
            for card in ("incantation", "board-of-monopoly", "worker"):
                button = page.locator(f"#buy-{card}")
                if button.count():
                    button.click(timeout=2000)
                    return True
            page.keyboard.press("p")  # the shortcut to pass
        else:
            return False
    except PlaywrightError:  # the page moved on (a new state) before the click
        return False
    return True


@pytest.mark.parametrize("size", SIZES)
def test_a_newcomer_makes_an_economancy_table_invites_the_computer_and_plays_to_the_end(
    server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    page = _open(new_page, size)
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill("Newt")
    panel = page.locator(".kind-lobby")
    panel.get_by_role("button", name="Play Economancy against the computer").wait_for()
    panel.get_by_label(re.compile("^The first 8")).check()
    panel.get_by_label(re.compile(r"^5 \(")).check()
    assert _axe(page, ".kind-lobby") == [], "the lobby's Economancy panel"
    panel.get_by_role("button", name="Create an Economancy table").click()
    page.wait_for_url(TABLE_URL)
    game = TABLE_URL.search(page.url).group(1)  # type: ignore[union-attr]
    rules = _table(page, server.url, game)["rules"]
    assert (rules["cards"], rules["bubble_attack"]) == ("simple", 5)

    page.get_by_label("Computer player").select_option("random")
    page.get_by_role("button", name="Invite computer player").click()
    page.get_by_role("list", name="Players").locator("li").nth(1).wait_for()
    assert "Beginner computer player" in page.get_by_role("list", name="Players").inner_text()
    assert _axe(page) == [], "the room"
    # The rules over the table, and back to it where the person was.
    page.get_by_role("button", name="How to play").click()
    page.get_by_role("heading", name="A fight").wait_for()
    assert _axe(page) == [], "the rules over the table"
    page.get_by_role("button", name="Back to the game").first.click()
    page.wait_for_function("document.activeElement && document.activeElement.id === 'help-button'")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("heading", name="The shop").wait_for()
    shop = page.locator(".shop-table").inner_text()
    assert "Incantation" in shop and "Golem" not in shop  # the first 8 cards only

    # A choice being typed stays as it is while the table changes under it: the computer
    # player's choice comes in (shown as "has chosen", never what) and the input keeps the
    # person's focus and digits.
    page.locator("#invest-amount").fill("1")
    page.locator("#invest-amount").focus()
    page.get_by_text("has chosen").wait_for()
    assert page.evaluate("document.activeElement.id") == "invest-amount"
    assert page.locator("#invest-amount").input_value() == "1"
    assert page.locator("#dock-title").inner_text() == "Your turn: invest"

    seen: set[str] = set()
    checked_turn = False
    deadline = time.monotonic() + 420
    while not page.locator("#over-title").is_visible():
        assert time.monotonic() < deadline, (
            "the game did not end: " + page.locator("main").inner_text()
        )
        if not checked_turn and page.locator(".econ-dock").is_visible():
            page.locator("#dock-title").wait_for()
            assert _axe(page) == [], "the table on your turn"
            checked_turn = True
        if not _play_one(page, seen):
            page.wait_for_timeout(150)
    assert {"invest", "buy"} <= seen
    # The end is revealed once, over the table, until Continue; a reload does not show it again.
    reveal = page.get_by_role("dialog")
    reveal.get_by_role("heading", name=re.compile("^Game over: ")).wait_for()
    expect(page.locator("#reveal-continue")).to_be_focused()
    assert _axe(page) == [], "the reveal of the end"
    page.keyboard.press("Tab")  # the focus stays in the dialog
    assert page.evaluate("!!document.activeElement.closest('#reveal')")
    reveal.get_by_role("button", name="Continue").click()
    expect(reveal).to_have_count(0)
    places = page.get_by_role("list", name="Places").locator("li")
    assert places.count() == 2
    assert _table(page, server.url, game)["status"] == "Finished"
    assert _axe(page) == [], "game over"

    page.goto(server.url + "/#/learn/economancy")
    page.get_by_role("heading", name="A fight").wait_for()  # docs/economancy_rules.md, fetched
    assert "Shield of Greed" in page.locator("table.shop-table").inner_text()
    assert _axe(page) == [], "the rules page"


def test_a_friend_sees_that_the_host_has_chosen_never_what_until_both_have(
    server: Any, new_page: Any
) -> None:
    host = _open(new_page, (1100, 900))
    host.goto(server.url + "/")
    host.get_by_label("Your name").fill("Hosta")
    panel = host.get_by_role("region", name="Play Economancy")
    panel.get_by_label("Seconds for each choice").select_option("60")
    panel.get_by_label(re.compile("^List the table I create")).check()
    panel.get_by_role("button", name="Create an Economancy table").click()
    host.wait_for_url(TABLE_URL)
    game = TABLE_URL.search(host.url).group(1)  # type: ignore[union-attr]
    listed = host.request.get(f"{server.url}/economancy/games").json()["games"]
    assert game in [t["game_uuid"] for t in listed]
    link = host.locator("#share-link").input_value()
    assert link.endswith(f"#/economancy/{game}")

    friend = _open(new_page, (390, 844))
    friend.goto(link)
    friend.get_by_label("Your name").fill("Frieda")
    friend.get_by_role("button", name="Join").click()
    friend.locator(".you").get_by_text("Frieda", exact=True).wait_for()
    host.get_by_role("list", name="Players").get_by_text("Frieda").wait_for()
    host.get_by_role("button", name="Start the game").click()

    host.locator(".econ-dock .countdown").get_by_text(re.compile(r"^\d+ s left$")).wait_for()
    host.locator("#invest-amount").fill("1")
    host.locator("#invest-button").click()
    wizard = friend.get_by_role("listitem").filter(
        has=friend.get_by_role("heading", name="Hosta", exact=True)
    )
    wizard.get_by_text("has chosen").wait_for()
    assert "Investments revealed" not in friend.locator("main").inner_text()
    assert friend.locator("#dock-title").inner_text() == "Your turn: invest"
    assert _axe(friend) == [], "a friend's turn, the host's choice hidden"

    friend.locator("#invest-amount").fill("0")
    friend.keyboard.press("Enter")  # the form's submit, from the keyboard
    revealed = "Investments revealed: Hosta 1, Frieda 0. Hosta invested the most and may attack."
    for page in (host, friend):
        page.locator(".history").get_by_text(revealed).wait_for()
    # Said to a screen reader on the page that did not make the last choice, before its turn.
    host.wait_for_function(
        "t => document.getElementById('announcer').textContent.startsWith(t)", arg=revealed
    )
    assert "Your turn: buy a card or pass." in host.locator("#announcer").inner_text()

    # Someone who opens the link after the start watches: the board, no move controls.
    watcher = _open(new_page, (390, 844))
    watcher.goto(link)
    watcher.get_by_text("You are watching.").wait_for()
    watcher.locator("#latecomer").wait_for()
    watcher.get_by_role("heading", name="The wizards").wait_for()
    assert watcher.locator(".econ-dock").count() == 0
    assert _axe(watcher) == [], "a watcher"
