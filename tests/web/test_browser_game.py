"""The browser client in a real browser (Debian's chromium) against a live `blef serve`."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from benchmarks.load import Server
from engine import errors as rules
from tests.web.pages import create_and_join, dismiss_reveals, invite, join, play_to_the_end

DOCS = Path(__file__).resolve().parents[2] / "docs"
SHOTS = os.environ.get("BLEF_SCREENSHOTS") == "1"
"""`BLEF_SCREENSHOTS=1 pytest tests/web` also saves the README's screenshots in docs/."""


def test_a_whole_game_against_two_ai_players_is_played_by_clicking_to_game_over(
    server: Server, new_page: Any
) -> None:
    page = new_page(390, 844) if SHOTS else new_page()
    page.goto(server.url + "/")
    if SHOTS:
        page.screenshot(path=str(DOCS / "web-lobby.png"))
    game = create_and_join(page, server.url, "alice")
    invite(page, "Dazhbog", 2)
    invite(page, "Porevit", 3)
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("region", name="Your cards").wait_for()
    if SHOTS:
        page.locator("#check-button, #bet-button").first.wait_for()
        page.get_by_label("Show the chance each bet exists, given your cards").check()
        page.screenshot(path=str(DOCS / "web-table.png"), full_page=True)
        page.get_by_label("Show the chance each bet exists, given your cards").uncheck()

    revealed = play_to_the_end(page)

    assert revealed >= 2, "every ended round (AI-ended ones too) is revealed"
    assert page.locator("#winner").inner_text().endswith("wins!")
    assert page.get_by_role("link", name="The game's record (JSON)").get_attribute("href") == (
        f"/games/{game}/record"
    )
    # The replay verifies every deal in the page.
    page.get_by_role("link", name="Replay and verify the deals").click()
    page.locator(".replay-round").first.wait_for()
    rounds = page.locator(".replay-round").count()
    assert rounds == revealed or rounds >= 2
    assert page.locator(".verified").count() == rounds
    assert page.locator(".replay-round .error").count() == 0


def test_a_reveal_shows_every_hand_the_checked_bet_and_the_loser(
    server: Server, new_page: Any
) -> None:
    page = new_page(390, 844) if SHOTS else new_page()
    create_and_join(page, server.url, "carol")
    invite(page, "random", 2)
    page.get_by_role("button", name="Start the game").click()
    reveal = page.locator("#reveal")
    for _ in range(400):
        if reveal.is_visible():
            break
        if page.locator("#check-button").is_visible():
            page.locator("#check-button").click()
        elif page.locator("#bet-button").is_visible():
            page.locator("#bet-button").click()
        page.wait_for_timeout(50)
    dialog = reveal.get_by_role("dialog")
    dialog.wait_for()
    text = dialog.inner_text()
    assert "lost the round" in text
    assert "checked" in text
    assert dialog.locator(".hands li").count() == 2
    if SHOTS:
        page.screenshot(path=str(DOCS / "web-reveal.png"))
    dismiss_reveals(page)
    assert not reveal.is_visible()


def test_two_humans_see_only_their_own_cards_and_an_observer_sees_none(
    server: Server, new_page: Any
) -> None:
    alice = new_page()
    game = create_and_join(alice, server.url, "alice")
    bob = new_page()
    bob.goto(f"{server.url}/#/game/{game}")
    join(bob, "bob")
    watcher = new_page()
    watcher.goto(f"{server.url}/#/game/{game}")
    alice.locator(".players li").nth(1).wait_for()
    alice.get_by_role("button", name="Start the game").click()

    for page in (alice, bob):
        hand = page.get_by_role("region", name="Your cards")
        hand.wait_for()
        assert hand.locator(".card").count() == 1
    watcher.get_by_text("to move").first.wait_for()
    assert watcher.get_by_text("watching").is_visible()
    assert watcher.locator(".card").count() == 0
    assert watcher.get_by_role("region", name="Your cards").count() == 0
    # Each player's card is their own: the two hands shown differ (24 distinct cards).
    a = alice.locator(".hand .card").get_attribute("aria-label")
    b = bob.locator(".hand .card").get_attribute("aria-label")
    assert a != b
    # No secret in any URL: the seat lives in localStorage and travels as a Bearer header.
    for page in (alice, bob, watcher):
        seat = page.evaluate(f"localStorage.getItem('blef:seat:{game}')")
        if seat:
            assert json.loads(seat)["player_uuid"] not in page.url


def test_a_reload_mid_game_returns_the_player_to_their_seat(server: Server, new_page: Any) -> None:
    page = new_page()
    create_and_join(page, server.url, "dora")
    invite(page, "Dazhbog", 2)
    page.get_by_role("button", name="Start the game").click()
    cards = page.get_by_role("region", name="Your cards").locator(".card")
    cards.first.wait_for()
    before = cards.first.get_attribute("aria-label")
    page.reload()
    page.get_by_text("you are dora").wait_for()
    assert (
        page.get_by_role("region", name="Your cards")
        .locator(".card")
        .first.get_attribute("aria-label")
        == before
    )


def _two_player_game_at_second_move(server: Server, new_page: Any) -> tuple[Any, Any, str]:
    """alice and bob in a started game where one bet was made; (mover's page, other, game)."""
    alice = new_page()
    game = create_and_join(alice, server.url, "alice")
    bob = new_page()
    bob.goto(f"{server.url}/#/game/{game}")
    join(bob, "bob")
    alice.locator(".players li").nth(1).wait_for()
    alice.get_by_role("button", name="Start the game").click()
    pages = (alice, bob)
    first = None
    for _ in range(100):
        first = next((p for p in pages if p.locator("#bet-button").is_visible()), None)
        if first is not None:
            break
        alice.wait_for_timeout(100)
    assert first is not None
    first.get_by_label("Your bet").select_option("5")  # high card A
    first.locator("#bet-button").click()
    second = bob if first is alice else alice
    second.locator("#check-button").wait_for()
    return second, first, game


def test_an_illegal_bet_shows_the_services_reason(server: Server, new_page: Any) -> None:
    mover, _, _ = _two_player_game_at_second_move(server, new_page)
    # The picker offers only legal bets; a tampered page sends a lower one anyway.
    mover.evaluate(
        "() => { const s = document.getElementById('bet');"
        " s.add(new Option('high card 9', '0')); s.value = '0'; }"
    )
    mover.locator("#bet-button").click()
    status = mover.locator("#status.error")
    status.wait_for()
    assert status.inner_text() == rules.IllegalAction.default_message


def test_a_late_move_from_a_stale_page_shows_the_services_reason(
    server: Server, new_page: Any
) -> None:
    mover, _, game = _two_player_game_at_second_move(server, new_page)
    # Freeze this page's view of the game (every poll answers "not modified") ...
    mover.route(
        f"**/games/{game}",
        lambda route: (
            route.fulfill(status=304)
            if route.request.headers.get("if-none-match")
            else route.continue_()
        ),
    )
    # ... while the same player moves from another tab.
    other_tab = mover.context.new_page()
    other_tab.goto(f"{server.url}/#/game/{game}")
    other_tab.locator("#check-button").click()
    other_tab.locator("#reveal").get_by_role("dialog").wait_for()
    # A revealed round may cover the stale page; the click goes to the button regardless.
    mover.locator("#check-button").dispatch_event("click")
    status = mover.locator("#status.error")
    status.wait_for()
    assert status.inner_text() in {
        rules.NotYourTurn.default_message,
        rules.IllegalAction.default_message,
    }


def test_a_tampered_record_fails_the_replays_verification(server: Server, new_page: Any) -> None:
    page = new_page()
    game = create_and_join(page, server.url, "erin")
    invite(page, "bold", 2)
    page.get_by_role("button", name="Start the game").click()
    play_to_the_end(page)

    def tamper(route: Any) -> None:
        record = route.fetch().json()
        hands = record["rounds"][0]["hands"]
        hands[0]["hand"], hands[1]["hand"] = hands[1]["hand"], hands[0]["hand"]
        route.fulfill(json=record)

    page.route(f"**/games/{game}/record", tamper)
    page.goto(f"{server.url}/#/replay/{game}")
    page.locator(".replay-round").first.wait_for()
    first = page.locator(".replay-round").first
    assert "NOT verified" in first.inner_text()
    assert page.locator(".verified").count() == page.locator(".replay-round").count() - 1


def test_the_lobby_shows_a_game_made_public_live_without_a_reload(
    server: Server, new_page: Any
) -> None:
    """The lobby watches the public games over the websocket: a game made public elsewhere
    appears (polling alone would take 10 s; the wait here is bounded below that)."""
    lobby = new_page()
    lobby.goto(server.url + "/")
    lobby.get_by_role("heading", name="Public games").wait_for()
    host = new_page()
    create_and_join(host, server.url, "hosting")
    host.get_by_role("button", name="Make public").click()
    lobby.get_by_text(re.compile(r"Room \d+: hosting")).wait_for(timeout=5000)


def test_the_admin_sets_a_time_limit_and_the_table_shows_the_time_left(
    server: Server, new_page: Any
) -> None:
    page = new_page()
    create_and_join(page, server.url, "timed")
    invite(page, "random", 2)
    page.get_by_label("Move time limit in seconds (0 for none)").fill("120")
    page.get_by_role("button", name="Set time limit").click()
    page.get_by_text("Time limit set to 120").wait_for()
    page.get_by_role("button", name="Start the game").click()
    page.get_by_text(re.compile(r"to move, \d+s left")).wait_for()
