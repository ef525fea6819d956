"""The AWS store: one DynamoDB table, single-table design, conditional writes.

The table (created by :func:`create_table` here and by the CDK stack, identically):

====================  ==============  ===============================================
item                  ``pk``          ``sk``
====================  ==============  ===============================================
a game (live state)   ``GAME#<uuid>`` ``STATE``
a finished round      ``GAME#<uuid>`` ``ROUND#0001`` (zero-padded, so keys sort)
the room counter      ``COUNTER``     ``ROOM``
a keyed create        ``CREATE#<h>``  ``KEY`` (``h``: the key's hash; holds the game)
a nickname report     ``REPORT``      ``<game uuid>#<reporter>#<nickname>``
====================  ==============  ===============================================

The live item holds the whole :class:`GameDoc` as a JSON string in ``doc`` (no Decimal
conversions, floats survive exactly), plus top-level copies of what DynamoDB itself needs:
``version`` for the condition of every save, ``expires_at`` for TTL, and, only while the
game is listed (public and not started), ``list_pk = "PUBLIC"`` (``"PUBLIC#<kind>"`` for a
game of another kind than Blef): the partition key of the sparse GSI ``public-games`` (sort
key ``last_modified``), which projects ``game_uuid``, ``room`` and ``nicknames`` so the
public list is one Query. Likewise, only while the clock has something due on the game
(app/clock), ``due_pk = "DUE"`` and ``due_at``: the sparse GSI ``due-games`` (sort key
``due_at``, projecting ``game_uuid`` and ``version``), from which a clock rebuilds its
agenda or sweeps overdue games. Every save is a full Put, so a game that stops being listed
(or due) loses those attributes and leaves the index. A round item carries its own
``last_modified``.

A report item holds ``game_uuid``, ``reporter``, ``nickname``, ``reported_at`` and
``expires_at`` (its TTL, past the game's own). Its key is one item per (game, reporter,
nickname) (nicknames are word characters, never ``#``), so a repeated report is a plain Put
that replaces it. All reports share one partition: the operator reads them rarely and there
are few, and no stream consumer (clock, watch) matches their ``sk``.

A save without snapshots is one conditional PutItem; with snapshots it is one
TransactWriteItems (the conditional Put of the state and a Put per round that must not
exist yet), so a round's snapshot is written if and only if the state change is.

No work happens at import or construction: the boto3 client is built on first use, which
keeps a Lambda cold start (and the SQLite-only paths, which never import this module) fast.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final

from botocore.exceptions import ClientError

from app.cloud import clients as aws
from app.store.base import (
    Conflict,
    DueGame,
    GameDoc,
    PublicGame,
    Report,
    RoundSnapshot,
    is_listed,
)
from app.store.dynamo import wire as dynamo
from app.store.dynamo.keys import (
    COUNTER_KEY,
    DUE,
    DUE_INDEX,
    MAX_ROUND,
    PUBLIC_INDEX,
    REPORT_PK,
    ROUND_PREFIX,
    TTL_ATTRIBUTE,
    create_key,
    game_pk,
    listed_pk,
    report_sk,
    round_key,
    state_key,
)
from app.store.dynamo.paging import query_all, query_pages
from app.store.dynamo.wire import collided as _collided
from app.store.dynamo.wire import lost_race as _lost_race
from app.store.dynamo.wire import number as _number

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import (
        AttributeValueTypeDef,
        TransactWriteItemTypeDef,
    )

    Item = dict[str, AttributeValueTypeDef]

ROOM_WRAP: Final = 9999
"""Room numbers run 1..9999 and then start again (they are for display only)."""
MAX_SNAPSHOTS_PER_SAVE: Final = 99
"""A transaction holds at most 100 items: the state plus 99 rounds."""
TRANSACTION_CONFLICT_ATTEMPTS: Final = 3
"""How often a write that collided with another transaction in flight is tried in all."""

_SAVE_CONDITION: Final = "attribute_exists(pk) AND #version = :expected"
_CREATE_CONDITION: Final = "attribute_not_exists(pk)"


def _snapshot(game_uuid: str, round_number: int, item: dict[str, Any]) -> RoundSnapshot:
    last_modified = float(item.get("last_modified", {}).get("N", "0"))
    return RoundSnapshot(game_uuid, round_number, json.loads(item["data"]["S"]), last_modified)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def create_table(client: DynamoDBClient | Any, table_name: str) -> None:
    """Create the games table with the schema above (on-demand billing, TTL on
    ``expires_at``) and wait until it is active. Safe to call when it already exists."""
    dynamo.create_table(
        client,
        table_name,
        attributes={"list_pk": "S", "last_modified": "N", "due_pk": "S", "due_at": "N"},
        indexes=[
            dynamo.index(
                PUBLIC_INDEX, "list_pk", "last_modified", ["game_uuid", "room", "nicknames"]
            ),
            dynamo.index(DUE_INDEX, "due_pk", "due_at", ["game_uuid", "version"]),
        ],
        ttl_attribute=TTL_ATTRIBUTE,
    )


class DynamoStore:
    """Games in one DynamoDB table (see the module docstring for the layout).

    ``clock`` is the service's clock, the one source of "now" (expiry is read against it).
    ``client`` is any boto3 DynamoDB client (it is then neither built nor closed here);
    otherwise one is built on first use from ``endpoint_url`` and ``region_name`` and the
    usual AWS credential chain. A boto3 client is thread-safe, so one store serves every
    thread.

    ``requests`` counts the DynamoDB API calls this store made, by operation name
    (SDK-internal retries of a call are not counted again); :attr:`request_count` is their
    sum. The API benchmark reads them to report requests per bet and per check.
    """

    query_page_size: int | None = None
    """``Limit`` of each page of :meth:`load_rounds` and :meth:`list_reports` (None:
    DynamoDB's 1 MB pages)."""

    def __init__(
        self,
        table_name: str,
        *,
        endpoint_url: str | None = None,
        region_name: str | None = None,
        client: Any | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.table_name = table_name
        self.clock = clock
        """What "now" is when an expired item is told apart (the service's clock)."""
        self.endpoint_url = endpoint_url
        self.region_name = region_name
        self._clients = aws.LazyClient(
            "dynamodb", given=client, endpoint_url=endpoint_url, region_name=region_name
        )
        self._lock = threading.Lock()
        self.requests: Counter[str] = Counter()

    # ------------------------------------------------------------------ plumbing

    @property
    def client(self) -> DynamoDBClient:
        """The boto3 client, built on first use."""
        made: DynamoDBClient = self._clients.get()
        return made

    def _count(self, operation: str) -> None:
        with self._lock:
            self.requests[operation] += 1

    @property
    def request_count(self) -> int:
        """How many DynamoDB API calls this store has made."""
        with self._lock:
            return sum(self.requests.values())

    def reset_request_count(self) -> None:
        with self._lock:
            self.requests.clear()

    def create_table(self) -> None:
        """Create this store's table if it does not exist (local development and tests)."""
        create_table(self.client, self.table_name)

    def close(self) -> None:
        """Close the client this store built (a client passed in is the caller's to close)."""
        self._clients.close()

    # ------------------------------------------------------------------ items

    def _state_item(self, doc: GameDoc) -> Item:
        facts = doc.facts  # read once (status, nicknames, listed)
        item: Item = {
            **state_key(doc.game_uuid),
            "version": {"N": _number(doc.version)},
            "doc": {"S": _dumps(doc.to_dict())},
            "last_modified": {"N": _number(doc.last_modified)},
            "status": {"S": facts.status.value},
            "game_uuid": {"S": doc.game_uuid},
            "room": {"N": _number(doc.room)},
            "nicknames": {"L": [{"S": nick} for nick in facts.nicknames]},
        }
        if doc.expires_at:
            item[TTL_ATTRIBUTE] = {"N": _number(doc.expires_at)}
        if is_listed(facts):
            item["list_pk"] = {"S": listed_pk(doc.kind)}
        if doc.due_at is not None:
            item["due_pk"] = {"S": DUE}
            item["due_at"] = {"N": _number(float(doc.due_at))}
        return item

    @staticmethod
    def _round_item(snapshot: RoundSnapshot, expires_at: int) -> Item:
        item: Item = {
            **round_key(snapshot.game_uuid, snapshot.round_number),
            "round_number": {"N": _number(snapshot.round_number)},
            "data": {"S": _dumps(snapshot.data)},
            "last_modified": {"N": _number(float(snapshot.last_modified))},
        }
        if expires_at:
            item[TTL_ATTRIBUTE] = {"N": _number(expires_at)}
        return item

    # ------------------------------------------------------------------ the protocol

    def create(self, doc: GameDoc) -> None:
        item = self._state_item(doc)
        self._count("PutItem")
        try:
            self.client.put_item(
                TableName=self.table_name, Item=item, ConditionExpression=_CREATE_CONDITION
            )
        except ClientError as err:
            if _lost_race(err):
                raise Conflict(f"game {doc.game_uuid} already exists") from None
            raise

    def load(self, game_uuid: str) -> GameDoc | None:
        self._count("GetItem")
        item = self.client.get_item(
            TableName=self.table_name,
            Key=state_key(game_uuid),
            ConsistentRead=True,
            ProjectionExpression="#doc, expires_at",
            ExpressionAttributeNames={"#doc": "doc"},
        ).get("Item")
        if item is None:
            return None
        # TTL deletes lazily (typically within days), so an expired game may still be there.
        expires_at = int(item.get(TTL_ATTRIBUTE, {}).get("N", "0"))
        if expires_at and expires_at < self.clock():
            return None
        return GameDoc.from_dict(json.loads(item["doc"]["S"]))

    def save(
        self, doc: GameDoc, expected_version: int, snapshots: Sequence[RoundSnapshot] = ()
    ) -> None:
        if doc.version != expected_version + 1:
            raise ValueError("a saved game's version must be one above the version read")
        if len(snapshots) > MAX_SNAPSHOTS_PER_SAVE:
            raise ValueError(f"at most {MAX_SNAPSHOTS_PER_SAVE} rounds can be saved at once")
        for snapshot in snapshots:
            if snapshot.game_uuid != doc.game_uuid:
                raise ValueError("a snapshot must belong to the game saved with it")
        state = self._state_item(doc)
        names = {"#version": "version"}
        values: Item = {":expected": {"N": _number(expected_version)}}
        token = str(uuid.uuid4())  # makes the SDK's retries of one transaction idempotent
        for attempt in range(1, TRANSACTION_CONFLICT_ATTEMPTS + 1):
            try:
                if not snapshots:
                    self._count("PutItem")
                    self.client.put_item(
                        TableName=self.table_name,
                        Item=state,
                        ConditionExpression=_SAVE_CONDITION,
                        ExpressionAttributeNames=names,
                        ExpressionAttributeValues=values,
                    )
                    return
                items: list[TransactWriteItemTypeDef] = [
                    {
                        "Put": {
                            "TableName": self.table_name,
                            "Item": state,
                            "ConditionExpression": _SAVE_CONDITION,
                            "ExpressionAttributeNames": names,
                            "ExpressionAttributeValues": values,
                        }
                    }
                ]
                items.extend(
                    {
                        "Put": {
                            "TableName": self.table_name,
                            "Item": self._round_item(snapshot, doc.expires_at),
                            "ConditionExpression": _CREATE_CONDITION,
                        }
                    }
                    for snapshot in snapshots
                )
                self._count("TransactWriteItems")
                self.client.transact_write_items(TransactItems=items, ClientRequestToken=token)
                return
            except ClientError as err:
                if _lost_race(err):
                    raise Conflict(
                        f"game {doc.game_uuid} is not at version {expected_version}"
                    ) from None
                if not _collided(err):
                    raise
                # Another transaction on this game was in flight; nothing was written.
                # Trying again re-evaluates the condition, which then decides the race.
                if attempt == TRANSACTION_CONFLICT_ATTEMPTS:
                    raise Conflict(f"game {doc.game_uuid} is being changed") from None
                time.sleep(0.01 * attempt)

    def load_round(self, game_uuid: str, round_number: int) -> RoundSnapshot | None:
        if not 0 <= round_number <= MAX_ROUND:
            return None
        self._count("GetItem")
        item = self.client.get_item(
            TableName=self.table_name,
            Key=round_key(game_uuid, round_number),
            ConsistentRead=True,
            ProjectionExpression="#data, last_modified",
            ExpressionAttributeNames={"#data": "data"},
        ).get("Item")
        if item is None:
            return None
        return _snapshot(game_uuid, round_number, item)

    def _query_all(self, **query: Any) -> Iterator[Item]:
        """Every item a Query finds, page after page (``query_page_size`` items a page)."""
        return query_all(
            self.client,
            page_size=self.query_page_size,
            counted=lambda: self._count("Query"),
            TableName=self.table_name,
            **query,
        )

    def load_rounds(self, game_uuid: str) -> list[RoundSnapshot]:
        rounds = [
            _snapshot(game_uuid, int(item["round_number"]["N"]), item)
            for item in self._query_all(
                KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
                ExpressionAttributeValues={
                    ":pk": {"S": game_pk(game_uuid)},
                    ":prefix": {"S": ROUND_PREFIX},
                },
                ProjectionExpression="round_number, #data, last_modified",
                ExpressionAttributeNames={"#data": "data"},
                ConsistentRead=True,
            )
        ]
        rounds.sort(key=lambda r: r.round_number)
        return rounds

    def list_public(
        self,
        since: float,
        limit: int,
        after: tuple[float, str] | None = None,
        kind: str = "blef",
    ) -> list[PublicGame]:
        # The index projects no ``expires_at``, so a listed game past its expiry stays listed
        # until TTL deletes it; with a week of TTL and a half-hour list window it never shows.
        # A page after ``after`` is a query up to its time, less the entries at that very
        # time that came before it (equal times are the only place the order needs the UUID).
        games: list[PublicGame] = []
        condition = "list_pk = :listed AND last_modified >= :since"
        values: dict[str, Any] = {
            ":listed": {"S": listed_pk(kind)},
            ":since": {"N": _number(float(since))},
        }
        if after is not None:
            condition = "list_pk = :listed AND last_modified BETWEEN :since AND :before"
            values[":before"] = {"N": _number(float(after[0]))}
        for page in query_pages(
            self.client,
            page_size=lambda: max(limit - len(games), 1) + 8,
            counted=lambda: self._count("Query"),
            TableName=self.table_name,
            IndexName=PUBLIC_INDEX,
            KeyConditionExpression=condition,
            ExpressionAttributeValues=values,
            ScanIndexForward=False,
        ):
            games.extend(
                game
                for game in (
                    PublicGame(
                        game_uuid=item["game_uuid"]["S"],
                        room=int(item["room"]["N"]),
                        players=[nick["S"] for nick in item["nicknames"]["L"]],
                        last_modified=float(item["last_modified"]["N"]),
                    )
                    for item in page.get("Items", [])
                )
                if after is None or (game.last_modified, game.game_uuid) < after
            )
            if len(games) > limit and games[limit].last_modified < games[limit - 1].last_modified:
                break  # the page is full and no tie straddles its end
        games.sort(key=lambda g: (g.last_modified, g.game_uuid), reverse=True)
        return games[:limit]

    def list_due(self, before: float, limit: int) -> list[DueGame]:
        due: list[DueGame] = []
        if limit <= 0:
            return due
        for page in query_pages(
            self.client,
            page_size=lambda: limit - len(due),
            counted=lambda: self._count("Query"),
            TableName=self.table_name,
            IndexName=DUE_INDEX,
            KeyConditionExpression="due_pk = :due AND due_at <= :before",
            ExpressionAttributeValues={
                ":due": {"S": DUE},
                ":before": {"N": _number(float(before))},
            },
        ):
            due.extend(
                DueGame(
                    game_uuid=item["game_uuid"]["S"],
                    version=int(item["version"]["N"]),
                    due_at=float(item["due_at"]["N"]),
                )
                for item in page.get("Items", [])
            )
            if len(due) >= limit:
                break
        return due[:limit]

    def purge_expired(self, now: float) -> int:
        """Nothing to do: the table's TTL deletes expired items (and reads ignore them
        until it does)."""
        return 0

    def add_report(self, report: Report) -> None:
        item: Item = {
            "pk": {"S": REPORT_PK},
            "sk": {"S": report_sk(report.game_uuid, report.reporter, report.nickname)},
            "game_uuid": {"S": report.game_uuid},
            "reporter": {"S": report.reporter},
            "nickname": {"S": report.nickname},
            "reported_at": {"N": _number(float(report.reported_at))},
            TTL_ATTRIBUTE: {"N": _number(int(report.expires_at))},
        }
        self._count("PutItem")
        self.client.put_item(TableName=self.table_name, Item=item)

    def list_reports(self, limit: int) -> list[Report]:
        # Every report is read (they are few), since the sort key orders them by game, not
        # by time; TTL deletes lazily, so the expired ones are dropped here.
        now = self.clock()
        reports: list[Report] = []
        query = self._query_all(
            KeyConditionExpression="pk = :pk", ExpressionAttributeValues={":pk": {"S": REPORT_PK}}
        )
        for item in query:
            report = Report(
                game_uuid=item["game_uuid"]["S"],
                reporter=item["reporter"]["S"],
                nickname=item["nickname"]["S"],
                reported_at=float(item["reported_at"]["N"]),
                expires_at=int(item[TTL_ATTRIBUTE]["N"]),
            )
            if report.expires_at >= now:
                reports.append(report)
        reports.sort(key=lambda r: (-r.reported_at, r.game_uuid, r.reporter, r.nickname))
        return reports[: max(limit, 0)]

    def find_create_key(self, key_hash: str) -> str | None:
        self._count("GetItem")
        item = self.client.get_item(
            TableName=self.table_name,
            Key=create_key(key_hash),
            ConsistentRead=True,
            ProjectionExpression="game_uuid",
        ).get("Item")
        return None if item is None else item["game_uuid"]["S"]

    def claim_create_key(self, key_hash: str, game_uuid: str, expires_at: int) -> str:
        item: Item = {**create_key(key_hash), "game_uuid": {"S": game_uuid}}
        if expires_at:
            item[TTL_ATTRIBUTE] = {"N": _number(expires_at)}
        self._count("PutItem")
        try:
            self.client.put_item(
                TableName=self.table_name, Item=item, ConditionExpression=_CREATE_CONDITION
            )
        except ClientError as err:
            if not _lost_race(err):
                raise
            owner = self.find_create_key(key_hash)
            if owner is None:  # claimed, then deleted by TTL in between: a fresh attempt
                return self.claim_create_key(key_hash, game_uuid, expires_at)
            return owner
        return game_uuid

    def allocate_room(self) -> int:
        self._count("UpdateItem")
        reply = self.client.update_item(
            TableName=self.table_name,
            Key=COUNTER_KEY,
            UpdateExpression="ADD #value :one",
            ExpressionAttributeNames={"#value": "value"},
            ExpressionAttributeValues={":one": {"N": "1"}},
            ReturnValues="UPDATED_NEW",
        )
        value = int(reply["Attributes"]["value"]["N"])
        return (value - 1) % ROOM_WRAP + 1
