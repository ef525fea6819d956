"""The AWS pusher sends every version and every ended round, in order, and tells public-games
watchers of listed games only: stream records are built from items the service really saved
on moto, with the item before each change as the old image (``NEW_AND_OLD_IMAGES``)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.entrypoints import websocket as websocket_handler
from app.service import GameService
from app.service.watched import WatchedViews
from app.watch.connections import Connections
from app.watch.pusher import Pusher
from tests.support.dynamo import DynamoTable
from tests.watch.conftest import Game
from tests.watch.events import (
    FakeManagementApi,
    connected,
    disconnect_event,
    stream_event,
    stream_record,
)

pytestmark = pytest.mark.usefixtures("runtime")

PUBLIC_KEYS = {"game_uuid", "room", "public", "last_modified", "players"}


class Recorder:
    """Turns each write the service makes to one game into the stream records AWS sends."""

    def __init__(self, table: DynamoTable, game_uuid: str) -> None:
        self.table = table
        self.pk = f"GAME#{game_uuid}"
        self.state = table.item(self.pk, "STATE")

    def after(self) -> list[dict[str, Any]]:
        """The records of the write just made: its ended round (if any), then its state."""
        records: list[dict[str, Any]] = []
        new = self.table.item(self.pk, "STATE")
        assert new is not None
        round_number = int(json.loads(new["doc"]["S"])["state"]["round_number"])
        for number in range(1, round_number + 1):
            sk = f"ROUND#{number:04d}"
            item = self.table.item(self.pk, sk)
            if item is not None and not getattr(self, "_seen_" + sk, False):
                setattr(self, "_seen_" + sk, True)
                records.append(stream_record(item, "INSERT"))
        event = "MODIFY" if self.state is not None else "INSERT"
        records.append(stream_record(new, event, old=self.state))
        self.state = new
        return records


def watch(game: Game, nickname: str | None) -> str:
    headers = {"game_uuid": game.uuid}
    if nickname is not None:
        headers["player_uuid"] = game.players[nickname]
    return connected(headers)


def watch_public(headers: dict[str, str] | None = None) -> str:
    """Open a websocket as the iOS start and join screens do: no headers at all."""
    return connected(headers)


def move(service: GameService, game: Game, action: int) -> None:
    mover = service.state(game.uuid).body["cp_nickname"]
    service.play(game.uuid, game.players[mover], action)


def a_bet_then_a_check(
    table: DynamoTable, service: GameService, game: Game
) -> list[dict[str, Any]]:
    """The records of one bet (a new version of round 1) and of the check that ends round 1
    (round 1's snapshot and the first state of round 2)."""
    recorder = Recorder(table, game.uuid)
    move(service, game, 3)
    records = recorder.after()
    move(service, game, 88)  # check
    return records + recorder.after()


def test_a_check_reaches_every_watcher_as_the_bet_then_the_ended_round_then_the_next_round(
    table: DynamoTable, service: GameService, game: Game, management: FakeManagementApi
) -> None:
    alice, bob, observer = watch(game, "alice"), watch(game, "bob"), watch(game, None)
    records = a_bet_then_a_check(table, service, game)
    assert [r["dynamodb"]["Keys"]["sk"]["S"] for r in records] == ["STATE", "ROUND#0001", "STATE"]

    websocket_handler.push(stream_event(records))

    for connection, nickname in ((alice, "alice"), (bob, "bob"), (observer, None)):
        bet, ended, next_round = management.bodies(connection)
        assert (bet["round_number"], ended["round_number"], next_round["round_number"]) == (1, 1, 2)
        assert bet["version"] < next_round["version"]
        # the ended round shows everyone's cards and the 89 event with the loser
        assert ended["history"][-1]["action_id"] == 89
        assert ended["loser"] in ("alice", "bob")
        assert sorted(h["nickname"] for h in ended["hands"]) == ["alice", "bob"]
        # iOS orders by last_modified: the round sits between the two states
        assert bet["last_modified"] < ended["last_modified"] < next_round["last_modified"]
        # the live states show each viewer their own cards only
        for live in (bet, next_round):
            assert [h["nickname"] for h in live["hands"]] == ([nickname] if nickname else [])


def test_records_out_of_order_in_a_batch_are_still_delivered_in_version_order(
    table: DynamoTable, service: GameService, game: Game, management: FakeManagementApi
) -> None:
    alice = watch(game, "alice")
    records = a_bet_then_a_check(table, service, game)
    recorder = Recorder(table, game.uuid)
    move(service, game, 5)
    records += recorder.after()
    versions = sorted(
        int(r["dynamodb"]["NewImage"]["version"]["N"])
        for r in records
        if r["dynamodb"]["Keys"]["sk"]["S"] == "STATE"
    )
    for seed in range(5):
        management.posts.clear()
        shuffled = list(records)
        random.Random(seed).shuffle(shuffled)
        websocket_handler.push(stream_event(shuffled))
        bodies = management.bodies(alice)
        assert [b.get("loser") is not None for b in bodies] == [False, True, False, False]
        assert [b["version"] for b in bodies if b.get("loser") is None] == versions
        stamps = [b["last_modified"] for b in bodies]
        assert stamps == sorted(stamps)


def test_a_record_repeated_by_a_retry_is_sent_once(
    table: DynamoTable, service: GameService, game: Game, management: FakeManagementApi
) -> None:
    bob = watch(game, "bob")
    records = a_bet_then_a_check(table, service, game)
    websocket_handler.push(stream_event(records + records))
    assert len(management.bodies(bob)) == 3


def test_the_ended_round_alone_in_a_batch_is_still_sent_with_its_hands(
    table: DynamoTable, service: GameService, game: Game, management: FakeManagementApi
) -> None:
    alice = watch(game, "alice")
    records = a_bet_then_a_check(table, service, game)
    websocket_handler.push(stream_event([records[1]]))
    (ended,) = management.bodies(alice)
    assert sorted(h["nickname"] for h in ended["hands"]) == ["alice", "bob"]
    assert ended["history"][-1]["action_id"] == 89


@pytest.fixture
def lobby(service: GameService) -> Game:
    """A game not started: carol (its admin) and dave."""
    game_uuid = service.create_game()["game_uuid"]
    players = {name: service.join(game_uuid, name)["player_uuid"] for name in ("carol", "dave")}
    return Game(game_uuid, players)


def test_a_websocket_with_no_headers_is_accepted_as_a_public_games_watcher_and_forgotten(
    table: DynamoTable,
) -> None:
    connection = watch_public()
    item = table.item("PUBLIC#WATCHERS", f"CONN#{connection}")
    assert item is not None
    assert "nickname" not in item
    assert "seat" not in item
    assert "game_uuid" not in item
    assert table.item(f"CONN#{connection}", "CONN") is not None

    websocket_handler.disconnect(disconnect_event(connection))
    assert table.item("PUBLIC#WATCHERS", f"CONN#{connection}") is None
    assert table.item(f"CONN#{connection}", "CONN") is None


def test_a_game_made_public_then_private_reaches_public_watchers_twice(
    table: DynamoTable, service: GameService, lobby: Game, management: FakeManagementApi
) -> None:
    watchers = [watch_public() for _ in range(3)]
    recorder = Recorder(table, lobby.uuid)
    service.set_public(lobby.uuid, lobby.players["carol"], True)
    records = recorder.after()
    service.set_public(lobby.uuid, lobby.players["carol"], False)
    records += recorder.after()
    service.join(lobby.uuid, "erin")  # private until now and after: nothing to tell
    records += recorder.after()

    websocket_handler.push(stream_event(records))

    for connection in watchers:
        made_public, made_private = management.bodies(connection)
        assert set(made_public) == set(made_private) == PUBLIC_KEYS
        assert (made_public["public"], made_private["public"]) == ("true", "false")
        assert made_public["game_uuid"] == lobby.uuid
        assert made_public["players"] == ["carol", "dave"]
        assert made_public["last_modified"] < made_private["last_modified"]


def test_a_public_games_watcher_is_never_sent_a_games_state_or_anyones_hand(
    table: DynamoTable,
    service: GameService,
    game: Game,
    lobby: Game,
    management: FakeManagementApi,
) -> None:
    public = watch_public()
    in_lobby = Recorder(table, lobby.uuid)
    service.set_public(lobby.uuid, lobby.players["carol"], True)
    records = in_lobby.after()
    service.start(lobby.uuid, lobby.players["carol"])  # leaves the list: told, "false"
    records += in_lobby.after()
    move(service, lobby, 4)  # running, unlisted: nothing
    records += in_lobby.after()
    records += a_bet_then_a_check(table, service, game)  # a private game: nothing

    websocket_handler.push(stream_event(records))

    bodies = management.bodies(public)
    assert [b["public"] for b in bodies] == ["true", "false"]
    for body in bodies:
        assert set(body) == PUBLIC_KEYS
        assert body["game_uuid"] == lobby.uuid
    raw = b"".join(data for target, data in management.posts if target == public).decode()
    for secret in (*lobby.players.values(), *game.players.values()):
        assert secret not in raw
    assert "hands" not in raw


@pytest.mark.parametrize(
    "headers",
    [
        None,
        {"player_uuid": "{alice}"},
        {"game_uuid": ""},
        {"Game_UUID": "", "Player_UUID": "{bob}"},
    ],
    ids=["no headers", "a stolen player uuid alone", "an empty game", "empty game, a player"],
)
def test_an_attacker_opening_a_websocket_without_a_game_learns_only_public_games(
    table: DynamoTable,
    service: GameService,
    game: Game,
    lobby: Game,
    management: FakeManagementApi,
    headers: dict[str, str] | None,
) -> None:
    filled = {
        k: v.format(alice=game.players["alice"], bob=game.players["bob"])
        for k, v in (headers or {}).items()
    }
    attacker = watch_public(filled)
    assert table.item("PUBLIC#WATCHERS", f"CONN#{attacker}") is not None
    records = a_bet_then_a_check(table, service, game)
    recorder = Recorder(table, lobby.uuid)
    service.set_public(lobby.uuid, lobby.players["carol"], True)
    records += recorder.after()

    websocket_handler.push(stream_event(records))

    (told,) = management.bodies(attacker)
    assert told["game_uuid"] == lobby.uuid
    assert set(told) == PUBLIC_KEYS


def test_a_public_games_watcher_gone_is_forgotten_and_the_others_still_told(
    table: DynamoTable, service: GameService, lobby: Game, management: FakeManagementApi
) -> None:
    gone, staying = watch_public(), watch_public()
    management.gone[gone] = None
    recorder = Recorder(table, lobby.uuid)
    service.set_public(lobby.uuid, lobby.players["carol"], True)
    service_records = recorder.after()

    websocket_handler.push(stream_event(service_records))

    assert len(management.bodies(staying)) == 1
    assert table.item("PUBLIC#WATCHERS", f"CONN#{gone}") is None
    assert table.item(f"CONN#{gone}", "CONN") is None


class OneItemPages:
    """A DynamoDB client whose Queries answer one item a page, as a large partition does."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.pages = 0

    def query(self, **kwargs: Any) -> Any:
        self.pages += 1
        return self._client.query(**kwargs, Limit=1)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)


def test_every_page_of_public_games_watchers_is_told(
    table: DynamoTable, service: GameService, lobby: Game, management: FakeManagementApi
) -> None:
    watchers = {watch_public() for _ in range(5)}
    paged = OneItemPages(table.client)
    pusher = Pusher(Connections(paged, table.table_name), service.store, management, WatchedViews())
    recorder = Recorder(table, lobby.uuid)
    service.set_public(lobby.uuid, lobby.players["carol"], True)

    pusher.handle(stream_event(recorder.after()))

    assert paged.pages > len(watchers)
    assert {target for target, _ in management.posts} == watchers
