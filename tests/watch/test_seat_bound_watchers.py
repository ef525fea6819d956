"""A websocket is bound to the player who opened it, never to a nickname: on the AWS path
(``$connect`` and the pusher on moto's DynamoDB), a player who leaves or is removed is told so
and closed, and whoever takes their nickname next is never shown on the old socket.

Played as an attacker would: connect as ``bob``, leave, let an accomplice join as ``bob`` (or
``BOB``), start, and read everything the old socket is sent, batch by batch and as one
replayed batch of every record."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.entrypoints import websocket as websocket_handler
from app.service import GameService
from tests.support.dynamo import DynamoTable
from tests.watch.events import (
    FakeManagementApi,
    connected,
    stream_event,
    stream_record,
)

pytestmark = pytest.mark.usefixtures("runtime")


def connect(game_uuid: str, player_uuid: str | None) -> str:
    headers = {"game_uuid": game_uuid}
    if player_uuid is not None:
        headers["player_uuid"] = player_uuid
    return connected(headers)


class Recorder:
    """Every stream record of a game's live item, as the table's stream would carry them."""

    def __init__(self, table: DynamoTable, game_uuid: str) -> None:
        self.table = table
        self.game_uuid = game_uuid
        self.records: list[dict[str, Any]] = []

    def snap(self) -> dict[str, Any]:
        item = self.table.item(f"GAME#{self.game_uuid}", "STATE")
        assert item is not None
        record = stream_record(item, "MODIFY")
        self.records.append(record)
        return record


def private_things(management: FakeManagementApi, connection: str) -> list[Any]:
    """Whatever a socket was sent that only a player may see: a hand, or a ``you``."""
    found = []
    for message in management.messages(connection):
        body = message["body"]
        if body.get("you") is not None:
            found.append(("you", body["you"]))
        if body.get("hands") and body.get("cp_nickname") is not None:
            found.append(("hands", body["hands"]))
    return found


def lobby(service: GameService, *names: str) -> tuple[str, dict[str, str]]:
    game = service.create_game()["game_uuid"]
    return game, {name: service.join(game, name)["player_uuid"] for name in names}


@pytest.mark.parametrize("taken_as", ["bob", "BOB"])
@pytest.mark.parametrize("how", ["leaves", "is removed"])
def test_a_departed_players_socket_never_receives_the_newcomer_under_their_nickname(
    table: DynamoTable,
    service: GameService,
    management: FakeManagementApi,
    how: str,
    taken_as: str,
) -> None:
    game, players = lobby(service, "alice", "bob")
    old = connect(game, players["bob"])
    stream = Recorder(table, game)
    websocket_handler.push(stream_event([stream.snap()]))
    assert management.bodies(old)[-1]["you"] == "bob"

    if how == "leaves":
        service.leave(game, players["bob"])
    else:
        service.remove_player(game, players["alice"], "bob")
    websocket_handler.push(stream_event([stream.snap()]))
    newcomer = service.join(game, taken_as)["player_uuid"]
    websocket_handler.push(stream_event([stream.snap()]))
    service.start(game, players["alice"])
    websocket_handler.push(stream_event([stream.snap()]))
    fresh = connect(game, newcomer)
    websocket_handler.push(stream_event([stream.snap()]))

    last = management.messages(old)[-1]
    assert last == {
        "statusCode": 403,
        "body": {"error": "You are no longer a player of this game", "code": "unknown_player"},
    }
    assert management.closed == [old]
    assert table.item(f"GAME#{game}", f"CONN#{old}") is None
    assert table.item(f"CONN#{old}", "CONN") is None
    assert private_things(management, old) == [("you", "bob")]  # only bob's own lobby view
    assert management.bodies(fresh)[-1]["you"] == taken_as  # the newcomer sees their own hand
    assert len(management.bodies(fresh)[-1]["hands"]) == 1


def test_every_record_replayed_as_one_batch_still_shows_the_old_socket_nothing_of_the_newcomer(
    table: DynamoTable, service: GameService, management: FakeManagementApi
) -> None:
    game, players = lobby(service, "alice", "bob")
    old = connect(game, players["bob"])
    stream = Recorder(table, game)
    stream.snap()
    service.leave(game, players["bob"])
    stream.snap()
    service.join(game, "bob")
    stream.snap()
    service.start(game, players["alice"])
    stream.snap()

    websocket_handler.push(stream_event(reversed(stream.records)))  # out of order, as retried
    websocket_handler.push(stream_event(stream.records))  # and the whole batch again

    assert private_things(management, old) == [("you", "bob")]
    assert management.messages(old)[-1]["body"]["code"] == "unknown_player"
    assert old in management.closed


def test_a_socket_whose_player_left_before_its_welcome_is_closed_unwelcomed(
    table: DynamoTable, service: GameService, management: FakeManagementApi
) -> None:
    game, players = lobby(service, "alice", "bob")
    old = connect(game, players["bob"])
    joined = table.item(f"GAME#{game}", f"CONN#{old}")
    assert joined is not None
    service.leave(game, players["bob"])
    service.join(game, "bob")

    websocket_handler.push(stream_event([stream_record(joined, "INSERT")]))

    assert [m["statusCode"] for m in management.messages(old)] == [403]
    assert management.closed == [old]


def test_a_hidden_players_socket_follows_them_under_their_alias_and_no_one_can_take_it(
    table: DynamoTable, service: GameService, management: FakeManagementApi
) -> None:
    game, players = lobby(service, "ann", "ben", "Rude")
    rude = connect(game, players["Rude"])
    service.report(game, players["ann"], "Rude")
    service.report(game, players["ben"], "rude")  # any case names the player
    service.start(game, players["ann"])
    stream = Recorder(table, game)

    websocket_handler.push(stream_event([stream.snap()]))

    [body] = management.bodies(rude)
    assert body["you"] == "Player_3"
    assert [h["nickname"] for h in body["hands"]] == ["Player_3"]
    assert "Rude" not in json.dumps(body)
    assert management.closed == []


def test_the_alias_of_a_hidden_player_who_left_is_never_given_to_a_newcomer(
    table: DynamoTable, service: GameService, management: FakeManagementApi
) -> None:
    game, players = lobby(service, "ann", "ben", "Rude")
    old = connect(game, players["Rude"])
    service.report(game, players["ann"], "Rude")
    service.report(game, players["ben"], "Rude")
    service.leave(game, players["Rude"])
    for taken in ("Player_3", "player_3", "Rude"):
        with pytest.raises(Exception, match="taken"):
            service.join(game, taken)
    service.join(game, "eve")
    service.start(game, players["ann"])
    stream = Recorder(table, game)

    websocket_handler.push(stream_event([stream.snap()]))

    assert [m["statusCode"] for m in management.messages(old)] == [403]
    assert management.closed == [old]
