"""What every section of the ladder's DynamoDB store shares: the table, its client (built on
first use), the reads (GetItem, BatchGetItem, Query through app/store/dynamo/paging.py), one
transaction with its retries, and conditional actions."""

from __future__ import annotations

import re
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final

from botocore.exceptions import ClientError

from app.cloud import clients as aws
from app.ladder.dynamo.items import Item, account_of, table_of, typed
from app.ladder.store import Account, Table
from app.store.dynamo.ladder_keys import BOARD_SHARDS, account_key, create_ladder_table, table_key
from app.store.dynamo.paging import get_many, query_all, query_count
from app.store.dynamo.wire import collided, lost_race

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

FORMING: Final = "forming"
PLAYING: Final = "playing"
SETTLED: Final = "settled"
MAX_TRANSACTION_ITEMS: Final = 100
COLLISION_ATTEMPTS: Final = 4
"""How often a transaction that collided with another in flight is tried in all."""

NEW: Final = "attribute_not_exists(pk)"
MINE: Final = "attribute_not_exists(pk) OR #account_id = :me"
"""An owned item's delete: gone already, or still this account's (so a delete is safe to
repeat, and never takes an item someone else has come to own)."""


class Lost(Exception):
    """A transaction's condition did not hold (nothing was written)."""


class DynamoBase:
    """The ladder store's table and plumbing (see the module docstring). ``client``: any
    boto3 DynamoDB client (then neither built nor closed here); otherwise one is built on
    first use from ``endpoint_url`` and ``region_name``. One store serves every thread."""

    def __init__(
        self,
        table_name: str,
        *,
        endpoint_url: str | None = None,
        region_name: str | None = None,
        client: Any | None = None,
        board_shards: int = BOARD_SHARDS,
    ) -> None:
        if board_shards < 1:
            raise ValueError("a board needs at least one shard")
        self.table_name = table_name
        self.endpoint_url = endpoint_url
        self.region_name = region_name
        self.board_shards = board_shards
        self._clients = aws.LazyClient(
            "dynamodb", given=client, endpoint_url=endpoint_url, region_name=region_name
        )
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ plumbing

    @property
    def client(self) -> DynamoDBClient:
        """The boto3 client, built on first use."""
        made: DynamoDBClient = self._clients.get()
        return made

    def create_table(self) -> None:
        create_ladder_table(self.client, self.table_name)

    def close(self) -> None:
        """Close the client this store built (a client passed in is the caller's to close)."""
        self._clients.close()

    def _get(self, item_key: Item, *, consistent: bool = True) -> Item | None:
        reply = self.client.get_item(
            TableName=self.table_name, Key=item_key, ConsistentRead=consistent
        )
        item: Item | None = reply.get("Item")
        return item

    def _get_many(self, keys: Sequence[Item], *, consistent: bool = True) -> list[Item]:
        """The items at ``keys`` that exist (BatchGetItem, 100 keys a call, the unprocessed
        keys asked again), in no particular order."""
        return get_many(self.client, self.table_name, keys, consistent=consistent)

    def _query(self, **query: Any) -> Iterator[Item]:
        """Every item of a Query, page after page."""
        return query_all(self.client, TableName=self.table_name, **query)

    def _count(self, **query: Any) -> int:
        """How many items a Query matches (``Select = COUNT``, every page)."""
        return query_count(self.client, TableName=self.table_name, **query)

    def _transact(self, items: list[Any]) -> None:
        """One TransactWriteItems: :class:`Lost` if a condition failed (nothing written);
        tried again while it collides with another transaction in flight (which then
        decides the race)."""
        if len(items) > MAX_TRANSACTION_ITEMS:
            raise ValueError(f"a transaction holds at most {MAX_TRANSACTION_ITEMS} items")
        token = uuid.uuid4().hex  # the SDK's retries of one call are one transaction
        for attempt in range(1, COLLISION_ATTEMPTS + 1):
            try:
                self.client.transact_write_items(TransactItems=items, ClientRequestToken=token)
                return
            except ClientError as err:
                if lost_race(err):
                    raise Lost from None
                if not collided(err) or attempt == COLLISION_ATTEMPTS:
                    if collided(err):
                        raise Lost from None
                    raise
                time.sleep(0.005 * 2**attempt)
                token = uuid.uuid4().hex  # a new attempt is a new transaction

    def _alone(self, action: Any) -> bool:
        """One transaction action done on its own (PutItem, UpdateItem or DeleteItem, its
        condition kept): False if the condition did not hold."""
        (kind, request), *_ = action.items()
        try:
            if kind == "Put":
                self.client.put_item(**request)
            elif kind == "Update":
                self.client.update_item(**request)
            else:
                self.client.delete_item(**request)
        except ClientError as err:
            if lost_race(err):
                return False
            raise
        return True

    def _put(self, item: Item, condition: str | None = None, **values: Any) -> Any:
        put: Item = {"TableName": self.table_name, "Item": item}
        return {"Put": self._conditioned(put, condition, values)}

    def _update(
        self, item_key: Item, expression: str, condition: str | None = None, **values: Any
    ) -> Any:
        update: Item = {
            "TableName": self.table_name,
            "Key": item_key,
            "UpdateExpression": expression,
        }
        return {"Update": self._conditioned(update, condition, values)}

    def _delete(self, item_key: Item, condition: str | None = None, **values: Any) -> Any:
        delete: Item = {"TableName": self.table_name, "Key": item_key}
        return {"Delete": self._conditioned(delete, condition, values)}

    @staticmethod
    def _conditioned(action: Item, condition: str | None, values: dict[str, Any]) -> Item:
        """``values``: ``name=value`` becomes ``:name`` (a str or a number); ``#name`` in the
        expressions is the attribute ``name`` (DynamoDB reserves many words: state, pool...)."""
        if condition is not None:
            action["ConditionExpression"] = condition
        given = {f":{name}": typed(value) for name, value in values.items()}
        if given:
            action["ExpressionAttributeValues"] = given
        text = f"{action.get('UpdateExpression', '')} {condition or ''}"
        names = {f"#{name}": name for name in re.findall(r"#(\w+)", text)}
        if names:
            action["ExpressionAttributeNames"] = names
        return action

    # ------------------------------------------------------------------ reads every section makes

    def account(self, account_id: str) -> Account | None:
        item = self._get(account_key(account_id))
        return None if item is None else account_of(item)

    def table(self, table_id: str) -> Table | None:
        item = self._get(table_key(table_id))
        return None if item is None else table_of(item)

    def _keyring_up(self, account_id: str) -> Any:
        return self._update(
            account_key(account_id), "ADD #keyring :one", "attribute_exists(pk)", one=1
        )
