"""The frames every game shares, in Chromium at phone and desktop sizes, checked by axe-core:
the replay frame stepping a finished Figgie game by keyboard (its record read from the
service, its deal verified in the page), and the reveal frame showing the end of a Figgie and
of an Economancy game once, to a player and to a spectator who watched it end: the focus held
in it until Continue or Escape, given back to the control the person was using, and never
shown again after dismissal, after the next read, or on a reload.

Figgie and Economancy games are made through the service's routes of a live `blef serve`
(tests/web/conftest.py); one Figgie reveal is answered by the engine's game inside the test
(tests/web/figgie/fake.py), so its end comes exactly when the test says."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from benchmarks.load import Server
from tests.web.figgie.fake import SIZES, FakeFiggie, open_table
from tests.web.pages import axe_violations, with_axe
from tests.web.test_browser_economancy_replay import SCRIPT, _seed

NAMES = ("ann", "bob", "cid", "dee")
TRADING_SECONDS = 3


def _post(page: Any, url: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    sent = json.dumps(body if body is not None else {})
    reply = page.request.post(url, data=sent, headers=headers)
    assert reply.ok, f"{url}: {reply.status} {reply.text()}"
    return reply.json()


def _figgie_finished(page: Any, base: str) -> tuple[str, list[str], dict[str, Any]]:
    """A Figgie game of four people that made two trades (ann sold to bob, cid to dee) and
    was settled by the service's clock; (game, seats' secrets, its table as ann sees it)."""
    game = _post(page, f"{base}/figgie/games", {"rules": {"trading_seconds": TRADING_SECONDS}})[
        "game_uuid"
    ]
    seats = [
        _post(page, f"{base}/figgie/games/{game}/join", {"nickname": n})["player_uuid"]
        for n in NAMES
    ]
    _post(page, f"{base}/figgie/games/{game}/start", None, seats[0])
    for seller, buyer in ((0, 1), (2, 3)):
        me = {"Authorization": f"Bearer {seats[seller]}"}
        hand = page.request.get(f"{base}/figgie/games/{game}", headers=me).json()["view"]["hand"]
        suit = next(s for s, n in hand.items() if n)
        move = f"{base}/figgie/games/{game}/move"
        _post(page, move, {"type": "ask", "suit": suit, "price": 5}, seats[seller])
        _post(page, move, {"type": "lift", "suit": suit}, seats[buyer])
    deadline = time.monotonic() + 60
    while True:
        table = page.request.get(
            f"{base}/figgie/games/{game}", headers={"Authorization": f"Bearer {seats[0]}"}
        ).json()
        if table["status"] == "Finished":
            return game, seats, table
        assert time.monotonic() < deadline, "the service's clock never settled the game"
        page.wait_for_timeout(250)


def _as(page: Any, base: str, game: str, secret: str, nickname: str) -> None:
    page.goto(base + "/")
    seat = json.dumps({"player_uuid": secret, "nickname": nickname})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"blef:seat:{game}", seat])


def _at(page: Any, text: str) -> None:
    expect(page.locator("#replay-step")).to_contain_text(text)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_finished_figgie_game_is_replayed_trade_by_trade_with_the_keyboard(
    new_page: Any, server: Server, size: str
) -> None:
    page = new_page(*SIZES[size])
    with_axe(page)
    base = server.url
    game, seats, table = _figgie_finished(page, base)
    tape = table["view"]["tape"]
    assert len(tape) == 2
    _as(page, base, game, seats[0], "ann")
    page.goto(f"{base}/#/figgie/{game}")
    page.locator("#over-title").wait_for()
    assert page.get_by_role("dialog").count() == 0  # opened on a game already over: no reveal
    page.get_by_role("link", name="Replay the game step by step", exact=True).click()
    page.wait_for_url(re.compile(rf"#/figgie/{game}/replay$"))
    page.get_by_role("heading", name=re.compile(r"^Replay of Figgie, room \d+$")).wait_for()
    goal = table["view"]["settlement"]["goal_suit"]
    assert page.locator("#replay-result").inner_text().startswith(f"The goal suit was {goal}.")
    _at(page, "The deal")
    cards = page.get_by_role("region", name="Cards and chips as dealt")
    first = table["view"]["settlement"]["initial_hands"][0]
    row = cards.locator("tbody tr").first.locator("td").all_inner_texts()
    assert row[:4] == [str(first[s]) for s in ("spades", "clubs", "hearts", "diamonds")]
    assert cards.locator("tbody tr").first.locator("th").inner_text() == "you"
    page.locator(".replay-round .verified").wait_for()  # the deal, checked in the page
    assert "The deal is verified" in page.locator(".verified-all").inner_text()
    assert axe_violations(page) == [], "the deal"

    page.keyboard.press("ArrowLeft")  # nothing before the deal
    _at(page, "The deal")
    page.keyboard.press("ArrowRight")
    _at(page, "Trade 1 of 2")
    trade = page.locator("#replay-trade").inner_text()
    assert "You sold" in trade or "you" in trade.lower(), trade
    said = page.locator("#replay-said")
    assert said.get_attribute("aria-live") == "polite"
    expect(said).to_have_text(re.compile(r"^Trade 1 of 2\. "))
    moved = page.locator(".fig-replay tbody tr.fig-moved")
    assert moved.count() == 2  # the seller and the buyer
    page.keyboard.press("ArrowRight")
    _at(page, "Trade 2 of 2")
    page.keyboard.press("End")
    _at(page, "The settlement")
    page.locator("#fig-goal").wait_for()
    expect(said).to_have_text(f"The settlement. The goal suit was {goal}.")
    assert page.locator("#replay-next").get_attribute("aria-disabled") == "true"
    assert axe_violations(page) == [], "the settlement"
    page.keyboard.press("Home")
    _at(page, "The deal")
    page.locator("#replay-slider").focus()
    page.keyboard.press("ArrowRight")  # the slider's own keys
    _at(page, "Trade 1 of 2")
    page.get_by_role("button", name="Last »", exact=True).click()
    _at(page, "The settlement")
    page.get_by_role("link", name="Back to the table", exact=True).click()
    page.locator("#over-title").wait_for()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_end_of_a_figgie_game_is_revealed_once_to_a_player_and_a_spectator(
    new_page: Any, server: Server, size: str
) -> None:
    fake = FakeFiggie(agents=["marketmaker", "fairvalue", "bayesian"], trading_seconds=60)
    player = open_table(new_page, server, fake, size, seated=True)
    watcher = open_table(new_page, server, fake, size, seated=False)
    watcher.locator("#fig-watching").wait_for()
    # The spectator is in the settings when the game ends: the reveal does not take that away.
    watcher.locator(".tools summary").click()
    watcher.locator("#sound").focus()
    fake.advance(5)
    fake.pass_deadline()  # the next read settles it
    player.get_by_role("dialog").wait_for()
    goal = fake.state.view(0)["settlement"]["goal_suit"]
    symbol = "♠♣♥♦"[("spades", "clubs", "hearts", "diamonds").index(goal)]
    for page in (player, watcher):
        dialog = page.get_by_role("dialog")
        expect(dialog.get_by_role("heading")).to_have_text(
            f"Trading is over: the goal suit was {symbol} {goal}"
        )
        expect(page.locator("#reveal-continue")).to_be_focused()
        rows = dialog.locator("tbody tr")
        assert rows.count() == 4
        chips = [int(rows.nth(i).locator("td").nth(1).inner_text()) for i in range(4)]
        assert chips == sorted(fake.state.view(None)["settlement"]["chips"], reverse=True)
        assert axe_violations(page) == [], "the reveal"
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('#reveal')"), "the focus left"
    assert player.get_by_role("dialog").get_by_text("you", exact=True).count() == 1
    assert watcher.get_by_role("dialog").get_by_text("you", exact=True).count() == 0

    player.keyboard.press("Escape")
    expect(player.get_by_role("dialog")).to_have_count(0)
    expect(player.locator("#fig-settle-title")).to_be_focused()
    watcher.get_by_role("dialog").get_by_role("button", name="Continue").click()
    expect(watcher.get_by_role("dialog")).to_have_count(0)
    expect(watcher.locator("#sound")).to_be_focused()  # back where it was
    assert watcher.locator(".tools details").get_attribute("open") is not None

    fake.version += 1  # a newer read of the same finished game: the reveal stays closed
    for page in (player, watcher):
        page.wait_for_timeout(2000)
        assert page.get_by_role("dialog").count() == 0
        page.reload()
        page.locator("#over-title").wait_for()
        page.wait_for_timeout(500)
        assert page.get_by_role("dialog").count() == 0, "shown again on a reload"
        assert axe_violations(page) == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_end_of_an_economancy_game_is_revealed_once_to_a_player_and_a_spectator(
    new_page: Any, server: Server, size: str
) -> None:
    player = new_page(*SIZES[size])
    with_axe(player)
    base = server.url
    game, seats = _seed(player, base, SCRIPT[:-1])  # bob's last buy is still to come
    _as(player, base, game, seats[0], "ann")
    player.goto(f"{base}/#/economancy/{game}")
    watcher = new_page(*SIZES[size])
    with_axe(watcher)
    watcher.goto(f"{base}/#/economancy/{game}")
    for page in (player, watcher):
        page.get_by_role("heading", name="The shop").wait_for()
        assert page.get_by_role("dialog").count() == 0
    seat, move = SCRIPT[-1]
    _post(player, f"{base}/economancy/games/{game}/move", move, seats[seat])  # the day limit
    for page in (player, watcher):
        dialog = page.get_by_role("dialog")
        dialog.get_by_role(
            "heading", name="Game over: a draw between ann and bob", exact=True
        ).wait_for()
        assert "the day limit was reached" in dialog.inner_text()
        assert dialog.locator("ol.places li").count() == 2
        expect(page.locator("#reveal-continue")).to_be_focused()
        assert axe_violations(page) == [], "the reveal of the end"
    assert "ann (you)" in player.get_by_role("dialog").inner_text()
    assert "(you)" not in watcher.get_by_role("dialog").inner_text()
    for page in (player, watcher):
        page.keyboard.press("Escape")
        expect(page.get_by_role("dialog")).to_have_count(0)
        page.locator("#over-title").wait_for()
        page.wait_for_timeout(2000)  # the next pushes and reads of the finished game
        assert page.get_by_role("dialog").count() == 0
        page.reload()
        page.locator("#over-title").wait_for()
        page.wait_for_timeout(500)
        assert page.get_by_role("dialog").count() == 0, "shown again on a reload"
    replay = watcher.get_by_role("link", name="Replay the game step by step", exact=True)
    assert replay.get_attribute("href") == f"#/economancy/{game}/replay"


def test_a_blef_game_is_replayed_by_the_same_frame_under_its_kind_s_route_too(
    new_page: Any, server: Server
) -> None:
    page = new_page(*SIZES["phone"])
    with_axe(page)
    base = server.url
    game = page.request.get(f"{base}/games/create").json()["game_uuid"]
    ann, bob = (
        page.request.get(f"{base}/games/{game}/join", params={"nickname": n}).json()["player_uuid"]
        for n in ("ann", "bob")
    )
    assert page.request.get(f"{base}/games/{game}/start", params={"admin_uuid": ann}).ok
    assert page.request.post(
        f"{base}/games/{game}/resign", headers={"Authorization": f"Bearer {bob}"}
    ).ok
    page.goto(f"{base}/#/blef/{game}/replay")
    page.get_by_role("heading", name=re.compile(r"^Replay of room \d+$")).wait_for()
    assert page.locator("#replay-result").inner_text() == "ann won, in 1 round."
    _at(page, "The reveal")  # bob resigned before any move: the round's reveal only
    page.locator(".replay-round .verified").wait_for()
    assert "The deal is verified" in page.locator(".verified-all").inner_text()
    back = page.get_by_role("link", name="Back to the table", exact=True)
    assert back.get_attribute("href") == f"#/game/{game}"
    assert axe_violations(page) == []
