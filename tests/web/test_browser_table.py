"""The table in a real browser: readiness and auto start, the maximum of cards, removing,
leaving, resigning, reactions and reports, each clicked as a person does, in contexts of
their own (one person each), against a live `blef serve`."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from app.service.errors import TooManyReactions
from benchmarks.load import Server
from tests.support.waiting import eventually
from tests.web.pages import create_and_join, dismiss_reveals, invite, join, seat, state


def _open(new_page: Any, server: Server, game: str, nickname: str) -> Any:
    page = new_page()
    page.goto(f"{server.url}/#/game/{game}")
    join(page, nickname)
    return page


def _seat(page: Any, game: str) -> dict[str, str] | None:
    return seat(page, game)


def _state(page: Any, server: Server, game: str) -> dict[str, Any]:
    return state(page, server.url, game)


def _settled_readiness(page: Any, server: Server, game: str, nickname: str) -> bool:
    """Whether the service has ``nickname`` ready, once the page shows the same (within
    the test's patience: a page stuck showing anything else fails)."""

    def agreed() -> tuple[bool] | None:
        ready = nickname in _state(page, server, game)["ready"]
        shown = page.locator("#ready-toggle").inner_text()
        return (ready,) if shown == ("Not ready" if ready else "Ready") else None

    return eventually(agreed, "the page's Ready toggle matching the service's state", page)[0]


def _players(page: Any) -> Any:
    return page.get_by_role("list", name="Players")


def test_two_humans_who_mark_ready_with_auto_start_on_start_without_anyone_pressing_start(
    server: Server, new_page: Any
) -> None:
    alice_page = new_page()
    game = create_and_join(alice_page, server.url, "alice")
    bob_page = _open(new_page, server, game, "bob")
    alice_page.get_by_label("Start by itself when everyone is ready").check()
    bob_page.get_by_text("starts by itself when everyone is ready").wait_for()

    # A reaction from one person appears on the other's page, without a reload.
    bob_page.get_by_role("button", name="React 👍").click()
    alice_page.get_by_role("list", name="Recent reactions").get_by_text("bob 👍").wait_for()

    alice_page.get_by_role("button", name="Ready", exact=True).click()
    _players(bob_page).get_by_role("img", name="alice is ready").wait_for()
    assert bob_page.get_by_role("button", name="Start the game").count() == 0
    bob_page.get_by_role("button", name="Ready", exact=True).click()

    for page in (alice_page, bob_page):
        page.get_by_role("region", name="Your cards").wait_for()
        assert page.get_by_text("Out past 11 cards").is_visible()
    # The bar stays at the table once the game runs, and shows what was sent in the lobby.
    assert alice_page.get_by_role("button", name="React 🎉").is_visible()
    assert "bob 👍" in alice_page.get_by_role("list", name="Recent reactions").inner_text()


def test_a_nickname_reported_by_the_only_other_human_becomes_player_n_and_the_admin_removes_players(
    server: Server, new_page: Any
) -> None:
    alice_page = new_page()
    game = create_and_join(alice_page, server.url, "alice")
    bob_page = _open(new_page, server, game, "bob")
    invite(alice_page, "random", 3)
    bob_players = _players(bob_page)
    bob_players.get_by_text("Beginner (computer)").wait_for()
    # No report control for an AI, nor for oneself.
    assert bob_page.get_by_role("button", name=re.compile("^Report name of")).count() == 1
    report = bob_players.get_by_role("button", name="Report name of alice")

    report.click()  # confirm() answered "Cancel": nothing is sent
    assert _state(bob_page, server, game)["players"][0]["nickname"] == "alice"
    bob_page.once("dialog", lambda dialog: dialog.accept())
    report.click()

    alice_page.locator(".you").get_by_text("Player_1", exact=True).wait_for()
    bob_players.get_by_text("Player_1 (host)").wait_for()
    bob_players.get_by_text("Reported").wait_for()
    assert "alice" not in bob_players.inner_text()
    seat = _seat(alice_page, game)
    assert seat is not None and seat["nickname"] == "Player_1"
    alice_page.reload()
    alice_page.locator(".you").get_by_text("Player_1", exact=True).wait_for()

    # The renamed admin keeps the admin's controls and removes the AI, then bob.
    alice_players = _players(alice_page)
    alice_players.get_by_role("button", name="Remove Beginner (computer)").click()
    alice_players.get_by_text("Beginner (computer)").wait_for(state="detached")
    alice_players.get_by_role("button", name="Remove bob").click()
    notice = bob_page.locator("main").get_by_text("You are no longer in this game")
    notice.wait_for()
    assert bob_page.get_by_text("You are watching.", exact=True).is_visible()
    assert _seat(bob_page, game) is None
    assert [p["nickname"] for p in _state(alice_page, server, game)["players"]] == ["Player_1"]


def test_a_player_leaves_the_lobby_and_the_admin_leaving_hands_the_admin_controls_on(
    server: Server, new_page: Any
) -> None:
    alice_page = new_page()
    game = create_and_join(alice_page, server.url, "alice")
    bob_page = _open(new_page, server, game, "bob")
    carol_page = _open(new_page, server, game, "carol")
    _players(alice_page).get_by_text("carol").wait_for()

    carol_page.get_by_role("button", name="Leave the game").click()
    carol_page.get_by_role("heading", name="Play Blef").wait_for()
    assert _seat(carol_page, game) is None
    _players(alice_page).get_by_text("carol").wait_for(state="detached")

    assert bob_page.get_by_role("button", name="Start the game").count() == 0
    alice_page.get_by_role("button", name="Leave the game").click()
    alice_page.get_by_role("heading", name="Play Blef").wait_for()
    bob_page.get_by_role("button", name="Start the game").wait_for()
    assert bob_page.get_by_label("Start by itself when everyone is ready").is_visible()
    assert _players(bob_page).inner_text().count("(host)") == 1
    assert "bob (host)" in _players(bob_page).inner_text()


def test_the_admin_chooses_one_card_at_most_and_a_resigning_player_watches_the_game_end(
    server: Server, new_page: Any
) -> None:
    page = new_page()
    create_and_join(page, server.url, "dora")
    invite(page, "probabilist", 2)
    invite(page, "bold", 3)
    choice = page.get_by_label("Maximum of cards")
    assert choice.locator("option:checked").inner_text() == "Rule's maximum"
    # Three players: the rule's maximum is 8, the choices 1..8.
    assert choice.locator("option").all_inner_texts()[1:] == [str(n) for n in range(1, 9)]
    # A tampered page offers more than the rule allows: the service's refusal is shown.
    choice.evaluate("s => { s.add(new Option('99', '99')); }")
    with page.expect_response(lambda r: r.url.endswith("/set-max-cards")) as refused:
        choice.select_option("99")
    assert refused.value.status == 400
    assert refused.value.json()["code"] == "invalid_max_cards"
    page.locator("#toast.error").wait_for()
    assert page.locator("#toast").inner_text() == (
        "That maximum of cards is too high for the number of players seated."
    )
    choice.select_option("1")
    choice.locator("option", has_text="Rule's maximum").wait_for(state="detached")
    assert choice.input_value() == "1"
    page.get_by_role("button", name="Start the game").click()
    page.get_by_text("Out past 1 card:").wait_for()

    dismiss_reveals(page)
    # A revealed round may cover the table; the click reaches the button regardless.
    page.get_by_role("button", name="Resign").dispatch_event("click")  # confirm(): "Cancel"
    assert page.get_by_role("button", name="Resign").is_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").dispatch_event("click")

    page.locator("#winner").wait_for()
    assert page.locator(".you").get_by_text("dora", exact=True).is_visible()
    dora = next(p for p in _players(page).locator("li").all() if "dora" in p.inner_text())
    assert "out of the game" in dora.inner_text()
    assert page.get_by_role("button", name="Resign").count() == 0


def test_clicking_ready_twice_fast_and_a_reaction_flood_leave_the_page_consistent_and_working(
    server: Server, new_page: Any
) -> None:
    page = new_page()
    game = create_and_join(page, server.url, "eve")
    invite(page, "random", 2)

    page.get_by_role("button", name="Ready", exact=True).dblclick()
    page.locator("#toast").wait_for()
    assert page.locator("#toast.error").count() == 0
    ready = _settled_readiness(page, server, game, "eve")
    assert page.get_by_role("img", name="eve is ready").count() == int(ready)

    refusals: list[Any] = []
    page.on("response", lambda r: refusals.append(r) if r.status == 429 else None)
    for _ in range(6):
        page.get_by_role("button", name="React 😂").click()
    status = page.locator("#toast.error")
    # The page tells the refusal in words for people (the service's own text, with its
    # seconds to wait, goes to the developer console); read as it shows (it clears itself
    # after a few seconds, sooner than a loaded machine may reach a later read).
    expect(status).to_have_text("Easy on the reactions: wait a few seconds before sending another.")
    assert refusals, "the service refused some of the flood"
    assert {r.json()["code"] for r in refusals} == {TooManyReactions.code}
    recent = page.get_by_role("list", name="Recent reactions")
    page.wait_for_function(
        "document.querySelector('[aria-label=\"Recent reactions\"]').innerText"
        ".split('eve 😂').length - 1 === 3"
    )
    assert recent.inner_text().count("eve 😂") == 3
    # The page still works: the toggle goes on flipping the seat's readiness.
    page.locator("#ready-toggle").click()
    page.get_by_role("button", name="Ready" if ready else "Not ready", exact=True).wait_for()
    assert _settled_readiness(page, server, game, "eve") is not ready


def test_start_pressed_while_the_maximum_of_cards_is_on_its_way_starts_the_game_with_it(
    server: Server, new_page: Any
) -> None:
    """A press of Start while another change is being sent was dropped without a word (the
    page sent one change at a time): on a loaded machine, a test that chose the maximum of
    cards and pressed Start found the game never started. Start now waits its turn: it goes
    once the maximum of cards is answered, and the game starts with it."""
    page = new_page()
    game = create_and_join(page, server.url, "quick")
    invite(page, "random", 2)
    held: list[Any] = []

    def hold(route: Any) -> None:  # (a bound method is not a handler Playwright can wrap)
        held.append(route)

    page.route("**/set-max-cards", hold)
    page.get_by_label("Maximum of cards").select_option("1")
    eventually(lambda: held, "the page sending the maximum of cards", page)
    starts: list[Any] = []
    page.on("request", lambda r: starts.append(r) if r.url.endswith("/start") else None)
    page.get_by_role("button", name="Start the game").click()
    assert starts == []  # waiting its turn: the maximum of cards is not answered yet
    assert _state(page, server, game)["status"] == "Not started"
    held[0].continue_()
    page.get_by_text("Out past 1 card:").wait_for()
    assert _state(page, server, game)["max_cards"] == 1
    assert len(starts) == 1
