"""Waiting for a rated game in a real browser, on a phone and a desktop, against a live
`blef serve`: the computer-fill choice offered first and kept changeable while waiting, a
countdown to the fill, how many look in the pool, the tab's title, Cancel in view without
scrolling; and what the page says when the service's answers tell a late Cancel, a place
dropped while the page was away, or a table called off (those answers are the service's
own forms, given to the page by Playwright: the service side of each is tested on every
store with a fake clock in tests/ladder/test_presence.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from benchmarks.load import Server
from tests.web.node import NODE, node_test
from tests.web.pages import axe_violations, with_axe
from tests.web.rated import answer_queue, make_account, queue_bodies

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
FILL_LABEL = "If no one is found, play computer players of your strength:"


def _in_view(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
              return r.top >= 0 && r.left >= 0
                && r.bottom <= innerHeight && r.right <= innerWidth; }""",
            selector,
        )
    )


@pytest.mark.parametrize("size", sorted(SIZES))
def test_waiting_shows_the_fill_countdown_the_people_looking_the_title_and_cancel_in_view(
    server: Server, new_page: Any, size: str
) -> None:
    page = new_page(*SIZES[size])
    with_axe(page)
    bodies = queue_bodies(page)
    make_account(page, server.url, f"Waiter{size}")
    choice = page.get_by_label(FILL_LABEL)
    assert choice.input_value() == "60", "computer players after a minute, unless chosen"
    page.get_by_role("radio", name=re.compile("^standard, 3–8 players")).check()
    scrolled = page.evaluate("scrollY")

    page.get_by_role("button", name="Find a rated game").click()

    page.get_by_role("heading", name=re.compile("^Looking for a rated game")).wait_for()
    page.get_by_text(re.compile(r"fill your table in \d+ s if no one is found")).wait_for()
    assert page.get_by_text("You are the only one looking in this pool now.").is_visible()
    expect(page).to_have_title("Looking for a rated game · Blef")
    assert _in_view(page, "#cancel-rated"), "Cancel in view with no scrolling"
    assert page.evaluate("scrollY") == scrolled or _in_view(page, "#waiting-title")
    assert choice.is_visible() and choice.is_enabled(), "the fill choice stays while waiting"
    assert bodies == [{"pool": "standard-3-8", "fill_after": 60}]
    assert axe_violations(page) == []

    choice.select_option(label="After 5 minutes")  # changed while waiting: asked again
    page.locator("#fill-line", has_text="after 5 minutes").wait_for()
    assert bodies[-1] == {"pool": "standard-3-8", "fill_after": 300}
    left = page.locator("#fill-countdown").inner_text()
    assert 280 <= int(re.findall(r"in (\d+) s", left)[0]) <= 300
    assert page.locator("#waiting-title").count() == 1, "still looking, the place kept"

    page.get_by_role("button", name="Cancel").click()
    page.get_by_role("button", name="Find a rated game").wait_for()
    expect(page).to_have_title("Blef")  # the title goes back
    assert choice.input_value() == "300"


def _looking(page: Any, base: str, handle: str, ready: str) -> Any:
    """The page of a new account ``handle`` that looks for a rated game, once ``ready``
    (a selector of the waiting panel) shows; axe-core loaded."""
    with_axe(page)
    make_account(page, base, handle)
    page.get_by_role("button", name="Find a rated game").click()
    page.locator(ready).wait_for()
    return page


def _leave_for_real(page: Any, base: str) -> None:
    """Leave the service's queue (the page was given other answers): a place left there is
    matched at once with the next test's account on the same server, seating it in a race
    with that page's first poll a second after joining (before its answers are replaced)."""
    account = json.loads(page.evaluate("localStorage.getItem('blef:account')"))
    page.request.delete(
        f"{base}/ladder/queue", headers={"Authorization": f"Bearer {account['secret']}"}
    )


def test_a_cancel_that_comes_after_the_table_formed_is_told_in_words_not_taken_to_the_table(
    server: Server, new_page: Any
) -> None:
    page = _looking(new_page(*SIZES["phone"]), server.url, "Latecanceller", "#cancel-rated")
    late = {
        "state": "seated",
        "pool": "standard-2",
        "game_uuid": "00000000-0000-4000-8000-000000000000",
        "player_uuid": "11111111-1111-4111-8111-111111111111",
        "bot": False,
        "too_late": True,
        "message": "Too late to cancel: your table was formed before your Cancel arrived."
        " Open it within 30 seconds of its forming, or it is called off and nobody's"
        " rating changes",
    }
    answer_queue(page, "DELETE", late)

    page.get_by_role("button", name="Cancel").click()

    # Said on the page and, for a screen reader, in the announcer: the one a person sees.
    page.locator("main").get_by_text("Too late to cancel: your table was formed").first.wait_for()
    assert page.get_by_role("button", name="Go to your table").is_visible()
    assert "#/game/" not in page.url, "not taken silently to the table"
    expect(page).to_have_title("● Your table is ready · Blef")
    assert axe_violations(page) == []
    _leave_for_real(page, server.url)


def test_a_page_that_was_looking_says_so_when_its_place_was_dropped_while_it_was_away(
    server: Server, new_page: Any
) -> None:
    page = _looking(new_page(*SIZES["desktop"]), server.url, "Sleeper", "#waited")
    # The service dropped the place: it answers idle from now on.
    answer_queue(page, "GET", {"state": "idle", "bot": False})

    page.locator("#rated-notice", has_text=re.compile("^You are no longer in the queue")).wait_for()
    assert page.locator("#waiting-title").count() == 0, "never left saying Looking…"
    assert page.get_by_role("button", name="Find a rated game").is_visible()
    assert axe_violations(page) == []
    _leave_for_real(page, server.url)


def test_a_page_coming_back_after_its_table_was_called_off_says_why_in_words(
    server: Server, new_page: Any
) -> None:
    page = _looking(new_page(*SIZES["phone"]), server.url, "Celina", "#waited")
    called_off = {
        "state": "idle",
        "bot": False,
        "last_result": {
            "game_uuid": "00000000-0000-4000-8000-000000000000",
            "pool": "standard-2",
            "void": True,
            "called_off": True,
            "absent": ["Celina"],
        },
    }
    answer_queue(page, "GET", called_off)

    notice = page.locator("#rated-notice")
    notice.wait_for()
    assert notice.inner_text() == (
        "Your rated table was called off because you did not open it in time."
        " It does not count: nobody's rating changed."
    )
    assert axe_violations(page) == []
    _leave_for_real(page, server.url)


def test_the_waiting_pages_words_hold_under_node() -> None:
    if NODE is None:
        pytest.skip("node is not installed")
    run = node_test(Path(__file__).with_name("js_queue.test.mjs"), timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
