"""What every DynamoDB store of this service reads the same way: a number written exactly,
why a write failed (a condition lost, another transaction in flight), and every page of a
Query. Shared by the games' store (app/store/dynamo) and the ladder's (app/ladder/dynamo.py);
botocore is imported by the callers, never here.

>>> number(0.1), number(3)
('0.1', '3')
"""

from __future__ import annotations

import math
from typing import Any


def number(value: int | float) -> str:
    """A DynamoDB number string for ``value``, exact for the float it came from."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"DynamoDB cannot store the number {value!r}")
        return repr(value)
    return str(int(value))


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
