"""Nickname report items share the games table, so its stream carries them too: neither the
clock's nor the pusher's event filter may match them, and their handlers ignore them if one
ever arrives anyway.

The filters are matched here with a small evaluator of the few EventBridge pattern forms they
use (a list of exact values, ``prefix``, ``exists``: tests/support/stream.py); the same
evaluator must match a game's live item, so a test of a report item that matched nothing can fail.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from app.clock.aws import due_of_record
from app.store.base import Report
from app.watch.pusher import read_records
from tests.store.games import new_doc, running_game
from tests.support.dynamo import DynamoTable, moto_dynamo_table
from tests.support.stream import matches as _matches


def _patterns() -> dict[str, list[dict[str, Any]]]:
    from infra.blef_infra import clock, watch  # aws_cdk only where needed

    return {
        name: [json.loads(f["pattern"]) for f in module.stream_filters()]
        for name, module in (("clock", clock), ("watch", watch))
    }


def _record(event_name: str, item: dict[str, Any]) -> dict[str, Any]:
    """The stream record DynamoDB sends for ``item`` (NEW_AND_OLD_IMAGES)."""
    keys = {"pk": item["pk"], "sk": item["sk"]}
    return {"eventName": event_name, "dynamodb": {"Keys": keys, "NewImage": item}}


@pytest.fixture
def table() -> Iterator[DynamoTable]:
    with moto_dynamo_table() as table:
        yield table


def _report_item(table: DynamoTable) -> dict[str, Any]:
    store = table.store()
    game = new_doc(running_game("alice", "bob"))
    game.due_at = time.time() + 30
    store.add_report(Report(game.game_uuid, "alice", "bob", time.time(), int(time.time()) + 99))
    item = table.item("REPORT", f"{game.game_uuid}#alice#bob")
    assert item is not None
    return item


def test_the_evaluator_matches_a_live_game_item_for_both_consumers(table: DynamoTable) -> None:
    store = table.store()
    doc = new_doc(running_game("alice", "bob"))
    doc.due_at = time.time() + 30
    store.create(doc)
    item = table.item(f"GAME#{doc.game_uuid}", "STATE")
    assert item is not None
    record = _record("INSERT", item)
    for name, patterns in _patterns().items():
        assert any(_matches(p, record) for p in patterns), name


@pytest.mark.parametrize("event_name", ["INSERT", "MODIFY", "REMOVE"])
def test_a_report_items_stream_record_matches_no_consumers_filter(
    table: DynamoTable, event_name: str
) -> None:
    record = _record(event_name, _report_item(table))
    for name, patterns in _patterns().items():
        assert not any(_matches(p, record) for p in patterns), name


@pytest.mark.parametrize("event_name", ["INSERT", "MODIFY"])
def test_the_clock_and_the_pusher_ignore_a_report_record_that_gets_through(
    table: DynamoTable, event_name: str
) -> None:
    record = _record(event_name, _report_item(table))
    assert due_of_record(record) is None
    batch = read_records([record])
    assert batch.games == {}
    assert batch.joined == []
