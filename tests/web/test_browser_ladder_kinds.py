"""The ladder's screens as people who play only Economancy or only Figgie see them, in Chromium
at phone and desktop sizes against a live `blef serve` (whose clock runs the matcher and the
computer players): each person finds their game's pools under its name with its seat range and
its own rules in words, joins its quick play queue letting computer players fill the table,
and is placed at a table of that game with computer players in the other seats; the tab's
title names their game, never Blef. Then each table's result is written as the ladder writes
it (the places rated by app/ladder/rating.py, stored by `settle`: a real Economancy or Figgie
game lasts minutes; the ladder's settling of such games is tested with a fake clock in
tests/ladder/test_kind_pools_http.py), and each person's profile and their pool's leaderboard
speak of their game: its pool, its table and, where the game has one, its replay. axe-core
finds nothing on any of these screens."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from playwright.sync_api import expect

from app.api.routes.ladder_tables import pools
from app.ladder import rating
from app.ladder.sqlite.store import LadderSqlite
from app.ladder.store import Change, Result
from benchmarks.load import Server
from tests.web.node import NODE, node_test
from tests.web.pages import axe_violations, with_axe
from tests.web.rated import make_account

PHONE, DESKTOP = (390, 844), (1280, 800)
FILL_LABEL = "If no one is found, play computer players of your strength:"
SEATED_MS = 120_000
"""How long a page may wait to be seated: the 30 s fill wait chosen, then the matcher's look
and the table made, on a loaded 2-core machine."""


class Person(NamedTuple):
    size: tuple[int, int]
    pool: str
    game: str
    """The game's name."""
    title: str
    """The pool's title."""
    seats: str
    """Its seat range in words."""


ONE_OTHER = "You against one other person."
PEOPLE = {
    "Ecophone": Person(PHONE, "economancy-2", "Economancy", "Economancy, 2 players", ONE_OTHER),
    "Ecodesk": Person(
        DESKTOP, "economancy-3-4", "Economancy", "Economancy, 3–4 players", "You and 2 to 3 others."
    ),
    "Figphone": Person(
        PHONE, "figgie-4-5", "Figgie", "Figgie, 4–5 players", "You and 3 to 4 others."
    ),
    "Figdesk": Person(
        DESKTOP, "figgie-4-5", "Figgie", "Figgie, 4–5 players", "You and 3 to 4 others."
    ),
}


def _looks_for_a_rated_game(page: Any, handle: str) -> None:
    """In the rated panel: the game's group of pools, the pool's words, the fill after 30 s,
    Find; the waiting screen says the pool and the tab names the game."""
    _, _, game, title, seats = PEOPLE[handle]
    group = page.get_by_role("group", name=game, exact=True)
    named = re.compile(f"^{title}")
    radio = group.get_by_role("radio", name=named)
    label = group.locator("label.level", has=page.get_by_role("radio", name=named))
    words = label.inner_text()
    assert seats in words, words
    assert "Classic rules" not in words and "Blef" not in words, words
    radio.check()
    page.get_by_label(FILL_LABEL).select_option(label="After 30 seconds")
    page.get_by_role("button", name="Find a rated game").click()
    page.get_by_role("heading", name=f"Looking for a rated game: {title}").wait_for()
    expect(page).to_have_title(f"Looking for a rated game · {game}")
    assert axe_violations(page) == [], handle


def _settle(db: Path, game_uuid: str, first: str) -> dict[str, int]:
    """Write the result of the rated table playing ``game_uuid`` as the ladder does (each
    seat's place, the ratings from app/ladder/rating.py, one `settle`): ``first`` wins, the
    others follow in the table's order. The places by handle."""
    store = LadderSqlite(db)
    try:
        table = store.table_of_game(game_uuid)
        assert table is not None and table.state == "playing", table
        order = sorted(table.seats, key=lambda s: s.handle != first)
        places = {s.handle: i for i, s in enumerate(order, 1)}
        before = [
            store.rating(s.account_id, table.pool) or rating.initial(s.account_id, table.pool)
            for s in table.seats
        ]
        after = rating.rate(before, [places[s.handle] for s in table.seats])
        changes = tuple(
            Change(s.account_id, s.handle, places[s.handle], b, a)
            for s, b, a in zip(table.seats, before, after, strict=True)
        )
        store.settle(Result(table.table_id, game_uuid, table.pool, table.formed_at + 60, changes))
        return places
    finally:
        store.close()


def _fits(page: Any) -> str | None:
    """None if nothing runs off the page's width, else the outermost element that does."""
    return page.evaluate(  # type: ignore[no-any-return]
        """() => { const w = document.documentElement.clientWidth;
          if (document.documentElement.scrollWidth <= w) return null;
          const over = [...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > w + 1);
          const el = over[0];
          return el ? `${el.tagName}#${el.id}.${el.className}` : 'something'; }"""
    )


def _rated_seats(page: Any, base: str, game: str) -> list[dict[str, Any]]:
    reply = page.request.get(f"{base}/ladder/games/{game}")
    assert reply.ok, reply.text()
    return reply.json()["seats"]  # type: ignore[no-any-return]


def test_economancy_and_figgie_players_are_seated_at_their_games_and_see_them_on_the_ladder(
    server: Server, new_page: Any
) -> None:
    pages: dict[str, Any] = {}
    for handle, person in PEOPLE.items():
        page = new_page(*person.size)
        with_axe(page)
        make_account(page, server.url, handle)
        pages[handle] = page
    for handle, page in pages.items():
        _looks_for_a_rated_game(page, handle)

    # Placed: at a table of the pool's game, computer players filling the other seats.
    games: dict[str, str] = {}
    for handle, page in pages.items():
        _, pool, game, _, _ = PEOPLE[handle]
        kind = game.lower()
        page.wait_for_url(re.compile(f"#/{kind}/[0-9a-f-]{{36}}$"), timeout=SEATED_MS)
        games[handle] = page.url.rsplit("/", 1)[1]
        seats = _rated_seats(page, server.url, games[handle])
        people = sorted(s["handle"] for s in seats if not s["bot"])
        computers = [s for s in seats if s["bot"]]
        assert handle in people and computers, seats
        assert all(s["agent"] for s in computers), "seated as the game's own computer players"
        low, high = (2, 2) if pool == "economancy-2" else (3, 4) if pool.endswith("3-4") else (4, 5)
        assert low <= len(seats) <= high, seats
        expect(page).to_have_title(re.compile(f"· {game}$"))
        # Above the game's own view: the table is rated, and what is at stake for this seat.
        line = page.locator("#rated-line")
        expect(line).to_contain_text(f"Rated game ({PEOPLE[handle].title}). Your rating 1500")
        # Beside every seat of the game's own view, that seat's rating (new accounts and
        # the computer levels' own ratings), as at a rated Blef table.
        ratings = page.locator(".seat-rating")
        expect(ratings).to_have_count(len(seats))
        assert all(re.match(r"^\d+", text) for text in ratings.all_inner_texts()), seats
        stakes = page.locator("#stakes").inner_text()
        if len(seats) == 2:
            assert stakes == "a win +103, a loss −55", stakes  # docs/ratings.md
        else:
            assert re.fullmatch(r"first place \+\d+, last place −\d+", stakes), stakes
    # (The two people of Figgie's pool share a table if both were past their fill wait at
    # the matcher's look, else each has their own: app/ladder/queue.py `_fill`.)
    for handle in ("Ecophone", "Figdesk"):
        assert axe_violations(pages[handle]) == [], handle

    # The results, as the ladder writes them once the games end: at each table, the first
    # of these people to sit there wins.
    places: dict[str, int] = {}
    for handle, game_uuid in games.items():
        if handle not in places:
            places |= _settle(server.db, game_uuid, handle)
    # At the table, once the ladder's look tells the result: the change, and the ways on.
    for handle, page in pages.items():
        change = page.locator("#rating-change")
        expect(change).to_contain_text(
            re.compile(rf"^Your rating: 1500 → \d+ \([+−±]\d+\), place {places[handle]} of ")
        )
        assert page.get_by_role("button", name="Find another rated game").is_enabled()
        assert page.locator("#stakes").count() == 0, "the stakes are gone once it is settled"
    assert axe_violations(pages["Figphone"]) == []
    assert axe_violations(pages["Ecodesk"]) == []
    figgie_rated = {
        s["handle"]
        for handle in ("Figphone", "Figdesk")
        for s in _rated_seats(pages[handle], server.url, games[handle])
    }

    # Each profile speaks of the person's game: the pool, its chart, the game's table, and
    # its replay where the game has one.
    for handle, page in pages.items():
        _, pool, game, title, _ = PEOPLE[handle]
        kind, uuid = game.lower(), games[handle]
        page.locator("#header-account").click()
        page.wait_for_url(re.compile(f"#/player/{handle}$"))
        page.locator(f"#rating-chart-{pool} canvas").wait_for()
        expect(page).to_have_title(f"{handle} · {game}")
        line = page.locator("#pool-ratings tbody tr").first.locator("td")
        assert line.nth(0).inner_text() == title, "the pool, its title naming the game"
        assert page.locator(f"#history-{pool}").inner_text() == title
        row = page.locator("#rating-history tbody tr").first.locator("td")
        assert row.nth(4).inner_text() == title
        table = row.nth(5).get_by_role("link", name=re.compile(f"^The {game} table of "))
        assert table.inner_text() == game
        assert table.get_attribute("href") == f"#/{kind}/{uuid}"
        replay = row.nth(6).get_by_role("link", name=re.compile("^Replay"))
        assert replay.get_attribute("href") == f"#/{kind}/{uuid}/replay"
        assert row.nth(1).inner_text().startswith(f"{places[handle]} of ")
        assert "Blef" not in page.locator("#view").inner_text()
        assert _fits(page) is None, handle
        assert axe_violations(page) == [], handle

    # The leaderboard of their pool, from the profile; the header's Ratings opens it too.
    for handle in ("Figphone", "Ecodesk"):
        page = pages[handle]
        _, pool, game, title, _ = PEOPLE[handle]
        page.get_by_role("link", name="Leaderboard", exact=True).click()
        page.wait_for_url(re.compile(f"#/ladder/{pool}$"))
        page.get_by_role("heading", name=f"Leaderboard: {title}").wait_for()
        expect(page).to_have_title(f"Leaderboard: {title} · {game}")
        board = page.locator("#leaderboard")
        board.get_by_role("link", name=handle, exact=True).wait_for()
        assert page.locator("#your-rank").inner_text().startswith("Your rank: ")
        low, high = (3, 4) if pool.endswith("3-4") else (4, 5)
        players = f"{low} to {high} players"
        assert page.locator("#board-game").inner_text() == f"Rated {game} games of {players}."
        tabs = page.get_by_role("navigation", name="Pools")
        current = tabs.get_by_role("group", name=game, exact=True).get_by_role("link", name=title)
        assert current.get_attribute("aria-current") == "page"
        assert "Blef" not in page.locator("#leaderboard").inner_text()
        assert _fits(page) is None, handle
        assert axe_violations(page) == [], handle
        page.goto(server.url + "/#/")
        page.get_by_role("link", name="Ratings", exact=True).click()
        page.wait_for_url(re.compile(f"#/ladder/{pool}$"))
        page.get_by_role("heading", name=f"Leaderboard: {title}").wait_for()
    figgie_board = pages["Figphone"].locator("#leaderboard tbody tr")
    for handle in ("Figphone", "Figdesk"):
        assert figgie_board.filter(has_text=handle).count() == 1, handle
    assert figgie_board.count() == len(figgie_rated), "everyone rated at Figgie, nobody else"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_page_explaining_ratings_lists_every_games_pools_with_their_boards(
    server: Server, new_page: Any, size: tuple[int, int]
) -> None:
    page = new_page(*size)
    with_axe(page)
    page.goto(server.url + "/#/about-ratings")
    listed = page.locator("#pool-list")
    listed.wait_for()
    for game, titles in {
        "Blef": ["standard, 2 players", "standard, 3–8 players"],
        "Economancy": ["Economancy, 2 players", "Economancy, 3–4 players"],
        "Figgie": ["Figgie, 4–5 players"],
    }.items():
        item = listed.locator("li", has_text=f"{game}:")
        for title in titles:
            link = item.get_by_role("link", name=title, exact=True)
            assert link.get_attribute("href", timeout=5000).startswith("#/ladder/")
    assert "three to eight" not in page.locator("#view").inner_text()
    assert axe_violations(page) == []
    assert _fits(page) is None


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[Server]:
    """A server of its own, whose boards are all empty (this module's other tests rate
    people in every game's pools)."""
    db = tmp_path / "blef.db"
    env = {"BLEF_DB_PATH": str(db), "BLEF_AI_THINK_SECONDS": "0.2"}
    with Server(db, tmp_path / "serve.log", env=env) as running:
        yield running


def test_an_empty_board_sends_a_person_to_the_queue_with_that_pool_chosen(
    fresh_server: Server, new_page: Any
) -> None:
    page = new_page(*PHONE)
    with_axe(page)
    make_account(page, fresh_server.url, "Firstcomer")
    page.goto(fresh_server.url + "/#/ladder/economancy-3-4")
    page.get_by_text("Nobody has played a rated game in this pool yet.").wait_for()
    expect(page).to_have_title("Leaderboard: Economancy, 3–4 players · Economancy")
    assert axe_violations(page) == []
    page.get_by_role("link", name="Be the first").click()
    page.wait_for_url(re.compile("#/rated$"))
    group = page.get_by_role("group", name="Economancy", exact=True)
    expect(group.get_by_role("radio", name=re.compile("^Economancy, 3–4 players"))).to_be_checked()


def test_the_ladders_words_for_every_game_hold_under_node() -> None:
    if NODE is None:
        pytest.skip("node is not installed")
    given = {"BLEF_POOLS": json.dumps(pools())}
    run = node_test(Path(__file__).with_name("js_ladder_kinds.test.mjs"), given, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# fail 0" in run.stdout and "# skipped 0" in run.stdout
