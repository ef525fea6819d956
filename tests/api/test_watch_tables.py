"""Watching a table of another game (Figgie, Economancy) over the local websocket (``/ws``),
as a real client does: served by uvicorn on a socket, read with the ``websockets`` library.

Each message is ``{"statusCode": 200, "body": "<JSON string>"}`` whose body is exactly what
``GET /{game}/games/{game_uuid}`` answers the watcher's seat (a spectator's without a
secret). The computer players trade when the test moves the clock and sweeps (a fake clock:
nothing here waits on time); every read is bounded so that a failure never hangs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.main import create_app
from app.config.settings import Settings
from app.service import GameService
from app.store.sqlite import SqliteStore
from engine.dealing import seed_sequence
from tests.support.api import bearer
from tests.support.clock import FakeClock
from tests.support.served import served

websockets_client = pytest.importorskip(
    "websockets.sync.client", reason="uvicorn serves /ws only with `websockets` installed"
)
from websockets.exceptions import ConnectionClosed  # noqa: E402

WAIT_SECONDS = 60.0
"""A bound on waiting for one message, against hanging: never reached when things work."""
BOTS = ("marketmaker", "fairvalue", "bayesian")


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(tmp_path: Path, fake: FakeClock) -> Iterator[GameService]:
    settings = Settings(db_path=tmp_path / "tables.db", run_clock=False, ai_think_seconds=1)
    store = SqliteStore(settings.db_path)
    # Seeded deals (a random deal let the bots make no trade about one run in ten).
    yield GameService(store, settings, clock=fake, seed_source=seed_sequence(20261127))
    store.close()


@pytest.fixture
def address(service: GameService) -> Iterator[str]:
    with served(create_app(service.settings, service)) as where:
        yield where


def figgie_with_bots(service: GameService, trading_seconds: int = 30) -> tuple[str, str]:
    """A started Figgie table of ann and three computer players; (game, ann's secret)."""
    rules = {"trading_seconds": trading_seconds}
    game = service.create_table("figgie", rules)["game_uuid"]
    ann = service.join_table("figgie", game, "ann")["player_uuid"]
    for bot in BOTS:
        service.seat_agent("figgie", game, ann, bot)
    service.start_table("figgie", game, ann)
    return game, ann


def read(ws: Any) -> tuple[int, dict[str, Any]]:
    """The next message as (statusCode, its body parsed), the way a client reads it."""
    message = json.loads(ws.recv(timeout=WAIT_SECONDS))
    assert set(message) == {"statusCode", "body"} and isinstance(message["body"], str)
    return message["statusCode"], json.loads(message["body"])


def watch(address: str, game: str, secret: str | None = None) -> Any:
    headers = {"game_uuid": game}
    if secret is not None:
        headers |= bearer(secret)
    return websockets_client.connect(f"ws://{address}/ws", additional_headers=headers)


def play_out(service: GameService, fake: FakeClock, seconds: int = 40) -> None:
    """The computer players trade each second until the trading time is over."""
    for _ in range(seconds * 2):
        fake.advance(0.5)
        service.sweep()


def trade_once(service: GameService, fake: FakeClock, game: str, ann: str) -> None:
    """Once the bots quote, ann takes a bot's best ask (or hits its best bid): one trade at
    least, whatever the bots do after."""
    for _ in range(40):
        view = service.table("figgie", game, ann)["view"]
        for suit, book in view["book"].items():
            if book["best_ask"] is not None:
                service.move("figgie", game, ann, {"type": "lift", "suit": suit})
                return
            if book["best_bid"] is not None and view["hand"][suit] > 0:
                service.move("figgie", game, ann, {"type": "hit", "suit": suit})
                return
        fake.advance(0.5)
        service.sweep()
    raise AssertionError(f"the bots never quoted: {view['book']}")


def bodies_until(ws: Any, version: int) -> list[dict[str, Any]]:
    """Every body the socket sends until one at ``version``."""
    seen: list[dict[str, Any]] = []
    while not seen or seen[-1]["version"] < version:
        status, body = read(ws)
        assert status == 200, body
        seen.append(body)
    return seen


def test_a_spectator_of_figgie_gets_every_trade_in_order_while_bots_trade_and_never_a_hand(
    service: GameService, fake: FakeClock, address: str
) -> None:
    game, ann = figgie_with_bots(service)
    with watch(address, game) as ws:
        first = read(ws)[1]
        trade_once(service, fake, game, ann)  # at least one trade, whatever the bots do
        play_out(service, fake)
        final = service.table("figgie", game, None)
        assert final["status"] == "Finished"
        bodies = [first, *bodies_until(ws, final["version"])]
    versions = [body["version"] for body in bodies]
    assert versions == list(range(versions[0], versions[-1] + 1))  # increasing, none skipped
    assert bodies[-1] == final
    traded = [event for body in bodies[1:] for event in body["events"] if event["kind"] == "trade"]
    tape = final["view"]["tape"]
    assert len(tape) >= 1, "the bots made no trade: the test would show nothing"
    assert [(t["buyer"], t["seller"], t["suit"], t["price"]) for t in tape] == [
        (t["buyer"], t["seller"], t["suit"], t["price"]) for t in traded
    ]
    for body in bodies:
        assert body["you"] is None and body["your_turn"] is False
        assert "hand" not in body["view"]


def test_a_seat_holder_is_pushed_its_own_body_the_one_get_answers(
    service: GameService, fake: FakeClock, address: str
) -> None:
    game, ann = figgie_with_bots(service)
    with watch(address, game, ann) as ws:
        first = read(ws)[1]
        assert first == service.table("figgie", game, ann)
        assert first["you"] == 0 and "hand" in first["view"]
        fake.advance(1)
        assert service.sweep()
        pushed = read(ws)[1]
    assert pushed["version"] == first["version"] + 1
    assert pushed == service.table("figgie", game, ann)


def test_a_player_who_leaves_a_table_is_closed_as_blefs_players_are(
    service: GameService, address: str
) -> None:
    game = service.create_table("economancy")["game_uuid"]
    ann = service.join_table("economancy", game, "ann")["player_uuid"]
    bob = service.join_table("economancy", game, "bob")["player_uuid"]
    with watch(address, game, bob) as ws:
        assert read(ws)[1]["you"] == 1
        service.leave_table("economancy", game, bob)
        with pytest.raises(ConnectionClosed) as closed:
            read(ws)
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1008, "unknown_player")
    assert service.table("economancy", game, ann)["seats"] == [
        {"nickname": "ann", "ai": None, "ready": False}
    ]


def test_a_player_removed_by_the_host_is_closed_and_sent_nothing_of_the_table_again(
    service: GameService, address: str
) -> None:
    game = service.create_table("figgie")["game_uuid"]
    ann = service.join_table("figgie", game, "ann")["player_uuid"]
    cid = service.join_table("figgie", game, "cid")["player_uuid"]
    with watch(address, game, cid) as ws:
        assert read(ws)[1]["you"] == 1
        service.remove_from_table("figgie", game, ann, "cid")
        with pytest.raises(ConnectionClosed) as closed:
            read(ws)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


def test_a_wrong_secret_is_refused_with_the_tables_code_and_closed(
    service: GameService, address: str
) -> None:
    game = service.create_table("figgie")["game_uuid"]
    service.join_table("figgie", game, "ann")
    with watch(address, game, "5c4b1f2e-0000-4000-8000-000000000000") as ws:
        status, body = read(ws)
        with pytest.raises(ConnectionClosed):
            read(ws)
    assert status == 400 and body["code"] == "unknown_player"


def test_the_public_games_watchers_hear_of_blefs_games_only(
    service: GameService, address: str
) -> None:
    with websockets_client.connect(f"ws://{address}/ws") as ws:
        service.create_table("figgie", public=True)
        made = service.create_game(nickname="ann")
        blef = made["game_uuid"]
        service.set_public(blef, made["player_uuid"], True)
        status, body = read(ws)
    assert status == 200 and body["game_uuid"] == blef
