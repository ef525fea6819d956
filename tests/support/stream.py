"""The games table's stream as the pusher receives it, on moto: every write to the table as
a stream record (``NEW_AND_OLD_IMAGES``, in the order the writes were seen), passed through
the event filter the stack declares for the pusher (infra/blef_infra/watch.py, matched by a
small evaluator of the EventBridge pattern forms it uses), cut into batches of the deployed
size.

:class:`TableStream` reads the whole table after each step a test takes (a scan, strongly
consistent) and turns what changed into records: an item that appeared is an ``INSERT``, one
that changed a ``MODIFY`` with its old image, one that went a ``REMOVE``. Writes within one
step come out by partition, an ended round's item before the live item written with it;
the filter then drops what the pusher is never invoked for (reverse connection items,
counters, deletions).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any

from tests.support.dynamo import DynamoTable
from tests.watch.events import stream_record


def _leaf_matches(rules: list[Any], value: Any) -> bool:
    for rule in rules:
        if isinstance(rule, dict):
            if "prefix" in rule and isinstance(value, str) and value.startswith(rule["prefix"]):
                return True
            if "exists" in rule and (value is not None) == rule["exists"]:
                return True
        elif value == rule:
            return True
    return False


def matches(pattern: dict[str, Any], event: dict[str, Any] | None) -> bool:
    """Whether an EventBridge-style ``pattern`` (lists of values, ``prefix``, ``exists``)
    matches ``event``."""
    for key, rule in pattern.items():
        value = None if event is None else event.get(key)
        if isinstance(rule, dict):
            if not matches(rule, value if isinstance(value, dict) else None):
                return False
        elif not _leaf_matches(rule, value):
            return False
    return True


@functools.cache
def pusher_filter() -> tuple[list[dict[str, Any]], int]:
    """The pusher's event filter patterns and its batch size, as the stack declares them."""
    from infra.blef_infra import watch

    patterns = [json.loads(f["pattern"]) for f in watch.stream_filters()]
    return patterns, watch.STREAM_BATCH_SIZE


class TableStream:
    """Every write to ``table`` since the last :meth:`capture`, as stream records."""

    def __init__(self, table: DynamoTable) -> None:
        self.table = table
        self._seen: dict[tuple[str, str], dict[str, Any]] = {}
        self.records: list[dict[str, Any]] = []
        self.capture()
        self.records.clear()

    def _items(self) -> dict[tuple[str, str], dict[str, Any]]:
        found: dict[tuple[str, str], dict[str, Any]] = {}
        kwargs: dict[str, Any] = {}
        while True:
            page = self.table.client.scan(
                TableName=self.table.table_name, ConsistentRead=True, **kwargs
            )
            for item in page.get("Items", []):
                found[(item["pk"]["S"], item["sk"]["S"])] = item
            if not page.get("LastEvaluatedKey"):
                return found
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def capture(self) -> list[dict[str, Any]]:
        """The records of the writes since the last capture (round items before the live
        item they were written with), also kept in :attr:`records`."""
        now = self._items()
        new: list[dict[str, Any]] = []
        order = sorted(set(now) | set(self._seen), key=lambda k: (k[0], k[1] == "STATE", k[1]))
        for key in order:
            before, after = self._seen.get(key), now.get(key)
            if after is not None and before is None:
                new.append(stream_record(after, "INSERT"))
            elif after is not None and after != before:
                new.append(stream_record(after, "MODIFY", old=before))
            elif after is None and before is not None:
                record = stream_record(before, "REMOVE", old=before)
                new.append(record)
        self._seen = now
        self.records += new
        return new

    def batches(self, size: int | None = None) -> Iterator[list[dict[str, Any]]]:
        """The records kept so far that the pusher's filter lets through, in batches of
        the deployed size (or ``size``); then forgets them."""
        patterns, deployed = pusher_filter()
        passed = [r for r in self.records if any(matches(p, r) for p in patterns)]
        self.records = []
        step = size or deployed
        for start in range(0, len(passed), step):
            yield passed[start : start + step]
