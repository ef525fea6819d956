"""A finished Economancy game replayed in Chromium, at phone and desktop sizes: from the game
over screen to the replay, stepped through with the keyboard (a step, a day, the first and
last), the buttons and the slider; the fight drawn at the step where it happened, with the
card that fainted and why, and the army without it from that step on; axe-core finds nothing.
A game still in play has no replay yet, and the page says so.

The game is seeded through the service's routes (two seats whose moves are scripted: on day
2 ann's Ghost attacks and bob's Worker, defending, faints), served by a live `blef serve`
(tests/web/conftest.py)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.web.pages import AXE

SIZES = [pytest.param((390, 844), id="phone"), pytest.param((1100, 900), id="desktop")]
REPLAY_URL = re.compile(r"#/economancy/([0-9a-f-]{36})/replay$")

SCRIPT: list[tuple[int, list[Any]]] = [
    (0, [0]),
    (1, [0]),
    (0, ["Ghost"]),
    (1, ["Worker"]),
    (0, [1]),
    (1, [0]),
    (0, [1]),  # ann attacks with her Ghost (attack 3)
    (1, [1]),  # bob defends with his Worker (defence 2): it faints
    (0, ["Pass"]),
    (1, ["Pass"]),  # the day limit (2): a draw
]


def _axe(page: Any) -> list[dict[str, Any]]:
    result = page.evaluate("async () => (await axe.run(document)).violations")
    return [{"id": v["id"], "nodes": [n["target"] for n in v["nodes"]]} for v in result]


def _seed(page: Any, base: str, moves: list[tuple[int, list[Any]]]) -> tuple[str, list[str]]:
    """A table of ann and bob (day limit 2), started and played as ``moves`` say."""
    req = page.request
    made = req.post(f"{base}/economancy/games", data={"rules": {"day_limit": 2}})
    assert made.ok, made.text()
    game = made.json()["game_uuid"]
    seats = []
    for name in ("ann", "bob"):
        joined = req.post(f"{base}/economancy/games/{game}/join", data={"nickname": name})
        assert joined.ok, joined.text()
        seats.append(joined.json()["player_uuid"])
    started = req.post(
        f"{base}/economancy/games/{game}/start", headers={"Authorization": f"Bearer {seats[0]}"}
    )
    assert started.ok, started.text()
    for seat, move in moves:
        r = req.post(
            f"{base}/economancy/games/{game}/move",
            data=json.dumps(move),
            headers={"Authorization": f"Bearer {seats[seat]}", "Content-Type": "application/json"},
        )
        assert r.ok, r.text()
    return game, seats


def _as_ann(page: Any, base: str, game: str, secret: str) -> None:
    page.goto(base + "/")
    seat = json.dumps({"player_uuid": secret, "nickname": "ann"})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"blef:seat:{game}", seat])


def _at(page: Any, text: str) -> None:
    page.locator("#replay-step").get_by_text(text).wait_for()


@pytest.mark.parametrize("size", SIZES)
def test_a_finished_game_is_replayed_step_by_step_and_shows_why_a_card_fainted(
    server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    page = new_page(*size)
    page.add_init_script(path=str(AXE))
    game, seats = _seed(page, server.url, SCRIPT)
    _as_ann(page, server.url, game, seats[0])
    page.goto(f"{server.url}/#/economancy/{game}")
    page.locator("#over-title").wait_for()
    page.get_by_role("link", name="Replay the game step by step", exact=True).click()
    page.wait_for_url(REPLAY_URL)
    page.get_by_role("heading", name=re.compile(r"^Replay of Economancy, room \d+$")).wait_for()
    drew = "ann and bob drew (the day limit was reached)."
    assert page.locator("#replay-result").inner_text() == drew
    _at(page, "Step 1 of 7, day 1")
    events = page.locator("#replay-events")
    assert "The game starts: ann, bob" in events.inner_text()
    assert "(you)" in page.get_by_role("heading", name="ann (you)", exact=True).inner_text()
    assert _axe(page) == [], "the replay's first step"

    page.keyboard.press("ArrowRight")
    _at(page, "Step 2 of 7, day 1")
    events.get_by_text(
        "Investments revealed: ann 0, bob 0. A tie for the most: nobody attacks today.", exact=True
    ).wait_for()
    page.keyboard.press("End")
    _at(page, "Step 7 of 7, day 2")
    page.keyboard.press("Home")
    _at(page, "Step 1 of 7, day 1")
    page.keyboard.press("PageDown")  # the first step of day 2: day 1's buys, day 2's income
    _at(page, "Step 3 of 7, day 2")
    assert "Buys revealed: ann bought Ghost; bob bought Worker." in events.inner_text()
    assert "Day 2 begins" in events.inner_text()
    bob_army = page.get_by_role("list", name="bob's army, in order", exact=True)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    _at(page, "Step 5 of 7, day 2")  # ann attacks: bob has still his Worker, no fight yet
    assert events.get_by_text("ann attacks with Ghost.", exact=True).count() == 1
    assert "Worker" in bob_army.inner_text()
    assert page.get_by_role("heading", name="The fight at this step", exact=True).count() == 0

    page.keyboard.press("ArrowRight")
    _at(page, "Step 6 of 7, day 2")
    fight = page.get_by_role("region", name="The fight at this step", exact=True)
    fight.wait_for()
    loser = fight.locator(".fighter.fainted")
    assert loser.count() == 1
    assert "bob" in loser.inner_text() and "Worker" in loser.inner_text()
    assert "fainted" in loser.inner_text()
    assert "Ghost's attack 3 is more than Worker's defence 2: Worker faints." in fight.inner_text()
    assert "Fainted: bob's Worker." in events.inner_text()
    said = page.locator("#replay-said")  # said to a screen reader as the step changes
    assert said.get_attribute("aria-live") == "polite"
    assert said.text_content().startswith("Step 6 of 7, day 2. Fight: ann's Ghost against bob's")
    assert "Worker" not in bob_army.inner_text()
    assert _axe(page) == [], "the replay at the fight"

    page.get_by_role("button", name="‹ Back", exact=True).click()
    _at(page, "Step 5 of 7, day 2")
    page.locator("#replay-slider").focus()
    page.keyboard.press("ArrowRight")  # the slider's own keys
    _at(page, "Step 6 of 7, day 2")
    page.get_by_role("button", name="Last »", exact=True).click()
    _at(page, "Step 7 of 7, day 2")
    assert page.locator("#replay-next").get_attribute("aria-disabled") == "true"
    page.locator("#replay-next").focus()
    page.keyboard.press("Enter")  # nothing after the last, and the focus stays on the button
    _at(page, "Step 7 of 7, day 2")
    assert page.evaluate("document.activeElement.id") == "replay-next"
    assert "The game is over." in page.locator("#replay-step").inner_text()
    page.keyboard.press("PageUp")  # the first step of this day (day 2), then of the day before
    _at(page, "Step 3 of 7, day 2")
    page.keyboard.press("PageUp")
    _at(page, "Step 1 of 7, day 1")
    page.get_by_role("button", name="Next day ›", exact=True).click()
    _at(page, "Step 3 of 7, day 2")


def test_a_game_still_in_play_has_no_replay_yet_and_the_page_says_so(
    server: Any, new_page: Any
) -> None:
    page = new_page(390, 844)
    page.add_init_script(path=str(AXE))
    game, _seats = _seed(page, server.url, SCRIPT[:1])  # ann's secret investment
    page.goto(f"{server.url}/#/economancy/{game}/replay")
    page.locator("#replay-error").get_by_text(
        "The replay is ready once the game is over.", exact=True
    ).wait_for()
    assert "invest" not in page.locator("main").inner_text().lower()
    page.get_by_role("link", name="Back to the table", exact=True).wait_for()
    assert _axe(page) == [], "a replay not ready yet"
