"""Build the store the settings ask for (imported lazily: boto3 only when DynamoDB is used)."""

from __future__ import annotations

from app.settings import Settings
from app.store.base import GameStore


def build_store(settings: Settings) -> GameStore:
    if settings.store == "dynamodb":
        from app.store.dynamo import DynamoStore  # noqa: PLC0415 (boto3 only when needed)

        store = DynamoStore(
            settings.table_name,
            endpoint_url=settings.dynamodb_endpoint,
            region_name=settings.aws_region,
        )
        if settings.create_table:
            store.create_table()
        return store
    from app.store.sqlite import SqliteStore  # noqa: PLC0415

    return SqliteStore(settings.db_path)
