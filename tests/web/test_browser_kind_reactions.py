"""Reactions at the tables of the other games, in Chromium: the same bar and list as Blef's
(app/web/static/reactions.js). A seated person presses a reaction; their friend at the same
Economancy or Figgie table sees it in the recent reactions without reloading; a spectator
sees the list but no bar; axe-core finds nothing in the reactions' section.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from benchmarks.load import Server
from tests.web.pages import AXE

SIZES = [pytest.param((390, 844), id="phone"), pytest.param((1100, 900), id="desktop")]


def _post(page: Any, url: str, secret: str | None = None, body: Any = None) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers["Authorization"] = f"Bearer {secret}"
    reply = page.request.post(url, headers=headers, data=json.dumps(body or {}))
    assert reply.ok, reply.text()
    return reply.json()  # type: ignore[no-any-return]


def _open(new_page: Any, size: tuple[int, int], url: str, game: str, seat: Any) -> Any:
    page = new_page(*size)
    page.add_init_script(path=str(AXE))
    page.goto(url + "/")
    if seat is not None:
        kept = json.dumps({"player_uuid": seat[1], "nickname": seat[0]})
        page.evaluate(f"localStorage.setItem('blef:seat:{game}', {kept!r})")
    return page


@pytest.mark.parametrize("kind", ["economancy", "figgie"])
@pytest.mark.parametrize("size", SIZES)
def test_a_reaction_at_a_table_of_another_game_reaches_the_friend_and_the_spectator(
    server: Server, new_page: Any, kind: str, size: tuple[int, int]
) -> None:
    tables = f"{server.url}/{kind}/games"
    opener = new_page(*size)
    opener.goto(server.url + "/")
    game = _post(opener, tables)["game_uuid"]
    seats = {
        n: _post(opener, f"{tables}/{game}/join", body={"nickname": n})["player_uuid"]
        for n in ("Ola", "Piotr")
    }
    ola = _open(new_page, size, server.url, game, ("Ola", seats["Ola"]))
    piotr = _open(new_page, size, server.url, game, ("Piotr", seats["Piotr"]))
    watcher = _open(new_page, size, server.url, game, None)
    for page in (ola, piotr, watcher):
        page.goto(f"{server.url}/#/{kind}/{game}")
        expect(page.get_by_role("list", name="Recent reactions")).to_contain_text(
            "No reactions yet."
        )

    ola.get_by_role("button", name="React 👍").click()
    for page in (ola, piotr, watcher):  # pushed (or read), never reloaded
        expect(page.get_by_role("list", name="Recent reactions")).to_contain_text("Ola 👍")
    assert watcher.get_by_role("button", name="React 👍").count() == 0  # watching: no bar
    violations = piotr.evaluate(
        "async () => (await axe.run(document.querySelector('.reactions'))).violations"
    )
    assert violations == []


def test_a_flood_of_reactions_is_told_in_words_and_the_table_goes_on(
    server: Server, new_page: Any
) -> None:
    tables = f"{server.url}/economancy/games"
    opener = new_page()
    opener.goto(server.url + "/")
    game = _post(opener, tables)["game_uuid"]
    ola = _post(opener, f"{tables}/{game}/join", body={"nickname": "Ola"})["player_uuid"]
    page = _open(new_page, (1100, 900), server.url, game, ("Ola", ola))
    page.goto(f"{server.url}/#/economancy/{game}")
    recent = page.get_by_role("list", name="Recent reactions")
    expect(recent).to_contain_text("No reactions yet.")
    refusals: list[Any] = []
    page.on("response", lambda r: refusals.append(r) if r.status == 429 else None)
    for _ in range(6):  # three in ten seconds are allowed
        page.get_by_role("button", name="React 😂").click()
    expect(page.locator("#toast.error")).to_have_text(
        "Easy on the reactions: wait a few seconds before sending another."
    )
    assert refusals, "the service refused some of the flood"
    expect(recent).to_contain_text("Ola 😂")  # the ones taken are shown
    expect(page.get_by_role("list", name="Players")).to_contain_text("Ola")
