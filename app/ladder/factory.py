"""The ladder's store from the settings (the one place it is made): SQLite beside the
games' file, or the DynamoDB table ``BLEF_LADDER_TABLE_NAME`` names (None when that is
empty: a deployment without a ladder). boto3 loads only when the DynamoDB store is made."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.config.settings import Settings
    from app.ladder.store import LadderStore


def ladder_store(settings: Settings) -> LadderStore | None:
    if settings.store == "sqlite":
        from app.ladder.sqlite.store import LadderSqlite  # noqa: PLC0415

        return LadderSqlite(settings.db_path)
    if not settings.ladder_table_name:
        return None
    from app.ladder.dynamo.store import LadderDynamo  # noqa: PLC0415 (boto3 only when needed)

    store = LadderDynamo(
        settings.ladder_table_name,
        endpoint_url=settings.dynamodb_endpoint,
        region_name=settings.aws_region,
    )
    if settings.create_table:
        store.create_table()
    return store
