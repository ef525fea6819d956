"""The ladder store on DynamoDB, bots: an account turned bot for good, and how often two
accounts have sat together (the repeated-pairing rule).
"""

from __future__ import annotations

from app.ladder.dynamo.base import DynamoBase
from app.ladder.store import IDLE, LadderConflict
from app.store.dynamo.ladder_keys import GAMES, GAMES_END, account_key, account_pk, games_from


class BotsDynamo(DynamoBase):
    """Bots (app/ladder/store.py ``BotStore``)."""

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
                ":pk": {"S": account_pk(account_id)},
                ":games": {"S": GAMES},
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

    def games_together(self, first: str, second: str, since: float) -> int:
        """A COUNT Query of ``first``'s history pointers settled since ``since``, filtered to
        those whose ``sat`` holds ``second`` (the read costs all of ``first``'s pointers in
        the window, the filter only trims the answer)."""
        return self._count(
            KeyConditionExpression="pk = :pk AND sk BETWEEN :from AND :to",
            FilterExpression="contains(#sat, :second)",
            ExpressionAttributeNames={"#sat": "sat"},
            ExpressionAttributeValues={
                ":pk": {"S": account_pk(first)},
                ":from": {"S": games_from(since)},
                ":to": {"S": GAMES_END},
                ":second": {"S": second},
            },
            ConsistentRead=True,
        )
