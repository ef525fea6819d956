"""Steps of the rated games' browser tests (the queue, the ladder, the ratings): an account
made in the page, the queue requests a page sends, the service's queue answers replaced
for a page, and a rated game played through the API."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from tests.support.waiting import eventually


def make_account(page: Any, base: str, handle: str) -> str:
    """Open the lobby, type a name, make an account; the key this browser keeps."""
    page.goto(base + "/")
    page.get_by_label("Your name").fill(handle)
    page.get_by_role("button", name=re.compile("^Make an account")).click()
    page.get_by_role("heading", name=f"Signed in as {handle}").wait_for()
    kept = page.evaluate("JSON.parse(localStorage.getItem('blef:account'))")
    assert kept["handle"] == handle
    return str(kept["secret"])


def queue_bodies(page: Any) -> list[Any]:
    """The bodies of the page's requests to join the queue (``POST /ladder/queue``), in the
    order it sends them, from now on."""
    bodies: list[Any] = []
    page.on(
        "request",
        lambda r: (
            bodies.append(r.post_data_json)
            if r.method == "POST" and r.url.endswith("/ladder/queue")
            else None
        ),
    )
    return bodies


def answer_queue(page: Any, method: str, body: dict[str, Any]) -> None:
    """From now on the page's ``method`` requests to ``/ladder/queue`` get ``body`` (as the
    service would answer: 200, JSON); its other requests go to the service."""

    def handle(route: Any) -> None:
        if route.request.method != method:
            route.continue_()
            return
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route(re.compile(r".*/ladder/queue$"), handle)


def play_rated_and_resign(http: httpx.Client, secret: str, pool: str) -> None:
    """Join ``pool`` letting computer players fill at once, then resign: one rated game."""
    me = {"Authorization": f"Bearer {secret}"}
    http.post("/ladder/queue", json={"pool": pool, "fill_after": 0}, headers=me)
    seat = eventually(
        lambda: (
            (answer := http.get("/ladder/queue", headers=me).json())["state"] == "seated" and answer
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
