"""Quick presses in a table's room, in Chromium at phone and desktop sizes with axe-core: a
press made while an earlier change is still on its way (the test holds that request, as a slow
server would) waits its turn and then takes effect, in the order pressed, at a Blef table and
at an Economancy table; the Ready toggle pressed twice sends "ready" then "not ready" (never
the same value twice); a refusal of the first change is told in words in the room and the
next change still happens.

Everything is served by a live `blef serve` (tests/web/conftest.py); the pages are a host's.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support.waiting import eventually
from tests.web.pages import axe_violations, create_and_join, state, with_axe

SIZES = [pytest.param((390, 844), id="phone"), pytest.param((1100, 900), id="desktop")]
TOO_FEW = (
    "Starting the game: not done. You need at least 2 players to start. Invite a computer"
    " player or share the link."
)


def _hold(page: Any, pattern: Any) -> list[Any]:
    """The page's next request matching ``pattern`` is held (not sent on) until the test
    continues it, as a slow server would keep it; those after it go at once. A list of the
    one held, once it is."""
    held: list[Any] = []

    def hold(route: Any) -> None:  # (a bound method is not a handler Playwright can wrap)
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(pattern, hold)
    return held


def _changes(page: Any, game: str) -> list[tuple[str, Any]]:
    """The changes the page sends to table ``game`` from now on, in the order it sends them:
    (the last part of the path, the body)."""
    sent: list[tuple[str, Any]] = []

    def seen(request: Any) -> None:
        if request.method == "POST" and f"/games/{game}/" in request.url:
            sent.append((request.url.rsplit("/", 1)[1], request.post_data_json))

    page.on("request", seen)
    return sent


def _economancy_host(new_page: Any, size: tuple[int, int], base: str) -> tuple[Any, str]:
    """A page seated as the host of a new Economancy table (made over the contract's routes,
    the seat kept as the lobby keeps it); the page and the table."""
    page = new_page(*size)
    with_axe(page)
    made = page.request.post(f"{base}/economancy/games", data={})
    game = made.json()["game_uuid"]
    joined = page.request.post(f"{base}/economancy/games/{game}/join", data={"nickname": "Hosta"})
    kept = json.dumps({"player_uuid": joined.json()["player_uuid"], "nickname": "Hosta"})
    page.goto(base + "/")
    page.evaluate(f"localStorage.setItem('blef:seat:{game}', {kept!r})")
    page.goto(f"{base}/#/economancy/{game}")
    page.get_by_role("list", name="Players").get_by_text("Hosta (host) (you)").wait_for()
    return page, game


def _economancy(page: Any, base: str, game: str) -> dict[str, Any]:
    secret = json.loads(page.evaluate(f"localStorage.getItem('blef:seat:{game}')"))["player_uuid"]
    reply = page.request.get(
        f"{base}/economancy/games/{game}", headers={"Authorization": f"Bearer {secret}"}
    )
    assert reply.ok, reply.text()
    return reply.json()  # type: ignore[no-any-return]


def _press_in_a_hurry(page: Any, held: list[Any]) -> None:
    """Invite a computer player, and before that is answered: invite another, Ready, Not
    ready (the toggle shows each press at once), Start."""
    page.get_by_label("Computer player").select_option("random")
    invite = page.get_by_role("button", name="Invite computer player")
    invite.click()
    eventually(lambda: held, "the first invitation on its way", page)
    invite.click()
    toggle = page.locator("#ready-toggle")
    expect(toggle).to_have_text("Ready")
    toggle.click()
    expect(toggle).to_have_text("Not ready")  # the press, shown before any answer
    toggle.click()
    expect(toggle).to_have_text("Ready")
    page.get_by_role("button", name="Start the game").click()


IN_ORDER = ["invite", "invite", "ready", "ready", "start"]


@pytest.mark.parametrize("size", SIZES)
def test_quick_presses_at_a_blef_table_each_take_effect_in_the_order_pressed(
    server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    page = new_page(*size)
    with_axe(page)
    game = create_and_join(page, server.url, "hosta")
    sent = _changes(page, game)
    held = _hold(page, "**/invite-aiagent")
    _press_in_a_hurry(page, held)
    # Only the first change has gone; the others wait their turn in the page.
    assert [path for path, _ in sent] == ["invite-aiagent"]
    assert axe_violations(page) == [], "the room with changes waiting"
    held[0].continue_()
    page.locator(".badge").get_by_text("round 1").wait_for()
    assert [re.sub("-aiagent$", "", path) for path, _ in sent] == IN_ORDER
    assert [body for path, body in sent if path == "ready"] == [{"ready": True}, {"ready": False}]
    st = state(page, server.url, game)
    assert st["status"] == "Running" and len(st["players"]) == 3
    assert st["ready"] == []


@pytest.mark.parametrize("size", SIZES)
def test_a_refused_start_at_a_blef_table_is_told_and_the_invitation_pressed_after_it_happens(
    server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    page = new_page(*size)
    with_axe(page)
    game = create_and_join(page, server.url, "hosta")
    held = _hold(page, "**/start")
    page.get_by_role("button", name="Start the game").click()  # alone at the table
    eventually(lambda: held, "the start on its way", page)
    page.get_by_label("Computer player").select_option("random")
    page.get_by_role("button", name="Invite computer player").click()
    held[0].continue_()
    problems = page.locator("#setup-problems")
    expect(problems).to_have_text(TOO_FEW)
    page.get_by_role("list", name="Players").locator("li").nth(1).wait_for()
    st = state(page, server.url, game)
    assert st["status"] == "Not started" and len(st["players"]) == 2
    expect(problems).to_have_text(TOO_FEW)  # a later change's message never hides it
    assert axe_violations(page) == [], "the room telling the refusal"
    page.get_by_role("button", name="Ready", exact=True).click()  # pressed anew: done with
    expect(problems).to_have_text("")
    page.get_by_role("img", name="hosta is ready").wait_for()


@pytest.mark.parametrize("size", SIZES)
def test_quick_presses_at_an_economancy_table_each_take_effect_in_the_order_pressed(
    server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    page, game = _economancy_host(new_page, size, server.url)
    sent = _changes(page, game)
    held = _hold(page, re.compile(rf".*/economancy/games/{game}/ai$"))
    _press_in_a_hurry(page, held)
    assert [path for path, _ in sent] == ["ai"]
    assert axe_violations(page) == [], "the room with changes waiting"
    held[0].continue_()
    page.locator(".badge").get_by_text("playing").wait_for()
    assert [re.sub("^ai$", "invite", path) for path, _ in sent] == IN_ORDER
    assert [body for path, body in sent if path == "ready"] == [{"ready": True}, {"ready": False}]
    table = _economancy(page, server.url, game)
    assert table["status"] == "Running" and len(table["seats"]) == 3


@pytest.mark.parametrize("size", SIZES)
def test_a_refused_start_at_an_economancy_table_is_told_and_the_invitation_after_it_happens(
    server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    page, game = _economancy_host(new_page, size, server.url)
    held = _hold(page, "**/start")
    page.get_by_role("button", name="Start the game").click()  # alone at the table
    eventually(lambda: held, "the start on its way", page)
    page.get_by_label("Computer player").select_option("random")
    page.get_by_role("button", name="Invite computer player").click()
    held[0].continue_()
    problems = page.locator("#setup-problems")
    expect(problems).to_contain_text("Starting the game: not done.")
    page.get_by_role("list", name="Players").locator("li").nth(1).wait_for()
    table = _economancy(page, server.url, game)
    assert table["status"] == "Not started" and len(table["seats"]) == 2
    expect(problems).to_contain_text("Starting the game: not done.")
    assert axe_violations(page) == [], "the room telling the refusal"
    page.get_by_role("button", name="Ready", exact=True).click()
    expect(problems).to_have_text("")
    page.get_by_role("img", name="Hosta is ready").wait_for()
