"""The pusher: DynamoDB stream records (built from items really saved by the service on moto)
in, one ``{"statusCode": 200, "body": "<state>"}`` per watcher out, gone connections cleaned."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest

from app.entrypoints import websocket as websocket_handler
from app.service import GameService
from app.service.seats import seat_key
from app.service.watched import WatchedViews
from app.watch.connections import CONNECTION_TTL_SECONDS, Connections, Watcher
from app.watch.pusher import WELCOME_RETRY_SECONDS, Pusher
from tests.support.dynamo import DynamoTable
from tests.watch.conftest import Game
from tests.watch.events import (
    FakeManagementApi,
    connect_event,
    connected,
    new_connection_id,
    stream_event,
    stream_record,
)

pytestmark = pytest.mark.usefixtures("runtime")


def watch(game: Game, nickname: str | None) -> str:
    """Connect through ``$connect`` as a player (or an observer); returns the connection id."""
    headers = {"game_uuid": game.uuid}
    if nickname is not None:
        headers["player_uuid"] = game.players[nickname]
    return connected(headers)


def move(service: GameService, game: Game, action: int = 88) -> None:
    """The current player bets ``action`` (or checks)."""
    mover = service.state(game.uuid).body["cp_nickname"]
    service.play(game.uuid, game.players[mover], action)


def state_record(table: DynamoTable, game: Game, event_name: str = "MODIFY") -> dict[str, Any]:
    item = table.item(f"GAME#{game.uuid}", "STATE")
    assert item is not None
    return stream_record(item, event_name)


def watcher_record(table: DynamoTable, game: Game, connection: str) -> dict[str, Any]:
    item = table.item(f"GAME#{game.uuid}", f"CONN#{connection}")
    assert item is not None
    return stream_record(item, "INSERT")


def test_a_change_is_posted_to_each_watcher_as_its_own_state_in_the_ios_envelope(
    table: DynamoTable, service: GameService, game: Game, management: FakeManagementApi
) -> None:
    alice, bob, observer = watch(game, "alice"), watch(game, "bob"), watch(game, None)
    move(service, game, 7)

    report = websocket_handler.push(stream_event([state_record(table, game)]))

    assert report == {"games": 1, "sent": 3, "gone": 0, "failed": 0}
    expected = {
        alice: service.state(game.uuid, game.players["alice"]).body,
        bob: service.state(game.uuid, game.players["bob"]).body,
        observer: service.state(game.uuid).body,
    }
    for connection, body in expected.items():
        assert management.bodies(connection) == [body]
    assert [h["nickname"] for h in expected[alice]["hands"]] == ["alice"]
    assert [h["nickname"] for h in expected[bob]["hands"]] == ["bob"]
    assert expected[observer]["hands"] == []


def test_the_state_posted_is_the_records_not_whatever_the_table_holds_by_then(
    table: DynamoTable, service: GameService, game: Game, management: FakeManagementApi
) -> None:
    alice = watch(game, "alice")
    move(service, game, 3)
    record = state_record(table, game)
    sent_version = service.state(game.uuid).body["version"]
    move(service, game, 4)

    websocket_handler.push(stream_event([record]))

    assert [body["version"] for body in management.bodies(alice)] == [sent_version]


def test_several_changes_of_a_game_in_one_batch_are_each_posted_in_order_none_skipped(
    table: DynamoTable, service: GameService, game: Game, management: FakeManagementApi
) -> None:
    bob = watch(game, "bob")
    records, versions = [], []
    for action in (1, 2, 88):
        move(service, game, action)
        records.append(state_record(table, game))
        versions.append(service.state(game.uuid).body["version"])

    report = websocket_handler.push(stream_event(records))

    assert report["sent"] == 3
    assert [body["version"] for body in management.bodies(bob)] == versions
    assert management.bodies(bob)[-1] == service.state(game.uuid, game.players["bob"]).body


def test_a_new_watcher_is_sent_the_games_current_state_as_its_first_message(
    table: DynamoTable, service: GameService, game: Game, management: FakeManagementApi
) -> None:
    alice = watch(game, "alice")
    observer = watch(game, None)

    report = websocket_handler.push(
        stream_event([watcher_record(table, game, alice), watcher_record(table, game, observer)])
    )

    assert report == {"games": 0, "sent": 2, "gone": 0, "failed": 0}
    assert management.bodies(alice) == [service.state(game.uuid, game.players["alice"]).body]
    assert management.bodies(observer) == [service.state(game.uuid).body]


def test_a_new_watcher_served_by_a_change_in_the_same_batch_is_not_sent_it_twice(
    table: DynamoTable, service: GameService, game: Game, management: FakeManagementApi
) -> None:
    alice = watch(game, "alice")
    move(service, game, 9)

    websocket_handler.push(
        stream_event([watcher_record(table, game, alice), state_record(table, game)])
    )

    assert management.bodies(alice) == [service.state(game.uuid, game.players["alice"]).body]


def test_a_gone_connection_has_both_items_deleted_and_the_others_are_still_served(
    table: DynamoTable, service: GameService, game: Game, management: FakeManagementApi
) -> None:
    alice, bob = watch(game, "alice"), watch(game, "bob")
    management.gone[bob] = None
    move(service, game, 5)

    report = websocket_handler.push(stream_event([state_record(table, game)]))

    assert report == {"games": 1, "sent": 1, "gone": 1, "failed": 0}
    assert len(management.bodies(alice)) == 1
    assert table.item(f"GAME#{game.uuid}", f"CONN#{bob}") is None
    assert table.item(f"CONN#{bob}", "CONN") is None
    assert table.item(f"GAME#{game.uuid}", f"CONN#{alice}") is not None


def _pusher(
    runtime: websocket_handler.Runtime,
    management: FakeManagementApi,
    pauses: list[float],
    connections: Connections | None = None,
) -> Pusher:
    return Pusher(
        connections or runtime.connections,
        runtime.service.store,
        management,
        WatchedViews(),
        sleep=pauses.append,
    )


def test_a_new_watcher_answering_gone_at_first_is_tried_again_after_a_pause(
    runtime: websocket_handler.Runtime,
    table: DynamoTable,
    game: Game,
    management: FakeManagementApi,
) -> None:
    alice = watch(game, "alice")
    management.gone[alice] = 1  # its handshake has not quite finished
    pauses: list[float] = []

    report = _pusher(runtime, management, pauses).handle(
        stream_event([watcher_record(table, game, alice)])
    )

    assert (report.sent, report.gone) == (1, 0)
    assert pauses == [WELCOME_RETRY_SECONDS[0]]
    assert table.item(f"CONN#{alice}", "CONN") is not None


def test_a_new_watcher_gone_for_good_is_forgotten_after_its_retries(
    runtime: websocket_handler.Runtime,
    table: DynamoTable,
    game: Game,
    management: FakeManagementApi,
) -> None:
    alice = watch(game, "alice")
    management.gone[alice] = None
    pauses: list[float] = []

    report = _pusher(runtime, management, pauses).handle(
        stream_event([watcher_record(table, game, alice)])
    )

    assert (report.sent, report.gone) == (0, 1)
    assert pauses == list(WELCOME_RETRY_SECONDS)
    assert table.item(f"CONN#{alice}", "CONN") is None


def test_a_failure_other_than_gone_is_counted_and_the_connection_kept(
    table: DynamoTable, service: GameService, game: Game, management: FakeManagementApi
) -> None:
    alice = watch(game, "alice")
    management.broken.add(alice)
    move(service, game, 6)

    report = websocket_handler.push(stream_event([state_record(table, game)]))

    assert (report["sent"], report["failed"]) == (0, 1)
    assert table.item(f"CONN#{alice}", "CONN") is not None


def test_connection_items_past_their_expiry_are_not_posted_to(
    runtime: websocket_handler.Runtime,
    table: DynamoTable,
    service: GameService,
    game: Game,
    management: FakeManagementApi,
) -> None:
    watch(game, "alice")
    move(service, game, 2)
    later = Connections(
        table.client,
        table.table_name,
        clock=lambda: time.time() + CONNECTION_TTL_SECONDS + 60,
    )

    report = _pusher(runtime, management, [], later).handle(
        stream_event([state_record(table, game)])
    )

    assert report.sent == 0
    assert management.posts == []


def test_a_watcher_of_a_seat_no_player_holds_is_sent_no_state_and_is_closed(
    runtime: websocket_handler.Runtime,
    table: DynamoTable,
    service: GameService,
    game: Game,
    management: FakeManagementApi,
) -> None:
    stranger = new_connection_id()
    runtime.connections.add(stranger, game.uuid, seat_key(str(uuid.uuid4())))
    alice = watch(game, "alice")
    move(service, game, 8)

    report = websocket_handler.push(stream_event([state_record(table, game)]))

    assert report["sent"] == 2
    assert [m["body"]["code"] for m in management.messages(stranger)] == ["unknown_player"]
    assert management.closed == [stranger]
    assert table.item(f"GAME#{game.uuid}", f"CONN#{stranger}") is None
    assert len(management.bodies(alice)) == 1


def test_a_watcher_item_from_before_seat_keys_is_sent_only_what_an_observer_sees(
    table: DynamoTable, service: GameService, game: Game, management: FakeManagementApi
) -> None:
    old = new_connection_id()
    table.client.put_item(
        TableName=table.table_name,
        Item={
            "pk": {"S": f"GAME#{game.uuid}"},
            "sk": {"S": f"CONN#{old}"},
            "connection_id": {"S": old},
            "nickname": {"S": "alice"},
            "expires_at": {"N": str(int(time.time()) + 3600)},
        },
    )
    move(service, game, 8)

    websocket_handler.push(stream_event([state_record(table, game)]))

    [body] = management.bodies(old)
    assert body["hands"] == []
    assert "you" not in body


def test_records_of_anything_but_a_games_state_an_ended_round_or_a_new_watcher_are_ignored(
    table: DynamoTable, service: GameService, game: Game, management: FakeManagementApi
) -> None:
    alice = watch(game, "alice")
    public = new_connection_id()
    assert websocket_handler.connect(connect_event(public))["statusCode"] == 200
    public_item = table.item("PUBLIC#WATCHERS", f"CONN#{public}")
    move(service, game, 1)
    move(service, game, 88)  # a check: the round's snapshot is saved
    snapshot = table.item(f"GAME#{game.uuid}", "ROUND#0001")
    reverse = table.item(f"CONN#{alice}", "CONN")
    counter = table.item("COUNTER", "ROOM")
    assert snapshot is not None and reverse is not None and counter is not None
    assert public_item is not None
    records = [
        stream_record(snapshot, "MODIFY"),
        stream_record(snapshot, "REMOVE"),
        stream_record(public_item, "INSERT"),
        stream_record(reverse, "INSERT"),
        stream_record(counter, "MODIFY"),
        state_record(table, game, "REMOVE"),
        {**watcher_record(table, game, alice), "eventName": "MODIFY"},
    ]

    report = websocket_handler.push(stream_event(records))

    assert report == {"games": 0, "sent": 0, "gone": 0, "failed": 0}
    assert management.posts == []


def test_the_watcher_items_read_back_name_the_game_the_connection_and_the_viewer(
    runtime: websocket_handler.Runtime, game: Game
) -> None:
    alice, observer = watch(game, "alice"), watch(game, None)
    found = sorted(runtime.connections.watchers(game.uuid), key=lambda w: w.seat or "")
    assert found == sorted(
        [
            Watcher(game.uuid, alice, seat_key(game.players["alice"])),
            Watcher(game.uuid, observer, None),
        ],
        key=lambda w: w.seat or "",
    )
