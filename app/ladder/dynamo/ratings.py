"""The ladder store on DynamoDB, ratings and boards: a settlement (one transaction), the
results and each account's history, the ratings, the sharded boards and ranks.
"""

from __future__ import annotations

from typing import Any

from app.ladder.dynamo.base import NEW, PLAYING, SETTLED, DynamoBase, Lost
from app.ladder.dynamo.items import Item, account_of, num, rating_of, result_json, result_of
from app.ladder.store import IDLE, SEATED, Account, Change, LadderConflict, Rating, Result
from app.store.dynamo.ladder_keys import (
    BOARD_INDEX,
    GAMES,
    RATINGS,
    account_key,
    account_pk,
    board_pk,
    game_entry_key,
    key,
    ordinal,
    rating_key,
    result_key,
    result_key_of,
    results_pk,
    shard_of,
    table_key,
)
from app.store.dynamo.paging import query_pages
from app.store.dynamo.wire import number


class RatingsDynamo(DynamoBase):
    """Settlements, results, ratings and boards (app/ladder/store.py ``RatingStore``)."""

    # ------------------------------------------------------------------ results

    def settle(self, result: Result) -> None:
        table = self.table(result.table_id)
        if table is None or table.state != PLAYING:
            raise LadderConflict("settled already")
        sat = sorted({s.account_id for s in table.seats} | {c.account_id for c in result.changes})
        accounts = {
            a.account_id: a
            for a in (account_of(i) for i in self._get_many([account_key(k) for k in sat]))
        }
        at = float(result.settled_at)
        record = result_json(result)
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
            self._put(result_item, NEW),
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
            actions.append(self._put(pointer, NEW))
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
        except Lost:
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
            return self._put(item, NEW)
        return self._put(item, "#games = :before", before=change.before.games)

    def result(self, table_id: str) -> Result | None:
        item = self._get(table_key(table_id))
        if item is None or "result_sk" not in item:
            return None
        stored = self._get(key(results_pk(item["pool"]["S"]), item["result_sk"]["S"]))
        return None if stored is None else result_of(stored["result"]["S"])

    def results(self, pool: str) -> list[Result]:
        return [
            result_of(item["result"]["S"])
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
                ":pk": {"S": account_pk(account_id)},
                ":games": {"S": GAMES},
            },
            ScanIndexForward=False,
            Limit=limit,
            ConsistentRead=True,
        )
        wanted = [result_key_of(pointer) for pointer in reply.get("Items", [])]
        found = {
            (item["pk"]["S"], item["sk"]["S"]): result_of(item["result"]["S"])
            for item in self._get_many(wanted)
        }
        return [
            found[(k["pk"]["S"], k["sk"]["S"])]
            for k in wanted
            if (k["pk"]["S"], k["sk"]["S"]) in found
        ]

    # ------------------------------------------------------------------ ratings and boards

    def rating(self, account_id: str, pool: str) -> Rating | None:
        item = self._get(rating_key(account_id, pool))
        return None if item is None else rating_of(item)

    def ratings(self, account_id: str) -> list[Rating]:
        return [
            rating_of(item)
            for item in self._query(
                KeyConditionExpression="pk = :pk AND begins_with(sk, :ratings)",
                ExpressionAttributeValues={
                    ":pk": {"S": account_pk(account_id)},
                    ":ratings": {"S": RATINGS},
                },
                ConsistentRead=True,
            )
        ]

    def _shard_top(self, pool: str, shard: int, limit: int) -> list[Item]:
        """A shard's best ``limit`` by ordinal, and every tie of the last of them."""
        rows: list[Item] = []
        for page in query_pages(
            self.client,
            page_size=limit + 1,
            TableName=self.table_name,
            IndexName=BOARD_INDEX,
            KeyConditionExpression="board_pk = :board",
            ExpressionAttributeValues={":board": {"S": board_pk(pool, shard)}},
            ScanIndexForward=False,
        ):
            rows.extend(page.get("Items", []))
            if len(rows) > limit and num(rows[limit], "ordinal") != num(rows[limit - 1], "ordinal"):
                break  # full, and no tie straddles its end
        return rows

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
                account_of(i)
                for i in self._get_many(
                    [account_key(r["account_id"]["S"]) for r in rows], consistent=False
                )
            )
        }
        # The index lags its table a moment: a rating deleted with its account may linger.
        return [
            (accounts[r["account_id"]["S"]], rating_of(r))
            for r in rows
            if r["account_id"]["S"] in accounts
        ]

    def rank(self, account_id: str, pool: str) -> int | None:
        mine = self.rating(account_id, pool)
        if mine is None:
            return None
        above = 0
        for shard in range(self.board_shards):
            above += self._count(
                IndexName=BOARD_INDEX,
                KeyConditionExpression="board_pk = :board AND ordinal > :mine",
                ExpressionAttributeValues={
                    ":board": {"S": board_pk(pool, shard)},
                    ":mine": {"N": number(ordinal(mine.mu, mine.sigma))},
                },
            )
        return above + 1
