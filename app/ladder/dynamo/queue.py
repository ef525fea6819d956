"""The ladder store on DynamoDB, the queue and placing: a pool's queue, the tables the
matcher claims, seats and releases, and the AWS matcher's lease on its next look.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from botocore.exceptions import ClientError

from app.ladder.dynamo.base import FORMING, NEW, PLAYING, SETTLED, DynamoBase, Lost
from app.ladder.dynamo.items import Item, account_of, flag, num, seats_json, table_of
from app.ladder.store import IDLE, QUEUED, SEATED, Account, LadderConflict, Table, Waiting
from app.store.dynamo.ladder_keys import (
    LOOK_KEY,
    OPEN,
    OPEN_INDEX,
    account_key,
    game_key,
    queue_key,
    queue_pk,
    table_key,
)
from app.store.dynamo.wire import lost_race, number


class QueueDynamo(DynamoBase):
    """The queue and placing (app/ladder/store.py ``QueueStore``)."""

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
        except Lost:
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
            except Lost:
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
                num(item, "fill_at"),
                flag(item, "bot"),
                num(item, "seen_at"),
            )
            for item in self._query(
                KeyConditionExpression="pk = :pk",
                ExpressionAttributeValues={":pk": {"S": queue_pk(pool)}},
                ConsistentRead=True,
            )
        ]
        queue.sort(key=lambda w: (w.queued_at, w.account_id))
        return queue

    def renew(self, account_id: str, pool: str, ticket: str, at: float, every: float) -> bool:
        try:
            self.client.update_item(
                TableName=self.table_name,
                Key=queue_key(pool, account_id),
                UpdateExpression="SET seen_at = :at",
                ConditionExpression="ticket = :ticket AND (seen_at <= :cut"
                " OR (attribute_not_exists(seen_at) AND queued_at <= :cut))",
                ExpressionAttributeValues={
                    ":at": {"N": number(float(at))},
                    ":ticket": {"S": ticket},
                    ":cut": {"N": number(float(at - every))},
                },
            )
        except ClientError as err:
            if lost_race(err):
                return False  # renewed lately, or no longer in this place
            raise
        return True

    def drop_absent(self, account_id: str, pool: str, ticket: str, seen_before: float) -> bool:
        try:
            self._transact(
                [
                    self._update(
                        account_key(account_id),
                        "SET #state = :idle REMOVE #pool, #ticket, #queued_at",
                        "#state = :queued AND #ticket = :ticket AND #pool = :pool",
                        idle=IDLE,
                        queued=QUEUED,
                        ticket=ticket,
                        pool=pool,
                    ),
                    self._delete(
                        queue_key(pool, account_id),
                        "#ticket = :ticket AND (#seen_at < :cut"
                        " OR (attribute_not_exists(#seen_at) AND #queued_at < :cut))",
                        ticket=ticket,
                        cut=float(seen_before),
                    ),
                ]
            )
        except Lost:
            return False  # renewed, left or seated meanwhile
        return True

    # ------------------------------------------------------------------ tables

    def claim(self, table: Table, tickets: dict[str, str]) -> None:
        item: Item = {
            **table_key(table.table_id),
            "table_id": {"S": table.table_id},
            "pool": {"S": table.pool},
            "state": {"S": FORMING},
            "formed_at": {"N": number(float(table.formed_at))},
            "seats": {"S": seats_json(table.seats)},
            "open_pk": {"S": OPEN},
        }
        actions = [self._put(item, NEW)]
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
        except Lost:
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
                account = account_of(item)
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
            except Lost:
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
                        seats=seats_json(table.seats),
                        forming=FORMING,
                    ),
                    self._put(
                        {
                            **game_key(table.game_uuid),
                            "table_id": {"S": table.table_id},
                        },
                        NEW,
                    ),
                ]
            )
        except Lost:
            raise LadderConflict("the table is not forming") from None

    def mark_seen(self, table_id: str, account_id: str) -> None:
        for _ in range(10):
            item = self._get(table_key(table_id))
            if item is None:
                return
            table = table_of(item)
            seats = tuple(
                replace(s, awaited=False) if s.account_id == account_id else s for s in table.seats
            )
            if seats == table.seats:
                return
            try:
                self._transact(
                    [
                        self._update(
                            table_key(table_id),
                            "SET #seats = :seats",
                            "#seats = :was",
                            seats=seats_json(seats),
                            was=item["seats"]["S"],
                        )
                    ]
                )
                return
            except Lost:
                continue  # the seats changed meanwhile (another seat seen): look again
        raise LadderConflict("the table keeps changing")

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
        tables = [table_of(item) for item in self._get_many(keys)]
        tables.sort(key=lambda t: (t.formed_at, t.table_id))
        return [t for t in tables if t.state != SETTLED]

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
