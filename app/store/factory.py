"""Build the store the settings ask for (imported lazily: boto3 only when DynamoDB is used).
The one place a store is made from the settings: ``blef serve`` and every Lambda function."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.config.settings import Settings
from app.store.base import Store

if TYPE_CHECKING:
    from app.store.dynamo.store import DynamoStore


def dynamo_store(settings: Settings, clock: Callable[[], float] = time.time) -> DynamoStore:
    """The games table the settings name (``BLEF_TABLE_NAME``, its region and endpoint)."""
    from app.store.dynamo.store import DynamoStore  # noqa: PLC0415 (boto3 only when needed)

    return DynamoStore(
        settings.table_name,
        endpoint_url=settings.dynamodb_endpoint,
        region_name=settings.aws_region,
        clock=clock,
    )


def build_store(settings: Settings, clock: Callable[[], float] = time.time) -> Store:
    """The store ``settings.store`` names, reading "now" from ``clock`` (the service's)."""
    if settings.store == "dynamodb":
        store = dynamo_store(settings, clock)
        if settings.create_table:
            store.create_table()
        return store
    from app.store.sqlite import SqliteStore  # noqa: PLC0415

    return SqliteStore(settings.db_path, clock=clock)
