"""The Economancy and Figgie screens as a newcomer sees them, at phone (390x844) and desktop
(1366x900) sizes, checked by axe-core: nothing scrolls sideways or is cut off, every control
is at least 44px high to tap, a folded section says it opens, the shop's numbers are all in
view on a phone, a wizard about to buy with no card able to defend is told what that means,
and Figgie's settlement keeps each player's name whole.

Served by a live ``blef serve`` on 127.0.0.1 (tests/web/conftest.py); Figgie's table is the
engine's own game answered inside the test (tests/web/figgie/fake.py) so its settlement comes
when the test says."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.web.figgie.fake import FakeFiggie
from tests.web.pages import axe_violations, with_axe

SIZES = [pytest.param((390, 844), id="phone"), pytest.param((1366, 900), id="desktop")]
TABLE_URL = re.compile(r"#/economancy/([0-9a-f-]{36})$")

TOO_SMALL = """() => [...document.querySelectorAll('button, a.button, a.brand, summary, select,'
    + ' input:not([type=checkbox]):not([type=radio]), label.check')]
  .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .map((el) => [el.id || el.className || el.tagName, el.textContent.trim().slice(0, 30),
    Math.round(el.getBoundingClientRect().height)])
  .filter(([, , height]) => height < 44)"""
"""Every visible control (and each checkbox's label, its target) under 44px high."""

SIDEWAYS = "document.scrollingElement.scrollWidth - innerWidth"


def _open(new_page: Any, size: tuple[int, int]) -> Any:
    page = new_page(*size)
    with_axe(page)
    return page


def _economancy_room(page: Any, base: str) -> None:
    """Make an Economancy table from the lobby and invite a computer player that attacks."""
    page.goto(base + "/")
    page.get_by_label("Your name").fill("Newt")
    panel = page.locator(".kind-lobby").first
    panel.get_by_role("button", name="Create an Economancy table").click()
    page.wait_for_url(TABLE_URL)
    page.get_by_label("Computer player").select_option("greedy_attack")
    page.get_by_role("button", name="Invite computer player").click()
    page.get_by_role("list", name="Players").locator("li").nth(1).wait_for()


@pytest.mark.parametrize("size", SIZES)
def test_every_control_of_the_economancy_room_and_table_is_big_enough_to_tap(
    server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    page = _open(new_page, size)
    _economancy_room(page, server.url)
    page.locator("details.settings summary").click()  # its checkbox's label in view too
    assert page.evaluate(TOO_SMALL) == [], "the room"
    start = page.locator("#start").bounding_box()
    share = page.locator(".room .share").bounding_box()
    assert start and share and share["y"] - (start["y"] + start["height"]) >= 12, "crowded"
    assert page.evaluate(SIDEWAYS) <= 0
    assert axe_violations(page) == []

    page.get_by_role("button", name="Start the game").click()
    page.locator("#dock-title").get_by_text("Your turn: invest").wait_for()
    assert page.evaluate(TOO_SMALL) == [], "the table on your turn"
    assert page.evaluate(SIDEWAYS) <= 0
    assert axe_violations(page) == []


@pytest.mark.parametrize("size", SIZES)
def test_a_folded_section_shows_that_it_opens_and_that_it_is_open(
    server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    page = _open(new_page, size)
    _economancy_room(page, server.url)
    summary = page.locator("details.settings summary")
    marker = "el => getComputedStyle(el, '::before').content"
    assert page.get_by_label("A sound when it is your turn").is_hidden()
    assert "▸" in summary.evaluate(marker)
    summary.click()
    page.get_by_label("A sound when it is your turn").wait_for()
    assert "▾" in summary.evaluate(marker)
    assert axe_violations(page) == []


@pytest.mark.parametrize("size", SIZES)
def test_the_shop_and_the_rules_cards_show_every_number_without_scrolling_sideways(
    server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    page = _open(new_page, size)
    _economancy_room(page, server.url)
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("heading", name="The shop").wait_for()
    clipped = "el => el.scrollWidth - el.clientWidth"
    assert page.locator(".shop .table-scroll").evaluate(clipped) <= 0, "the shop is cut off"
    golem = page.locator(".shop-table tr").filter(has_text="Golem")
    assert re.search(r"5\s+2\s+7 / 7\s+0 / 0 / 0", golem.inner_text())  # price, left, numbers
    # Every number sits inside the screen, where a person sees it.
    for cell in golem.locator("td").all():
        if cell.inner_text():
            box = cell.bounding_box()
            assert box is not None and box["x"] + box["width"] <= size[0]
    assert axe_violations(page) == []

    page.goto(server.url + "/#/learn/economancy")
    page.get_by_role("heading", name="The cards").wait_for()
    table = page.get_by_role("region", name="The cards")
    assert table.evaluate(clipped) <= 0, "the rules' cards are cut off"
    assert page.evaluate(SIDEWAYS) <= 0
    assert axe_violations(page) == []


@pytest.mark.parametrize("size", SIZES)
def test_a_wizard_with_no_card_able_to_defend_is_told_before_buying_what_that_risks(
    server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    page = _open(new_page, size)
    _economancy_room(page, server.url)
    page.get_by_role("button", name="Start the game").click()
    # With only the Stipend, investing cannot buy an attack: what it does buy is said.
    tip = page.locator(".econ-dock #invest-no-attacker")
    assert tip.inner_text() == (
        "No card of yours can attack today. Investing still counts: if nobody invests more"
        " than you, nobody attacks today."
    )
    assert tip.is_visible()
    page.locator("#invest-amount").fill("0")
    page.locator("#invest-button").click()
    dock = page.locator(".econ-dock")
    dock.get_by_text("Your turn: buy").wait_for()
    warning = dock.locator("#no-defender")
    assert warning.inner_text().startswith("Your army has no card able to defend:")
    assert "you are out of the game" in warning.inner_text()
    assert warning.is_visible() and warning.bounding_box()["y"] >= 0  # type: ignore[index]
    assert axe_violations(page) == []

    page.locator("#buy-worker").click()  # a Worker defends: no warning on the next buy
    page.locator("#dock-title").get_by_text("Your turn: invest").wait_for()
    if page.locator(".wizard.me .army li").filter(has_text="Worker").count():
        assert page.locator("#invest-no-attacker").count() == 0  # a Worker attacks too
    page.locator("#invest-amount").fill("0")
    page.locator("#invest-button").click()
    while not dock.get_by_text("Your turn: buy").is_visible():
        defend = dock.locator("button[id^=defend-]")
        if defend.count():
            defend.first.click()
        page.wait_for_timeout(100)
    if page.locator(".wizard.me .army li").filter(has_text="Worker").count():
        assert dock.locator("#no-defender").count() == 0


@pytest.mark.parametrize("size", SIZES)
def test_figgie_s_settlement_keeps_each_player_s_name_whole_on_any_screen(
    server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    fake = FakeFiggie(agents=["marketmaker", "fairvalue", "bayesian"], trading_seconds=60)
    page = _open(new_page, size)
    page.route(re.compile(r".*/figgie/games/.*"), fake.handle)
    page.goto(server.url + "/")
    seat = json.dumps({"player_uuid": fake.secret, "nickname": fake.nickname})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"blef:seat:{fake.game_uuid}", seat])
    page.goto(f"{server.url}/#/figgie/{fake.game_uuid}")
    page.locator("#fig-clock").wait_for()
    assert page.evaluate(TOO_SMALL) == [], "the market"
    # The table's rules stay said in full while trading, on a phone too.
    assert "60 seconds of trading" in page.locator(".table-top").inner_text()
    keys = page.locator("#fig-keys").text_content() or ""
    assert "change it, Enter posts it" in " ".join(keys.split())  # once "change it,Enter"
    fake.advance(10)
    fake.pass_deadline()
    page.locator("#fig-verified.verified").wait_for()
    for name in page.locator(".fig-earned tbody th").all():
        lines = name.evaluate(
            "el => Math.round(el.getBoundingClientRect().height"
            " / parseFloat(getComputedStyle(el).lineHeight))"
        )
        assert lines <= 2, f"{name.inner_text()!r} is broken over {lines} lines"
    assert page.evaluate(SIDEWAYS) <= 0
    assert page.evaluate(TOO_SMALL) == [], "the settlement"
    assert axe_violations(page) == []


@pytest.mark.parametrize("size", SIZES)
def test_on_your_turn_to_buy_every_choice_and_the_latest_news_are_in_view_together(
    server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    page = _open(new_page, size)
    _economancy_room(page, server.url)
    page.get_by_role("button", name="Start the game").click()
    page.locator("#invest-amount").fill("0")
    page.locator("#invest-button").click()
    dock = page.locator(".econ-dock")
    dock.get_by_text("Your turn: buy").wait_for()
    # What was just revealed is said at the top of the board, above the dock, not only at
    # the foot of the page.
    newest = page.locator("#econ-newest")
    assert newest.inner_text().startswith("Latest: Investments revealed: Newt 0,")
    top_of_dock = dock.bounding_box()["y"]  # type: ignore[index]
    box = newest.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= top_of_dock
    # The dock holds the buys (3 coins: ten cards, and Pass) in no more than half the screen,
    # two to a row on a phone: at least six in view at once there, every one on a desktop.
    choices = dock.locator(".moves button")
    assert choices.count() == 11
    assert top_of_dock >= size[1] * 0.45
    in_view = dock.evaluate(
        """dock => { const pane = dock.querySelector('.dock-inner').getBoundingClientRect();
          return [...dock.querySelectorAll('.moves button')].filter((b) => {
            const r = b.getBoundingClientRect();
            return r.top >= pane.top && r.bottom <= pane.bottom && r.bottom <= innerHeight;
          }).length; }"""
    )
    assert in_view >= (6 if size[0] < 640 else 11)
    assert page.evaluate(TOO_SMALL) == []
    assert axe_violations(page) == []
