"""The variants in a real browser: the host sets the cards in the lobby (32 cards, a joker, a
common card) and teams, everyone reads the rules in words, a redraw keeps what the host is
choosing, the table shows the common cards to players and observers, team-mates' hands and
team marks, the picker offers the 32-card bets, and a round is played to a check and
revealed. Each person is a browser context of their own, against a live `blef serve`."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from benchmarks.load import Server
from engine.sets import table_for
from tests.support.waiting import PATIENCE, eventually
from tests.web.pages import axe_violations, create_and_join, join, seat, state, with_axe

SHOTS = os.environ.get("BLEF_SCREENSHOTS") == "1"
"""`BLEF_SCREENSHOTS=1` also saves docs/web-variant-phone.png."""
DOCS = Path(__file__).resolve().parents[2] / "docs"
RULES_WORDS = "32 cards, 1 joker, 1 common card"


def _my_move(page: Any) -> str | None:
    """Bet the lowest offered bet when the round has none yet, else check; what was done.
    Nothing when the round ends first (its reveal then covers the buttons: the caller sees
    the reveal and stops) or the click did not land (the caller's loop tries again, until
    its deadline: a reveal drawn a moment after the refused click was taken for a failure)."""
    for name, button in (("check", "#check-button"), ("bet", "#bet-button")):
        if page.locator(button).is_visible():
            try:
                page.locator(button).click(timeout=5000)
            except PlaywrightError:
                return None
            return name
    return None


def test_the_host_sets_32_cards_a_joker_and_a_common_card_and_everyone_plays_them(
    server: Server, new_page: Any
) -> None:
    alice = new_page()
    with_axe(alice)
    game = create_and_join(alice, server.url, "alice")
    alice.get_by_label("Deck").select_option("32")
    alice.locator("#rules-words").get_by_text("32 cards", exact=True).wait_for()
    alice.get_by_label("Jokers (wild cards)").select_option("1")
    alice.locator("#rules-words").get_by_text("32 cards, 1 joker", exact=True).wait_for()
    alice.get_by_label("Common cards (face up)").select_option("1")
    alice.locator("#rules-words").get_by_text(RULES_WORDS, exact=True).wait_for()
    assert state(alice, server.url, game)["rules"]["deck_size"] == 32

    bob = new_page()
    bob.goto(f"{server.url}/#/game/{game}")
    join(bob, "bob")
    bob.locator("#rules-words").get_by_text(RULES_WORDS, exact=True).wait_for()
    assert "Jokers are wild" in bob.locator(".rule-notes").inner_text()
    assert bob.get_by_label("Deck").count() == 0  # only the host sets the cards

    # A redraw while the host's change is on its way keeps what the host chose: bob's team
    # change and readiness redraw alice's page before the service has her change.
    held: list[Any] = []

    def hold(route: Any) -> None:  # (a bound method is not a handler Playwright can wrap)
        held.append(route)

    alice.route("**/change-rules", hold)
    alice.locator("#rule-blanks").focus()
    alice.locator("#rule-blanks").select_option("2")
    eventually(lambda: held, "the page sending the change", alice)
    bob.get_by_label("Your team").select_option("1")
    eventually(lambda: alice.get_by_label("Team of bob").input_value() == "1", "bob's team", alice)
    bob.get_by_role("button", name="Ready", exact=True).click()
    alice.get_by_role("img", name="bob is ready").wait_for()
    assert alice.locator("#rule-blanks").input_value() == "2"
    assert alice.evaluate("document.activeElement.id") == "rule-blanks"
    assert state(alice, server.url, game)["rules"]["blanks"] == 0
    held[0].continue_()
    alice.unroute("**/change-rules")
    alice.locator("#rules-words").get_by_text(
        "32 cards, 1 joker, 2 blanks, 1 common card"
    ).wait_for()
    alice.get_by_label("Blanks (dead cards)").select_option("0")
    alice.locator("#rules-words").get_by_text(RULES_WORDS, exact=True).wait_for()
    bob.locator("#rules-words").get_by_text(RULES_WORDS, exact=True).wait_for()

    # The host moves a computer player into bob's team: bob will see its cards.
    alice.get_by_label("Computer player").select_option("random")
    alice.get_by_role("button", name="Invite computer player").click()
    alice.get_by_role("list", name="Players").locator("li").nth(2).wait_for()
    ai = next(p["nickname"] for p in state(alice, server.url, game)["players"] if "ai_agent" in p)
    alice.get_by_label(f"Team of {ai}").select_option("1")
    bob.get_by_role("list", name="Players").locator(".team-mark").get_by_text("team 1").wait_for()
    assert alice.get_by_role("combobox", name="Your team").input_value() == ""
    assert axe_violations(alice) == []

    alice.locator("#start").click()
    watcher = new_page()
    watcher.goto(f"{server.url}/#/game/{game}")
    for page in (alice, bob, watcher):
        common = page.get_by_role("group", name="Common cards", exact=True)
        common.wait_for()
        assert common.get_by_role("img").count() == 1
    running = state(alice, server.url, game)
    assert running["common_hand"] and running["rules"]["deck_size"] == 32
    # Team marks on the seats; bob sees his team-mate's hand, alice does not.
    bob.get_by_role("region", name="Your team-mates' cards").get_by_role(
        "group", name=f"{ai}'s cards (your team-mate)"
    ).wait_for()
    assert alice.get_by_role("region", name="Your team-mates' cards").count() == 0
    assert alice.locator(".seat .team-mark").count() == 2
    assert watcher.get_by_role("region", name="Your cards").count() == 0
    assert axe_violations(alice) == []

    # Play the round to a check; the picker offers the 32-card bets.
    offered_32 = False
    deadline = time.monotonic() + 2 * PATIENCE
    while not (alice.locator("#reveal").is_visible() or bob.locator("#reveal").is_visible()):
        assert time.monotonic() < deadline, alice.locator("main").inner_text()
        for page in (alice, bob):
            if page.locator("#bet-kind").is_visible() and not offered_32:
                offered_32 = _picker_offers_the_32_card_bets(page, server, game)
            _my_move(page)
        alice.wait_for_timeout(150)
    assert offered_32, "no human had a move before the round ended"
    for page in (alice, bob):
        box = page.locator("#reveal")
        box.wait_for()
        assert "checked" in box.locator(".cause").inner_text()
        box.get_by_role("group", name="The common cards").wait_for()
    snap = page.request.get(f"{server.url}/games/{game}?round=1").json()
    assert snap["history"][-2]["action_id"] == 140
    assert seat(bob, game) is not None


def _picker_offers_the_32_card_bets(page: Any, server: Server, game: str) -> bool:
    """Every kind the picker offers, opened in turn, lists exactly the legal bets by their
    32-card names (the engine's)."""
    legal = state(page, server.url, game)["legal_actions"]
    table = table_for(32)
    shown: list[str] = []
    kinds = page.locator("#bet-kind option").all_inner_texts()
    for kind in kinds:
        page.locator("#bet-kind").select_option(label=kind)
        shown += page.locator("#bet option").all_inner_texts()
    page.locator("#bet-kind").select_option(label=kinds[0])
    assert shown == [table.name(i) for i in legal if i < table.check]
    assert max(legal) in (table.check - 1, table.check)  # up to the 140th bet, or its check
    return True


def _a_deal_with_a_joker(page: Any, base: str) -> tuple[str, str]:
    """A started game of 32 cards, jokers and common cards where the creator sees a joker
    (their own hand or the common cards): its UUID and the creator's player UUID."""
    for _ in range(20):
        made = page.request.post(f"{base}/games/create", data={"nickname": "ann"}).json()
        game, token = made["game_uuid"], made["player_uuid"]
        auth = {"Authorization": f"Bearer {token}"}
        rules = {"deck_size": 32, "jokers": 4, "common_cards": 2, "initial_cards": 3}
        answer = page.request.post(f"{base}/games/{game}/change-rules", data=rules, headers=auth)
        assert answer.ok, answer.text()
        for _ in range(2):
            answer = page.request.post(
                f"{base}/games/{game}/invite-aiagent", data={"agent_name": "bold"}, headers=auth
            )
            assert answer.ok, answer.text()
        assert page.request.post(f"{base}/games/{game}/start", headers=auth).ok
        seen = page.request.get(f"{base}/games/{game}", headers=auth).json()
        cards = [c for h in seen["hands"] for c in h["hand"]] + seen["common_hand"]
        if any(c["value"] == -1 for c in cards):
            return game, token
    raise AssertionError("twenty deals without a joker in sight")


def test_a_phone_shows_a_32_card_table_with_a_joker_and_common_cards(
    server: Server, new_page: Any
) -> None:
    page = new_page(width=390, height=844)
    page.goto(server.url + "/")
    game, token = _a_deal_with_a_joker(page, server.url)
    page.evaluate(
        "([g, t]) => localStorage.setItem(`blef:seat:${g}`,"
        " JSON.stringify({player_uuid: t, nickname: 'ann'}))",
        [game, token],
    )
    page.goto(f"{server.url}/#/game/{game}")
    page.get_by_role("group", name="Common cards", exact=True).wait_for()
    joker = page.get_by_role("img", name="joker", exact=True).first
    joker.wait_for()
    assert "joker" in joker.inner_text().lower()
    page.locator("#rules-words").get_by_text("32 cards, 4 jokers, 2 common cards").wait_for()
    if SHOTS:
        page.locator(".felt").evaluate("el => el.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        page.screenshot(path=str(DOCS / "web-variant-phone.png"))
