"""Accounts and rated games in a real browser against a live `blef serve` (whose clock runs
the matcher): two people each make an account, find a rated two-player game, meet at the
same table, finish it, see their rating change, the leaderboard and a profile; a third
browser signs in with a copied key; a made-up key is refused and nothing is kept. No key
ever appears in a URL."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import httpx

from app.ladder.sqlite.store import LadderSqlite
from benchmarks.load import Server
from tests.ladder.contract import named as account
from tests.ladder.contract import rated
from tests.support.waiting import eventually
from tests.web.pages import GAME_URL, axe_violations, dismiss_reveals, with_axe

DOCS = Path(__file__).resolve().parents[2] / "docs"
SHOTS = os.environ.get("BLEF_SCREENSHOTS") == "1"


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        page.evaluate("document.getElementById('toast').textContent = ''")
        page.screenshot(path=str(DOCS / name), full_page=True)


def _seen(locator: Any) -> str:
    """The text a sighted person reads (without what is there for screen readers only)."""
    return str(
        locator.evaluate(
            "el => { const c = el.cloneNode(true);"
            " c.querySelectorAll('.sr-only').forEach((s) => s.remove());"
            " return c.textContent.replace(/\\s+/g, ' ').trim(); }"
        )
    )


def _watch_urls(page: Any, seen: list[str]) -> None:
    page.on("request", lambda request: seen.append(request.url))


def _make_account(page: Any, base: str, handle: str) -> str:
    """Open the lobby, type a name, make an account; the key this browser keeps."""
    page.goto(base + "/")
    page.get_by_label("Your name").fill(handle)
    page.get_by_role("button", name=re.compile("^Make an account")).click()
    page.get_by_role("heading", name=f"Signed in as {handle}").wait_for()
    kept = page.evaluate("JSON.parse(localStorage.getItem('blef:account'))")
    assert kept["handle"] == handle
    return str(kept["secret"])


def test_two_people_make_accounts_meet_at_a_rated_table_and_see_ratings_board_and_profile(
    server: Server, new_page: Any
) -> None:
    alice = new_page(1280, 800)
    bob = new_page(390, 844)
    urls: list[str] = []
    for page in (alice, bob):
        with_axe(page)
        _watch_urls(page, urls)
    alice.context.grant_permissions(["clipboard-read", "clipboard-write"])

    secret_a = _make_account(alice, server.url, "alice")
    alice.get_by_text("it is the only way into this account").wait_for()
    assert axe_violations(alice) == []
    alice.get_by_role("button", name="Copy your key").click()
    assert alice.evaluate("navigator.clipboard.readText()") == secret_a
    secret_b = _make_account(bob, server.url, "bob")
    # The header names the account, with a newcomer's 1500 (provisional), and opens the profile.
    for page, handle in ((alice, "alice"), (bob, "bob")):
        header = page.locator("#header-account")
        header.get_by_text("1500").wait_for()
        assert _seen(header) == f"{handle} 1500?"
        assert "provisional" in header.inner_text()
        assert header.get_attribute("href") == f"#/player/{handle}"

    # Alice waits first: the seconds, the widening window in words, a Cancel.
    alice.get_by_role("radio", name=re.compile("^standard, 2 players")).check()
    alice.get_by_role("button", name="Find a rated game").click()
    alice.get_by_role(
        "heading", name=re.compile("^Looking for a rated game: standard, 2 players")
    ).wait_for()
    alice.get_by_text(re.compile(r"^Waited [1-9]\d* seconds? so far")).wait_for()
    assert alice.get_by_text("the longer you wait, the wider").is_visible()
    assert alice.get_by_role("button", name="Cancel").is_visible()
    assert axe_violations(alice) == []
    # Cancel, and look again: the queue is left and joined in the page.
    alice.get_by_role("button", name="Cancel").click()
    alice.get_by_role("button", name="Find a rated game").wait_for()
    alice.get_by_role("button", name="Find a rated game").click()
    alice.locator("#waited").wait_for()

    bob.get_by_role("radio", name=re.compile("^standard, 2 players")).check()
    bob.get_by_role("button", name="Find a rated game").click()
    alice.wait_for_url(GAME_URL)
    bob.wait_for_url(GAME_URL)
    game = GAME_URL.search(alice.url).group(1)  # type: ignore[union-attr]
    assert GAME_URL.search(bob.url).group(1) == game  # type: ignore[union-attr]
    for page, handle in ((alice, "alice"), (bob, "bob")):
        page.locator(".you").get_by_text(handle, exact=True).wait_for()
        page.get_by_text("Rated game").first.wait_for()
        page.get_by_role("region", name="Your cards").wait_for()
        # What is at stake, before a move: the model's change for a win and for a loss.
        assert page.locator("#stakes").inner_text() == "a win +103, a loss −55"
        # Each seat shows its rating, and its name opens the player's profile.
        for other in ("alice", "bob"):
            seat = page.locator(".seat", has=page.get_by_role("link", name=other, exact=True))
            assert _seen(seat.locator(".seat-rating")) == "1500?"
            assert seat.get_by_role("link", name=other, exact=True).get_attribute("href") == (
                f"#/player/{other}"
            )
        assert axe_violations(page) == []
    # Away from the table, the rated game in play is said at the top of the page.
    bob.goto(server.url + "/#/ladder/standard-2")
    top = bob.locator("#rated-in-play-top")
    top.wait_for()
    assert top.bounding_box()["y"] < 200  # type: ignore[index]
    top.get_by_role("link", name="Go to your table").click()
    bob.wait_for_url(GAME_URL)
    bob.get_by_role("region", name="Your cards").wait_for()
    assert bob.locator("#rated-in-play-top").count() == 0

    # Bob resigns: alice wins.
    dismiss_reveals(bob)
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.get_by_role("button", name="Resign").dispatch_event("click")
    for page in (alice, bob):
        page.locator("#winner").wait_for()
        dismiss_reveals(page)
    # The line adds up as it reads, and gives what the table said was at stake.
    won, lost = "1500 → 1603 (+103), place 1 of 2", "1500 → 1445 (−55), place 2 of 2"
    alice.locator("#rating-change").get_by_text(f"Your rating: {won}").wait_for()
    bob.locator("#rating-change").get_by_text(f"Your rating: {lost}").wait_for()
    alice.locator(".seat-rating", has_text="1603 (+103)").wait_for()
    alice.locator(".seat-rating", has_text="1445 (−55)").wait_for()
    assert bob.get_by_role("button", name="Play again with the same players").count() == 0
    assert bob.get_by_role("button", name="Find another rated game").is_enabled()

    # The leaderboard: both listed, the winner first, and alice's own rank.
    alice.get_by_role("link", name="Leaderboard", exact=True).last.click()
    alice.wait_for_url(re.compile(r"#/ladder/standard-2$"))
    board = alice.locator("#leaderboard tbody tr")
    board.nth(1).wait_for()
    assert board.nth(0).inner_text().split("\t")[:2] == ["1", "alice (you)"]
    assert board.nth(1).inner_text().split("\t")[:2] == ["2", "bob"]
    assert "1603?" in board.nth(0).inner_text(), "provisional is marked, as in the header"
    assert alice.locator("#your-rank").inner_text().startswith("Your rank: 1")
    assert axe_violations(alice) == []
    _shot(alice, "web-leaderboard-desktop.png")

    # Bob's profile: the rating per pool, a chart for the pool played, the games with their
    # date, opponent and place, the record, the replay.
    bob.get_by_role("link", name="Your profile", exact=True).click()
    bob.wait_for_url(re.compile(r"#/player/bob$"))
    bob.locator("#rating-chart-standard-2 canvas").wait_for()
    assert bob.locator("#rating-chart-standard-3-8").count() == 0
    rows = bob.locator("#rating-history tbody tr")
    assert rows.count() == 1
    cells = rows.first.locator("td")
    assert re.search(r"\b\d{1,2}:\d\d\b", cells.nth(0).inner_text()), "when it was played"
    assert cells.nth(0).locator("time").get_attribute("datetime")
    assert cells.nth(3).get_by_role("link", name="alice").get_attribute("href") == "#/player/alice"
    assert cells.nth(1).inner_text() == "2 of 2"
    assert cells.nth(2).inner_text() == "1500 → 1445 (−55)"
    ratings = bob.locator("#pool-ratings tbody tr").first.inner_text()
    assert "1445" in ratings and "provisional" in ratings
    assert "0 wins, 1 loss" in bob.locator("#record-standard-2").inner_text()
    assert bob.evaluate("document.documentElement.scrollWidth") <= 390, "nothing runs off a phone"
    assert _seen(bob.locator("#header-account")) == "bob 1445?"
    assert rows.first.get_by_role("link", name=re.compile("^Replay")).get_attribute("href") == (
        f"#/replay/{game}"
    )
    assert "standard, 2 players" in bob.locator("#pool-ratings").inner_text()
    assert axe_violations(bob) == []
    _shot(bob, "web-profile-phone.png")
    bob.get_by_role("link", name=re.compile("^Replay")).click()
    bob.locator(".replay-round").first.wait_for()

    # A third browser signs in with alice's copied key.
    carol = new_page(390, 844)
    _watch_urls(carol, urls)
    carol.goto(server.url + "/")
    carol.get_by_text("Already have an account on another browser?").click()
    carol.get_by_label("Your key").fill(secret_a)
    carol.get_by_role("button", name="Sign in", exact=True).click()
    carol.get_by_role("heading", name="Signed in as alice").wait_for()

    for secret in (secret_a, secret_b):
        assert not [u for u in urls if secret in u], "a key never goes in a URL"


def test_a_made_up_key_is_refused_in_words_and_nothing_is_kept(
    server: Server, new_page: Any
) -> None:
    page = new_page(390, 844)
    with_axe(page)
    refused: list[int] = []
    page.on(
        "response", lambda r: refused.append(r.status) if r.url.endswith("/ladder/me") else None
    )
    page.goto(server.url + "/")
    page.get_by_role("button", name=re.compile("^Make an account")).wait_for()
    assert axe_violations(page) == []
    page.get_by_text("Already have an account on another browser?").click()
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.locator("#view").get_by_text("Paste your key first.").wait_for()
    page.get_by_label("Your key").fill("x" * 43)
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.locator("#view").get_by_text("That key opens no account.").wait_for()
    assert refused == [400]
    assert page.evaluate("localStorage.getItem('blef:account')") is None
    assert page.get_by_role("button", name=re.compile("^Make an account")).is_visible()
    # A made-up name's profile is told in words.
    page.goto(server.url + "/#/player/nobody_here")
    page.locator("#view").get_by_text("No player has that name.").wait_for()


def test_the_lobby_shows_each_computer_levels_rating_from_its_rated_games(
    server: Server, new_page: Any
) -> None:
    # A person lets a computer level fill their two-player table at once, then resigns:
    # the nearest level (all start alike: the weakest) has one rated game.
    with httpx.Client(base_url=server.url, timeout=30) as http:
        secret = http.post("/ladder/accounts", json={"handle": "Filler"}).json()["secret"]
        me = {"Authorization": f"Bearer {secret}"}
        http.post("/ladder/queue", json={"pool": "standard-2", "fill_after": 0}, headers=me)
        seat = eventually(
            lambda: (
                (answer := http.get("/ladder/queue", headers=me).json())["state"] == "seated"
                and answer
            ),
            "a seat with computer players",
        )
        http.post(
            f"/games/{seat['game_uuid']}/resign",
            headers={"Authorization": f"Bearer {seat['player_uuid']}"},
        )
        eventually(
            lambda: http.get("/ladder/queue", headers=me).json()["state"] == "idle",
            "the game settled",
        )
    page = new_page(1280, 800)
    with_axe(page)
    page.goto(server.url + "/")
    medium = page.get_by_role("radio", name=re.compile("^Medium"))
    medium.check()
    beginner = page.locator("label.level", has_text="Beginner")
    beginner.get_by_text(re.compile(r"Rating 1\d{3} in 2-player games \(1 rated\)")).wait_for()
    assert "Not rated yet" in page.locator("label.level", has_text="Hard").inner_text()
    assert medium.is_checked()  # the ratings' redraw left the choice alone
    # The board names the computer level as the table does, and its profile says what it is.
    page.goto(server.url + "/#/ladder/standard-2")
    row = page.locator("#leaderboard tbody tr", has_text="Beginner (computer)")
    row.wait_for()
    assert "bot" not in row.inner_text() and "AI_" not in row.inner_text()
    assert "bot" not in page.locator("#leaderboard tbody tr", has_text="Filler").inner_text()
    row.get_by_role("link", name="Beginner (computer)").click()
    page.get_by_role("heading", name="Beginner (computer)").wait_for()
    assert axe_violations(page) == []


def test_the_leaderboard_turns_pages_past_the_first_hundred(server: Server, new_page: Any) -> None:
    store = LadderSqlite(server.db)
    try:
        for i in range(130):  # above everyone else: ordinals 1000 down to 871
            rated(store, account(store, f"Pager{i:03d}"), 1003.0 - i, 1.0)
    finally:
        store.close()
    page = new_page(390, 844)
    with_axe(page)
    page.goto(server.url + "/#/ladder/standard-2")
    rows = page.locator("#leaderboard tbody tr")
    rows.nth(99).wait_for()
    assert rows.count() == 100
    assert rows.nth(0).inner_text().split()[:2] == ["1", "Pager000"]
    assert page.locator("#board-previous").count() == 0

    page.get_by_role("button", name="Next 100").click()
    page.get_by_text("Players 101 to").wait_for()
    assert rows.nth(0).inner_text().split()[:2] == ["101", "Pager100"]
    assert rows.nth(29).inner_text().split()[:2] == ["130", "Pager129"]
    assert axe_violations(page) == []

    page.get_by_role("button", name="Previous 100").click()
    page.get_by_text("The top 100 players").wait_for()
    assert rows.nth(99).inner_text().split()[:2] == ["100", "Pager099"]


def test_a_person_chooses_when_computer_players_may_fill_the_table_and_the_choice_is_kept(
    server: Server, new_page: Any
) -> None:
    page = new_page(390, 844)
    with_axe(page)
    bodies: list[Any] = []
    page.on(
        "request",
        lambda r: (
            bodies.append(r.post_data_json)
            if r.method == "POST" and r.url.endswith("/ladder/queue")
            else None
        ),
    )
    _make_account(page, server.url, "Fillwaiter")
    page.get_by_role("radio", name=re.compile("^standard, 3–8 players")).check()
    page.get_by_label("If no one is found, play computer players of your strength:").select_option(
        label="After 30 seconds"
    )
    page.get_by_role("button", name="Find a rated game").click()
    page.locator("#fill-line", has_text="after 30 seconds").wait_for()
    assert bodies == [{"pool": "standard-3-8", "fill_after": 30}]
    assert axe_violations(page) == []
    page.get_by_role("button", name="Cancel").click()
    choice = page.get_by_label("If no one is found, play computer players of your strength:")
    choice.wait_for()
    assert choice.input_value() == "30"
    page.reload()  # kept by this browser between visits
    assert choice.input_value() == "30"
    choice.select_option(label="Never: only people")
    page.get_by_role("button", name="Find a rated game").click()
    page.get_by_role("button", name="Cancel").wait_for()
    assert bodies[-1] == {"pool": "standard-3-8"}
    assert page.locator("#fill-line").count() == 0
    page.get_by_role("button", name="Cancel").click()


def test_the_rated_panel_offers_the_pools_of_every_game_and_their_boards_open(
    server: Server, new_page: Any
) -> None:
    page = new_page(390, 844)
    with_axe(page)
    bodies: list[Any] = []
    page.on(
        "request",
        lambda r: (
            bodies.append(r.post_data_json)
            if r.method == "POST" and r.url.endswith("/ladder/queue")
            else None
        ),
    )
    _make_account(page, server.url, "Marketeer")
    for title in ("Economancy, 2 players", "Economancy, 3–4 players", "Figgie, 4–5 players"):
        page.get_by_role("radio", name=re.compile(f"^{title}")).wait_for()
    page.get_by_role("radio", name=re.compile("^Figgie, 4–5 players")).check()
    page.get_by_role("button", name="Find a rated game").click()
    page.get_by_role("button", name="Cancel").wait_for()
    assert [b["pool"] for b in bodies] == ["figgie-4-5"]
    assert axe_violations(page) == []
    page.get_by_role("button", name="Cancel").click()
    page.get_by_role("button", name="Find a rated game").wait_for()
    page.goto(server.url + "/#/ladder/figgie-4-5")
    page.get_by_role("navigation", name="Pools").get_by_role(
        "link", name=re.compile("Figgie")
    ).wait_for()
    assert axe_violations(page) == []
