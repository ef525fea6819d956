"""What a person does in the page, step by step, for the browser tests."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from tests.support.waiting import eventually

GAME_URL = re.compile(r"#/game/([0-9a-f-]{36})$")
AXE = Path(__file__).with_name("vendor") / "axe-4.14.1.min.js"
"""axe-core 4.14.1 from the npm registry (tests/web/vendor/README.md), injected by the tests."""


def create_and_join(page: Any, base: str, nickname: str) -> str:
    """Open the lobby, type a name, create a game (which seats its creator); its UUID."""
    page.goto(base + "/")
    page.get_by_label("Your name").fill(nickname)
    page.get_by_role("button", name="Create a game").click()
    page.wait_for_url(GAME_URL)
    page.locator(".you").get_by_text(nickname, exact=True).wait_for()
    return GAME_URL.search(page.url).group(1)  # type: ignore[union-attr]


def join(page: Any, nickname: str) -> None:
    page.get_by_label("Your name").fill(nickname)
    page.get_by_role("button", name="Join").click()
    page.locator(".you").get_by_text(nickname, exact=True).wait_for()


def invite(page: Any, agent: str, count: int) -> None:
    page.get_by_label("Computer player").select_option(agent)
    page.get_by_role("button", name="Invite computer player").click()
    page.get_by_role("list", name="Players").locator("li").nth(count - 1).wait_for()


def seat(page: Any, game: str) -> dict[str, str] | None:
    kept = page.evaluate(f"localStorage.getItem('blef:seat:{game}')")
    return json.loads(kept) if kept else None


def state(page: Any, base: str, game: str) -> dict[str, Any]:
    """The game as the service has it, asked with this page's own seat."""
    mine = seat(page, game)
    headers = {"Authorization": f"Bearer {mine['player_uuid']}"} if mine else {}
    reply = page.request.get(f"{base}/games/{game}", headers=headers)
    assert reply.ok, reply.text()
    return reply.json()  # type: ignore[no-any-return]


def choose_bet(page: Any, kind: str, bet: str) -> None:
    """Pick a bet in the move controls: its kind, then which one (by its name)."""
    page.locator("#bet-kind").focus()
    page.locator("#bet-kind").select_option(label=kind)
    page.locator("#bet").focus()
    page.locator("#bet").select_option(label=bet)


def dismiss_reveals(page: Any) -> int:
    """Dismiss every revealed round on screen; how many."""
    seen = 0
    box = page.locator("#reveal")
    while box.is_visible():
        try:
            box.get_by_role("button", name="Continue").click(timeout=2000)
        except PlaywrightError:
            continue
        seen += 1
    return seen


def play_one_move(page: Any) -> bool:
    """If it is our move: check when we may, else bet the bet offered first. Did we move?"""
    for button in (page.locator("#check-button"), page.locator("#bet-button")):
        if button.is_visible():
            try:
                button.click(timeout=2000)
            except PlaywrightError:  # the page moved on (a new state) before the click
                return False
            return True
    return False


def play_to_the_end(page: Any, limit_seconds: float = 240) -> int:
    """Click through a game until the game-over screen; how many rounds were revealed."""
    revealed = 0
    deadline = time.monotonic() + limit_seconds
    while not page.locator("#winner").is_visible():
        if time.monotonic() > deadline:
            page.screenshot(path="/tmp/blef-stuck.png")
            raise AssertionError("the game did not end: " + page.locator("main").inner_text())
        revealed += dismiss_reveals(page)
        if not play_one_move(page):
            page.wait_for_timeout(100)
    return revealed + dismiss_reveals(page)


def with_axe(page: Any) -> None:
    """Load axe-core in every document this page opens from now on (an init script runs
    whatever the page's Content-Security-Policy, which forbids injected script tags)."""
    page.add_init_script(path=str(AXE))


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """The serious and critical axe-core violations of the page as it is now."""
    result = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        {"id": v["id"], "nodes": [n["target"] for n in v["nodes"]]}
        for v in result
        if v["impact"] in {"serious", "critical"}
    ]


def settled_count(page: Any, count: Callable[[], int], at_least: int, what: str) -> int:
    """A count of a page's requests once it has reached ``at_least`` and then stayed put for
    half a second: what the page asked for, read only once the reads that must come (as
    the page loads, as its socket opens) have come, however late the machine's load makes
    them (a fixed pause before reading was too short under load)."""
    seen = eventually(lambda: count() >= at_least and count(), what, page)
    while True:
        page.wait_for_timeout(500)
        now = count()
        if now == seen:
            return seen
        seen = now
