"""The rematch from the game-over screen of an Economancy and a Figgie table, in Chromium at
phone and desktop sizes: a person whose table has finished presses "Rematch", is taken to
the next table with a seat of their own (the host, the computer player seated again), and a
friend of the same finished table sees who asked and joins the same next table; axe-core
finds nothing on the game-over panel with its button (on Economancy's whole screen), nor on
the next table's room.

The finished tables are played out over the contract's routes (as a bot would) on a live
`blef serve` (tests/web/conftest.py); the pages only open them as their seats' holders.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from tests.web.pages import AXE, seat

SIZES = [pytest.param((390, 844), id="phone"), pytest.param((1100, 900), id="desktop")]


def _axe(page: Any, where: str = "document") -> list[dict[str, Any]]:
    """Every axe-core violation in `where` (a selector, or the document)."""
    target = "document" if where == "document" else f"document.querySelector({where!r})"
    result = page.evaluate(f"async () => (await axe.run({target})).violations")
    return [{"id": v["id"], "nodes": [n["target"] for n in v["nodes"]]} for v in result]


def _post(page: Any, url: str, secret: str | None = None, body: Any = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers["Authorization"] = f"Bearer {secret}"
    reply = page.request.post(url, headers=headers, data=json.dumps(body or {}))
    assert reply.ok, reply.text()
    return reply.json()  # type: ignore[no-any-return]


def _get(page: Any, url: str, secret: str) -> dict[str, Any]:
    reply = page.request.get(url, headers={"Authorization": f"Bearer {secret}"})
    assert reply.ok, reply.text()
    return reply.json()  # type: ignore[no-any-return]


def _safe_move(view: dict[str, Any]) -> list[Any]:
    phase = view["phase"]
    if phase["name"] == "investing":
        return [0]
    if phase["name"] == "buy":
        return ["Pass"]
    if phase["name"] == "attacking" and phase["attacker"] == view["player"]:
        return [0]
    return [1]


def _finished_economancy(page: Any, base: str) -> tuple[str, dict[str, str]]:
    """A one-day table of Newt, Fay and a computer player, played to its end by polling."""
    url = f"{base}/economancy/games"
    game = _post(page, url, body={"rules": {"day_limit": 1}})["game_uuid"]
    p = {
        n: _post(page, f"{url}/{game}/join", body={"nickname": n})["player_uuid"]
        for n in ("Newt", "Fay")
    }
    _post(page, f"{url}/{game}/ai", p["Newt"], {"agent": "random"})
    _post(page, f"{url}/{game}/start", p["Newt"])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for secret in p.values():
            table = _get(page, f"{url}/{game}", secret)
            if table["status"] == "Finished":
                return game, p
            if table["your_turn"]:
                _post(page, f"{url}/{game}/move", secret, _safe_move(table["view"]))
        page.wait_for_timeout(100)  # the computer player's think time
    raise AssertionError("the game did not end")


def _finished_figgie(page: Any, base: str) -> tuple[str, dict[str, str]]:
    """A Figgie table of Newt, Fay and two computer players whose market closes in a second."""
    url = f"{base}/figgie/games"
    game = _post(page, url, body={"rules": {"trading_seconds": 1}})["game_uuid"]
    p = {
        n: _post(page, f"{url}/{game}/join", body={"nickname": n})["player_uuid"]
        for n in ("Newt", "Fay")
    }
    for _ in range(2):
        _post(page, f"{url}/{game}/ai", p["Newt"], {"agent": "random"})
    _post(page, f"{url}/{game}/start", p["Newt"])
    deadline = time.monotonic() + 60
    while _get(page, f"{url}/{game}", p["Newt"])["status"] != "Finished":
        assert time.monotonic() < deadline, "the market did not close"
        page.wait_for_timeout(200)
    return game, p


def _open_as(
    new_page: Any,
    size: tuple[int, int],
    base: str,
    kind: str,
    game: str,
    nickname: str,
    secret: str,
) -> Any:
    page = new_page(*size)
    page.add_init_script(path=str(AXE))
    kept = json.dumps({"player_uuid": secret, "nickname": nickname})
    page.goto(base + "/")
    page.evaluate(f"localStorage.setItem('blef:seat:{game}', {kept!r})")
    page.goto(f"{base}/#/{kind}/{game}")
    return page


@pytest.mark.parametrize("kind", ["economancy", "figgie"])
@pytest.mark.parametrize("size", SIZES)
def test_a_player_presses_rematch_on_the_game_over_screen_and_sits_at_the_next_table(
    server: Any, new_page: Any, size: tuple[int, int], kind: str
) -> None:
    helper = new_page(*size)
    finish = _finished_economancy if kind == "economancy" else _finished_figgie
    game, p = finish(helper, server.url)

    newt = _open_as(new_page, size, server.url, kind, game, "Newt", p["Newt"])
    newt.locator("#over-title").wait_for()
    button = newt.get_by_role("button", name="Rematch", exact=True)
    button.wait_for()
    # The game-over panel with its button, then the whole screen at the game's end.
    assert _axe(newt, ".over") == [], "game over with its rematch button"
    assert _axe(newt) == [], "the whole game-over screen"
    button.click()
    newt.wait_for_url(re.compile(rf"#/{kind}/(?!{game})[0-9a-f-]{{36}}$"))
    nxt = newt.url.rsplit("/", 1)[1]
    players = newt.get_by_role("list", name="Players")
    players.get_by_text("Newt (host) (you)").wait_for()
    assert "computer player" in players.inner_text()
    mine = seat(newt, nxt)
    assert mine is not None and mine["player_uuid"] != p["Newt"]
    assert _axe(newt) == [], "the next table's room"

    fay = _open_as(new_page, size, server.url, kind, game, "Fay", p["Fay"])
    fay.locator("#rematch-asked").get_by_text("Newt wants a rematch.").wait_for()
    fay.get_by_role("button", name="Join the rematch").click()
    fay.wait_for_url(re.compile(rf"#/{kind}/{nxt}$"))
    fay.get_by_role("list", name="Players").get_by_text("Fay (you)").wait_for()
    players.get_by_text("Fay").wait_for()  # Newt's room shows the friend come in
