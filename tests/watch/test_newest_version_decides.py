"""The pusher judges each watcher by the newest version of its game it knows (issue 28): a
seat present there gets its view, a seat absent there is closed with the reason, and an
older version in a batch (two joins close together, a pusher that lags behind the table, a
retried batch) never closes anyone.

Every write to the table goes through the stream as the stack declares it: every record,
through the pusher's event filter, in batches of the deployed size (tests/support/stream.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from app.config.settings import Settings
from app.entrypoints import websocket as websocket_handler
from app.service import GameService
from app.watch.connections import Connections
from tests.support.dynamo import REGION, DynamoTable, moto_dynamo_table
from tests.support.stream import TableStream
from tests.watch.events import (
    FakeManagementApi,
    connected,
    stream_event,
)

pytestmark = pytest.mark.usefixtures("runtime")


def connect(game_uuid: str, player_uuid: str) -> str:
    return connected({"game_uuid": game_uuid, "player_uuid": player_uuid})


def push(stream: TableStream, size: int | None = None) -> list[list[dict[str, Any]]]:
    """Push every record kept so far, in batches; the batches pushed."""
    pushed = list(stream.batches(size))
    for batch in pushed:
        websocket_handler.push(stream_event(batch))
    return pushed


def refusals(management: FakeManagementApi, connection: str) -> list[str]:
    return [m["body"]["code"] for m in management.messages(connection) if m["statusCode"] != 200]


def yous(management: FakeManagementApi, connection: str) -> set[str]:
    return {m["body"].get("you") for m in management.messages(connection) if m["statusCode"] == 200}


def test_joins_close_together_in_one_batch_close_nobody(
    table: DynamoTable, service: GameService, management: FakeManagementApi
) -> None:
    stream = TableStream(table)
    made = service.create_game(nickname="host")
    game = made["game_uuid"]
    stream.capture()
    sockets = {"host": connect(game, made["player_uuid"])}
    stream.capture()
    for name in ("bob", "cid", "dan"):
        secret = service.join(game, name)["player_uuid"]
        stream.capture()
        sockets[name] = connect(game, secret)
        stream.capture()

    [batch] = push(stream)

    assert len(batch) >= 8  # every version and every connection, in one deployed batch
    assert management.closed == []
    for name, socket in sockets.items():
        assert refusals(management, socket) == []
        assert management.bodies(socket)[-1]["you"] == name
        assert yous(management, socket) <= {name}


def test_a_batch_that_lags_behind_the_table_closes_nobody_who_joined_after_it(
    table: DynamoTable, service: GameService, management: FakeManagementApi
) -> None:
    stream = TableStream(table)
    made = service.create_game(nickname="host")
    game = made["game_uuid"]
    stream.capture()
    host = connect(game, made["player_uuid"])
    stream.capture()
    lagging = list(stream.batches())
    secret = service.join(game, "late")["player_uuid"]
    stream.capture()
    late = connect(game, secret)
    stream.capture()

    for batch in lagging:  # the table has moved on since these records
        websocket_handler.push(stream_event(batch))
    assert management.closed == [] and refusals(management, late) == []
    push(stream)
    for batch in lagging:  # and the old batch retried after the new ones
        websocket_handler.push(stream_event(batch))

    assert management.closed == []
    assert yous(management, late) == {"late"}
    seen = [[p["nickname"] for p in body["players"]] for body in management.bodies(host)]
    assert ["host", "late"] in seen


@pytest.mark.parametrize("how", ["leaves", "is removed", "moves"])
def test_a_seat_gone_from_the_newest_version_is_closed_with_its_reason_within_one_batch(
    table: DynamoTable, service: GameService, management: FakeManagementApi, how: str
) -> None:
    stream = TableStream(table)
    made = service.create_game(nickname="host")
    game, host = made["game_uuid"], made["player_uuid"]
    bob = service.join(game, "bob")["player_uuid"]
    stream.capture()
    old = connect(game, bob)
    watcher = connect(game, host)
    stream.capture()
    if how == "leaves":
        service.leave(game, bob)
    elif how == "is removed":
        service.remove_player(game, host, "bob")
    else:
        fresh = service.move_seat(game, bob)["player_uuid"]
        stream.capture()
        new = connect(game, fresh)
    stream.capture()
    if how != "moves":
        secret = service.join(game, "bob")["player_uuid"]
        stream.capture()
        taker = connect(game, secret)
        stream.capture()
    service.set_public(game, host, True)
    stream.capture()

    push(stream)

    assert management.closed == [old]
    assert refusals(management, old) == ["seat_moved" if how == "moves" else "unknown_player"]
    assert management.messages(old)[-1]["statusCode"] == 403
    assert refusals(management, watcher) == []
    survivor = new if how == "moves" else taker
    assert refusals(management, survivor) == []
    assert management.bodies(survivor)[-1]["you"] == "bob"


Step = tuple[str, int]

steps = st.lists(
    st.tuples(st.sampled_from(["join", "leave", "remove", "move", "connect"]), st.integers(0, 7)),
    min_size=3,
    max_size=14,
)


@pytest.mark.slow
# Generated only, not shrunk: each example is a fresh table on moto (a shrink takes minutes);
# a failure prints its draws, which are short enough to read.
@settings(max_examples=6, deadline=None, database=None, phases=[Phase.generate])
@given(script=steps, cuts=st.lists(st.integers(1, 25), min_size=1, max_size=6), data=st.data())
def test_whatever_the_batches_a_socket_is_closed_exactly_when_its_seat_is_gone(
    script: list[Step], cuts: list[int], data: st.DataObject
) -> None:
    with moto_dynamo_table() as table:
        store = table.store()
        service = GameService(
            store, Settings(store="dynamodb", table_name=table.table_name, aws_region=REGION)
        )
        management = FakeManagementApi()
        connections = Connections(table.client, table.table_name)
        websocket_handler.use(websocket_handler.Runtime(service, connections, management))
        try:
            _play(table, service, management, script, cuts, data)
        finally:
            websocket_handler.use(None)
            store.close()


def _play(
    table: DynamoTable,
    service: GameService,
    management: FakeManagementApi,
    script: list[Step],
    cuts: list[int],
    data: st.DataObject,
) -> None:
    stream = TableStream(table)
    made = service.create_game(nickname="host")
    game, host = made["game_uuid"], made["player_uuid"]
    stream.capture()
    seats: dict[str, str] = {}  # nickname -> current secret
    sockets: dict[str, tuple[str, str]] = {connect(game, host): ("host", host)}
    retired: set[str] = set()
    left: set[str] = set()
    counter = 0
    for action, pick in script:
        names = sorted(seats)
        chosen = names[pick % len(names)] if names else None
        if action == "join" and len(seats) < 6:
            counter += 1
            seats[f"p{counter}"] = service.join(game, f"p{counter}")["player_uuid"]
        elif action == "leave" and chosen is not None:
            service.leave(game, seats[chosen])
            left.add(seats.pop(chosen))
        elif action == "remove" and chosen is not None:
            service.remove_player(game, host, chosen)
            left.add(seats.pop(chosen))
        elif action == "move" and chosen is not None:
            retired.add(seats[chosen])
            seats[chosen] = service.move_seat(game, seats[chosen])["player_uuid"]
        elif action == "connect" and chosen is not None:
            sockets[connect(game, seats[chosen])] = (chosen, seats[chosen])
        stream.capture()
        if data.draw(st.booleans(), label="push now"):  # the pusher keeps up, or lags
            pushed = push(stream, cuts[counter % len(cuts)])
            if pushed and data.draw(st.booleans(), label="retry"):
                websocket_handler.push(stream_event(pushed[0]))
    push(stream, cuts[0])

    live = set(seats.values()) | {host}
    for socket, (name, secret) in sockets.items():
        closed = socket in management.closed
        assert closed == (secret not in live), (name, refusals(management, socket))
        assert yous(management, socket) <= {name}
        if closed:  # (a retried batch may say it again: a closed socket is gone on AWS)
            reason = "seat_moved" if secret in retired else "unknown_player"
            statuses = [m["statusCode"] for m in management.messages(socket)]
            assert set(refusals(management, socket)) == {reason}
            assert 200 not in statuses[statuses.index(403) :]
        else:
            assert refusals(management, socket) == []
