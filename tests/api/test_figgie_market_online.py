"""Figgie's live market through the service on SQLite: every trade atomic (two players
lifting one ask at once make one trade; the other is told the quote is gone), idempotent
orders, and chips conserved over random games played through HTTP."""

from __future__ import annotations

import threading
import uuid
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.api.main import create_app
from app.config.settings import Settings
from app.service import GameService
from app.service.errors import RefusedByGame
from app.store.sqlite import SqliteStore
from tests.support.api import bearer

SUITS = ("spades", "clubs", "hearts", "diamonds")


def _market(service: GameService) -> tuple[str, list[str]]:
    game = service.create_table("figgie")["game_uuid"]
    seats = [service.join_table("figgie", game, n)["player_uuid"] for n in ("a", "b", "c", "d")]
    service.start_table("figgie", game, seats[0])
    return game, seats


def _held_suit(service: GameService, game: str, secret: str) -> str:
    hand = service.table("figgie", game, secret)["view"]["hand"]
    return next(suit for suit in SUITS if hand[suit])


def _lift_at_once(service: GameService, game: str, secrets: list[str], suit: str) -> list[Any]:
    """Each of ``secrets`` lifts the ask of ``suit`` from its own thread, at once."""
    barrier = threading.Barrier(len(secrets))
    outcomes: list[Any] = [None] * len(secrets)

    def lift(k: int) -> None:
        barrier.wait()
        try:
            outcomes[k] = service.move("figgie", game, secrets[k], {"type": "lift", "suit": suit})
        except RefusedByGame as refusal:
            outcomes[k] = refusal

    threads = [threading.Thread(target=lift, args=(k,)) for k in range(len(secrets))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_two_players_lifting_one_ask_at_once_make_one_trade(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "race.db")
    service = GameService(store, Settings(db_path=tmp_path / "race.db", run_clock=False))
    try:
        for _ in range(8):
            game, seats = _market(service)
            suit = _held_suit(service, game, seats[0])
            service.move("figgie", game, seats[0], {"type": "ask", "suit": suit, "price": 5})
            outcomes = _lift_at_once(service, game, seats[1:3], suit)
            won = [o for o in outcomes if isinstance(o, dict)]
            lost = [o for o in outcomes if isinstance(o, RefusedByGame)]
            assert len(won) == 1 and len(lost) == 1
            assert lost[0].code == "nothing_to_take"
            assert "no ask to lift" in lost[0].message
            tape = service.table("figgie", game, None)["view"]["tape"]
            assert len(tape) == 1 and tape[0]["price"] == 5
    finally:
        store.close()


@pytest.fixture
def http(tmp_path: Path) -> Any:
    settings = Settings(db_path=tmp_path / "market.db", run_clock=False, ai_think_seconds=0)
    store = SqliteStore(settings.db_path)
    with TestClient(create_app(settings, GameService(store, settings))) as client:
        yield client
    store.close()


def test_an_order_sent_twice_with_one_key_is_made_once(http: TestClient) -> None:
    game = http.post("/figgie/games", json={}).json()["game_uuid"]
    seats = [
        http.post(f"/figgie/games/{game}/join", json={"nickname": n}).json()["player_uuid"]
        for n in ("ann", "bob", "cid", "dee")
    ]
    http.post(f"/figgie/games/{game}/start", headers=bearer(seats[0]))
    headers = {**bearer(seats[1]), "Idempotency-Key": str(uuid.uuid4())}
    order = {"type": "bid", "suit": "clubs", "price": 4}
    first = http.post(f"/figgie/games/{game}/move", headers=headers, json=order)
    again = http.post(f"/figgie/games/{game}/move", headers=headers, json=order)
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert http.get(f"/figgie/games/{game}").json()["version"] == first.json()["version"]


orders = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.sampled_from(["bid", "ask", "cancel_bid", "cancel_ask", "lift", "hit"]),
        st.sampled_from(SUITS),
        st.integers(1, 20),
    ),
    max_size=40,
)


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(orders)
def test_chips_are_conserved_in_random_games_played_through_http(
    http: TestClient, sent: list[tuple[int, str, str, int]]
) -> None:
    game = http.post("/figgie/games", json={"rules": {"starting_chips": 200}}).json()["game_uuid"]
    seats = [
        http.post(f"/figgie/games/{game}/join", json={"nickname": n}).json()["player_uuid"]
        for n in ("ann", "bob", "cid", "dee")
    ]
    http.post(f"/figgie/games/{game}/start", headers=bearer(seats[0]))
    for seat, kind, suit, price in sent:
        order: dict[str, Any] = {"type": kind, "suit": suit}
        if kind in ("bid", "ask"):
            order["price"] = price
        r = http.post(f"/figgie/games/{game}/move", headers=bearer(seats[seat]), json=order)
        assert r.status_code in (200, 409), r.text
        view = r.json().get("view") if r.status_code == 200 else None
        if view is not None:
            assert sum(view["chips"]) + view["pot"] == 4 * 200
            assert sum(view["card_counts"]) == 40
