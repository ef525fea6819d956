"""The AWS path for a table of another game than Blef: ``$connect`` checks a Figgie or
Economancy table's watcher as ``GET /{game}/games/{game_uuid}`` would, and the pusher, fed
by moto's table through the stack's stream filter (tests/support/stream.py), posts each
version's body for the watcher's seat, in order; a seat that leaves is told and closed."""

from __future__ import annotations

from typing import Any

import pytest

from app.entrypoints import websocket as websocket_handler
from app.service import GameService
from tests.support.dynamo import DynamoTable
from tests.support.stream import TableStream
from tests.watch.events import (
    FakeManagementApi,
    connect_event,
    connected,
    new_connection_id,
    stream_event,
)

pytestmark = pytest.mark.usefixtures("runtime")


def connect(game_uuid: str, headers: dict[str, str] | None = None) -> str:
    return connected({"game_uuid": game_uuid, **(headers or {})})


def push(stream: TableStream) -> None:
    stream.capture()
    for batch in stream.batches():
        websocket_handler.push(stream_event(batch))


def held_suit(service: GameService, game: str, secret: str) -> str:
    hand = service.table("figgie", game, secret)["view"]["hand"]
    return next(suit for suit in ("spades", "clubs", "hearts", "diamonds") if hand[suit])


def test_a_figgie_tables_watchers_are_pushed_each_version_as_their_seat_sees_it_in_order(
    service: GameService, table: DynamoTable, management: FakeManagementApi
) -> None:
    stream = TableStream(table)
    game = service.create_table("figgie")["game_uuid"]
    seats = {n: service.join_table("figgie", game, n)["player_uuid"] for n in "abcd"}
    service.start_table("figgie", game, seats["a"])
    push(stream)
    spectator = connect(game)
    a = connect(game, {"Authorization": f"Bearer {seats['a']}"})
    b = connect(game, {"player_uuid": seats["b"]})
    push(stream)  # each new watcher is welcomed with the table as it is
    trades = 0
    for seller, buyer in (("a", "b"), ("b", "c"), ("c", "a")):
        suit = held_suit(service, game, seats[seller])
        service.move("figgie", game, seats[seller], {"type": "ask", "suit": suit, "price": 4})
        push(stream)
        service.move("figgie", game, seats[buyer], {"type": "lift", "suit": suit})
        trades += 1
        push(stream)

    watched = management.bodies(spectator)
    versions = [body["version"] for body in watched]
    assert versions == list(range(versions[0], versions[-1] + 1))
    assert watched[-1] == service.table("figgie", game, None)
    assert all(body["you"] is None and "hand" not in body["view"] for body in watched)
    traded = [e for body in watched for e in body["events"] if e["kind"] == "trade"]
    assert [(e["buyer"], e["seller"], e["price"]) for e in traded] == [
        (1, 0, 4),
        (2, 1, 4),
        (0, 2, 4),
    ]
    assert len(traded) == trades
    for connection, name, seat in ((a, "a", 0), (b, "b", 1)):
        mine = management.bodies(connection)
        assert [body["version"] for body in mine] == versions
        assert {body["you"] for body in mine} == {seat}
        assert mine[-1] == service.table("figgie", game, seats[name])


def test_a_player_who_leaves_a_table_is_told_and_closed_and_sent_nothing_more(
    service: GameService, table: DynamoTable, management: FakeManagementApi
) -> None:
    stream = TableStream(table)
    game = service.create_table("economancy")["game_uuid"]
    ann = service.join_table("economancy", game, "ann")["player_uuid"]
    bob = service.join_table("economancy", game, "bob")["player_uuid"]
    push(stream)
    watcher = connect(game, {"Authorization": f"Bearer {bob}"})
    push(stream)
    service.leave_table("economancy", game, bob)
    service.join_table("economancy", game, "bob")  # a newcomer takes the nickname
    service.ready_table("economancy", game, ann, True)
    push(stream)

    messages: list[dict[str, Any]] = management.messages(watcher)
    assert [m["statusCode"] for m in messages] == [200, 403]
    assert messages[0]["body"]["you"] == 1
    assert messages[-1]["body"]["code"] == "unknown_player"
    assert management.closed == [watcher]


def test_a_wrong_secret_for_a_table_is_refused_at_connect(service: GameService) -> None:
    game = service.create_table("figgie")["game_uuid"]
    event = connect_event(
        new_connection_id(),
        {"game_uuid": game, "Authorization": "Bearer 5c4b1f2e-0000-4000-8000-000000000000"},
    )
    answer = websocket_handler.connect(event)
    assert answer["statusCode"] == 400
    assert '"unknown_player"' in answer["body"]
