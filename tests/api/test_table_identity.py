"""Who is who at a table is a player, never a display name (issue 22), on ``blef serve``:

- a websocket follows the player who opened it: leaving, or being removed, closes it, and a
  newcomer under the freed nickname is never shown on it (over a real uvicorn socket, as the
  iOS client connects);
- a hidden player's alias is reserved like their old nickname, is never handed to a later
  hidden player, and reports are filed against the player they name;
- nicknames are matched ignoring case everywhere (join, remove, report);
- inviting an AI never starts a game by itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from app.api.main import create_app
from app.api.routes.watch import CLOSE_REFUSED
from app.config.settings import Settings
from app.service import GameService
from tests.api.test_table import invite, lobby, nicknames, ok, post, refused
from tests.api.test_watch_websocket import WAIT_SECONDS, headers
from tests.support.api import Blef
from tests.support.served import served

websockets_client = pytest.importorskip(
    "websockets.sync.client", reason="uvicorn serves /ws only with `websockets` installed"
)
from websockets.exceptions import ConnectionClosed  # noqa: E402 (only once the skip passed)


@pytest.fixture
def address(settings: Settings, service: GameService) -> Iterator[str]:
    """``blef serve``'s app on a real socket of 127.0.0.1."""
    with served(create_app(settings, service)) as where:
        yield where


def read_until_closed(ws: Any) -> tuple[list[dict[str, Any]], int | None]:
    """Every state body a socket is sent until the server closes it, and the close code."""
    bodies = []
    while True:
        try:
            frame = ws.recv(timeout=WAIT_SECONDS)
        except ConnectionClosed as closed:
            return bodies, closed.rcvd.code if closed.rcvd else None
        bodies.append(json.loads(json.loads(frame)["body"]))


@pytest.mark.parametrize("how", ["leaves", "is removed"])
def test_on_blef_serve_a_departed_players_socket_is_closed_before_a_newcomer_takes_the_name(
    address: str, how: str
) -> None:
    import httpx

    blef = Blef(httpx.Client(base_url=f"http://{address}"))
    game, players = lobby(blef, "alice", "bob")
    url = f"ws://{address}/ws/live"
    with websockets_client.connect(url, additional_headers=headers(game, players["bob"])) as ws:
        assert json.loads(json.loads(ws.recv(timeout=WAIT_SECONDS))["body"])["you"] == "bob"
        if how == "leaves":
            ok(post(blef, game, "leave", players["bob"]))
        else:
            ok(post(blef, game, "remove", players["alice"], {"nickname": "BOB"}))
        newcomer = blef.join_post(game, "Bob")
        blef.start_post(game, players["alice"])
        bodies, code = read_until_closed(ws)
    assert code == CLOSE_REFUSED
    assert bodies == []  # not even the lobby without bob: the seat is gone
    assert blef.state(game, newcomer)["you"] == "Bob"


def test_a_hidden_players_alias_is_reserved_after_they_leave_in_any_case(blef: Blef) -> None:
    game, players = lobby(blef, "ann", "ben", "Rude")
    ok(post(blef, game, "report", players["ann"], {"nickname": "Rude"}))
    ok(post(blef, game, "report", players["ben"], {"nickname": "Rude"}))
    ok(post(blef, game, "leave", players["Rude"]))
    for taken in ("Player_3", "PLAYER_3", "rude"):
        r = blef.http.post(f"/games/{game}/join", json={"nickname": taken})
        refused(r, 400, "nickname_taken")


def test_a_newcomer_in_a_hidden_players_row_can_be_reported_and_hidden_under_a_new_alias(
    blef: Blef, service: GameService
) -> None:
    game, players = lobby(blef, "ann", "ben", "Rude")
    for reporter in ("ann", "ben"):
        ok(post(blef, game, "report", players[reporter], {"nickname": "Rude"}))
    ok(post(blef, game, "leave", players["Rude"]))
    players["Mean"] = blef.join_post(game, "Mean")

    assert ok(post(blef, game, "report", players["ann"], {"nickname": "mean"})) == "Reported"
    message = ok(post(blef, game, "report", players["ben"], {"nickname": "Mean"}))

    assert message == "Reported - Mean is shown as Player_3_2 from now on"
    assert nicknames(blef.state(game)) == ["ann", "ben", "Player_3_2"]
    filed = sorted((r.reporter, r.nickname) for r in service.store.list_reports(10))
    assert filed == [("ann", "Mean"), ("ann", "Rude"), ("ben", "Mean"), ("ben", "Rude")]
    assert blef.state(game, players["Mean"])["you"] == "Player_3_2"


def test_reporting_a_hidden_player_again_is_redundant_and_filed_under_their_old_name(
    blef: Blef, service: GameService
) -> None:
    game, players = lobby(blef, "ann", "ben", "Rude", "cid")
    for reporter in ("ann", "ben", "cid"):
        ok(post(blef, game, "report", players[reporter], {"nickname": "Rude"}))
    assert nicknames(blef.state(game))[2] == "Player_3"
    players["dan"] = blef.join_post(game, "dan")

    again = ok(post(blef, game, "report", players["dan"], {"nickname": "player_3"}))

    assert again == "Request redundant - that nickname is hidden"
    assert ("dan", "Rude") in {(r.reporter, r.nickname) for r in service.store.list_reports(10)}


def test_a_stranger_name_is_refused_for_remove_and_report_in_every_case(blef: Blef) -> None:
    game, players = lobby(blef, "alice", "bob", "carl")
    for action in ("remove", "report"):
        r = post(blef, game, action, players["alice"], {"nickname": "bobby"})
        refused(r, 400, "unknown_player")
    ok(post(blef, game, "report", players["alice"], {"nickname": "BOB"}))
    refused(
        post(blef, game, "report", players["alice"], {"nickname": "ALICE"}),
        400,
        "cannot_report_self",
    )
    assert ok(post(blef, game, "remove", players["alice"], {"nickname": "bOb"})) == (
        "bob was removed from the game"
    )
    assert nicknames(blef.state(game)) == ["alice", "carl"]


def test_inviting_ais_to_a_ready_auto_start_table_seats_them_all_and_starts_nothing(
    blef: Blef,
) -> None:
    game, players = lobby(blef, "alice")
    ok(post(blef, game, "set-auto-start", players["alice"], {"auto_start": True}))
    ok(post(blef, game, "ready", players["alice"], {"ready": True}))
    first = invite(blef, game, players["alice"], "Dazhbog")
    second = invite(blef, game, players["alice"], "Porevit")
    state = blef.state(game)
    assert (first, second) == ("Dazhbog_(AI)", "Porevit_(AI)")
    assert state["status"] == "Not started"
    blef.start_post(game, players["alice"])
    assert blef.state(game)["status"] == "Running"
