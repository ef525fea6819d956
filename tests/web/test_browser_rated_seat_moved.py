"""A rated seat taken to another device, seen from the browser it left, in Chromium at phone
and desktop sizes with axe-core: the queue then answers `seat_moved` and no secret (never the
retired one, never the new one), the browser keeps the seat it had instead of a seat without a
secret, and its table says in words that the seat moved and this browser watches.

Served by a live `blef serve` with its clock (tests/web/conftest.py): its matcher seats the two
accounts; the other device's move is made over the API, as that device would."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.support.waiting import eventually
from tests.web.pages import axe_violations, seat, with_axe
from tests.web.rated import make_account

SIZES = [pytest.param((390, 844), id="phone"), pytest.param((1100, 900), id="desktop")]


@pytest.mark.parametrize("size", SIZES)
def test_the_browser_a_rated_seat_moved_from_keeps_its_seat_and_says_that_it_moved(
    server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    page = new_page(*size)
    with_axe(page)
    handle = f"Mover{size[0]}"
    secret = make_account(page, server.url, handle)
    with httpx.Client(base_url=server.url, timeout=30) as http:
        other = http.post("/ladder/accounts", json={"handle": f"Other{size[0]}"}).json()["secret"]
        for key in (secret, other):
            joined = http.post(
                "/ladder/queue",
                json={"pool": "standard-2"},
                headers={"Authorization": f"Bearer {key}"},
            )
            assert joined.status_code == 200, joined.text
        mine = {"Authorization": f"Bearer {secret}"}

        def seated() -> dict[str, Any] | None:
            answer: dict[str, Any] = http.get("/ladder/queue", headers=mine).json()
            return answer if answer["state"] == "seated" else None

        told = eventually(seated, "the matcher seating the two accounts")
        game, first = told["game_uuid"], told["player_uuid"]
        # The other comes to the table too (asking for its seat), so it is never called off.
        arrived = http.get("/ladder/queue", headers={"Authorization": f"Bearer {other}"}).json()
        assert arrived["state"] == "seated" and arrived["game_uuid"] == game
        # This browser is told its seat (the lobby asks the queue as it opens) and keeps it.
        page.reload()
        eventually(lambda: seat(page, game), "the page keeping its rated seat", page)
        assert seat(page, game)["player_uuid"] == first  # type: ignore[index]
        # The seat's link is opened on a phone: the phone is given the seat's new secret.
        moved = http.post(f"/games/{game}/move-seat", headers={"Authorization": f"Bearer {first}"})
        assert moved.status_code == 200, moved.text
        phone = moved.json()["player_uuid"]
        answers: list[Any] = []
        page.on(
            "response",
            lambda r: (
                answers.append(r.json()) if r.url.endswith("/ladder/queue") and r.ok else None
            ),
        )
        page.reload()
        eventually(lambda: answers, "the page asking the queue again", page)
        said = json.dumps(answers)
        assert '"seat_moved": true' in said and first not in said and phone not in said
        kept = seat(page, game)
        assert kept is not None and kept["player_uuid"] == first  # never a seat without a secret

    page.goto(f"{server.url}/#/game/{game}")
    page.get_by_text("Your seat moved to another device").wait_for()
    assert page.locator("#ready-toggle, #bet-button, #check-button, #resign").count() == 0
    assert axe_violations(page) == [], "the table telling that the seat moved"
