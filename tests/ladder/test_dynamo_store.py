"""What only the DynamoDB ladder store has: DynamoDB's ``TransactionConflict`` (another
transaction on one of the items in flight; moto never gives it), scripted here on a moto
table, and the keys that must sort as times do."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError
from hypothesis import given
from hypothesis import strategies as st

from app.ladder.dynamo.store import LadderDynamo
from app.ladder.store import QUEUED, Account, LadderConflict
from app.store.dynamo.ladder_keys import create_ladder_table, shard_of, time_key
from tests.support.dynamo import unique_table_name
from tests.support.ladder_dynamo import NoScanClient, moto_ladder_client


def conflict(reasons: list[str]) -> ClientError:
    return ClientError(
        {
            "Error": {"Code": "TransactionCanceledException", "Message": "cancelled"},
            "CancellationReasons": [{"Code": code} for code in reasons],
        },
        "TransactWriteItems",
    )


class Colliding(NoScanClient):
    """Answers the first ``collisions`` transactions with a TransactionConflict (nothing
    written), then lets them through; records each one's ClientRequestToken."""

    def __init__(self, client: Any, collisions: int) -> None:
        super().__init__(client)
        self.collisions = collisions
        self.tokens: list[str] = []

    def transact_write_items(self, **kwargs: Any) -> Any:
        self.tokens.append(kwargs["ClientRequestToken"])
        if self.collisions:
            self.collisions -= 1
            raise conflict(["None", "TransactionConflict"])
        return self._client.transact_write_items(**kwargs)


def store_on(client: Any) -> LadderDynamo:
    name = unique_table_name("blef-ladder")
    create_ladder_table(client._client, name)
    store = LadderDynamo(name, client=client)
    store.create_account(Account("a1", "Ania", "ania", "sha256:s", 1.0))
    return store


def test_a_join_that_collides_with_another_transaction_is_tried_again() -> None:
    with moto_ladder_client() as raw:
        client = Colliding(raw, collisions=0)
        store = store_on(client)
        client.collisions = 2

        store.enqueue("a1", "standard-2", "t1", 5.0, 25.0)

        joined = store.account("a1")
        assert joined is not None and joined.state == QUEUED
        assert len(client.tokens) == 4  # the account's creation, then three tries
        assert len(set(client.tokens[1:])) == 3  # each try a new transaction
        assert [w.account_id for w in store.waiting("standard-2")] == ["a1"]


def test_a_join_that_keeps_colliding_is_refused_with_nothing_written() -> None:
    with moto_ladder_client() as raw:
        client = Colliding(raw, collisions=0)
        store = store_on(client)
        client.collisions = 99

        with pytest.raises(LadderConflict):
            store.enqueue("a1", "standard-2", "t1", 5.0, 25.0)

        assert store.waiting("standard-2") == []
        idle = store.account("a1")
        assert idle is not None and idle.state == "idle"


def test_an_error_that_is_no_race_is_raised_as_it_is() -> None:
    class Broken(NoScanClient):
        def transact_write_items(self, **kwargs: Any) -> Any:
            raise ClientError(
                {"Error": {"Code": "ValidationException", "Message": "bad"}},
                "TransactWriteItems",
            )

    with moto_ladder_client() as raw:
        name = unique_table_name("blef-ladder")
        create_ladder_table(raw, name)
        store = LadderDynamo(name, client=Broken(raw))
        with pytest.raises(ClientError):
            store.create_account(Account("a1", "Ania", "ania", "sha256:s", 1.0))


@given(st.floats(0, 10**13, exclude_max=True), st.floats(0, 10**13, exclude_max=True))
def test_time_keys_sort_as_the_times_do(a: float, b: float) -> None:
    assert len(time_key(a)) == len(time_key(b)) == 20
    if time_key(a) != time_key(b):
        assert (time_key(a) < time_key(b)) == (a < b)
    else:
        assert abs(a - b) <= 1e-6 * max(1.0, a) or abs(a - b) < 2e-6


def test_a_time_outside_the_keys_range_is_refused() -> None:
    with pytest.raises(ValueError, match="outside"):
        time_key(-1.0)


def test_accounts_spread_over_the_board_shards() -> None:
    counts = [0] * 4
    for n in range(4000):
        counts[shard_of(f"account{n}", 4)] += 1
    assert min(counts) > 900
