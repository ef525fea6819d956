"""The ladder on DynamoDB: its own table (``BLEF_LADDER_TABLE_NAME``, its schema in
app/store/dynamo/ladder_keys.py), every change one conditional write or one
``TransactWriteItems`` with a condition on each account item, and every read a GetItem, a
BatchGetItem or a Query on a key: nothing scans. docs/ladder-dynamodb.md describes the
design, its costs and how it scales.

Nothing is done at import or construction: the boto3 client is built on first use.
"""

from __future__ import annotations

from app.ladder.dynamo.accounts import AccountsDynamo
from app.ladder.dynamo.bots import BotsDynamo
from app.ladder.dynamo.passkeys import PasskeysDynamo
from app.ladder.dynamo.queue import QueueDynamo
from app.ladder.dynamo.ratings import RatingsDynamo
from app.store.dynamo.ladder_keys import create_ladder_table


class LadderDynamo(AccountsDynamo, PasskeysDynamo, QueueDynamo, RatingsDynamo, BotsDynamo):
    """The ladder store on DynamoDB: every section of app/ladder/store.py's ``LadderStore``
    (see the module docstring)."""


__all__ = ["LadderDynamo", "create_ladder_table"]
