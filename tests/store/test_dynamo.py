"""What only the DynamoDB store promises: the item layout, TTL, transactions, counting."""

from __future__ import annotations

import json
import os
import time
from typing import Any

import pytest
from botocore.exceptions import ClientError

from app.store.base import Conflict, GameDoc, RoundSnapshot
from app.store.dynamo.keys import DUE_INDEX, PUBLIC_INDEX
from app.store.dynamo.store import DynamoStore, create_table
from tests.store.games import for_game, lobby_game, new_doc, next_doc, play_rounds, running_game
from tests.support.dynamo import DynamoTable, moto_dynamo_table, server_dynamo_table


def state_item(table: DynamoTable, doc: GameDoc) -> dict[str, Any]:
    item = table.item(f"GAME#{doc.game_uuid}", "STATE")
    assert item is not None
    return item


# ---------------------------------------------------------------------------- the items


def test_the_live_item_carries_the_document_and_its_indexed_copies(
    moto_table: DynamoTable,
) -> None:
    doc = new_doc(lobby_game("alice", "bob"), room=17, last_modified=1763700000.25)
    moto_table.store().create(doc)
    item = state_item(moto_table, doc)
    assert json.loads(item["doc"]["S"]) == doc.to_dict()
    assert item["version"] == {"N": "1"}
    assert item["game_uuid"] == {"S": doc.game_uuid}
    assert item["room"] == {"N": "17"}
    assert item["status"] == {"S": "Not started"}
    assert item["nicknames"] == {"L": [{"S": "alice"}, {"S": "bob"}]}
    assert float(item["last_modified"]["N"]) == 1763700000.25


def test_the_live_item_has_list_pk_only_while_listed(moto_table: DynamoTable) -> None:
    store = moto_table.store()
    listed = new_doc(lobby_game("alice"))
    store.create(listed)
    assert state_item(moto_table, listed)["list_pk"] == {"S": "PUBLIC"}

    private = next_doc(listed, lobby_game("alice", public=False))
    store.save(private, 1)
    assert "list_pk" not in state_item(moto_table, private)

    public = next_doc(private, lobby_game("alice", "bob"))
    store.save(public, 2)
    assert state_item(moto_table, public)["list_pk"] == {"S": "PUBLIC"}

    started = next_doc(public, running_game("alice", "bob"))
    store.save(started, 3)
    assert "list_pk" not in state_item(moto_table, started)


def test_the_state_and_every_round_carry_the_ttl_attribute(moto_table: DynamoTable) -> None:
    store = moto_table.store()
    game = running_game("alice", "bob", bets=0)
    doc = new_doc(game)
    store.create(doc)
    assert state_item(moto_table, doc)["expires_at"] == {"N": str(doc.expires_at)}
    saved = next_doc(doc, game, expires_at=doc.expires_at + 60)
    store.save(saved, 1, for_game(doc, play_rounds(game, 1)))
    assert state_item(moto_table, doc)["expires_at"] == {"N": str(saved.expires_at)}
    snapshot = moto_table.item(f"GAME#{doc.game_uuid}", "ROUND#0001")
    assert snapshot is not None
    assert snapshot["expires_at"] == {"N": str(saved.expires_at)}
    assert snapshot["round_number"] == {"N": "1"}
    ttl = moto_table.client.describe_time_to_live(TableName=moto_table.table_name)
    assert ttl["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED",
        "AttributeName": "expires_at",
    }


def test_a_game_without_expiry_has_no_ttl_attribute_and_never_expires(
    moto_table: DynamoTable,
) -> None:
    doc = new_doc(lobby_game("alice"), expires_at=0)
    store = moto_table.store()
    store.create(doc)
    assert "expires_at" not in state_item(moto_table, doc)
    assert store.load(doc.game_uuid) == doc


def test_an_expired_game_that_ttl_has_not_yet_deleted_loads_as_none(
    moto_table: DynamoTable,
) -> None:
    doc = new_doc(lobby_game("alice"), expires_at=int(time.time()) - 1)
    store = moto_table.store()
    store.create(doc)
    assert moto_table.item(f"GAME#{doc.game_uuid}", "STATE") is not None
    assert store.load(doc.game_uuid) is None


def test_round_sort_keys_are_zero_padded_so_they_sort_by_number(
    moto_table: DynamoTable,
) -> None:
    store = moto_table.store()
    game = running_game("alice", "bob", bets=0)
    doc = new_doc(game)
    store.create(doc)
    rounds = [RoundSnapshot(doc.game_uuid, n, {"n": n}) for n in (2, 10, 1)]
    store.save(next_doc(doc, game), 1, rounds)
    assert moto_table.keys() == [
        (f"GAME#{doc.game_uuid}", "ROUND#0001"),
        (f"GAME#{doc.game_uuid}", "ROUND#0002"),
        (f"GAME#{doc.game_uuid}", "ROUND#0010"),
        (f"GAME#{doc.game_uuid}", "STATE"),
    ]
    assert [r.round_number for r in store.load_rounds(doc.game_uuid)] == [1, 2, 10]


def test_load_rounds_follows_every_page(moto_table: DynamoTable) -> None:
    store = moto_table.store()
    store.query_page_size = 2
    game = running_game("alice", "bob", "carol", bets=0)
    doc = new_doc(game)
    store.create(doc)
    rounds = for_game(doc, play_rounds(game, 5))
    store.save(next_doc(doc, game), 1, rounds)
    store.reset_request_count()
    assert store.load_rounds(doc.game_uuid) == rounds
    assert store.requests["Query"] >= 3


def test_snapshots_of_another_game_or_out_of_range_numbers_are_refused(
    moto_table: DynamoTable,
) -> None:
    store = moto_table.store()
    doc = new_doc(running_game("alice", "bob"))
    store.create(doc)
    with pytest.raises(ValueError, match="belong"):
        store.save(next_doc(doc), 1, [RoundSnapshot("another-game", 1, {})])
    with pytest.raises(ValueError, match="round number"):
        store.save(next_doc(doc), 1, [RoundSnapshot(doc.game_uuid, 10_000, {})])
    assert store.load(doc.game_uuid) == doc
    assert store.load_round(doc.game_uuid, -1) is None


# ---------------------------------------------------------------------------- transactions


def test_a_stale_save_with_snapshots_is_one_cancelled_transaction_writing_nothing(
    moto_table: DynamoTable,
) -> None:
    store = moto_table.store()
    game = running_game("alice", "bob", bets=0)
    doc = new_doc(game)
    store.create(doc)
    store.save(next_doc(doc), 1)
    store.reset_request_count()
    with pytest.raises(Conflict):
        store.save(next_doc(doc, game), 1, for_game(doc, play_rounds(game, 3)))
    assert dict(store.requests) == {"TransactWriteItems": 1}
    assert moto_table.keys() == [(f"GAME#{doc.game_uuid}", "STATE")]


def test_a_save_that_rewrites_a_stored_round_writes_neither_state_nor_rounds(
    moto_table: DynamoTable,
) -> None:
    store = moto_table.store()
    game = running_game("alice", "bob", bets=0)
    doc = new_doc(game)
    store.create(doc)
    [first] = for_game(doc, play_rounds(game, 1))
    saved = next_doc(doc, game)
    store.save(saved, 1, [first])
    [second] = for_game(doc, play_rounds(game, 1))
    with pytest.raises(Conflict):
        store.save(next_doc(saved, game), 2, [second, RoundSnapshot(doc.game_uuid, 1, {})])
    assert store.load(doc.game_uuid) == saved
    assert store.load_rounds(doc.game_uuid) == [first]


# ---------------------------------------------------------------------------- counting


def test_the_request_counter_counts_one_request_per_operation(moto_table: DynamoTable) -> None:
    store = moto_table.store()
    game = running_game("alice", "bob", bets=0)
    doc = new_doc(game)
    steps: list[tuple[str, Any]] = [
        ("create", lambda: store.create(doc)),
        ("load", lambda: store.load(doc.game_uuid)),
        ("save", lambda: store.save(next_doc(doc), 1)),
        (
            "save with snapshots",
            lambda: store.save(
                next_doc(next_doc(doc), game), 2, for_game(doc, play_rounds(game, 2))
            ),
        ),
        ("load_round", lambda: store.load_round(doc.game_uuid, 1)),
        ("load_rounds", lambda: store.load_rounds(doc.game_uuid)),
        ("list_public", lambda: store.list_public(0, 10)),
        ("allocate_room", store.allocate_room),
    ]
    counted: dict[str, dict[str, int]] = {}
    for name, step in steps:
        store.reset_request_count()
        step()
        counted[name] = dict(store.requests)
        assert store.request_count == 1, name
    assert counted == {
        "create": {"PutItem": 1},
        "load": {"GetItem": 1},
        "save": {"PutItem": 1},
        "save with snapshots": {"TransactWriteItems": 1},
        "load_round": {"GetItem": 1},
        "load_rounds": {"Query": 1},
        "list_public": {"Query": 1},
        "allocate_room": {"UpdateItem": 1},
    }


def test_failed_requests_are_counted_too(moto_table: DynamoTable) -> None:
    store = moto_table.store()
    doc = new_doc(lobby_game("alice"))
    with pytest.raises(Conflict):
        store.save(next_doc(doc), 1)
    assert store.request_count == 1


# ---------------------------------------------------------------------------- the client


def test_a_store_makes_no_client_and_no_request_until_used(moto_table: DynamoTable) -> None:
    store = DynamoStore(moto_table.table_name, region_name="eu-west-1")

    def has_client() -> bool:
        return store._clients.made

    assert not has_client()
    assert store.request_count == 0
    assert store.load("nobody") is None
    assert has_client()
    store.close()
    assert not has_client()
    assert store.load("nobody") is None  # a closed store builds a new client when used


def test_a_client_passed_in_is_used_and_left_open(moto_table: DynamoTable) -> None:
    store = DynamoStore(moto_table.table_name, client=moto_table.client)
    doc = new_doc(lobby_game("alice"))
    store.create(doc)
    store.close()
    assert store.load(doc.game_uuid) == doc


# ---------------------------------------------------------------------------- the table


def test_create_table_is_idempotent_and_builds_the_fixed_schema(
    moto_table: DynamoTable,
) -> None:
    create_table(moto_table.client, moto_table.table_name)  # already made by the fixture
    create_table(moto_table.client, moto_table.table_name)
    table = moto_table.client.describe_table(TableName=moto_table.table_name)["Table"]
    assert table["KeySchema"] == [
        {"AttributeName": "pk", "KeyType": "HASH"},
        {"AttributeName": "sk", "KeyType": "RANGE"},
    ]
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    indexes = {index["IndexName"]: index for index in table["GlobalSecondaryIndexes"]}
    assert set(indexes) == {PUBLIC_INDEX, DUE_INDEX}
    assert indexes[PUBLIC_INDEX]["KeySchema"] == [
        {"AttributeName": "list_pk", "KeyType": "HASH"},
        {"AttributeName": "last_modified", "KeyType": "RANGE"},
    ]
    assert indexes[PUBLIC_INDEX]["Projection"] == {
        "ProjectionType": "INCLUDE",
        "NonKeyAttributes": ["game_uuid", "room", "nicknames"],
    }
    assert indexes[DUE_INDEX]["KeySchema"] == [
        {"AttributeName": "due_pk", "KeyType": "HASH"},
        {"AttributeName": "due_at", "KeyType": "RANGE"},
    ]
    assert indexes[DUE_INDEX]["Projection"] == {
        "ProjectionType": "INCLUDE",
        "NonKeyAttributes": ["game_uuid", "version"],
    }
    ttl = moto_table.client.describe_time_to_live(TableName=moto_table.table_name)
    assert ttl["TimeToLiveDescription"]["TimeToLiveStatus"] == "ENABLED"


def test_the_store_works_over_http_against_the_moto_server(server_table: DynamoTable) -> None:
    store = server_table.store()
    game = running_game("alice", "bob", bets=0)
    doc = new_doc(game)
    store.create(doc)
    rounds = for_game(doc, play_rounds(game, 2))
    store.save(next_doc(doc, game), 1, rounds)
    assert store.load_rounds(doc.game_uuid) == rounds
    assert store.request_count == 3
    store.close()


# ---------------------------------------------------------------------------- error mapping


class FakeClient:
    """Raises the given errors from writes, one per call, then succeeds."""

    def __init__(self, *errors: ClientError) -> None:
        self.errors = list(errors)
        self.calls: list[str] = []

    def _write(self, name: str) -> dict[str, Any]:
        self.calls.append(name)
        if self.errors:
            raise self.errors.pop(0)
        return {}

    def put_item(self, **_: Any) -> dict[str, Any]:
        return self._write("PutItem")

    def transact_write_items(self, **_: Any) -> dict[str, Any]:
        return self._write("TransactWriteItems")


def client_error(code: str, *reasons: str) -> ClientError:
    response: dict[str, Any] = {"Error": {"Code": code, "Message": code}}
    if reasons:
        response["CancellationReasons"] = [{"Code": r} for r in reasons]
    return ClientError(response, "Write")  # type: ignore[arg-type]


def saving(client: FakeClient, with_round: bool) -> None:
    doc = new_doc(running_game("alice", "bob"))
    rounds = [RoundSnapshot(doc.game_uuid, 1, {})] if with_round else []
    DynamoStore("games", client=client).save(next_doc(doc), 1, rounds)


@pytest.mark.parametrize(
    ("error", "with_round"),
    [
        (client_error("ConditionalCheckFailedException"), False),
        (client_error("TransactionCanceledException", "ConditionalCheckFailed", "None"), True),
        (client_error("TransactionCanceledException", "None", "ConditionalCheckFailed"), True),
    ],
)
def test_a_failed_condition_becomes_conflict(error: ClientError, with_round: bool) -> None:
    with pytest.raises(Conflict):
        saving(FakeClient(error), with_round)


def test_cancellation_reasons_are_also_read_from_the_message() -> None:
    error = ClientError(
        {
            "Error": {
                "Code": "TransactionCanceledException",
                "Message": "Transaction cancelled, please refer cancellation reasons for "
                "specific reasons [None, ConditionalCheckFailed]",
            }
        },
        "TransactWriteItems",
    )
    with pytest.raises(Conflict):
        saving(FakeClient(error), with_round=True)


@pytest.mark.parametrize(
    ("error", "with_round"),
    [
        (client_error("TransactionConflictException"), False),
        (client_error("TransactionCanceledException", "TransactionConflict", "None"), True),
    ],
)
def test_a_collision_with_a_transaction_in_flight_is_tried_again(
    error: ClientError, with_round: bool
) -> None:
    client = FakeClient(error)
    saving(client, with_round)
    assert len(client.calls) == 2


def test_a_collision_that_persists_becomes_conflict() -> None:
    client = FakeClient(*[client_error("TransactionConflictException")] * 3)
    with pytest.raises(Conflict):
        saving(client, with_round=False)
    assert len(client.calls) == 3


@pytest.mark.parametrize(
    ("error", "with_round"),
    [
        (client_error("ProvisionedThroughputExceededException"), False),
        (client_error("ValidationException"), False),
        (client_error("TransactionCanceledException", "ValidationError", "None"), True),
    ],
)
def test_other_errors_propagate(error: ClientError, with_round: bool) -> None:
    with pytest.raises(ClientError):
        saving(FakeClient(error), with_round)


# ---------------------------------------------------------------------------- the helpers


def test_the_moto_helpers_leave_the_environment_as_they_found_it(moto_endpoint: str) -> None:
    before = dict(os.environ)
    with moto_dynamo_table():
        assert os.environ["AWS_DEFAULT_REGION"] == "eu-west-1"
    assert dict(os.environ) == before
    with server_dynamo_table(moto_endpoint):
        assert os.environ["AWS_ACCESS_KEY_ID"] == "testing"
    assert dict(os.environ) == before
