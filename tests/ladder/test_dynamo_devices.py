"""What only the DynamoDB ladder store has for devices, passkeys, deletion and bots
(app/ladder/dynamo/, docs/ladder-dynamodb.md): no Scan in any of them, a deletion past one
transaction's 100 items, the races its conditions decide (a secret added while a deletion
reads, a settlement landing while an account becomes a bot; racing takes of one challenge are
in the devices contract, on every store),
and the challenges' expiry index and time to live."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.ladder.dynamo.store import LadderDynamo
from app.ladder.store import (
    DELETED_HANDLE,
    Account,
    Challenge,
    Change,
    LadderConflict,
    Passkey,
    Rating,
    Result,
    Seat,
    Table,
)
from app.store.dynamo.ladder_keys import challenge_key
from tests.support.ladder_dynamo import NoScanClient, ladder_table, moto_ladder_client

POOL = "standard-2"


def person(store: LadderDynamo, name: str) -> Account:
    made = Account(f"id-{name}", name, name.casefold(), f"sha256:{name}", 1.0)
    store.create_account(made)
    return made


def shared(store: LadderDynamo, table_id: str, a: Account, b: Account, at: float) -> None:
    """A two-player table of ``a`` and ``b``, both rated, settled at ``at``."""
    tickets = {}
    for who in (a, b):
        tickets[who.account_id] = f"t-{who.account_id}-{table_id}"
        store.enqueue(who.account_id, POOL, tickets[who.account_id], at - 2, 25.0)
    table = Table(table_id, POOL, (Seat(a.account_id, a.handle), Seat(b.account_id, b.handle)), at)
    store.claim(table, tickets)
    store.seat(replace(table, state="playing", game_uuid=f"g-{table_id}"))
    changes = []
    for place, who in enumerate((a, b), 1):
        before = store.rating(who.account_id, POOL) or Rating(who.account_id, POOL, 25.0, 8.0, 0)
        after = Rating(who.account_id, POOL, 25.0 + 2 - place, 7.0, before.games + 1)
        changes.append(Change(who.account_id, who.handle, place, before, after))
    store.settle(Result(table_id, f"g-{table_id}", POOL, at + 1, tuple(changes)))


def partition(store: LadderDynamo, pk: str) -> list[dict[str, Any]]:
    reply = store.client.query(
        TableName=store.table_name,
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": pk}},
        ConsistentRead=True,
    )
    items: list[dict[str, Any]] = reply["Items"]
    return items


def test_devices_passkeys_challenges_deletion_and_bots_never_scan() -> None:
    with moto_ladder_client() as client:
        store, guarded = ladder_table(client, board_shards=2)
        ania, bolek = person(store, "Ania"), person(store, "Bolek")
        store.add_secret(ania.account_id, "sha256:phone", 2.0)
        store.secret_count(ania.account_id)
        store.forget_secret("sha256:phone")
        store.put_challenge(Challenge("c1", "register", ania.account_id, 10.0))
        store.put_challenge(Challenge("c2", "login", None, 10.0))
        store.take_challenge("c1")
        store.purge_challenges(20.0)
        store.add_passkey(Passkey("cred", ania.account_id, b"k", 0, 3.0))
        store.passkey("cred")
        store.passkeys(ania.account_id)
        store.use_passkey("cred", 0, 1, 4.0)
        store.enqueue_filled(bolek.account_id, POOL, "t", 5.0, 25.0, 30.0)
        store.dequeue(bolek.account_id)
        shared(store, "t1", ania, bolek, 10.0)
        store.games_together(ania.account_id, bolek.account_id, 0.0)
        store.leaderboard_page(POOL, 1, 5)
        store.delete_account(ania.account_id)
        person(store, "Cela")
        store.make_bot("id-Cela")

        assert set(guarded.calls) <= {
            "get_item",
            "batch_get_item",
            "query",
            "transact_write_items",
            "put_item",
            "update_item",
            "delete_item",
        }


def test_a_deletion_past_one_transaction_renames_every_shared_game_and_leaves_nothing() -> None:
    """40 shared games: 3 items each (the own pointer, the result, the table) beside the
    account, its handle, rating and secret: 125 items, past a transaction's 100. The first
    100 are one transaction (the account first); the rest follow one by one."""
    with moto_ladder_client() as client:
        store, guarded = ladder_table(client)
        ania, bolek = person(store, "Ania"), person(store, "Bolek")
        for n in range(40):
            shared(store, f"t{n:02d}", ania, bolek, 100.0 + 10 * n)
        guarded.calls.clear()

        store.delete_account(ania.account_id)

        assert guarded.calls["transact_write_items"] == 1
        assert guarded.calls["update_item"] + guarded.calls["delete_item"] == 25
        assert partition(store, f"ACCT#{ania.account_id}") == []
        assert partition(store, "HANDLE#ania") == []
        assert partition(store, f"SECRET#{ania.secret_hash}") == []
        games = store.history(bolek.account_id, 100)
        assert len(games) == 40
        for result in games:
            assert [c.handle for c in result.changes] == [DELETED_HANDLE, "Bolek"]
            table = store.table(result.table_id)
            assert table is not None
            assert [s.handle for s in table.seats] == [DELETED_HANDLE, "Bolek"]
        assert store.results(POOL) == games[::-1]
        assert [a.handle for a, _ in store.leaderboard(POOL, 10)] == ["Bolek"]


class SecretAddedMidway(NoScanClient):
    """Adds a secret to the account (as another device would) just before the first
    transaction that deletes it, once."""

    def __init__(self, client: Any) -> None:
        super().__init__(client)
        self.store: LadderDynamo | None = None
        self.armed = True

    def transact_write_items(self, **kwargs: Any) -> Any:
        deletes = [a for a in kwargs["TransactItems"] if "Delete" in a]
        if self.armed and deletes and deletes[0]["Delete"]["Key"]["sk"] == {"S": "A"}:
            self.armed = False
            assert self.store is not None
            self.store.add_secret("id-Ania", "sha256:late", 9.0)
        return self._client.transact_write_items(**kwargs)


def test_a_secret_added_while_the_deletion_reads_is_deleted_too() -> None:
    with moto_ladder_client() as raw:
        store, _ = ladder_table(raw)
        person(store, "Ania")
        racing = SecretAddedMidway(raw)
        store_racing = LadderDynamo(store.table_name, client=racing)
        racing.store = store

        store_racing.delete_account("id-Ania")

        assert not racing.armed, "the secret was added between the reads and the write"
        assert store.account_by_secret("sha256:late") is None
        assert partition(store, "SECRET#sha256:late") == []
        assert partition(store, "ACCT#id-Ania") == []


class SettledMidway(NoScanClient):
    """Settles a one-seat table of the account just before its make_bot's write."""

    def __init__(self, client: Any, store: LadderDynamo) -> None:
        super().__init__(client)
        self.store = store

    def update_item(self, **kwargs: Any) -> Any:
        if "#bot" in kwargs.get("UpdateExpression", ""):
            ania = "id-Ania"
            self.store.enqueue(ania, POOL, "t", 1.0, 25.0)
            table = Table("tb", POOL, (Seat(ania, "Ania"),), 2.0)
            self.store.claim(table, {ania: "t"})
            self.store.seat(replace(table, state="playing", game_uuid="g"))
            self.store.settle(Result("tb", "g", POOL, 3.0))
        return self._client.update_item(**kwargs)


def test_a_game_settled_while_an_account_becomes_a_bot_refuses_the_bot() -> None:
    with moto_ladder_client() as raw:
        store, _ = ladder_table(raw)
        person(store, "Ania")
        racing = LadderDynamo(store.table_name, client=SettledMidway(raw, store))

        with pytest.raises(LadderConflict):
            racing.make_bot("id-Ania")

        stored = store.account("id-Ania")
        assert stored is not None and not stored.bot


def test_a_challenge_expires_by_the_tables_ttl_and_is_purged_from_the_expiry_index() -> None:
    with moto_ladder_client() as raw:
        store, _ = ladder_table(raw)
        ania = person(store, "Ania")
        ttl = raw.describe_time_to_live(TableName=store.table_name)["TimeToLiveDescription"]
        assert (ttl["TimeToLiveStatus"], ttl["AttributeName"]) == ("ENABLED", "expires")
        store.put_challenge(Challenge("old", "register", ania.account_id, 100.25))
        store.put_challenge(Challenge("new", "register", ania.account_id, 300.0))
        item = store.client.get_item(TableName=store.table_name, Key=challenge_key("old"))
        assert item["Item"]["expires"] == {"N": "101"}, "whole seconds, not before expiry"
        with pytest.raises(LadderConflict):
            store.put_challenge(Challenge("old", "login", None, 500.0))

        assert store.purge_challenges(200.0) == 1
        assert store.purge_challenges(200.0) == 0
        listed = [i["sk"]["S"] for i in partition(store, f"ACCT#{ania.account_id}")]
        assert [sk for sk in listed if sk.startswith("C#")] == ["C#new"]
        assert store.take_challenge("new") == Challenge("new", "register", ania.account_id, 300.0)
        listed = [i["sk"]["S"] for i in partition(store, f"ACCT#{ania.account_id}")]
        assert [sk for sk in listed if sk.startswith("C#")] == []
