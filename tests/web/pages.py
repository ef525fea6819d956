"""What a person does in the page, step by step, for the browser tests."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Error as PlaywrightError

GAME_URL = re.compile(r"#/game/([0-9a-f-]{36})$")


def create_and_join(page: Any, base: str, nickname: str) -> str:
    """Open the lobby, create a game, join it; the game's UUID."""
    page.goto(base + "/")
    page.get_by_role("button", name="Create a game").click()
    page.wait_for_url(GAME_URL)
    game = GAME_URL.search(page.url).group(1)  # type: ignore[union-attr]
    join(page, nickname)
    return game


def join(page: Any, nickname: str) -> None:
    page.get_by_label("Nickname").fill(nickname)
    page.get_by_role("button", name="Join").click()
    page.get_by_text(f"you are {nickname}").wait_for()


def invite(page: Any, agent: str, count: int) -> None:
    page.get_by_label("AI agent").select_option(agent)
    page.get_by_role("button", name="Invite AI player").click()
    page.locator(".players li").nth(count - 1).wait_for()


def dismiss_reveals(page: Any) -> int:
    """Dismiss every revealed round on screen; how many."""
    seen = 0
    box = page.locator("#reveal")
    while box.is_visible():
        box.get_by_role("button", name="Continue").click()
        seen += 1
    return seen


def play_one_move(page: Any) -> bool:
    """If it is our move: check when we may, else bet the lowest legal bet. Did we move?"""
    for button in (page.locator("#check-button"), page.locator("#bet-button")):
        if button.is_visible():
            try:
                button.click(timeout=2000)
            except PlaywrightError:  # the page moved on (a new state) before the click
                return False
            return True
    return False


def play_to_the_end(page: Any, limit_seconds: float = 180) -> int:
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
