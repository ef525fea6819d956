"""Whole games in a real browser (Debian's chromium) against a live `blef serve`: against the
computer, between people, reloads, replays, and what the page says when the service refuses."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from benchmarks.load import Server
from tests.support.waiting import eventually
from tests.web.pages import (
    choose_bet,
    create_and_join,
    invite,
    join,
    play_to_the_end,
    settled_count,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"
SHOTS = os.environ.get("BLEF_SCREENSHOTS") == "1"
"""`BLEF_SCREENSHOTS=1 pytest tests/web` also saves the README's screenshots in docs/."""


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(DOCS / name))


def test_play_now_starts_a_game_against_two_computer_players_in_one_click_and_it_plays_to_game_over(
    server: Server, new_page: Any
) -> None:
    page = new_page(390, 844)
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill("alice")
    _shot(page, "web-lobby-phone.png")
    page.get_by_label(re.compile("^Beginner")).check()
    page.get_by_role("button", name="Play now against the computer").click()
    page.get_by_role("region", name="Your cards").wait_for()
    players = page.get_by_role("list", name="Players")
    assert players.locator("li").count() == 3
    assert players.get_by_text(re.compile(r"^Beginner( 2)? \(computer\)")).count() == 2
    page.get_by_text("Out past 4 cards").wait_for()
    page.locator("#check-button, #bet-button").first.wait_for()
    _shot(page, "web-table-phone.png")

    revealed = play_to_the_end(page)

    assert revealed >= 4, "every ended round (those the computer ended too) is revealed"
    assert page.locator("#winner").inner_text().endswith(("wins!", "You win!"))
    _shot(page, "web-game-over-phone.png")


def test_the_replay_verifies_every_deal_and_steps_through_rounds_and_moves(
    server: Server, new_page: Any
) -> None:
    page = new_page(1280, 800)
    create_and_join(page, server.url, "erin")
    invite(page, "random", 2)
    page.get_by_label("Maximum of cards").select_option("2")
    page.get_by_role("button", name="Start the game").click()
    play_to_the_end(page)
    page.get_by_role("link", name="Replay the game, round by round").click()
    rounds = page.locator(".replay-round")
    rounds.first.wait_for()
    assert page.locator(".replay-round .verified").count() == rounds.count() >= 2
    assert page.locator(".replay-round .error").count() == 0
    page.get_by_text(f"All {rounds.count()} deals verified").wait_for()

    moves = page.get_by_role("navigation", name="Moves")
    assert "Move 1 of" in moves.inner_text()
    while page.locator("#next-move").is_enabled():
        page.locator("#next-move").click()
    assert "The reveal" in moves.inner_text()
    page.get_by_role("heading", name=re.compile(r"^Round 1: ")).wait_for()
    page.locator("#next-round").click()
    page.get_by_role("navigation", name="Rounds").get_by_text("Round 2").wait_for()
    assert "Move 1 of" in moves.inner_text() or "The reveal" in moves.inner_text()
    _shot(page, "web-replay-desktop.png")


def test_a_tampered_record_fails_the_replays_verification(server: Server, new_page: Any) -> None:
    page = new_page()
    game = create_and_join(page, server.url, "erin")
    invite(page, "bold", 2)
    page.get_by_label("Maximum of cards").select_option("1")
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
    assert "NOT verified" in page.locator(".replay-round").first.inner_text()
    assert page.locator(".verified").count() == page.locator(".replay-round").count() - 1


def _started_by_alice_and_bob(server: Server, new_page: Any) -> tuple[Any, Any, str]:
    """alice creates a game, bob joins it from its link, alice starts it; (alice's page,
    bob's page, the game)."""
    alice = new_page()
    game = create_and_join(alice, server.url, "alice")
    bob = new_page()
    bob.goto(f"{server.url}/#/game/{game}")
    join(bob, "bob")
    alice.get_by_role("list", name="Players").locator("li").nth(1).wait_for()
    alice.get_by_role("button", name="Start the game").click()
    return alice, bob, game


def test_two_humans_see_only_their_own_cards_and_a_latecomer_is_told_why_they_only_watch(
    server: Server, new_page: Any
) -> None:
    alice, bob, game = _started_by_alice_and_bob(server, new_page)

    for page in (alice, bob):
        hand = page.get_by_role("region", name="Your cards")
        hand.wait_for()
        assert hand.locator(".card").count() == 1
    a = alice.get_by_role("region", name="Your cards").locator(".card").get_attribute("aria-label")
    b = bob.get_by_role("region", name="Your cards").locator(".card").get_attribute("aria-label")
    assert a != b
    watcher = new_page()
    watcher.goto(f"{server.url}/#/game/{game}")
    watcher.locator("#latecomer").wait_for()
    assert "started before you came" in watcher.locator("#latecomer").inner_text()
    assert "You are watching." in watcher.locator(".you").inner_text()
    assert watcher.get_by_role("region", name="Your cards").count() == 0
    # No secret in any URL: the seat lives in localStorage and travels as a Bearer header.
    for page in (alice, bob, watcher):
        seat = page.evaluate(f"localStorage.getItem('blef:seat:{game}')")
        if seat:
            assert json.loads(seat)["player_uuid"] not in page.url


def test_a_reload_mid_game_returns_the_player_to_their_seat(server: Server, new_page: Any) -> None:
    page = new_page()
    create_and_join(page, server.url, "dora")
    invite(page, "probabilist", 2)
    page.get_by_role("button", name="Start the game").click()
    cards = page.get_by_role("region", name="Your cards").locator(".card")
    cards.first.wait_for()
    before = cards.first.get_attribute("aria-label")
    page.reload()
    page.locator(".you").get_by_text("dora", exact=True).wait_for()
    assert (
        page.get_by_role("region", name="Your cards")
        .locator(".card")
        .first.get_attribute("aria-label")
        == before
    )


def _two_player_game_at_second_move(server: Server, new_page: Any) -> tuple[Any, Any, str]:
    """alice and bob in a started game where one bet was made; (mover's page, other, game)."""
    alice, bob, game = _started_by_alice_and_bob(server, new_page)
    pages = (alice, bob)
    first = eventually(
        lambda: next((p for p in pages if p.locator("#bet-button").is_visible()), None),
        "the first mover's bet button",
        alice,
    )
    choose_bet(first, "High card", "high card A")
    first.locator("#bet-button").click()
    second = bob if first is alice else alice
    second.locator("#check-button").wait_for()
    return second, first, game


def test_a_refused_bet_is_told_in_words_for_people_and_the_services_text_goes_to_the_console(
    server: Server, new_page: Any
) -> None:
    mover, _, _ = _two_player_game_at_second_move(server, new_page)
    console: list[str] = []
    mover.on("console", lambda message: console.append(message.text))
    # The picker offers only legal bets; a tampered request asks for a lower one anyway.
    mover.route(
        "**/play",
        lambda route: route.continue_(post_data=json.dumps({"action_id": 0})),
    )
    mover.locator("#bet-button").click()
    toast = mover.locator("#toast.error")
    toast.wait_for()
    assert toast.inner_text().startswith("That bet is not allowed now")
    assert any("This action not allowed right now" in line for line in console)


def test_a_late_move_from_a_stale_page_is_told_in_words(server: Server, new_page: Any) -> None:
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
    mover.locator("#check-button").dispatch_event("click")
    toast = mover.locator("#toast.error")
    toast.wait_for()
    told = toast.inner_text()
    assert told.startswith(("It is not your turn any more", "That bet is not allowed"))


def test_a_bad_name_is_refused_in_words_before_anything_is_sent(
    server: Server, new_page: Any
) -> None:
    page = new_page()
    page.goto(server.url + "/")
    page.locator("#account-name-help", has_text="2 to 64 characters").wait_for()  # rules read
    page.get_by_label("Your name").fill("9 lives")
    page.get_by_role("button", name="Create a game").click()
    page.locator("#name-help", has_text="A name starts with a letter.").wait_for()
    assert "Bad input value" not in page.locator("body").inner_text()
    assert page.evaluate("document.activeElement.id") == "your-name"


def test_the_lobby_lists_a_public_game_live_with_its_seats_state_and_rules(
    server: Server, new_page: Any
) -> None:
    """The lobby watches the public games over the websocket: a game made public elsewhere
    appears, and the lobby never asked for the list again (so it came by the socket, not a
    poll: a wait bounded below the 10 s poll proved the same, but failed on a loaded machine)."""
    lobby = new_page()
    lists: list[str] = []
    lobby.on("request", lambda r: lists.append(r.url) if urlparse(r.url).path == "/games" else None)
    lobby.goto(server.url + "/")
    lobby.get_by_role("heading", name="Public games waiting for players").wait_for()
    # The read as the page loads, and the one as its socket opens.
    read = settled_count(lobby, lambda: len(lists), 2, "the lobby's first reads")
    host = new_page()
    create_and_join(host, server.url, "hosting")
    host.get_by_label("Seconds to move (0 = no limit)").fill("45")
    host.get_by_role("button", name="Set time limit").click()
    host.locator("#toast", has_text="Each player now has 45 seconds to move.").wait_for()
    host.get_by_role("button", name="List in the lobby (make public)").click()
    entry = lobby.locator(".games li", has_text="hosted by hosting")
    entry.get_by_text("45 s to move").wait_for()
    assert len(lists) == read, "the list was read again: the game did not come by the socket"
    text = entry.inner_text()
    assert "1 of 8 seats taken, 7 free" in text
    assert "waiting to start" in text


def test_the_admin_sets_a_time_limit_and_the_table_counts_the_seconds_down(
    server: Server, new_page: Any
) -> None:
    page = new_page()
    create_and_join(page, server.url, "timed")
    invite(page, "random", 2)
    page.get_by_label("Seconds to move (0 = no limit)").fill("120")
    page.get_by_role("button", name="Set time limit").click()
    page.locator("#toast", has_text="Each player now has 120 seconds to move.").wait_for()
    page.get_by_role("button", name="Start the game").click()
    countdown = page.locator(".countdown").first
    countdown.wait_for()
    first = countdown.inner_text()
    assert re.fullmatch(r"(· )?\d+ s left", first)
    page.wait_for_function(
        "t => { const c = document.querySelector('.countdown'); return c && c.innerText !== t; }",
        arg=first,
    )
