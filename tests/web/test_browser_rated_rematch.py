"""The Rematch button at the end of a rated table says the rematch is not rated, in Chromium at
phone and desktop sizes with axe-core: a rematch makes an ordinary table (the service's own
tests: tests/ladder/test_kind_pools_http.py), and the next table's seat is kept unmarked.

The page knows a table is rated by the seat the rated-play page keeps for it (ladder.js keeps
the pool's name beside the seat's secret); the test keeps the seat of a finished Economancy
table the same way, the table played out over the contract's routes on a live `blef serve`."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.web.pages import AXE, seat
from tests.web.test_browser_rematch import _axe, _finished_economancy

SIZES = [pytest.param((390, 844), id="phone"), pytest.param((1100, 900), id="desktop")]


def _open_rated(
    new_page: Any, size: tuple[int, int], base: str, game: str, nick: str, secret: str
) -> Any:
    page = new_page(*size)
    page.add_init_script(path=str(AXE))
    kept = json.dumps({"player_uuid": secret, "nickname": nick, "rated": "economancy-2"})
    page.goto(base + "/")
    page.evaluate(f"localStorage.setItem('blef:seat:{game}', {kept!r})")
    page.goto(f"{base}/#/economancy/{game}")
    return page


@pytest.mark.parametrize("size", SIZES)
def test_the_rematch_button_of_a_rated_table_says_the_rematch_is_not_rated(
    server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    game, p = _finished_economancy(new_page(*size), server.url)
    newt = _open_rated(new_page, size, server.url, game, "Newt", p["Newt"])
    newt.locator("#over-title").wait_for()
    button = newt.get_by_role("button", name="Rematch (not rated)", exact=True)
    button.wait_for()
    assert _axe(newt, ".over") == [], "game over with its rematch button"
    button.click()
    newt.wait_for_url(re.compile(rf"#/economancy/(?!{game})[0-9a-f-]{{36}}$"))
    nxt = newt.url.rsplit("/", 1)[1]
    newt.get_by_role("list", name="Players").get_by_text("Newt (host) (you)").wait_for()
    mine = seat(newt, nxt)
    assert mine is not None and "rated" not in mine  # the next table is an ordinary one

    fay = _open_rated(new_page, size, server.url, game, "Fay", p["Fay"])
    fay.locator("#rematch-asked").get_by_text("Newt wants a rematch.").wait_for()
    joining = fay.get_by_role("button", name="Join the rematch (not rated)", exact=True)
    joining.wait_for()
    assert _axe(fay, ".over") == [], "game over with the join button"
