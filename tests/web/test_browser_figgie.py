"""Figgie's table in Chromium, at phone and desktop sizes, checked by axe-core: a person
trades against the engine's computer players until the clock ends the game, and reads the
settlement and the replay.

The page is the real client from a live ``blef serve`` on 127.0.0.1 (its table for a game of
any kind, ``#/figgie/<uuid>``). Most tests answer the contract's Figgie routes inside the test
(tests/web/figgie/fake.py: the engine's own game, refusals and agents, and a fake clock the
test moves), so each step is exact; the last plays a round against the service itself (its
/figgie routes, its computer players and its clock ending the round with no request)."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from benchmarks.load import Server
from engine.figgie.decks import SUITS, goal_probabilities
from engine.figgie.game import Order
from engine.figgie.market import LIFT
from tests.web.figgie.fake import SIZES, FakeFiggie, open_table
from tests.web.pages import axe_violations, settled_count, with_axe


def version_shown(page: Any, fake: FakeFiggie, me: int | None = 0) -> None:
    """Wait until the page has drawn the fake's newest state: its number of trades and
    every suit's book, as the page writes them."""
    want = len(fake.state.market.tape)
    page.wait_for_function(
        "n => document.querySelector('.fig-tape .badge')?.textContent === String(n)", arg=want
    )
    if fake.state.settled:
        return
    book = fake.state.book()

    def who(q: Any) -> str:
        return "you" if q["seat"] == me else fake.names[q["seat"]]

    def listed(quotes: Any) -> str:
        return ", ".join(f"{q['price']} {who(q)}" for q in quotes) or "none"

    for suit in SUITS:
        text = f"Bids: {listed(book[suit]['bids'])}. Asks: {listed(book[suit]['asks'])}."
        page.wait_for_function(
            "([s, t]) => document.querySelector(`.fig-${s} .fig-depth`)?.textContent === t",
            arg=[suit, text],
        )


def suit_with(fake: FakeFiggie, side: str, seat: int = 0) -> str | None:
    book = fake.state.book()
    for suit in SUITS:
        quotes = [q for q in book[suit][side] if q["seat"] != seat]
        if quotes and (side == "asks" or fake.state.market.hands[seat][SUITS.index(suit)]):
            return suit
    return None


def trade_until(fake: FakeFiggie, side: str) -> str:
    for _ in range(30):
        suit = suit_with(fake, side)
        if suit:
            return suit
        fake.advance(1)
    raise AssertionError(f"no computer player quoted any {side}")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_person_trades_against_computer_players_until_the_clock_ends_the_game(
    new_page: Any, server: Server, size: str
) -> None:
    fake = FakeFiggie(agents=["marketmaker", "fairvalue", "bayesian"], trading_seconds=90)
    page = open_table(new_page, server, fake, size)
    assert axe_violations(page) == []

    # Buy at the best ask with one press: the card and the chips move, the tape says so.
    suit = trade_until(fake, "asks")
    version_shown(page, fake)
    ask = next(q for q in fake.state.book()[suit]["asks"] if q["seat"] != 0)
    chips = fake.state.market.chips[0]
    held = fake.state.market.hands[0][SUITS.index(suit)]
    button = page.locator(f"#fig-lift-{suit}")
    assert button.inner_text().strip() == f"Buy at {ask['price']}"
    button.click()
    # The computer players may have traded already: the newest line is awaited, not the first
    # line there is (read before the lift was answered, it was an older trade's).
    bought = f"You bought a {suit[:-1]} from {fake.names[ask['seat']]} for {ask['price']}"
    expect(page.locator(".fig-tape-list li").first).to_have_text(
        re.compile(re.escape(bought) + r"\s*$")
    )
    assert fake.state.market.chips[0] == chips - ask["price"]
    assert fake.state.market.hands[0][SUITS.index(suit)] == held + 1
    page.wait_for_function(
        "c => document.getElementById('fig-chips').textContent === String(c)",
        arg=chips - ask["price"],
    )
    assert f"you hold {held + 1}" in page.locator(f"#fig-name-{suit}").inner_text()
    assert fake.orders[-1] == {"type": "lift", "suit": suit}
    said = f"You bought a {suit[:-1]} for {ask['price']}."
    page.locator("#announcer").filter(has_text=said).wait_for()

    # Quote with the price box (typed, + and Enter), see it as your own, cancel it.
    box = page.locator("#fig-bid-price-clubs")
    box.fill("2")
    page.get_by_role("button", name="Raise the club bid price").click()
    box.press("Enter")
    page.locator("#fig-cancel-bid-clubs").wait_for()
    assert fake.orders[-1] == {"type": "bid", "suit": "clubs", "price": 3}
    assert "Your bid 3" in page.locator(".fig-clubs .fig-mine").inner_text()
    page.locator("#fig-cancel-bid-clubs").click()
    page.locator("#fig-cancel-bid-clubs").wait_for(state="detached")
    # the button went with its quote: the focus is on the clubs bid price, not lost to the page
    page.wait_for_function("document.activeElement.id === 'fig-bid-price-clubs'")
    assert fake.orders[-1] == {"type": "cancel_bid", "suit": "clubs"}

    # A refusal is shown under its suit in the service's words, and nothing changed.
    fake.advance(2)
    version_shown(page, fake)
    suit = trade_until(fake, "asks")
    version_shown(page, fake)
    best_ask = fake.state.book()[suit]["best_ask"]["price"]
    tape = len(fake.state.market.tape)
    page.locator(f"#fig-bid-price-{suit}").fill(str(best_ask))
    page.locator(f"#fig-bid-{suit}").click()
    problem = page.locator(f"#fig-problem-{suit}")
    problem.filter(has_text="would cross").wait_for()
    assert "lift" in problem.inner_text()
    assert len(fake.state.market.tape) == tape
    assert axe_violations(page) == []

    # The book changes under a price box in use: it keeps the focus and the typed price.
    box = page.locator("#fig-ask-price-hearts")
    box.click()
    box.fill("17")
    before = page.locator(".fig-market").inner_text()
    for _ in range(20):
        fake.advance(1)
        if len(fake.state.market.tape) > tape + 1:
            break
    version_shown(page, fake)
    assert page.locator(".fig-market").inner_text() != before
    assert page.evaluate("document.activeElement.id") == "fig-ask-price-hearts"
    assert box.input_value() == "17"

    # The clock ends the game: no order is needed, the next read settles it.
    fake.pass_deadline()
    page.locator("#fig-goal").wait_for()
    settled = fake.state.view(0)["settlement"]
    goal = settled["goal_suit"]
    assert (
        f"The goal suit was {'♠♣♥♦'[SUITS.index(goal)]} {goal}"
        in page.locator("#fig-goal").inner_text()
    )
    rows = page.locator(".fig-earned tbody tr")
    assert rows.count() == 4
    for i in range(4):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[1] == str(settled["payouts"][i])
        assert cells[2] == str(settled["chips"][i])
    page.locator("#fig-verified.verified").wait_for()
    # The announcer is written a moment after it is cleared (so screen readers hear it anew).
    expect(page.locator("#announcer")).to_have_text(
        re.compile("^" + re.escape(f"Trading is over. The goal suit was {goal}. You end with "))
    )
    # The end is revealed once over the table, in the shared reveal frame, until dismissed;
    # then the focus is where the settlement put it, its market being gone.
    reveal = page.get_by_role("dialog")
    expect(reveal.get_by_role("heading")).to_have_text(
        f"Trading is over: the goal suit was {'♠♣♥♦'[SUITS.index(goal)]} {goal}"
    )
    expect(page.locator("#reveal-continue")).to_be_focused()
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    expect(reveal).to_have_count(0)
    expect(page.locator("#fig-settle-title")).to_be_focused()  # its market is gone
    assert page.locator("#fig-clock").inner_text() == "Trading is over"
    assert page.locator("#fig-lift-spades").count() == 0

    # The replay steps through the tape from the deal.
    trades = len(fake.state.market.tape)
    assert page.locator("#fig-replay-step").inner_text() == "The deal"
    page.locator("#fig-replay-next").click()
    expect(page.locator("#fig-replay-step")).to_have_text(
        re.compile("^" + re.escape(f"Trade 1 of {trades}: "))
    )
    assert axe_violations(page) == []


def test_the_keyboard_reaches_a_suit_changes_the_price_and_posts_it(
    new_page: Any, server: Server
) -> None:
    fake = FakeFiggie(agents=["random", "random", "random"], trading_seconds=60)
    page = open_table(new_page, server, fake, "desktop")
    page.locator("#table-heading").focus()
    page.keyboard.press("h")
    assert page.evaluate("document.activeElement.id") == "fig-bid-price-hearts"
    page.keyboard.type("4")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowDown")
    assert page.locator("#fig-bid-price-hearts").input_value() == "5"
    page.keyboard.press("Enter")
    page.locator("#fig-cancel-bid-hearts").wait_for()
    assert fake.orders == [{"type": "bid", "suit": "hearts", "price": 5}]
    assert page.evaluate("document.activeElement.id") == "fig-bid-price-hearts"
    page.keyboard.press("Escape")
    assert page.locator("#fig-bid-price-hearts").input_value() == ""
    # A price that is not a whole number is refused in the page, and nothing is sent.
    page.keyboard.type("4.5")
    page.keyboard.press("Enter")
    page.locator("#fig-problem-hearts").filter(has_text="whole number").wait_for()
    assert len(fake.orders) == 1


def test_an_ask_in_a_suit_you_do_not_hold_is_explained_and_not_sent(
    new_page: Any, server: Server
) -> None:
    # the first of the seeds 0, 1, 2, ... whose deal leaves seat 0 without a suit
    for k in range(256):
        fake = FakeFiggie(
            agents=["random", "random", "random"], trading_seconds=60, seed=bytes([k]) * 32
        )
        empty = [s for i, s in enumerate(SUITS) if fake.state.market.hands[0][i] == 0]
        if empty:
            break
    assert empty
    page = open_table(new_page, server, fake, "phone")
    suit = empty[0]
    assert page.locator(f"#fig-ask-{suit}").get_attribute("aria-disabled") == "true"
    page.locator(f"#fig-ask-{suit}").focus()  # still reachable: it says why, on a press
    page.keyboard.press("Enter")
    page.locator(f"#fig-problem-{suit}").filter(has_text=f"You hold no {suit}").wait_for()
    assert fake.orders == []


def test_a_watcher_sees_the_market_and_the_tape_but_no_controls_and_no_hand(
    new_page: Any, server: Server
) -> None:
    fake = FakeFiggie(agents=["marketmaker", "fairvalue", "bayesian"], trading_seconds=60)
    fake.advance(5)
    page = open_table(new_page, server, fake, "phone", seated=False)
    version_shown(page, fake, me=None)
    assert page.locator("#fig-watching").is_visible()
    assert page.locator(".fig-take").count() == 0
    assert page.locator(".fig-price").count() == 0
    assert page.locator("#fig-hand").count() == 0
    assert axe_violations(page) == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_market_fits_the_screen_with_big_targets(
    new_page: Any, server: Server, size: str
) -> None:
    fake = FakeFiggie(agents=["marketmaker", "fairvalue", "bayesian"], trading_seconds=60)
    fake.advance(3)
    page = open_table(new_page, server, fake, size)
    version_shown(page, fake)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    boxes = [page.locator(f"#fig-lift-{s}").bounding_box() for s in SUITS]
    for box in boxes:
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
    tops = [page.locator(f"#fig-name-{s}").bounding_box()["y"] for s in SUITS]
    assert tops == sorted(tops), "the suits are rows, one under another"
    if size == "phone":
        lift = page.locator("#fig-lift-spades").bounding_box()
        assert lift is not None and lift["width"] >= 120, (
            "a phone's Buy and Sell share the row's width"
        )


def test_an_ask_taken_by_someone_else_first_is_refused_in_the_service_s_words_and_nothing_changes(
    new_page: Any, server: Server
) -> None:
    fake = FakeFiggie(agents=["marketmaker", "fairvalue", "bayesian"], trading_seconds=90)
    page = open_table(new_page, server, fake, "desktop")
    suit = trade_until(fake, "asks")
    version_shown(page, fake)
    ask = next(q for q in fake.state.book()[suit]["asks"] if q["seat"] != 0)
    assert page.locator(f"#fig-lift-{suit}").inner_text().strip() == f"Buy at {ask['price']}"
    # The page's view goes stale; another player lifts that ask first (and the trade clears
    # every quote), then the person presses Buy on what the page still shows.
    fake.freeze_reads(True)
    other = next(s for s in range(1, 4) if s != ask["seat"])
    fake.state.apply(other, Order(LIFT, SUITS.index(suit)), now=fake.clock)
    fake.version += 1
    chips = list(fake.state.market.chips)
    tape = len(fake.state.market.tape)
    page.locator(f"#fig-lift-{suit}").click()
    problem = page.locator(f"#fig-problem-{suit}")
    problem.filter(has_text=f"No other player offers {suit}: there is no ask to lift").wait_for()
    assert fake.orders == [{"type": "lift", "suit": suit}]
    assert fake.state.market.chips == chips and len(fake.state.market.tape) == tape
    fake.freeze_reads(False)
    version_shown(page, fake)
    assert page.locator(f"#fig-lift-{suit}").inner_text().strip() == "Buy"


def test_new_trades_are_said_once_in_a_sentence_not_one_message_a_trade(
    new_page: Any, server: Server
) -> None:
    fake = FakeFiggie(agents=["random", "random", "random"], trading_seconds=200)
    page = open_table(new_page, server, fake, "phone")
    fake.advance(40)
    trades = len(fake.state.market.tape)
    assert trades >= 3
    version_shown(page, fake)
    news = page.locator("#fig-news")
    news.filter(has_text="trade").wait_for()
    said = news.inner_text()
    assert said.count(".") <= 2, said  # the person's own trades (none here) and one for the rest
    assert re.search(
        r"\d+ other trades, the last: ai_\w+ bought an? \w+ from \w+ for \d+\.$", said, re.I
    ), said


# ---------------------------------------------------------------- against the real service
TRADING_SECONDS = 20


def _tables_open(page: Any, base: str) -> bool:
    return bool(page.request.get(f"{base}/figgie").ok)


def _post(page: Any, url: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Idempotency-Key": str(uuid.uuid4())}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    reply = page.request.post(url, data=body if body is not None else {}, headers=headers)
    assert reply.ok, f"{url}: {reply.status} {reply.text()}"
    return reply.json()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_newcomer_trades_a_round_against_the_service_s_computer_players_until_its_clock_ends_it(
    new_page: Any, server: Server, size: str
) -> None:
    page = new_page(*SIZES[size])
    with_axe(page)
    base = server.url
    assert _tables_open(page, base), "GET /figgie: the service serves Figgie tables"
    rules = {"trading_seconds": TRADING_SECONDS, "max_price": 30}
    game = _post(page, f"{base}/figgie/games", {"rules": rules})["game_uuid"]
    me = _post(page, f"{base}/figgie/games/{game}/join", {"nickname": "ann"})["player_uuid"]
    for agent in ("marketmaker", "fairvalue", "bayesian"):
        _post(page, f"{base}/figgie/games/{game}/ai", {"agent": agent}, me)
    page.goto(base + "/")
    seat = json.dumps({"player_uuid": me, "nickname": "ann"})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"blef:seat:{game}", seat])
    _post(page, f"{base}/figgie/games/{game}/start", None, me)
    page.goto(f"{base}/#/figgie/{game}")
    page.locator("#fig-clock").wait_for()
    assert axe_violations(page) == []

    # The market maker asks in every suit it holds: buy a card offered. An ask may go before
    # the press (any trade clears every quote): then the refusal is told under its suit, and
    # the person presses Buy again on the next offer.
    mine = page.locator(".fig-tape-list li.fig-mine-trade")
    for _ in range(20):
        if mine.count():
            break
        buy = page.locator("button.fig-buy:not(.fig-off)").first
        try:
            buy.click(timeout=10_000)
            mine.first.wait_for(timeout=10_000)  # a loaded machine: the answer, then the draw
            break
        except PlaywrightError:  # the ask went first (refused), or trading is over
            if page.locator("#fig-goal").count():
                break
            continue
    assert mine.count() >= 1, "the person bought nothing"

    # The service's clock ends the round: no order is needed.
    page.locator("#fig-goal").wait_for(timeout=(TRADING_SECONDS + 60) * 1000)
    body = page.request.get(
        f"{base}/figgie/games/{game}", headers={"Authorization": f"Bearer {me}"}
    ).json()
    assert body["status"] == "Finished"
    settled = body["view"]["settlement"]
    goal = settled["goal_suit"]
    assert (
        f"The goal suit was {'♠♣♥♦'[SUITS.index(goal)]} {goal}"
        in page.locator("#fig-goal").inner_text()
    )
    rows = page.locator(".fig-earned tbody tr")
    for i in range(4):
        assert rows.nth(i).locator("td").all_inner_texts()[2] == str(settled["chips"][i])
    page.locator("#fig-verified.verified").wait_for()
    mine = [t for t in body["view"]["tape"] if 0 in (t["buyer"], t["seller"])]
    assert page.locator(".fig-tape-list li.fig-mine-trade").count() == min(len(mine), 40)
    assert axe_violations(page) == []


def test_the_chance_each_suit_is_the_goal_is_shown_from_your_cards_on_asking(
    new_page: Any, server: Server
) -> None:
    fake = FakeFiggie(agents=["random", "random", "random"], trading_seconds=60)
    page = open_table(new_page, server, fake, "phone")
    assert page.locator("#fig-chances").count() == 0
    page.get_by_label("Show the chance each suit is the goal, from your cards").check()
    want = goal_probabilities(fake.state.market.hands[0])
    text = page.locator("#fig-chances").inner_text()
    for suit, p in zip(SUITS, want, strict=True):
        assert f"{suit} {round(100 * p)}%" in text
    assert axe_violations(page) == []


def test_a_newcomer_starts_a_figgie_game_against_the_computer_from_the_lobby(
    new_page: Any, server: Server
) -> None:
    page = new_page(*SIZES["phone"])
    with_axe(page)
    page.goto(server.url + "/")
    page.get_by_label("Your name").fill("newcomer")
    panel = page.locator("section.kind-lobby", has=page.locator("#figgie-title"))
    panel.get_by_label("Computer players").select_option("marketmaker")
    panel.get_by_label("How many").select_option("3")  # Figgie is played by 4 or 5
    panel.get_by_role("button", name="Play Figgie against the computer").click()
    page.wait_for_url(re.compile(r"#/figgie/[0-9a-f-]{36}$"))
    page.locator("#fig-clock").wait_for()
    assert page.locator(".fig-players tbody tr").count() == 4
    assert "newcomer (you)" in page.locator(".fig-players").inner_text()
    assert page.locator("#fig-hand").is_visible()
    assert axe_violations(page) == []


def test_a_five_player_game_with_no_trade_settles_by_the_clock_and_its_deal_verifies(
    new_page: Any, server: Server
) -> None:
    fake = FakeFiggie(agents=["conservative"] * 4, trading_seconds=30, seed=b"\x05" * 32)
    page = open_table(new_page, server, fake, "desktop")
    assert page.locator(".fig-players tbody tr").count() == 5
    fake.pass_deadline()
    page.locator("#fig-verified.verified").wait_for()
    settled = fake.state.view(0)["settlement"]
    rows = page.locator(".fig-earned tbody tr")
    assert rows.count() == 5
    assert [rows.nth(i).locator("td").all_inner_texts()[1] for i in range(5)] == [
        str(p) for p in settled["payouts"]
    ]
    assert sum(settled["payouts"]) == 200
    assert page.locator("#fig-replay-step").inner_text() == "The deal"
    assert page.locator("#fig-replay-next").is_disabled() == (len(fake.state.market.tape) == 0)


class TableGets:
    """Counts a page's GETs of one table's body (what a polling page asks every 1.5 s)."""

    def __init__(self, page: Any, game: str) -> None:
        self.path = f"/figgie/games/{game}"
        self.count = 0
        page.on("request", self._seen)

    def _seen(self, request: Any) -> None:
        if request.method == "GET" and urlparse(request.url).path == self.path:
            self.count += 1


QUIET_MS = 3500
"""A span in which a page that polls every 1.5 s would ask at least twice."""


@pytest.mark.slow
def test_while_its_socket_is_open_a_figgie_table_asks_for_nothing_and_shows_what_is_pushed(
    new_page: Any, server: Server
) -> None:
    page = new_page(*SIZES["desktop"])
    base = server.url
    game = _post(page, f"{base}/figgie/games", {})["game_uuid"]
    _post(page, f"{base}/figgie/games/{game}/join", {"nickname": "ann"})
    gets = TableGets(page, game)
    page.goto(f"{base}/#/figgie/{game}")  # a spectator: no seat kept on this page
    page.locator(".table-screen[data-live='open']").wait_for()
    page.get_by_text("ann").first.wait_for()
    # The first read and the one catch-up read as the socket opens (late, under load).
    asked = settled_count(page, lambda: gets.count, 2, "the table's first reads")
    page.wait_for_timeout(QUIET_MS)
    assert gets.count == asked, "the table polled while its socket was open"

    _post(page, f"{base}/figgie/games/{game}/join", {"nickname": "bob"})
    page.get_by_text("bob").first.wait_for()
    assert gets.count == asked, "the pushed body was fetched instead of shown"
