"""What a newcomer meets, in a real browser against a live `blef serve`: the bet they chose is
the bet they place while the table changes around them, their turn is hard to miss, each
round's end is told once and truly, the rules are one click away, the end leads somewhere
(play again, the lobby), a seat moves to another device, the page passes axe-core, and a
whole game is played by keyboard alone."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from benchmarks.load import Server
from tests.web.pages import (
    axe_violations,
    choose_bet,
    create_and_join,
    dismiss_reveals,
    invite,
    play_one_move,
    state,
    with_axe,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"
SHOTS = os.environ.get("BLEF_SCREENSHOTS") == "1"

RECORD_REVEALS = """() => {
  window.__reveals = [];
  new MutationObserver(() => {
    const h = document.querySelector('#reveal h2');
    if (h && window.__reveals[window.__reveals.length - 1] !== h.id) window.__reveals.push(h.id);
  }).observe(document.body, {subtree: true, childList: true});
}"""
"""Keeps, in the page, the id of every reveal shown (one per round: reveal-title-<round>)."""


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(DOCS / name))


class Bob:
    """A second player driven through the API, as another person's device would."""

    def __init__(self, page: Any, base: str, game: str, nickname: str = "bob") -> None:
        self.request, self.base, self.game, self.nickname = page.request, base, game, nickname
        reply = self.request.post(f"{base}/games/{game}/join", data={"nickname": nickname})
        assert reply.ok, reply.text()
        self.uuid = reply.json()["player_uuid"]

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        headers = {"Authorization": f"Bearer {self.uuid}"}
        url = f"{self.base}/games/{self.game}/{path}"
        reply = self.request.post(url, headers=headers, data=body or {})
        assert reply.ok, reply.text()
        return reply.json()

    def view(self) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self.uuid}"}
        return self.request.get(f"{self.base}/games/{self.game}", headers=headers).json()  # type: ignore[no-any-return]


def _start_with_bob(page: Any, server: Server, time_limit: int) -> tuple[str, Bob]:
    game = create_and_join(page, server.url, "alice")
    bob = Bob(page, server.url, game)
    page.get_by_role("list", name="Players").get_by_text("bob").wait_for()
    if time_limit:
        page.get_by_label("Seconds to move (0 = no limit)").fill(str(time_limit))
        page.get_by_role("button", name="Set time limit").click()
        page.locator("#toast", has_text=f"Each player now has {time_limit} seconds").wait_for()
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("region", name="Your cards").wait_for()
    return game, bob


def test_the_bet_chosen_is_the_bet_placed_while_reactions_and_the_clock_change_the_table(
    server: Server, new_page: Any
) -> None:
    page = new_page(390, 844)
    game, bob = _start_with_bob(page, server, time_limit=120)
    if bob.view()["cp_nickname"] == "bob":
        bob.post("play", {"action_id": 0})  # high card 9: alice's turn now
    page.locator("#bet-button").wait_for()
    choose_bet(page, "Pair", "pair of aces")
    assert page.evaluate("document.activeElement.id") == "bet"
    countdown = page.locator(".dock .countdown")
    before = countdown.inner_text()

    bob.post("react", {"reaction": "👍"})  # the table changes: a reaction ...
    page.get_by_role("list", name="Recent reactions").get_by_text("bob 👍").wait_for()
    page.wait_for_function(  # ... and a tick of the time limit
        "t => document.querySelector('.dock .countdown').innerText !== t", arg=before
    )

    assert page.locator("#bet").input_value() == "11"
    assert page.locator("#bet-kind").input_value() == "pair"
    assert page.evaluate("document.activeElement.id") == "bet", "the focus stayed put"
    assert page.locator("#bet-button").inner_text() == "Bet pair of aces"
    page.locator("#bet-button").click()
    page.get_by_role("heading", name="This round's bets, newest first").wait_for()
    page.locator(".history li.newest", has_text="alice bets pair of aces").wait_for()
    last_bet = [e for e in state(page, server.url, game)["history"] if e["action_id"] < 88][-1]
    assert last_bet == {"player": "alice", "action_id": 11}
    page.wait_for_function("document.activeElement && document.activeElement.id === 'turn-line'")


def test_what_the_host_types_stays_while_another_player_marks_ready_and_reacts(
    server: Server, new_page: Any
) -> None:
    page = new_page()
    game = create_and_join(page, server.url, "alice")
    bob = Bob(page, server.url, game)
    field = page.get_by_label("Seconds to move (0 = no limit)")
    field.fill("45")
    field.focus()
    bob.post("ready", {"ready": True})
    page.get_by_role("img", name="bob is ready").wait_for()
    bob.post("react", {"reaction": "🎉"})
    page.get_by_role("list", name="Recent reactions").get_by_text("bob 🎉").wait_for()
    assert field.input_value() == "45"
    assert page.evaluate("document.activeElement.id") == "time-limit"


def test_your_turn_is_announced_in_the_title_and_to_screen_readers_and_the_controls_are_in_view(
    server: Server, new_page: Any
) -> None:
    page = new_page(390, 844)
    _, bob = _start_with_bob(page, server, time_limit=0)
    if bob.view()["cp_nickname"] == "alice":
        page.locator("#bet-button").click()
        page.locator("#turn-line", has_text="Waiting for bob to move.").wait_for()
        assert page.title() != "● Your turn · Blef"
    bob.post("play", {"action_id": 30})  # three nines
    page.locator("#check-button").wait_for()
    page.wait_for_function("document.title === '● Your turn · Blef'")
    page.wait_for_function("document.getElementById('announcer').textContent.includes('Your turn')")
    assert "bob bets three nines" in page.locator("#announcer").inner_text()
    page.wait_for_function("document.activeElement && document.activeElement.id === 'dock-title'")
    for control in ("#check-button", "#bet-button", "#bet"):
        box = page.locator(control).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, control
    # Nothing covers the Check button: the point at its centre is the button itself.
    assert page.evaluate(
        """() => { const b = document.getElementById('check-button').getBoundingClientRect();
        const at = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
        return at.closest('#check-button') !== null; }"""
    )
    assert "three nines" in page.locator("#standing-bet").inner_text()
    _shot(page, "web-turn-phone.png")


def test_a_timeout_is_told_as_a_timeout_once_per_round(server: Server, new_page: Any) -> None:
    page = new_page()
    _start_with_bob(page, server, time_limit=2)
    page.evaluate(RECORD_REVEALS)
    dialog = page.get_by_role("dialog")
    dialog.wait_for()
    text = dialog.inner_text()
    assert re.search(r"(alice|bob) ran out of time to move, and so loses the round", text)
    assert "checked" not in text
    page.get_by_role("button", name="Continue").click()
    page.get_by_role("heading", name=re.compile(r"^Round 2: ")).wait_for()
    assert page.evaluate("window.__reveals") == ["reveal-title-1", "reveal-title-2"]


def test_a_resignation_is_told_as_a_resignation(server: Server, new_page: Any) -> None:
    page = new_page()
    game = create_and_join(page, server.url, "alice")
    bob = Bob(page, server.url, game)
    Bob(page, server.url, game, "carol")
    page.get_by_role("list", name="Players").get_by_text("carol").wait_for()
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("region", name="Your cards").wait_for()
    bob.post("resign")
    dialog = page.get_by_role("dialog")
    dialog.wait_for()
    assert "bob resigned, and so is out of the game." in dialog.inner_text()
    assert "Round 1: bob is out" in dialog.get_by_role("heading").first.inner_text()


def test_a_players_own_check_is_revealed_once_with_the_bets_and_the_cards_that_counted(
    server: Server, new_page: Any
) -> None:
    page = new_page(1280, 800)
    _, bob = _start_with_bob(page, server, time_limit=0)
    page.evaluate(RECORD_REVEALS)
    if bob.view()["cp_nickname"] == "alice":
        choose_bet(page, "High card", "high card A")
        page.locator("#bet-button").click()
        page.locator("#turn-line", has_text="Waiting for bob to move.").wait_for()
    bob.post("play", {"action_id": 6})  # pair of nines
    page.locator("#check-button").click()
    dialog = page.get_by_role("dialog")
    dialog.wait_for()
    text = dialog.inner_text()
    assert "alice checked bob's bet “pair of nines”" in text
    assert "it needs 2 nines" in text
    assert "bob bet pair of nines" in text and "alice checked" in text
    assert dialog.locator(".hands li").count() == 2
    # The cards that counted for "pair of nines" are ringed: every nine shown, and only those.
    labels = dialog.locator(".hands .card").evaluate_all("cs => cs.map(c => c.ariaLabel)")
    nines = [label for label in labels if label.startswith("nine of")]
    assert dialog.locator(".hands .card.marked").count() == len(nines)
    _shot(page, "web-reveal-desktop.png")
    page.get_by_role("button", name="Continue").click()
    assert not page.locator("#reveal").is_visible()
    page.locator(".badge", has_text="round 2").wait_for()
    page.wait_for_function("document.getElementById('turn-line').innerText.length > 0")
    assert page.evaluate("window.__reveals") == ["reveal-title-1"]
    assert not page.locator("#reveal").is_visible()


def test_the_rules_and_all_88_bets_are_one_click_away_from_the_lobby_and_the_table(
    server: Server, new_page: Any
) -> None:
    page = new_page(390, 844)
    page.goto(server.url + "/")
    page.get_by_role("link", name="How to play").click()
    page.get_by_role("heading", name="How to play Blef").wait_for()
    page.get_by_role("heading", name="The cards").wait_for()  # docs/rules.md, fetched
    for heading in ("The cards", "A round", "Taking cards and being out", "Why this order?"):
        assert page.get_by_role("heading", name=heading).is_visible()
    assert page.locator(".set-list li").count() == 88
    flush = page.get_by_role("region", name=re.compile("^Flush"))
    assert "five cards of the same colour" in flush.inner_text()
    _shot(page, "web-learn-phone.png")

    create_and_join(page, server.url, "reader")
    page.get_by_role("button", name="How to play").click()
    page.get_by_role("heading", name="How to play Blef").wait_for()
    page.get_by_role("button", name="Back to the game").first.click()
    page.get_by_role("button", name="Start the game").wait_for()
    # Focus goes back to the button that opened the rules (once the table is drawn again).
    page.wait_for_function("document.activeElement && document.activeElement.id === 'help-button'")


def test_the_lobby_the_table_a_reveal_and_game_over_have_no_serious_axe_violations(
    server: Server, new_page: Any
) -> None:
    page = new_page(390, 844)
    with_axe(page)
    page.goto(server.url + "/")
    page.get_by_role("heading", name="Public games waiting for players").wait_for()
    assert axe_violations(page) == [], "the lobby"
    game = create_and_join(page, server.url, "ally")
    invite(page, "random", 2)
    assert axe_violations(page) == [], "the room before the start"
    page.get_by_label("Maximum of cards").select_option("1")
    page.get_by_role("button", name="Start the game").click()
    page.locator("#bet-button, #check-button").first.wait_for()
    assert axe_violations(page) == [], "the table on your turn"
    while not page.locator("#reveal").is_visible():
        play_one_move(page)
        page.wait_for_timeout(50)
    assert axe_violations(page) == [], "a reveal"
    while not page.locator("#winner").is_visible():
        dismiss_reveals(page)
        play_one_move(page)
        page.wait_for_timeout(50)
    dismiss_reveals(page)
    assert axe_violations(page) == [], "game over"
    page.goto(f"{server.url}/#/replay/{game}")
    page.locator(".replay-round").first.wait_for()
    assert axe_violations(page) == [], "the replay"


def _play_both_to_the_end(pages: tuple[Any, ...]) -> None:
    while not all(p.locator("#winner").is_visible() for p in pages):
        for p in pages:
            dismiss_reveals(p)
            play_one_move(p)
        pages[0].wait_for_timeout(50)
    for p in pages:
        dismiss_reveals(p)


def test_play_again_takes_everyone_who_clicks_it_to_the_same_new_game_with_the_same_computer(
    server: Server, new_page: Any
) -> None:
    alice = new_page(1280, 800)
    game = create_and_join(alice, server.url, "alice")
    bob = new_page(390, 844)
    bob.goto(f"{server.url}/#/game/{game}")
    bob.get_by_label("Your name").fill("bob")
    bob.get_by_role("button", name="Join").click()
    invite(alice, "random", 3)
    alice.get_by_label("Maximum of cards").select_option("1")
    alice.get_by_role("button", name="Start the game").click()
    _play_both_to_the_end((alice, bob))
    _shot(alice, "web-game-over-desktop.png")

    alice.get_by_role("button", name="Play again with the same players").click()
    alice.wait_for_url(lambda url: game not in url)
    new_game = alice.url.rsplit("/", 1)[1]
    bob.locator("#rematch-status", has_text="Already in the next game: alice").wait_for()
    bob.get_by_role("button", name="Play again with the same players").click()
    bob.wait_for_url(re.compile(f"#/game/{new_game}$"))
    players = alice.get_by_role("list", name="Players")
    players.get_by_text("bob").wait_for()
    players.get_by_text("Beginner (computer)").wait_for()
    assert alice.locator(".you").get_by_text("alice", exact=True).is_visible()
    assert alice.get_by_role("button", name="Start the game").is_visible()
    # And back to the lobby from a finished game.
    bob.go_back()
    bob.get_by_role("link", name="Back to the lobby").click()
    bob.get_by_role("heading", name="Play Blef").wait_for()


def test_a_seat_moves_to_another_device_by_a_link_whose_secret_never_reaches_the_server(
    server: Server, new_page: Any
) -> None:
    page = new_page()
    game = create_and_join(page, server.url, "alice")
    page.get_by_text("Play on another device").click()
    assert "Keep this link to yourself" in page.locator(".device").inner_text()
    link = page.locator("#take-link").input_value()
    secret = link.rsplit("/", 1)[1]
    assert "#/take/" in link

    phone = new_page(390, 844)
    seen: list[str] = []
    phone.on("request", lambda request: seen.append(request.url))
    phone.goto(link)
    phone.wait_for_url(re.compile(f"#/game/{game}$"))
    phone.locator(".you").get_by_text("alice", exact=True).wait_for()
    assert phone.get_by_role("button", name="Leave the game").is_visible()
    assert seen and not any(secret in url for url in seen)


def test_a_whole_game_is_played_with_the_keyboard_alone(server: Server, new_page: Any) -> None:
    page = new_page(1280, 800)
    page.goto(server.url + "/")
    page.get_by_label("Your name").focus()
    page.keyboard.type("keys")
    page.get_by_label(re.compile("^Beginner")).focus()
    page.keyboard.press("Space")
    page.locator("#play-now").focus()
    page.keyboard.press("Enter")
    page.get_by_role("region", name="Your cards").wait_for()
    page.evaluate(RECORD_REVEALS)
    while not page.locator("#winner").is_visible():
        if page.locator("#reveal").is_visible():
            page.keyboard.press("Enter")  # the focus is on Continue
        elif page.locator("#check-button").is_visible():
            page.keyboard.press("c")
        elif page.locator("#bet-button").is_visible():
            page.keyboard.press("b")
        page.wait_for_timeout(50)
    while page.locator("#reveal").is_visible():
        page.keyboard.press("Enter")
        page.wait_for_timeout(50)
    reveals = page.evaluate("window.__reveals")
    assert len(reveals) == len(set(reveals)) >= 4, "each round told once"
