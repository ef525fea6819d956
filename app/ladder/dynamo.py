"""The ladder on DynamoDB: its own table (``BLEF_LADDER_TABLE_NAME``), every change one
conditional write or one ``TransactWriteItems`` with a condition on each account item, and
every read a GetItem, a BatchGetItem or a Query on a key: nothing scans.
docs/ladder-dynamodb.md describes the design, its costs and how it scales.

=========================  =====================  ==========================================
item                       ``pk``                 ``sk``
=========================  =====================  ==========================================
an account                 ``ACCT#<id>``          ``A``
its rating in a pool       ``ACCT#<id>``          ``R#<pool>`` (GSI ``ladder-board``)
one of its settled games   ``ACCT#<id>``          ``G#<settled_at>#<table id>`` (a pointer)
one of its secrets         ``ACCT#<id>``          ``S#<hash>`` (its list of secrets)
one of its passkeys        ``ACCT#<id>``          ``P#<credential id>`` (its list)
one of its challenges      ``ACCT#<id>``          ``C#<challenge>`` (its list)
a handle's owner           ``HANDLE#<key>``       ``H``
a secret's account         ``SECRET#<hash>``      ``S`` (one item per secret)
a passkey                  ``PASSKEY#<cred id>``  ``K``
a challenge                ``CHALLENGE#<value>``  ``C`` (GSI ``ladder-expiry``, TTL)
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
- ``ladder-expiry``: partition ``expiry_pk = CHALLENGES``, sort ``expires_at``; keys only.
  Every challenge, by when it expires: what :meth:`LadderDynamo.purge_challenges` deletes.
  DynamoDB's own TTL (attribute ``expires``, whole seconds) removes the ones nobody purges.

An account's partition ``ACCT#<id>`` lists everything it owns (one Query finds it all when
the account is deleted).

Nothing is done at import or construction: the boto3 client is built on first use.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from botocore.exceptions import ClientError

from app.config import aws
from app.config.dynamo import collided, create_table, index, lost_race, number
from app.ladder.store import (
    DELETED_HANDLE,
    IDLE,
    QUEUED,
    SEATED,
    Account,
    Challenge,
    Change,
    LadderConflict,
    Passkey,
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
EXPIRY_INDEX: Final = "ladder-expiry"
CHALLENGES: Final = "CHALLENGES"
"""The one partition of ``ladder-expiry``."""
TTL_ATTRIBUTE: Final = "expires"
"""The table's time-to-live attribute: whole seconds since the epoch (challenges only)."""
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
_MINE: Final = "attribute_not_exists(pk) OR #account_id = :me"
"""An owned item's delete: gone already, or still this account's (so a delete is safe to
repeat, and never takes an item someone else has come to own)."""


# ---------------------------------------------------------------------- keys


def key(pk: str, sk: str) -> Item:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def account_key(account_id: str) -> Item:
    return key(f"ACCT#{account_id}", "A")


def rating_key(account_id: str, pool: str) -> Item:
    return key(f"ACCT#{account_id}", f"R#{pool}")


def game_entry_key(account_id: str, settled_at: float, table_id: str) -> Item:
    return key(f"ACCT#{account_id}", f"G#{time_key(settled_at)}#{table_id}")


def secret_entry_key(account_id: str, secret_hash: str) -> Item:
    return key(f"ACCT#{account_id}", f"S#{secret_hash}")


def passkey_entry_key(account_id: str, credential_id: str) -> Item:
    return key(f"ACCT#{account_id}", f"P#{credential_id}")


def challenge_entry_key(account_id: str, challenge: str) -> Item:
    return key(f"ACCT#{account_id}", f"C#{challenge}")


def handle_key_item(handle_key: str) -> Item:
    return key(f"HANDLE#{handle_key}", "H")


def secret_key(secret_hash: str) -> Item:
    return key(f"SECRET#{secret_hash}", "S")


def passkey_key(credential_id: str) -> Item:
    return key(f"PASSKEY#{credential_id}", "K")


def allowance_key(allowance: str, window: int) -> Item:
    return key(f"ALLOW#{allowance}", f"W#{window}")


def challenge_key(challenge: str) -> Item:
    return key(f"CHALLENGE#{challenge}", "C")


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
        bot=_bool(item, "bot"),
        agent=_s(item, "agent"),
        fill_at=_n(item, "fill_at"),
    )


def _bool(item: Item, name: str) -> bool:
    value = item.get(name)
    return value is not None and bool(value["BOOL"])


def _rating(item: Item) -> Rating:
    return Rating(
        item["account_id"]["S"],
        item["pool"]["S"],
        float(item["mu"]["N"]),
        float(item["sigma"]["N"]),
        int(item["games"]["N"]),
    )


def _seats_json(seats: Sequence[Seat]) -> str:
    """Each seat ``[account id, handle, player UUID]``, and a computer level's nickname."""
    return json.dumps(
        [
            [s.account_id, s.handle, s.player_uuid]
            + ([s.ai_nickname] if s.ai_nickname is not None else [])
            for s in seats
        ]
    )


def _seats_of(text: str) -> tuple[Seat, ...]:
    return tuple(Seat(*seat) for seat in json.loads(text))


def _table(item: Item) -> Table:
    return Table(
        table_id=item["table_id"]["S"],
        pool=item["pool"]["S"],
        seats=_seats_of(item["seats"]["S"]),
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


def _result_key_of(pointer: Item) -> Item:
    """The result a history pointer ``ACCT#<id>/G#<settled_at>#<table id>`` points to."""
    return key(results_pk(pointer["pool"]["S"]), pointer["sk"]["S"][len("G#") :])


def _passkey(item: Item) -> Passkey:
    return Passkey(
        credential_id=item["credential_id"]["S"],
        account_id=item["account_id"]["S"],
        public_key=bytes(item["public_key"]["B"]),
        sign_count=int(item["sign_count"]["N"]),
        created_at=float(item["created_at"]["N"]),
        last_used_at=_n(item, "last_used_at"),
    )


def _renamed(account_id: str, attribute: str, text: str) -> str:
    """A stored result (``attribute`` ``result``) or a table's seats (``seats``) with the
    handle of ``account_id`` replaced by :data:`DELETED_HANDLE`."""
    if attribute == "seats":
        return _seats_json(
            [
                Seat(s.account_id, DELETED_HANDLE, s.player_uuid, s.ai_nickname)
                if s.account_id == account_id
                else s
                for s in _seats_of(text)
            ]
        )
    data = json.loads(text)
    for change in data["changes"]:
        if change[0] == account_id:
            change[1] = DELETED_HANDLE
    return json.dumps(data, separators=(",", ":"))


def _typed(value: str | bool | float) -> Item:
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, bool):
        return {"BOOL": value}
    return {"N": number(value)}


class _Lost(Exception):
    """A transaction's condition did not hold (nothing was written)."""


# ---------------------------------------------------------------------- the table


def create_ladder_table(client: Any, table_name: str) -> None:
    """Create the ladder's table with the schema above (on-demand) and wait until it is
    active; safe when it exists. The CDK stack makes the same (infra/blef_infra/ladder.py)."""
    create_table(
        client,
        table_name,
        attributes={
            "board_pk": "S",
            "ordinal": "N",
            "open_pk": "S",
            "formed_at": "N",
            "expiry_pk": "S",
            "expires_at": "N",
        },
        indexes=[
            index(BOARD_INDEX, "board_pk", "ordinal", BOARD_PROJECTION),
            index(OPEN_INDEX, "open_pk", "formed_at"),
            index(EXPIRY_INDEX, "expiry_pk", "expires_at"),
        ],
        ttl_attribute=TTL_ATTRIBUTE,
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
        typed = {f":{name}": _typed(value) for name, value in values.items()}
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
            "bot": {"BOOL": account.bot},
        }
        if account.agent is not None:
            item["agent"] = {"S": account.agent}
        try:
            self._transact(
                [
                    self._put(item, _NEW),
                    self._put(self._handle_item(account), _NEW),
                    *self._secret_puts(account.account_id, account.secret_hash, account.created_at),
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

    def _secret_puts(self, account_id: str, secret_hash: str, at: float) -> list[Any]:
        """A secret's two items, each new: ``SECRET#<hash>`` (how a request finds its
        account) and ``ACCT#<id>/S#<hash>`` (the account's list of secrets)."""
        owner = {"account_id": {"S": account_id}}
        return [
            self._put({**secret_key(secret_hash), **owner}, _NEW),
            self._put(
                {
                    **secret_entry_key(account_id, secret_hash),
                    **owner,
                    "created_at": {"N": number(float(at))},
                },
                _NEW,
            ),
        ]

    def _account_of(self, pointer: Item | None) -> Account | None:
        if pointer is None:
            return None
        item = self._get(account_key(pointer["account_id"]["S"]))
        return None if item is None else _account(item)

    def account_by_secret(self, secret_hash: str) -> Account | None:
        return self._account_of(self._get(secret_key(secret_hash)))

    def account_by_handle(self, handle_key: str) -> Account | None:
        return self._account_of(self._get(handle_key_item(handle_key)))

    def account(self, account_id: str) -> Account | None:
        item = self._get(account_key(account_id))
        return None if item is None else _account(item)

    # ------------------------------------------------------------------ the queue

    def enqueue(self, account_id: str, pool: str, ticket: str, at: float, mu: float) -> None:
        self._enqueue(account_id, pool, ticket, at, mu, None)

    def enqueue_filled(
        self, account_id: str, pool: str, ticket: str, at: float, mu: float, fill_at: float
    ) -> None:
        self._enqueue(account_id, pool, ticket, at, mu, fill_at)

    def _enqueue(
        self, account_id: str, pool: str, ticket: str, at: float, mu: float, fill: float | None
    ) -> None:
        account = self.account(account_id)
        if account is None or account.state != IDLE:
            raise LadderConflict("not idle")
        entry = self._queue_entry(
            pool,
            replace(account, state=QUEUED, ticket=ticket, queued_at=float(at), fill_at=fill),
            {"N": number(float(mu))},
        )
        values: dict[str, Any] = {
            "queued": QUEUED,
            "pool": pool,
            "ticket": ticket,
            "at": float(at),
            "mu": float(mu),
            "idle": IDLE,
        }
        expression = (
            "SET #state = :queued, #pool = :pool, #ticket = :ticket, #queued_at = :at, #mu = :mu"
        )
        if fill is None:
            expression += " REMOVE #table_id, #fill_at"
        else:
            expression += ", #fill_at = :fill REMOVE #table_id"
            values["fill"] = float(fill)
        try:
            self._transact(
                [
                    self._update(account_key(account_id), expression, "#state = :idle", **values),
                    self._put(entry),
                ]
            )
        except _Lost:
            raise LadderConflict("not idle") from None

    @staticmethod
    def _queue_entry(pool: str, account: Account, mu: Item) -> Item:
        """``account``'s place in ``pool``'s queue (its ticket, time and fill time set)."""
        entry: Item = {
            **queue_key(pool, account.account_id),
            "account_id": {"S": account.account_id},
            "handle": {"S": account.handle},
            "ticket": {"S": account.ticket or ""},
            "queued_at": {"N": number(float(account.queued_at or 0.0))},
            "mu": mu,
            "bot": {"BOOL": account.bot},
        }
        if account.fill_at is not None:
            entry["fill_at"] = {"N": number(float(account.fill_at))}
        return entry

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
                _n(item, "fill_at"),
                _bool(item, "bot"),
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
            "seats": {"S": _seats_json(table.seats)},
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
                actions.append(self._put(self._queue_entry(account.pool, account, item["mu"])))
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
                        seats=_seats_json(table.seats),
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
        sat = sorted({s.account_id for s in table.seats} | {c.account_id for c in result.changes})
        accounts = {
            a.account_id: a
            for a in (_account(i) for i in self._get_many([account_key(k) for k in sat]))
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
        for account_id in sat:
            # Every seat's history, rated or not: a pointer to the result, and who sat.
            pointer: Item = {
                **game_entry_key(account_id, at, result.table_id),
                "account_id": {"S": account_id},
                "pool": {"S": result.pool},
                "sat": {"SS": sat},
            }
            actions.append(self._put(pointer, _NEW))
            seated = accounts.get(account_id)
            if seated is None or seated.state != SEATED or seated.table_id != result.table_id:
                continue  # a computer level's seat: its account is never seated
            actions.append(
                self._update(
                    account_key(account_id),
                    "SET #state = :idle, #played = :played"
                    " REMOVE #table_id, #pool, #ticket, #queued_at",
                    "#state = :seated AND #table_id = :table",
                    idle=IDLE,
                    played=True,
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
        wanted = [_result_key_of(pointer) for pointer in reply.get("Items", [])]
        found = {
            (item["pk"]["S"], item["sk"]["S"]): _result_of(item["result"]["S"])
            for item in self._get_many(wanted)
        }
        return [
            found[(k["pk"]["S"], k["sk"]["S"])]
            for k in wanted
            if (k["pk"]["S"], k["sk"]["S"]) in found
        ]

    def games_together(self, first: str, second: str, since: float) -> int:
        """A COUNT Query of ``first``'s history pointers settled since ``since``, filtered to
        those whose ``sat`` holds ``second`` (the read costs all of ``first``'s pointers in
        the window, the filter only trims the answer)."""
        together = 0
        for page in self._query(
            count=True,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :from AND :to",
            FilterExpression="contains(#sat, :second)",
            ExpressionAttributeNames={"#sat": "sat"},
            ExpressionAttributeValues={
                ":pk": {"S": f"ACCT#{first}"},
                ":from": {"S": f"G#{time_key(max(float(since), 0.0))}"},
                ":to": {"S": "G#~"},
                ":second": {"S": second},
            },
            ConsistentRead=True,
        ):
            together += int(page["Count"])
        return together

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
        return self.leaderboard_page(pool, 0, limit)

    def leaderboard_page(self, pool: str, offset: int, limit: int) -> list[tuple[Account, Rating]]:
        """Rows ``offset`` .. ``offset + limit`` of the board: each shard's best
        ``offset + limit`` (and the ties of the last) merged, then sliced. A deep page reads
        every row above it, in every shard (docs/ladder-dynamodb.md: its cost)."""
        offset, limit = max(offset, 0), max(limit, 0)
        if limit == 0:
            return []
        end = offset + limit
        rows = [
            row for shard in range(self.board_shards) for row in self._shard_top(pool, shard, end)
        ]
        rows.sort(key=lambda r: (-float(r["ordinal"]["N"]), r["handle_key"]["S"]))
        rows = rows[offset:end]
        accounts = {
            a.account_id: a
            for a in (
                _account(i)
                for i in self._get_many(
                    [account_key(r["account_id"]["S"]) for r in rows], consistent=False
                )
            )
        }
        # The index lags its table a moment: a rating deleted with its account may linger.
        return [
            (accounts[r["account_id"]["S"]], _rating(r))
            for r in rows
            if r["account_id"]["S"] in accounts
        ]

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

    # ------------------------------------------------------------------ bots

    def make_bot(self, account_id: str) -> None:
        """GetItem the account, Query one history pointer (any: it has sat at a settled
        table), then UpdateItem ``SET bot`` if ``state = idle`` and the account was never idled
        by a settlement (``played``, set by :meth:`settle`): a settlement landing between the
        reads and the write fails the condition."""
        account = self.account(account_id)
        if account is None or account.state != IDLE:
            raise LadderConflict("not idle")
        played = self.client.query(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :games)",
            ExpressionAttributeValues={
                ":pk": {"S": f"ACCT#{account_id}"},
                ":games": {"S": "G#"},
            },
            Limit=1,
            ConsistentRead=True,
        ).get("Items")
        if played:
            raise LadderConflict("has played")
        made = self._alone(
            self._update(
                account_key(account_id),
                "SET #bot = :bot",
                "#state = :idle AND attribute_not_exists(#played)",
                bot=True,
                idle=IDLE,
            )
        )
        if not made:
            raise LadderConflict("not idle, or has played")

    # ------------------------------------------------------------------ devices

    def add_secret(self, account_id: str, secret_hash: str, at: float) -> None:
        """One transaction: the account's ``keyring`` counter up by one (so a deletion that
        listed its secrets before fails), and the secret's two items, each new."""
        try:
            self._transact(
                [self._keyring_up(account_id), *self._secret_puts(account_id, secret_hash, at)]
            )
        except _Lost:
            raise LadderConflict("no such account, or the secret is taken") from None

    def _keyring_up(self, account_id: str) -> Any:
        return self._update(
            account_key(account_id), "ADD #keyring :one", "attribute_exists(pk)", one=1
        )

    def forget_secret(self, secret_hash: str) -> bool:
        pointer = self._get(secret_key(secret_hash))
        if pointer is None:
            return False
        owner = pointer["account_id"]["S"]
        try:
            self._transact(
                [
                    self._delete(secret_key(secret_hash), "#account_id = :me", me=owner),
                    self._delete(secret_entry_key(owner, secret_hash), _MINE, me=owner),
                ]
            )
        except _Lost:
            return False  # forgotten meanwhile
        return True

    def secret_count(self, account_id: str) -> int:
        return sum(
            int(page["Count"])
            for page in self._query(
                count=True,
                KeyConditionExpression="pk = :pk AND begins_with(sk, :secrets)",
                ExpressionAttributeValues={
                    ":pk": {"S": f"ACCT#{account_id}"},
                    ":secrets": {"S": "S#"},
                },
                ConsistentRead=True,
            )
        )

    # ------------------------------------------------------------------ challenges

    def put_challenge(self, challenge: Challenge) -> None:
        """A new ``CHALLENGE#<value>`` item (in ``ladder-expiry`` by its expiry, with a TTL):
        a sign-in's one conditional PutItem; a registration's also listed in its account's
        partition (one transaction), so that deleting the account finds it."""
        expires = {"N": str(math.ceil(challenge.expires_at))}
        item: Item = {
            **challenge_key(challenge.challenge),
            "ceremony": {"S": challenge.ceremony},
            "expires_at": {"N": number(float(challenge.expires_at))},
            "expiry_pk": {"S": CHALLENGES},
            TTL_ATTRIBUTE: expires,
        }
        actions = [self._put(item, _NEW)]
        if challenge.account_id is not None:
            item["account_id"] = {"S": challenge.account_id}
            entry: Item = {
                **challenge_entry_key(challenge.account_id, challenge.challenge),
                "account_id": {"S": challenge.account_id},
                TTL_ATTRIBUTE: expires,
            }
            actions.append(self._put(entry, _NEW))
        try:
            if len(actions) == 1:  # a sign-in's: one PutItem
                if not self._alone(actions[0]):
                    raise _Lost
            else:
                self._transact(actions)
        except _Lost:
            raise LadderConflict("the challenge is stored already") from None

    def take_challenge(self, challenge: str) -> Challenge | None:
        """DeleteItem with ``ReturnValues = ALL_OLD``, if it exists: one request both reads and
        removes it, so of two racing takes one gets it and the other's condition fails."""
        try:
            reply = self.client.delete_item(
                TableName=self.table_name,
                Key=challenge_key(challenge),
                ConditionExpression="attribute_exists(pk)",
                ReturnValues="ALL_OLD",
            )
        except ClientError as err:
            if lost_race(err):
                return None
            raise
        return self._taken(reply.get("Attributes", {}))

    def _taken(self, item: Item) -> Challenge:
        """A challenge just deleted: its account's list forgets it too."""
        owner = _s(item, "account_id")
        value = item["pk"]["S"][len("CHALLENGE#") :]
        if owner is not None:
            self._alone(self._delete(challenge_entry_key(owner, value), _MINE, me=owner))
        return Challenge(value, item["ceremony"]["S"], owner, float(item["expires_at"]["N"]))

    def purge_challenges(self, before: float) -> int:
        """Query ``ladder-expiry`` for the challenges expiring before ``before`` (keys only),
        then DeleteItem each if it still exists (a take may have won it): how many went."""
        expired = [
            {"pk": row["pk"], "sk": row["sk"]}
            for row in self._query(
                IndexName=EXPIRY_INDEX,
                KeyConditionExpression="expiry_pk = :c AND expires_at < :before",
                ExpressionAttributeValues={
                    ":c": {"S": CHALLENGES},
                    ":before": {"N": number(float(before))},
                },
            )
        ]
        purged = 0
        for expired_key in expired:
            try:
                reply = self.client.delete_item(
                    TableName=self.table_name,
                    Key=expired_key,
                    ConditionExpression="expires_at < :before",
                    ExpressionAttributeValues={":before": {"N": number(float(before))}},
                    ReturnValues="ALL_OLD",
                )
            except ClientError as err:
                if lost_race(err):
                    continue  # taken meanwhile
                raise
            self._taken(reply["Attributes"])
            purged += 1
        return purged

    # ------------------------------------------------------------------ passkeys

    def add_passkey(self, passkey: Passkey) -> None:
        """One transaction: the account's ``keyring`` up by one (it must exist), the
        ``PASSKEY#<id>`` item and the account's list entry, each new."""
        item: Item = {
            **passkey_key(passkey.credential_id),
            "credential_id": {"S": passkey.credential_id},
            "account_id": {"S": passkey.account_id},
            "public_key": {"B": bytes(passkey.public_key)},
            "sign_count": {"N": number(passkey.sign_count)},
            "created_at": {"N": number(float(passkey.created_at))},
        }
        if passkey.last_used_at is not None:
            item["last_used_at"] = {"N": number(float(passkey.last_used_at))}
        entry: Item = {
            **passkey_entry_key(passkey.account_id, passkey.credential_id),
            "account_id": {"S": passkey.account_id},
        }
        try:
            self._transact(
                [
                    self._keyring_up(passkey.account_id),
                    self._put(item, _NEW),
                    self._put(entry, _NEW),
                ]
            )
        except _Lost:
            raise LadderConflict("no such account, or the passkey is stored already") from None

    def passkey(self, credential_id: str) -> Passkey | None:
        item = self._get(passkey_key(credential_id))
        return None if item is None else _passkey(item)

    def passkeys(self, account_id: str) -> list[Passkey]:
        listed = [
            passkey_key(entry["sk"]["S"][len("P#") :])
            for entry in self._query(
                KeyConditionExpression="pk = :pk AND begins_with(sk, :passkeys)",
                ExpressionAttributeValues={
                    ":pk": {"S": f"ACCT#{account_id}"},
                    ":passkeys": {"S": "P#"},
                },
                ConsistentRead=True,
            )
        ]
        found = [_passkey(item) for item in self._get_many(listed)]
        return sorted(found, key=lambda p: (p.created_at, p.credential_id))

    def use_passkey(
        self, credential_id: str, sign_count: int, new_sign_count: int, at: float
    ) -> None:
        used = self._alone(
            self._update(
                passkey_key(credential_id),
                "SET #sign_count = :new, #last_used_at = :at",
                "attribute_exists(pk) AND #sign_count = :old",
                new=new_sign_count,
                at=float(at),
                old=sign_count,
            )
        )
        if not used:
            raise LadderConflict("the passkey's counter moved on, or it is gone")

    # ------------------------------------------------------------------ deletion

    def delete_account(self, account_id: str) -> None:
        """GetItem the account, Query its whole partition (ratings, history pointers, lists
        of secrets, passkeys and challenges), BatchGetItem the results and tables it shared;
        then one transaction: the account deleted if still ``idle`` with the ``keyring`` read
        (no secret or passkey added since), its handle claim, ratings, secrets, passkeys,
        challenges and history pointers deleted, and each shared result and table rewritten
        with :data:`DELETED_HANDLE` (conditional on the text read). A transaction holds 100
        items: past that, the first 100 (the account, its handle and ratings first, then
        its ways in) are the atomic step and the rest follow, each item on its own, each
        still conditional (docs/ladder-dynamodb.md)."""
        for _ in range(COLLISION_ATTEMPTS):
            item = self._get(account_key(account_id))
            if item is None or item["state"]["S"] != IDLE:
                raise LadderConflict("not idle, or no such account")
            steps = self._deletion(account_id, item)
            head, tail = steps[:MAX_TRANSACTION_ITEMS], steps[MAX_TRANSACTION_ITEMS:]
            try:
                self._transact([action for action, _ in head])
            except _Lost:
                continue  # something changed since the reads: read again
            for _, alone in tail:
                alone()
            return
        raise LadderConflict("the account keeps changing")

    def _deletion(self, account_id: str, account: Item) -> list[tuple[Any, Callable[[], Any]]]:
        """What deleting the account does, in order: each step's transaction action and how
        it is done on its own (past the first 100)."""
        me = {"me": account_id}
        ring = account.get("keyring")
        still = "#state = :idle AND " + (
            "attribute_not_exists(#keyring)" if ring is None else "#keyring = :ring"
        )
        ring_value = {} if ring is None else {"ring": int(ring["N"])}
        first: list[Any] = [
            self._delete(account_key(account_id), still, idle=IDLE, **ring_value),
            self._delete(handle_key_item(account["handle_key"]["S"]), "#account_id = :me", **me),
        ]
        owned = list(
            self._query(
                KeyConditionExpression="pk = :pk",
                ExpressionAttributeValues={":pk": {"S": f"ACCT#{account_id}"}},
                ConsistentRead=True,
            )
        )
        ratings, ways_in, games = [], [], []
        for entry in owned:
            sort = entry["sk"]["S"]
            mine = self._delete({"pk": entry["pk"], "sk": entry["sk"]}, _MINE, **me)
            if sort.startswith("R#"):
                ratings.append(mine)
            elif sort.startswith("S#"):
                ways_in += [mine, self._delete(secret_key(sort[2:]), _MINE, **me)]
            elif sort.startswith("P#"):
                ways_in += [mine, self._delete(passkey_key(sort[2:]), _MINE, **me)]
            elif sort.startswith("C#"):
                ways_in += [mine, self._delete(challenge_key(sort[2:]), _MINE, **me)]
            elif sort.startswith("G#"):
                games.append((entry, mine))
        renames = self._renames(account_id, [entry for entry, _ in games])
        steps: list[tuple[Any, Callable[[], Any]]] = [
            (action, partial(self._alone, action)) for action in first + ratings + ways_in
        ]
        steps += renames
        steps += [(action, partial(self._alone, action)) for _, action in games]
        return steps

    def _renames(
        self, account_id: str, pointers: list[Item]
    ) -> list[tuple[Any, Callable[[], Any]]]:
        """Each result and table the account sat at, its handle replaced: an UpdateItem
        conditional on the text read (and, on its own, read again until it holds)."""
        wanted = [_result_key_of(p) for p in pointers]
        wanted += [table_key(p["sk"]["S"].split("#", 2)[2]) for p in pointers]
        steps: list[tuple[Any, Callable[[], Any]]] = []
        for stored in self._get_many(wanted):
            attribute = "seats" if "seats" in stored else "result"
            old = stored[attribute]["S"]
            new = _renamed(account_id, attribute, old)
            if new == old:
                continue
            where = {"pk": stored["pk"], "sk": stored["sk"]}
            steps.append(
                (
                    self._rewrite(where, attribute, old, new),
                    partial(self._rename, where, attribute, account_id),
                )
            )
        return steps

    def _rewrite(self, where: Item, attribute: str, old: str, new: str) -> Any:
        return self._update(
            where, f"SET #{attribute} = :new", f"#{attribute} = :old", new=new, old=old
        )

    def _rename(self, where: Item, attribute: str, account_id: str) -> None:
        """One result or table renamed on its own: read, rewrite if the text is still as
        read, again if another deletion rewrote it meanwhile."""
        for _ in range(10):
            stored = self._get(where)
            if stored is None:
                return
            old = stored[attribute]["S"]
            new = _renamed(account_id, attribute, old)
            if new == old or self._alone(self._rewrite(where, attribute, old, new)):
                return
        raise LadderConflict("a shared result keeps changing")

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

    # ------------------------------------------------------------------ allowances

    def take_allowance(
        self, key: str, window: int, limit: int, *, now: float, expires_at: float
    ) -> bool:
        """One UpdateItem of the allowance's counter, ``ADD`` one unless it has reached the
        limit (a condition, so racing takers never pass it); DynamoDB's time to live removes
        it after ``expires_at``."""
        return self._alone(
            self._update(
                allowance_key(key, window),
                "ADD #used :one SET #expires = :expires",
                "attribute_not_exists(#used) OR #used < :limit",
                one=1,
                limit=limit,
                expires=int(expires_at) + 1,
            )
        )


__all__ = ["LadderDynamo", "create_ladder_table"]
