"""The Blef table's rough edges as a first-time player met them, in a real browser against a
live `blef serve`: the bet offered when a round begins, the seats and your cards on a phone,
the message after your move, "How to play" over the table, and the end of a game the page
did not follow round by round. The other players move through the API, as other people's
devices would."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from benchmarks.load import Server
from tests.web.pages import (
    axe_violations,
    choose_bet,
    create_and_join,
    dismiss_reveals,
    seat,
    state,
    with_axe,
)
from tests.web.test_browser_newcomer import Bob

PHONE = (390, 844)
CHECK = 88
TOP_BET = 87  # the great straight flush of spades: never among a few cards
SHOTS = Path(os.environ.get("BLEF_EDGE_SHOTS", "")) if os.environ.get("BLEF_EDGE_SHOTS") else None
"""`BLEF_EDGE_SHOTS=<folder> pytest tests/web/test_browser_table_edges.py` saves what each
test sees there, to look at."""


def _shot(page: Any, name: str) -> None:
    if SHOTS is not None:
        page.screenshot(path=str(SHOTS / name))


def _seated(page: Any, server: Server, host: str, others: list[str]) -> tuple[str, list[Bob]]:
    """A game created by ``host`` in the page, the others joined through the API."""
    game = create_and_join(page, server.url, host)
    players = [Bob(page, server.url, game, name) for name in others]
    page.get_by_role("list", name="Players").get_by_text(others[-1]).wait_for()
    return game, players


def _start(page: Any) -> None:
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("region", name="Your cards").wait_for()


def _others_move_until_my_turn(page: Any, server: Server, game: str, players: list[Bob]) -> None:
    """Each other player to move bets the lowest bet there is, until it is the page's turn."""
    by_name = {p.nickname: p for p in players}
    me = seat(page, game)
    assert me is not None
    for _ in range(20):
        now = state(page, server.url, game)
        if now["cp_nickname"] == me["nickname"]:
            page.locator("#bet-button").wait_for()
            return
        mover = by_name[now["cp_nickname"]]
        mover.post("play", {"action_id": min(mover.view()["legal_actions"])})
    raise AssertionError("the page's turn never came")


def test_a_new_round_offers_its_lowest_bet_not_the_one_chosen_the_round_before(
    server: Server, new_page: Any
) -> None:
    page = new_page()
    game, [bob] = _seated(page, server, "alice", ["bob"])
    _start(page)
    _others_move_until_my_turn(page, server, game, [bob])
    choose_bet(page, "Pair", "pair of aces")
    page.locator("#bet-button").click()
    page.locator("#turn-line", has_text="Waiting for bob to move.").wait_for()
    bob.post("play", {"action_id": CHECK})
    dismiss_reveals(page)
    page.locator(".badge", has_text="round 2").wait_for()
    dismiss_reveals(page)
    _others_move_until_my_turn(page, server, game, [bob])

    lowest = min(state(page, server.url, game)["legal_actions"])
    assert lowest < 11, "pair of aces is still a legal bet: the test shows what is offered"
    assert page.locator("#bet").input_value() == str(lowest)
    assert page.locator("#bet-kind").input_value() == "high"


def _lines_of(page: Any, selector: str) -> list[dict[str, Any]]:
    """For each element: its text, how many lines that text takes on screen, and whether it
    is cut short with an ellipsis (so a long name is never broken inside a word)."""
    return page.eval_on_selector_all(  # type: ignore[no-any-return]
        selector,
        """els => els.map(el => {
            const range = document.createRange();
            range.selectNodeContents(el);
            const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
            return {text: el.textContent, lines: tops.size,
                    cut: el.scrollWidth > el.clientWidth,
                    ellipsis: getComputedStyle(el).textOverflow === 'ellipsis'};
        })""",
    )


def test_on_a_phone_names_stay_whole_on_one_line_and_your_cards_stay_above_the_move_controls(
    server: Server, new_page: Any
) -> None:
    page = new_page(*PHONE)
    others = ["bob", "carol_who_plays_on_sundays", "dave", "erin_from_the_chess_club"]
    game, players = _seated(page, server, "newbie41_first_game", others)
    _start(page)
    # The table is shown from its top, though the Start button was far down the page.
    page.wait_for_function("() => document.querySelector('.felt').getBoundingClientRect().top >= 0")
    if state(page, server.url, game)["cp_nickname"] == "newbie41_first_game":
        page.locator("#bet-button").click()
        page.locator("#turn-line", has_text="Waiting for").wait_for()
    page.evaluate("window.scrollTo(0, 0)")  # looking at the top of the table as the turn comes
    _others_move_until_my_turn(page, server, game, players)

    names = _lines_of(page, ".seat .name")
    assert sorted(n["text"] for n in names) == sorted(["newbie41_first_game", *others])
    for name in names:
        assert name["lines"] == 1, f"{name['text']!r} is broken across lines"
        assert not name["cut"] or name["ellipsis"], f"{name['text']!r} is cut without a mark"
    assert page.locator(".seat.me .you-mark").inner_text() == "(you)"

    # The whole hand is on screen, above the move controls fixed at the bottom.
    page.wait_for_function(
        """() => { const hand = document.querySelector('.felt .hand').getBoundingClientRect();
        const dock = document.querySelector('.dock').getBoundingClientRect();
        return hand.top >= 0 && hand.bottom <= dock.top; }"""
    )
    cards = page.locator(".felt .hand .card")
    assert cards.count() == 1
    _shot(page, "edges-turn-phone.png")


def _covered_header_buttons(page: Any) -> list[str]:
    """The header's buttons that something lies over, scrolled to the top of the page."""
    return page.evaluate(  # type: ignore[no-any-return]
        """() => { window.scrollTo(0, 0);
        return [...document.querySelectorAll('header.top nav .button, header.top nav button')]
        .filter(b => { const r = b.getBoundingClientRect();
          const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          return !b.contains(at); }).map(b => b.textContent); }"""
    )


def test_your_bet_is_said_at_the_table_not_over_the_headers_buttons_and_not_into_the_next_round(
    server: Server, new_page: Any
) -> None:
    page = new_page(*PHONE)
    game, [bob] = _seated(page, server, "alice", ["bob"])
    _start(page)
    # "The game started.", shown while the page was scrolled down to the Start button, stays
    # below the header once the page is back at its top. (The new state may come over the
    # socket before the answer to Start that the message tells: it is awaited, not read.)
    expect(page.locator("#toast")).to_have_text("The game started.")
    assert _covered_header_buttons(page) == []
    _others_move_until_my_turn(page, server, game, [bob])
    choose_bet(page, "High card", "high card A")
    page.locator("#bet-button").click()
    page.locator(".history li.newest", has_text="alice bets high card A").wait_for()

    assert _covered_header_buttons(page) == []
    turn = page.locator("#turn-line")
    assert turn.inner_text().startswith("You bet high card A. Waiting for bob to move.")
    _shot(page, "edges-after-bet-phone.png")

    bob.post("play", {"action_id": CHECK})
    page.locator("#reveal").wait_for()
    dismiss_reveals(page)
    page.locator(".badge", has_text="round 2").wait_for()
    page.wait_for_function("() => document.getElementById('turn-line').innerText.length > 0")
    # Neither the table nor a message over it still says it (screen readers heard it once).
    assert "You bet" not in page.locator("#app").inner_text() + page.locator("#toast").inner_text()


def test_how_to_play_opens_as_a_dialog_over_the_table_and_escape_closes_it(
    server: Server, new_page: Any
) -> None:
    page = new_page()
    with_axe(page)
    game, [bob] = _seated(page, server, "alice", ["bob"])
    _start(page)
    _others_move_until_my_turn(page, server, game, [bob])
    version = state(page, server.url, game)["version"]

    page.get_by_role("button", name="How to play").click()
    dialog = page.get_by_role("dialog", name="How to play Blef")
    dialog.wait_for()
    dialog.get_by_role("heading", name="The cards").wait_for()  # the rules, fetched
    assert dialog.get_attribute("aria-modal") == "true" or page.evaluate(
        "document.querySelector('dialog.help-dialog').matches(':modal')"
    )
    # The table is still there beneath it, as it was.
    assert page.locator("#table-heading").is_visible()
    assert page.locator("#bet-button").is_visible()
    # The table's keys do not act through the dialog.
    page.keyboard.press("b")
    page.wait_for_timeout(300)
    assert state(page, server.url, game)["version"] == version
    assert axe_violations(page) == [], "how to play, open over the table"
    _shot(page, "edges-help-desktop.png")

    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    page.wait_for_function("() => document.activeElement?.id === 'help-button'")
    assert page.locator("#bet-button").is_visible()


class _SeatedAlready(Bob):
    """A seat the page already holds, moved through the API as from another device."""

    def __init__(self, page: Any, base: str, game: str, nickname: str, uuid: str) -> None:
        self.request, self.base, self.game = page.request, base, game
        self.nickname, self.uuid = nickname, uuid


def test_a_game_that_ended_while_the_page_was_not_followed_shows_only_its_final_round(
    server: Server, new_page: Any
) -> None:
    """alice is out in the first round and looks away; the others end the game. Coming back,
    she finds the game over with at most the final round to see, not every round queued."""
    page = new_page()
    game, players = _seated(page, server, "alice", ["bob", "carol"])
    page.get_by_label("Maximum of cards").select_option("1")
    _start(page)
    me = seat(page, game)
    assert me is not None
    alice = _SeatedAlready(page, server.url, game, "alice", me["player_uuid"])
    by_name = {p.nickname: p for p in (alice, *players)}
    for _ in range(30):  # whoever is to move bets what is never there, and the next checks
        now = alice.view()
        if now["status"] == "Finished":
            break
        mover = by_name[now["cp_nickname"]]
        if now["history"] and now["history"][-1]["action_id"] == TOP_BET:
            mover.post("play", {"action_id": CHECK})
        elif alice.view()["round_number"] == 1 and mover is not alice:
            mover.post("play", {"action_id": min(mover.view()["legal_actions"])})
        else:
            mover.post("play", {"action_id": TOP_BET})
    final = alice.view()
    assert final["status"] == "Finished" and final["round_number"] >= 2

    page.locator("#winner").wait_for()
    # Once the page has caught up, the final round at most is left to see.
    page.wait_for_function(
        "n => { const h = document.querySelector('#reveal h2');"
        " return !h || h.id === `reveal-title-${n}`; }",
        arg=final["round_number"],
    )
    shown = page.locator("#reveal")
    if shown.is_visible():
        heading = shown.get_by_role("heading").first.inner_text()
        assert heading.startswith(f"Round {final['round_number']}:"), heading
        assert "more round" not in shown.inner_text()
        assert dismiss_reveals(page) == 1
    assert page.locator("#over-title").is_visible()

    page.reload()
    page.locator("#winner").wait_for()
    assert not page.locator("#reveal").is_visible()
    # The final round is there on asking, and the focus comes back to the asking.
    page.get_by_role("button", name="How the last round ended").click()
    last = page.get_by_role("dialog")
    last.get_by_role("heading", name=re.compile(f"^Round {final['round_number']}: ")).wait_for()
    _shot(page, "edges-last-round-desktop.png")
    last.get_by_role("button", name="Continue").click()
    page.wait_for_function("() => document.activeElement?.id === 'last-round'")
    assert not page.locator("#reveal").is_visible()
