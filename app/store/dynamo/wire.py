"""What every DynamoDB store of this service does the same way: a number written exactly, a
table made with its indexes and time to live, and why a write failed (a condition lost,
another transaction in flight). Shared by the games' store (app/store/dynamo/store.py) and
the ladder's (app/ladder/dynamo/, its schema in ladder_keys.py); the Query loop is
paging.py's. botocore is imported by the callers, never here.

>>> number(0.1), number(3)
('0.1', '3')
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping, Sequence
from typing import Any


def number(value: int | float) -> str:
    """A DynamoDB number string for ``value``, exact for the float it came from."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"DynamoDB cannot store the number {value!r}")
        return repr(value)
    return str(int(value))


def index(
    name: str, hash_key: str, range_key: str, projected: Sequence[str] | None = None
) -> dict[str, Any]:
    """A global secondary index on ``hash_key`` and ``range_key``, projecting the keys only,
    or those and ``projected``."""
    projection: dict[str, Any] = (
        {"ProjectionType": "KEYS_ONLY"}
        if projected is None
        else {"ProjectionType": "INCLUDE", "NonKeyAttributes": list(projected)}
    )
    return {
        "IndexName": name,
        "KeySchema": [
            {"AttributeName": hash_key, "KeyType": "HASH"},
            {"AttributeName": range_key, "KeyType": "RANGE"},
        ],
        "Projection": projection,
    }


def create_table(
    client: Any,
    table_name: str,
    *,
    attributes: Mapping[str, str],
    indexes: Sequence[dict[str, Any]],
    ttl_attribute: str,
) -> None:
    """Create an on-demand table keyed on ``pk`` and ``sk`` (both strings) with ``indexes``
    (their key ``attributes``: name -> ``S`` or ``N``), wait until it is active, and turn on
    its time to live on ``ttl_attribute``. Safe to call when it exists already."""
    # made already (by an earlier start, or a racing one): nothing to do
    with contextlib.suppress(client.exceptions.ResourceInUseException):
        client.create_table(
            TableName=table_name,
            AttributeDefinitions=[
                {"AttributeName": name, "AttributeType": kind}
                for name, kind in {"pk": "S", "sk": "S", **attributes}.items()
            ],
            KeySchema=[
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"},
            ],
            GlobalSecondaryIndexes=list(indexes),
            BillingMode="PAY_PER_REQUEST",
        )
    client.get_waiter("table_exists").wait(
        TableName=table_name, WaiterConfig={"Delay": 1, "MaxAttempts": 120}
    )
    ttl = client.describe_time_to_live(TableName=table_name).get("TimeToLiveDescription", {})
    if ttl.get("AttributeName") == ttl_attribute and ttl.get("TimeToLiveStatus") in (
        "ENABLED",
        "ENABLING",
    ):
        return
    client.update_time_to_live(
        TableName=table_name,
        TimeToLiveSpecification={"Enabled": True, "AttributeName": ttl_attribute},
    )


def error_code(err: Any) -> str:
    """The ``Error.Code`` of a botocore ``ClientError``."""
    return str(err.response.get("Error", {}).get("Code", ""))


def cancellation_codes(err: Any) -> list[str]:
    """The per-item reasons of a cancelled transaction ("None" for the items that were fine)."""
    reasons: Any = err.response.get("CancellationReasons")
    if reasons:
        return [str(r.get("Code", "None")) for r in reasons]
    # Older servers and some emulators only spell the reasons out in the message:
    # "Transaction cancelled, please refer cancellation reasons for specific reasons
    # [ConditionalCheckFailed, None]".
    message = str(err.response.get("Error", {}).get("Message", ""))
    start, end = message.rfind("["), message.rfind("]")
    if start < 0 or end < start:
        return []
    return [part.strip() for part in message[start + 1 : end].split(",")]


def lost_race(err: Any) -> bool:
    """Whether a write failed because a condition did not hold (someone else wrote first)."""
    code = error_code(err)
    if code == "ConditionalCheckFailedException":
        return True
    return code == "TransactionCanceledException" and (
        "ConditionalCheckFailed" in cancellation_codes(err)
    )


def collided(err: Any) -> bool:
    """Whether a write was refused because another transaction on the item was in flight."""
    code = error_code(err)
    if code == "TransactionConflictException":
        return True
    return code == "TransactionCanceledException" and (
        "TransactionConflict" in cancellation_codes(err)
    )
