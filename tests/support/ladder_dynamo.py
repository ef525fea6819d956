"""The ladder's DynamoDB table on in-process moto, with a client that refuses Scan and counts
every call: the ladder's store reads by key only (app/ladder/dynamo/)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import boto3

from app.ladder.dynamo.store import LadderDynamo
from app.store.dynamo.ladder_keys import create_ladder_table
from tests.support.dynamo import REGION, fake_aws_env, serialised_moto_dynamodb, unique_table_name


class Scanned(AssertionError):
    """The ladder's store called Scan."""


class NoScanClient:
    """A boto3 DynamoDB client that raises :class:`Scanned` on ``scan`` (and on a Scan
    paginator) and counts every other call by its name."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        if name in {"scan", "get_paginator"}:
            raise Scanned(f"the ladder's store called {name}")
        attribute = getattr(self._client, name)
        if not callable(attribute):
            return attribute

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return attribute(*args, **kwargs)

        return counted


@contextmanager
def moto_ladder_client() -> Iterator[Any]:
    """A raw DynamoDB client in an in-process moto mock (everything inside talks to it)."""
    from moto import mock_aws

    with fake_aws_env(), serialised_moto_dynamodb(), mock_aws():
        yield boto3.session.Session().client("dynamodb", region_name=REGION)


def ladder_table(client: Any, board_shards: int = 4) -> tuple[LadderDynamo, NoScanClient]:
    """A fresh ladder table on ``client`` and a store on it that may not scan."""
    name = unique_table_name("blef-ladder")
    create_ladder_table(client, name)
    guarded = NoScanClient(client)
    return LadderDynamo(name, client=guarded, board_shards=board_shards), guarded


@contextmanager
def moto_ladder(board_shards: int = 4) -> Iterator[LadderDynamo]:
    """A LadderDynamo on a fresh table in an in-process moto mock; it may not scan."""
    with moto_ladder_client() as client:
        store, _ = ladder_table(client, board_shards)
        yield store
