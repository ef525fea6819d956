"""The open websocket connections of the AWS deployment, as items of the games table.

=======================  =========================  ========================  ===================
item                     ``pk``                     ``sk``                    attributes
=======================  =========================  ========================  ===================
a watcher of a game      ``GAME#<game uuid>``       ``CONN#<connection id>``  ``connection_id``,
                                                                              ``seat``,
                                                                              ``expires_at``
a public-games watcher   ``PUBLIC#WATCHERS``        ``CONN#<connection id>``  ``connection_id``,
                                                                              ``expires_at``
its reverse              ``CONN#<connection id>``   ``CONN``                  ``game_uuid`` (or
                                                                              ``public``: true),
                                                                              ``expires_at``
=======================  =========================  ========================  ===================

A public-games watcher (a websocket opened with no game, as the iOS start and join screens
open it) has its item in one partition of its own, which the pusher queries page by page
for every change of a listed game; it holds no nickname and no game, so nothing but the
public list can ever be sent to it.

The watcher item sits in its game's partition, so the pusher finds a game's watchers with
one Query (``begins_with(sk, "CONN#")``, which no game or round item matches); the reverse
item lets ``$disconnect``, which only knows the connection id, find the game. A watcher item
holds the viewer's **seat key** (app/service/seats.py; absent for an observer), never their
secret UUID and never their nickname: a nickname can be given up and taken by a newcomer,
so the pusher looks the seat up in the game as it is at each change, and a watcher whose
player has left is sent nothing of that seat again. (Items written before seat keys hold a
``nickname`` instead; they are treated as an observer's until they expire.)

Both items expire (``expires_at``, the table's TTL attribute) after
:data:`CONNECTION_TTL_SECONDS`, API Gateway's limit on a websocket's life, so connections
whose ``$disconnect`` never came (API Gateway does not promise it) or whose game is never
changed again are cleaned up for free.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from app.store.dynamo.keys import (
    CONNECTION_PREFIX,
    PUBLIC_WATCHERS_PK,
    address_key,
    game_of,
    reverse_key,
    watcher_key,
    watcher_pk,
)
from app.store.dynamo.paging import query_all

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import AttributeValueTypeDef

    Item = dict[str, AttributeValueTypeDef]

CONNECTION_TTL_SECONDS: Final = 2 * 3600
"""API Gateway closes every websocket connection after 2 hours."""


def _number(value: float) -> AttributeValueTypeDef:
    """A time in seconds as a DynamoDB number, to the microsecond."""
    return {"N": f"{value:.6f}"}


@dataclass(frozen=True, slots=True)
class Watcher:
    """One open connection watching a game, as the player whose seat key ``seat`` is (None:
    an observer), or watching the public games (``game_uuid`` None, and never a seat)."""

    game_uuid: str | None
    connection_id: str
    seat: str | None

    @property
    def public(self) -> bool:
        return self.game_uuid is None

    @classmethod
    def from_item(cls, item: dict[str, Any]) -> Watcher | None:
        """The watcher an item (from a Query or a stream image) describes, or None if the item
        is not a watcher item."""
        pk, sk = item.get("pk", {}).get("S", ""), item.get("sk", {}).get("S", "")
        if not sk.startswith(CONNECTION_PREFIX):
            return None
        if pk == PUBLIC_WATCHERS_PK:
            return cls(None, sk.removeprefix(CONNECTION_PREFIX), None)
        game_uuid = game_of(pk)
        if game_uuid is None:
            return None
        seat = item.get("seat", {}).get("S")
        return cls(game_uuid, sk.removeprefix(CONNECTION_PREFIX), seat)


class Connections:
    """Add, find and remove connection items in the games table through ``client``."""

    def __init__(
        self,
        client: DynamoDBClient,
        table_name: str,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        self.table_name = table_name
        self._clock = clock

    def add(self, connection_id: str, game_uuid: str | None, seat: str | None) -> None:
        """Record that ``connection_id`` watches ``game_uuid`` from the seat whose key is
        ``seat`` (None: as an observer), or the public games (``game_uuid`` None: ``seat`` is
        ignored). Both items are written in one transaction, so neither is ever alone."""
        now = int(self._clock())
        expires_at: AttributeValueTypeDef = {"N": str(now + CONNECTION_TTL_SECONDS)}
        watcher: Item = {
            **watcher_key(game_uuid, connection_id),
            "connection_id": {"S": connection_id},
            "connected_at": {"N": str(now)},
            "expires_at": expires_at,
        }
        if seat is not None and game_uuid is not None:
            watcher["seat"] = {"S": seat}
        reverse: Item = {**reverse_key(connection_id), "expires_at": expires_at}
        if game_uuid is None:
            reverse["public"] = {"BOOL": True}
        else:
            reverse["game_uuid"] = {"S": game_uuid}
        self.client.transact_write_items(
            TransactItems=[
                {"Put": {"TableName": self.table_name, "Item": watcher}},
                {"Put": {"TableName": self.table_name, "Item": reverse}},
            ]
        )

    def remove(self, connection_id: str) -> bool:
        """Forget a closed connection; returns whether it was still recorded (False if
        unknown, e.g. already removed after a failed push, or expired), so that a repeated
        ``$disconnect`` frees its address's place only once."""
        old = self.client.delete_item(
            TableName=self.table_name, Key=reverse_key(connection_id), ReturnValues="ALL_OLD"
        ).get("Attributes")
        if not old:
            return False
        if old.get("public", {}).get("BOOL"):
            self.client.delete_item(TableName=self.table_name, Key=watcher_key(None, connection_id))
            return True
        if "game_uuid" not in old:
            return True
        game_uuid = old["game_uuid"].get("S", "")
        self.client.delete_item(
            TableName=self.table_name, Key=watcher_key(game_uuid, connection_id)
        )
        return True

    def forget(self, watcher: Watcher) -> None:
        """Delete both items of a connection that API Gateway says is gone."""
        for key in (
            watcher_key(watcher.game_uuid, watcher.connection_id),
            reverse_key(watcher.connection_id),
        ):
            self.client.delete_item(TableName=self.table_name, Key=key)

    def watchers(self, game_uuid: str) -> list[Watcher]:
        """The connections watching a game, leaving out expired items TTL has not yet
        deleted."""
        return self._query(watcher_pk(game_uuid))

    def public_watchers(self) -> list[Watcher]:
        """The connections watching the public games (every page of them), leaving out
        expired items."""
        return self._query(PUBLIC_WATCHERS_PK)

    def _query(self, pk: str) -> list[Watcher]:
        now = self._clock()
        found: list[Watcher] = []
        items = query_all(
            self.client,
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": {"S": pk}, ":prefix": {"S": CONNECTION_PREFIX}},
            ProjectionExpression="pk, sk, seat, expires_at",
            ConsistentRead=True,  # a watcher who just connected must not be missed
        )
        for item in items:
            watcher = Watcher.from_item(dict(item))
            expires_at = float(item.get("expires_at", {}).get("N", "0"))
            if watcher is not None and not (expires_at and expires_at < now):
                found.append(watcher)
        return found

    # ------------------------------------------------------------------ websockets per address
    # One counter item per source address (app/store/dynamo/keys.py ``address_key``): a
    # connect adds one only if the count is below the cap (one conditional UpdateItem, so two
    # connects racing for the last place cannot both get it), a disconnect takes one away.
    # The item expires with the connections' TTL, refreshed at every connect, so counts left
    # behind by ``$disconnect`` events that never came (API Gateway does not promise them)
    # heal within 2 hours.

    def reserve(self, address: str, cap: int) -> bool:
        """Count one more websocket from ``address``, unless it has ``cap`` open already."""
        from botocore.exceptions import ClientError  # noqa: PLC0415

        expires = int(self._clock()) + CONNECTION_TTL_SECONDS
        try:
            self.client.update_item(
                TableName=self.table_name,
                Key=address_key(address),
                UpdateExpression="ADD #open :one SET expires_at = :expires",
                ConditionExpression="attribute_not_exists(#open) OR #open < :cap",
                ExpressionAttributeNames={"#open": "open"},
                ExpressionAttributeValues={
                    ":one": {"N": "1"},
                    ":cap": {"N": str(cap)},
                    ":expires": {"N": str(expires)},
                },
            )
        except ClientError as err:
            if err.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                return False
            raise
        return True

    # ------------------------------------------------------------ websocket opens per address
    # How fast an address opens websockets, on the same counter item: a token bucket of
    # ``burst`` opens refilled at ``per_second``, kept as the generic cell rate algorithm's
    # one number, ``opens_due`` (the time at which the bucket would be full again if nothing
    # more were opened). An open is let in while ``opens_due`` is at most ``burst - 1``
    # intervals ahead of now, and moves it one interval on. Each branch is one conditional
    # UpdateItem, so opens racing in several Lambda instances are all counted: from an
    # address that has opened nothing lately, the first one suffices.

    def throttle(self, address: str, burst: int, per_second: float) -> float:
        """Count one websocket opened from ``address``: 0.0 if its bucket let it in, else the
        most seconds until it will (nothing is counted then)."""
        from botocore.exceptions import ClientError  # noqa: PLC0415

        interval = 1.0 / per_second
        now = self._clock()
        expires: AttributeValueTypeDef = {"N": str(int(now) + CONNECTION_TTL_SECONDS)}
        names = {"#due": "opens_due"}
        attempts: list[tuple[str, str, dict[str, AttributeValueTypeDef]]] = [
            (  # nothing opened for a while: the bucket is full
                "SET #due = :next, expires_at = :expires",
                "attribute_not_exists(#due) OR #due <= :now",
                {":next": _number(now + interval), ":now": _number(now), ":expires": expires},
            ),
            (  # some opened lately: room for one more?
                "SET #due = #due + :interval, expires_at = :expires",
                "#due <= :latest",
                {
                    ":interval": _number(interval),
                    ":latest": _number(now + (burst - 1) * interval),
                    ":expires": expires,
                },
            ),
        ]
        for update, condition, values in attempts:
            try:
                self.client.update_item(
                    TableName=self.table_name,
                    Key=address_key(address),
                    UpdateExpression=update,
                    ConditionExpression=condition,
                    ExpressionAttributeNames=names,
                    ExpressionAttributeValues=values,
                )
            except ClientError as err:
                if err.response.get("Error", {}).get("Code") != "ConditionalCheckFailedException":
                    raise
                continue
            return 0.0
        return interval  # refused: opens_due is less than one interval past the latest

    def release(self, address: str) -> None:
        """Count one websocket from ``address`` fewer (never below zero)."""
        from botocore.exceptions import ClientError  # noqa: PLC0415

        try:
            self.client.update_item(
                TableName=self.table_name,
                Key=address_key(address),
                UpdateExpression="ADD #open :minus",
                ConditionExpression="#open > :zero",
                ExpressionAttributeNames={"#open": "open"},
                ExpressionAttributeValues={":minus": {"N": "-1"}, ":zero": {"N": "0"}},
            )
        except ClientError as err:  # already at zero (the item expired meanwhile): nothing to do
            if err.response.get("Error", {}).get("Code") != "ConditionalCheckFailedException":
                raise
