"""The ladder on DynamoDB: its own table (``BLEF_LADDER_TABLE_NAME``), every change one
conditional write or one ``TransactWriteItems`` with a condition on each account item, and
every read a GetItem, a BatchGetItem or a Query on a key: nothing scans.
docs/ladder-dynamodb.md describes the design, its costs and how it scales.

=========================  =====================  ==========================================
item                       ``pk``                 ``sk``
=========================  =====================  ==========================================
an account                 ``ACCT#<id>``          ``A``
its rating in a pool       ``ACCT#<id>``          ``R#<pool>`` (GSI ``ladder-board``)
one of its rated games     ``ACCT#<id>``          ``G#<settled_at>#<table id>``
a handle's owner           ``HANDLE#<key>``       ``H``
a secret's account         ``SECRET#<hash>``      ``S`` (one item per secret)
a place in a pool's queue  ``QUEUE#<pool>``       ``<account id>``
a table                    ``TABLE#<id>``         ``T`` (GSI ``ladder-open`` while open)
a table's game             ``RATED#<game uuid>``  ``G`` (the table's id)
a settled result           ``RESULTS#<pool>``     ``<settled_at>#<table id>``
the matcher's next look    ``MATCHER``            ``LOOK`` (the AWS clock's lease)
=========================  =====================  ==========================================

``<settled_at>`` is fixed-width (:func:`time_key`), so those keys sort by time. Two sparse
global secondary indexes:

- ``ladder-board``: partition ``board_pk = BOARD#<pool>#<shard>`` (the account's shard,
  :func:`shard_of`), sort ``ordinal`` (a number: mu - 3 sigma); projects what a board row
  shows. A page is the top of each shard merged; a rank is a COUNT Query per shard.
- ``ladder-open``: partition ``open_pk = OPEN``, sort ``formed_at``; keys only. A table is
  in it from its claim until its settlement (the sweep's list of open tables).

Nothing is done at import or construction: the boto3 client is built on first use.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from botocore.exceptions import ClientError

from app.config import aws
from app.config.dynamo import collided, error_code, lost_race, number
from app.ladder.store import (
    IDLE,
    QUEUED,
    SEATED,
    Account,
    Change,
    LadderConflict,
    Rating,
    Result,
    Seat,
    Table,
    Waiting,
)

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

Item = dict[str, Any]

BOARD_INDEX: Final = "ladder-board"
OPEN_INDEX: Final = "ladder-open"
BOARD_SHARDS: Final = 4
"""Partitions of each pool's board in ``ladder-board`` (docs/ladder-dynamodb.md: why 4)."""
OPEN: Final = "OPEN"
FORMING: Final = "forming"
PLAYING: Final = "playing"
SETTLED: Final = "settled"
MAX_TRANSACTION_ITEMS: Final = 100
COLLISION_ATTEMPTS: Final = 4
"""How often a transaction that collided with another in flight is tried in all."""
BATCH_GET: Final = 100
"""BatchGetItem takes at most 100 keys."""

_NEW: Final = "attribute_not_exists(pk)"


# ---------------------------------------------------------------------- keys


def key(pk: str, sk: str) -> Item:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def account_key(account_id: str) -> Item:
    return key(f"ACCT#{account_id}", "A")


def rating_key(account_id: str, pool: str) -> Item:
    return key(f"ACCT#{account_id}", f"R#{pool}")


def game_entry_key(account_id: str, settled_at: float, table_id: str) -> Item:
    return key(f"ACCT#{account_id}", f"G#{time_key(settled_at)}#{table_id}")


def handle_key_item(handle_key: str) -> Item:
    return key(f"HANDLE#{handle_key}", "H")


def secret_key(secret_hash: str) -> Item:
    return key(f"SECRET#{secret_hash}", "S")


def queue_pk(pool: str) -> str:
    return f"QUEUE#{pool}"


def queue_key(pool: str, account_id: str) -> Item:
    return key(queue_pk(pool), account_id)


def table_key(table_id: str) -> Item:
    return key(f"TABLE#{table_id}", "T")


def game_key(game_uuid: str) -> Item:
    return key(f"RATED#{game_uuid}", "G")


def results_pk(pool: str) -> str:
    return f"RESULTS#{pool}"


def result_key(pool: str, settled_at: float, table_id: str) -> Item:
    return key(results_pk(pool), f"{time_key(settled_at)}#{table_id}")


LOOK_KEY: Final = key("MATCHER", "LOOK")


def time_key(at: float) -> str:
    """A time as a fixed-width string (to the microsecond) that sorts as the time does, for
    times 0 .. 10^13 seconds.

    >>> time_key(1700000000.5), time_key(5.25) < time_key(10.0)
    ('0001700000000.500000', True)
    """
    if not 0 <= at < 10**13:
        raise ValueError(f"time {at!r} is outside what a key holds")
    return f"{at:020.6f}"


def shard_of(account_id: str, shards: int) -> int:
    """The board shard of an account: stable, spread evenly by a hash of its id.

    >>> shard_of("a", 4) == shard_of("a", 4), 0 <= shard_of("b", 4) < 4
    (True, True)
    """
    return int.from_bytes(hashlib.sha256(account_id.encode()).digest()[:4], "big") % shards


def board_pk(pool: str, shard: int) -> str:
    return f"BOARD#{pool}#{shard}"


def ordinal(mu: float, sigma: float) -> float:
    """mu - 3 sigma: what the boards sort by (OpenSkill's ordinal)."""
    return mu - 3 * sigma


# ---------------------------------------------------------------------- items


def _s(item: Item, name: str) -> str | None:
    value = item.get(name)
    return None if value is None else str(value["S"])


def _n(item: Item, name: str) -> float | None:
    value = item.get(name)
    return None if value is None else float(value["N"])


def _account(item: Item) -> Account:
    return Account(
        account_id=item["account_id"]["S"],
        handle=item["handle"]["S"],
        handle_key=item["handle_key"]["S"],
        secret_hash=item["secret_hash"]["S"],
        created_at=float(item["created_at"]["N"]),
        state=item["state"]["S"],
        pool=_s(item, "pool"),
        ticket=_s(item, "ticket"),
        queued_at=_n(item, "queued_at"),
        table_id=_s(item, "table_id"),
    )


def _rating(item: Item) -> Rating:
    return Rating(
        item["account_id"]["S"],
        item["pool"]["S"],
        float(item["mu"]["N"]),
        float(item["sigma"]["N"]),
        int(item["games"]["N"]),
    )


def _seats_json(table: Table) -> str:
    return json.dumps([[s.account_id, s.handle, s.player_uuid] for s in table.seats])


def _table(item: Item) -> Table:
    return Table(
        table_id=item["table_id"]["S"],
        pool=item["pool"]["S"],
        seats=tuple(Seat(a, h, p) for a, h, p in json.loads(item["seats"]["S"])),
        formed_at=float(item["formed_at"]["N"]),
        state=item["state"]["S"],
        game_uuid=_s(item, "game_uuid"),
    )


def _result_json(result: Result) -> str:
    return json.dumps(
        {
            "table_id": result.table_id,
            "game_uuid": result.game_uuid,
            "pool": result.pool,
            "settled_at": result.settled_at,
            "changes": [
                [
                    c.account_id,
                    c.handle,
                    c.place,
                    [c.before.mu, c.before.sigma, c.before.games],
                    [c.after.mu, c.after.sigma, c.after.games],
                ]
                for c in result.changes
            ],
        },
        separators=(",", ":"),
    )


def _result_of(text: str) -> Result:
    data = json.loads(text)
    pool = data["pool"]
    changes = []
    for account_id, handle, place, before, after in data["changes"]:
        changes.append(
            Change(
                account_id,
                handle,
                place,
                Rating(account_id, pool, before[0], before[1], before[2]),
                Rating(account_id, pool, after[0], after[1], after[2]),
            )
        )
    return Result(data["table_id"], data["game_uuid"], pool, data["settled_at"], tuple(changes))


class _Lost(Exception):
    """A transaction's condition did not hold (nothing was written)."""


# ---------------------------------------------------------------------- the table


def create_ladder_table(client: Any, table_name: str) -> None:
    """Create the ladder's table with the schema above (on-demand) and wait until it is
    active; safe when it exists. The CDK stack makes the same (infra/blef_infra/ladder.py)."""
    try:
        client.create_table(
            TableName=table_name,
            AttributeDefinitions=[
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "S"},
                {"AttributeName": "board_pk", "AttributeType": "S"},
                {"AttributeName": "ordinal", "AttributeType": "N"},
                {"AttributeName": "open_pk", "AttributeType": "S"},
                {"AttributeName": "formed_at", "AttributeType": "N"},
            ],
            KeySchema=[
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"},
            ],
            GlobalSecondaryIndexes=[
                {
                    "IndexName": BOARD_INDEX,
                    "KeySchema": [
                        {"AttributeName": "board_pk", "KeyType": "HASH"},
                        {"AttributeName": "ordinal", "KeyType": "RANGE"},
                    ],
                    "Projection": {
                        "ProjectionType": "INCLUDE",
                        "NonKeyAttributes": BOARD_PROJECTION,
                    },
                },
                {
                    "IndexName": OPEN_INDEX,
                    "KeySchema": [
                        {"AttributeName": "open_pk", "KeyType": "HASH"},
                        {"AttributeName": "formed_at", "KeyType": "RANGE"},
                    ],
                    "Projection": {"ProjectionType": "KEYS_ONLY"},
                },
            ],
            BillingMode="PAY_PER_REQUEST",
        )
    except ClientError as err:
        if error_code(err) != "ResourceInUseException":
            raise
    client.get_waiter("table_exists").wait(
        TableName=table_name, WaiterConfig={"Delay": 1, "MaxAttempts": 120}
    )


BOARD_PROJECTION: Final = ["account_id", "pool", "mu", "sigma", "games", "handle_key"]
"""What ``ladder-board`` holds of a rating beside its keys: a board row without the item."""


class LadderDynamo:
    """The ladder store on DynamoDB (see the module docstring). ``client``: any boto3
    DynamoDB client (then neither built nor closed here); otherwise one is built on first use
    from ``endpoint_url`` and ``region_name``. One store serves every thread."""

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
        self._client: DynamoDBClient | None = client
        self._owns_client = client is None
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ plumbing

    @property
    def client(self) -> DynamoDBClient:
        client = self._client
        if client is None:
            with self._lock:
                client = self._client
                if client is None:
                    client = aws.client(
                        "dynamodb", endpoint_url=self.endpoint_url, region_name=self.region_name
                    )
                    self._client = client
        return client

    def create_table(self) -> None:
        create_ladder_table(self.client, self.table_name)

    def close(self) -> None:
        if not self._owns_client:
            return
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()

    def _get(self, item_key: Item, *, consistent: bool = True) -> Item | None:
        reply = self.client.get_item(
            TableName=self.table_name, Key=item_key, ConsistentRead=consistent
        )
        item: Item | None = reply.get("Item")
        return item

    def _get_many(self, keys: Sequence[Item], *, consistent: bool = True) -> list[Item]:
        """The items at ``keys`` that exist (BatchGetItem, 100 keys a call, the unprocessed
        keys asked again), in no particular order."""
        found: list[Item] = []
        for start in range(0, len(keys), BATCH_GET):
            pending: list[Item] = list(keys[start : start + BATCH_GET])
            for attempt in range(10):
                reply = self.client.batch_get_item(
                    RequestItems={self.table_name: {"Keys": pending, "ConsistentRead": consistent}}
                )
                found.extend(reply.get("Responses", {}).get(self.table_name, []))
                unprocessed = reply.get("UnprocessedKeys", {}).get(self.table_name)
                if not unprocessed:
                    break
                pending = list(unprocessed["Keys"])
                time.sleep(0.01 * 2**attempt)
            else:
                raise RuntimeError("BatchGetItem left keys unprocessed ten times")
        return found

    def _query(self, *, count: bool = False, **query: Any) -> Iterator[Item]:
        """Every item of a Query, page after page (with ``count``: one ``{"Count": n}`` per
        page instead)."""
        start: Item | None = None
        while True:
            kwargs: dict[str, Any] = {}
            if start is not None:
                kwargs["ExclusiveStartKey"] = start
            if count:
                kwargs["Select"] = "COUNT"
            page = self.client.query(TableName=self.table_name, **query, **kwargs)
            if count:
                yield {"Count": int(page.get("Count", 0))}
            else:
                yield from page.get("Items", [])
            start = page.get("LastEvaluatedKey")
            if not start:
                return

    def _transact(self, items: list[Any]) -> None:
        """One TransactWriteItems: :class:`_Lost` if a condition failed (nothing written);
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
                    raise _Lost from None
                if not collided(err) or attempt == COLLISION_ATTEMPTS:
                    if collided(err):
                        raise _Lost from None
                    raise
                time.sleep(0.005 * 2**attempt)
                token = uuid.uuid4().hex  # a new attempt is a new transaction

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
        typed = {
            f":{name}": {"S": value} if isinstance(value, str) else {"N": number(value)}
            for name, value in values.items()
        }
        if typed:
            action["ExpressionAttributeValues"] = typed
        text = f"{action.get('UpdateExpression', '')} {condition or ''}"
        names = {f"#{name}": name for name in re.findall(r"#(\w+)", text)}
        if names:
            action["ExpressionAttributeNames"] = names
        return action

    # ------------------------------------------------------------------ accounts

    def create_account(self, account: Account) -> None:
        item: Item = {
            **account_key(account.account_id),
            "account_id": {"S": account.account_id},
            "handle": {"S": account.handle},
            "handle_key": {"S": account.handle_key},
            "secret_hash": {"S": account.secret_hash},
            "created_at": {"N": number(float(account.created_at))},
            "state": {"S": IDLE},
        }
        try:
            self._transact(
                [
                    self._put(item, _NEW),
                    self._put(self._handle_item(account), _NEW),
                    self._put(self._secret_item(account.secret_hash, account.account_id), _NEW),
                ]
            )
        except _Lost:
            raise LadderConflict("handle taken") from None

    @staticmethod
    def _handle_item(account: Account) -> Item:
        return {
            **handle_key_item(account.handle_key),
            "account_id": {"S": account.account_id},
        }

    @staticmethod
    def _secret_item(secret_hash: str, account_id: str) -> Item:
        """A secret's item: one per secret, so an account may hold several (devices)."""
        return {**secret_key(secret_hash), "account_id": {"S": account_id}}

    def _account_of(self, pointer: Item | None) -> Account | None:
        if pointer is None:
            return None
        item = self._get(account_key(pointer["account_id"]["S"]))
        return None if item is None else _account(item)

    def account_by_secret(self, secret_hash: str) -> Account | None:
        account = self._account_of(self._get(secret_key(secret_hash)))
        # The account as signed in with this secret (an account may have several).
        return None if account is None else replace(account, secret_hash=secret_hash)

    def account_by_handle(self, handle_key: str) -> Account | None:
        return self._account_of(self._get(handle_key_item(handle_key)))

    def account(self, account_id: str) -> Account | None:
        item = self._get(account_key(account_id))
        return None if item is None else _account(item)

    # ------------------------------------------------------------------ the queue

    def enqueue(self, account_id: str, pool: str, ticket: str, at: float, mu: float) -> None:
        account = self.account(account_id)
        if account is None or account.state != IDLE:
            raise LadderConflict("not idle")
        entry: Item = {
            **queue_key(pool, account_id),
            "account_id": {"S": account_id},
            "handle": {"S": account.handle},
            "ticket": {"S": ticket},
            "queued_at": {"N": number(float(at))},
            "mu": {"N": number(float(mu))},
        }
        try:
            self._transact(
                [
                    self._update(
                        account_key(account_id),
                        "SET #state = :queued, #pool = :pool, #ticket = :ticket,"
                        " #queued_at = :at, #mu = :mu REMOVE #table_id",
                        "#state = :idle",
                        queued=QUEUED,
                        pool=pool,
                        ticket=ticket,
                        at=float(at),
                        mu=float(mu),
                        idle=IDLE,
                    ),
                    self._put(entry),
                ]
            )
        except _Lost:
            raise LadderConflict("not idle") from None

    def dequeue(self, account_id: str) -> bool:
        for _ in range(10):
            account = self.account(account_id)
            if account is None or account.state != QUEUED or account.pool is None:
                return False
            try:
                self._transact(
                    [
                        self._update(
                            account_key(account_id),
                            "SET #state = :idle REMOVE #pool, #ticket, #queued_at",
                            "#state = :queued AND #ticket = :ticket",
                            idle=IDLE,
                            queued=QUEUED,
                            ticket=account.ticket or "",
                        ),
                        self._delete(queue_key(account.pool, account_id)),
                    ]
                )
                return True
            except _Lost:
                continue  # seated or moved meanwhile: look again
        raise LadderConflict("the account keeps changing")

    def waiting(self, pool: str) -> list[Waiting]:
        queue = [
            Waiting(
                item["account_id"]["S"],
                item["handle"]["S"],
                item["ticket"]["S"],
                float(item["queued_at"]["N"]),
                float(item["mu"]["N"]),
            )
            for item in self._query(
                KeyConditionExpression="pk = :pk",
                ExpressionAttributeValues={":pk": {"S": queue_pk(pool)}},
                ConsistentRead=True,
            )
        ]
        queue.sort(key=lambda w: (w.queued_at, w.account_id))
        return queue

    # ------------------------------------------------------------------ tables

    def claim(self, table: Table, tickets: dict[str, str]) -> None:
        item: Item = {
            **table_key(table.table_id),
            "table_id": {"S": table.table_id},
            "pool": {"S": table.pool},
            "state": {"S": FORMING},
            "formed_at": {"N": number(float(table.formed_at))},
            "seats": {"S": _seats_json(table)},
            "open_pk": {"S": OPEN},
        }
        actions = [self._put(item, _NEW)]
        for account_id, ticket in tickets.items():
            actions.append(
                self._update(
                    account_key(account_id),
                    "SET #state = :seated, #table_id = :table",
                    "#state = :queued AND #ticket = :ticket AND #pool = :pool",
                    seated=SEATED,
                    table=table.table_id,
                    queued=QUEUED,
                    ticket=ticket,
                    pool=table.pool,
                )
            )
            actions.append(self._delete(queue_key(table.pool, account_id)))
        try:
            self._transact(actions)
        except _Lost:
            raise LadderConflict("someone is no longer waiting") from None

    def release(self, table: Table) -> None:
        for _ in range(3):
            stored = self.table(table.table_id)
            if stored is None or stored.state != FORMING:
                return
            items = self._get_many([account_key(s.account_id) for s in stored.seats])
            actions = [
                self._delete(table_key(table.table_id), "#state = :forming", forming=FORMING)
            ]
            for item in items:
                account = _account(item)
                if account.state != SEATED or account.table_id != table.table_id:
                    continue
                if account.pool is None or account.ticket is None or account.queued_at is None:
                    continue
                actions.append(
                    self._update(
                        account_key(account.account_id),
                        "SET #state = :queued REMOVE #table_id",
                        "#state = :seated AND #table_id = :table",
                        queued=QUEUED,
                        seated=SEATED,
                        table=table.table_id,
                    )
                )
                entry: Item = {
                    **queue_key(account.pool, account.account_id),
                    "account_id": {"S": account.account_id},
                    "handle": {"S": account.handle},
                    "ticket": {"S": account.ticket},
                    "queued_at": {"N": number(float(account.queued_at))},
                    "mu": item["mu"],
                }
                actions.append(self._put(entry))
            try:
                self._transact(actions)
                return
            except _Lost:
                continue
        raise LadderConflict("the table keeps changing")

    def seat(self, table: Table) -> None:
        if table.game_uuid is None:
            raise ValueError("a seated table has a game")
        try:
            self._transact(
                [
                    self._update(
                        table_key(table.table_id),
                        "SET #state = :playing, #game_uuid = :game, #seats = :seats",
                        "#state = :forming",
                        playing=PLAYING,
                        game=table.game_uuid,
                        seats=_seats_json(table),
                        forming=FORMING,
                    ),
                    self._put(
                        {
                            **game_key(table.game_uuid),
                            "table_id": {"S": table.table_id},
                        },
                        _NEW,
                    ),
                ]
            )
        except _Lost:
            raise LadderConflict("the table is not forming") from None

    def table(self, table_id: str) -> Table | None:
        item = self._get(table_key(table_id))
        return None if item is None else _table(item)

    def table_of_game(self, game_uuid: str) -> Table | None:
        pointer = self._get(game_key(game_uuid))
        return None if pointer is None else self.table(pointer["table_id"]["S"])

    def open_tables(self) -> list[Table]:
        keys = [
            {"pk": item["pk"], "sk": item["sk"]}
            for item in self._query(
                IndexName=OPEN_INDEX,
                KeyConditionExpression="open_pk = :open",
                ExpressionAttributeValues={":open": {"S": OPEN}},
            )
        ]
        tables = [_table(item) for item in self._get_many(keys)]
        tables.sort(key=lambda t: (t.formed_at, t.table_id))
        return [t for t in tables if t.state != SETTLED]

    # ------------------------------------------------------------------ results

    def settle(self, result: Result) -> None:
        table = self.table(result.table_id)
        if table is None or table.state != PLAYING:
            raise LadderConflict("settled already")
        keys = {s.account_id: s for s in table.seats}
        accounts = {
            a.account_id: a
            for a in (_account(i) for i in self._get_many([account_key(k) for k in keys]))
        }
        at = float(result.settled_at)
        record = _result_json(result)
        result_item: Item = {
            **result_key(result.pool, at, result.table_id),
            "table_id": {"S": result.table_id},
            "result": {"S": record},
        }
        actions = [
            self._update(
                table_key(result.table_id),
                "SET #state = :settled, #settled_at = :at, #result_sk = :sk REMOVE #open_pk",
                "#state = :playing",
                settled=SETTLED,
                at=at,
                sk=result_item["sk"]["S"],
                playing=PLAYING,
            ),
            self._put(result_item, _NEW),
        ]
        for change in result.changes:
            account = accounts.get(change.account_id)
            if account is None:
                raise LadderConflict(f"account {change.account_id} is gone")
            actions.append(self._rating_put(change, account.handle_key))
            actions.append(
                self._put(
                    {
                        **game_entry_key(change.account_id, at, result.table_id),
                        "result": {"S": record},
                    }
                )
            )
        for account_id in keys:
            actions.append(
                self._update(
                    account_key(account_id),
                    "SET #state = :idle REMOVE #table_id, #pool, #ticket, #queued_at",
                    "#state = :seated AND #table_id = :table",
                    idle=IDLE,
                    seated=SEATED,
                    table=result.table_id,
                )
            )
        try:
            self._transact(actions)
        except _Lost:
            raise LadderConflict("settled already, or a rating moved on") from None

    def _rating_put(self, change: Change, handle_key: str) -> Any:
        """A rating's Put, conditional on the games count it was computed from."""
        after = change.after
        item: Item = {
            **rating_key(after.account_id, after.pool),
            "account_id": {"S": after.account_id},
            "pool": {"S": after.pool},
            "mu": {"N": number(float(after.mu))},
            "sigma": {"N": number(float(after.sigma))},
            "games": {"N": number(after.games)},
            "ordinal": {"N": number(ordinal(after.mu, after.sigma))},
            "handle_key": {"S": handle_key},
            "board_pk": {"S": board_pk(after.pool, shard_of(after.account_id, self.board_shards))},
        }
        if change.before.games == 0:
            return self._put(item, _NEW)
        return self._put(item, "#games = :before", before=change.before.games)

    def result(self, table_id: str) -> Result | None:
        item = self._get(table_key(table_id))
        if item is None or "result_sk" not in item:
            return None
        stored = self._get(key(results_pk(item["pool"]["S"]), item["result_sk"]["S"]))
        return None if stored is None else _result_of(stored["result"]["S"])

    def results(self, pool: str) -> list[Result]:
        return [
            _result_of(item["result"]["S"])
            for item in self._query(
                KeyConditionExpression="pk = :pk",
                ExpressionAttributeValues={":pk": {"S": results_pk(pool)}},
                ConsistentRead=True,
            )
        ]

    def history(self, account_id: str, limit: int) -> list[Result]:
        if limit <= 0:
            return []
        reply = self.client.query(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :games)",
            ExpressionAttributeValues={
                ":pk": {"S": f"ACCT#{account_id}"},
                ":games": {"S": "G#"},
            },
            ScanIndexForward=False,
            Limit=limit,
            ConsistentRead=True,
        )
        return [_result_of(item["result"]["S"]) for item in reply.get("Items", [])]

    # ------------------------------------------------------------------ ratings and boards

    def rating(self, account_id: str, pool: str) -> Rating | None:
        item = self._get(rating_key(account_id, pool))
        return None if item is None else _rating(item)

    def ratings(self, account_id: str) -> list[Rating]:
        return [
            _rating(item)
            for item in self._query(
                KeyConditionExpression="pk = :pk AND begins_with(sk, :ratings)",
                ExpressionAttributeValues={
                    ":pk": {"S": f"ACCT#{account_id}"},
                    ":ratings": {"S": "R#"},
                },
                ConsistentRead=True,
            )
        ]

    def _shard_top(self, pool: str, shard: int, limit: int) -> list[Item]:
        """A shard's best ``limit`` by ordinal, and every tie of the last of them."""
        rows: list[Item] = []
        start: Item | None = None
        while True:
            kwargs: dict[str, Any] = {"Limit": limit + 1}
            if start is not None:
                kwargs["ExclusiveStartKey"] = start
            page = self.client.query(
                TableName=self.table_name,
                IndexName=BOARD_INDEX,
                KeyConditionExpression="board_pk = :board",
                ExpressionAttributeValues={":board": {"S": board_pk(pool, shard)}},
                ScanIndexForward=False,
                **kwargs,
            )
            rows.extend(page.get("Items", []))
            start = page.get("LastEvaluatedKey")
            if not start:
                return rows
            if len(rows) > limit and _n(rows[limit], "ordinal") != _n(rows[limit - 1], "ordinal"):
                return rows  # full, and no tie straddles its end

    def leaderboard(self, pool: str, limit: int) -> list[tuple[Account, Rating]]:
        if limit <= 0:
            return []
        rows = [
            row for shard in range(self.board_shards) for row in self._shard_top(pool, shard, limit)
        ]
        rows.sort(key=lambda r: (-float(r["ordinal"]["N"]), r["handle_key"]["S"]))
        rows = rows[:limit]
        accounts = {
            a.account_id: a
            for a in (
                _account(i)
                for i in self._get_many(
                    [account_key(r["account_id"]["S"]) for r in rows], consistent=False
                )
            )
        }
        return [(accounts[r["account_id"]["S"]], _rating(r)) for r in rows]

    def rank(self, account_id: str, pool: str) -> int | None:
        mine = self.rating(account_id, pool)
        if mine is None:
            return None
        above = 0
        for shard in range(self.board_shards):
            for page in self._query(
                count=True,
                IndexName=BOARD_INDEX,
                KeyConditionExpression="board_pk = :board AND ordinal > :mine",
                ExpressionAttributeValues={
                    ":board": {"S": board_pk(pool, shard)},
                    ":mine": {"N": number(ordinal(mine.mu, mine.sigma))},
                },
            ):
                above += int(page["Count"])
        return above + 1

    # ------------------------------------------------------------------ the AWS matcher's lease

    def reserve_look(self, now: float, at: float) -> bool:
        """Claim the matcher's next look at ``at``, unless one is pending (due after
        ``now``): True if this caller should ask for it (the clock's delayed message)."""
        try:
            self.client.update_item(
                TableName=self.table_name,
                Key=LOOK_KEY,
                UpdateExpression="SET due_at = :at",
                ConditionExpression="attribute_not_exists(due_at) OR due_at <= :now",
                ExpressionAttributeValues={":at": {"N": number(at)}, ":now": {"N": number(now)}},
            )
        except ClientError as err:
            if lost_race(err):
                return False
            raise
        return True


__all__ = ["LadderDynamo", "create_ladder_table"]
