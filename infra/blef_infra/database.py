"""The DynamoDB table holding every game, its round snapshots and the public-games index."""

from __future__ import annotations

from collections.abc import Sequence

from aws_cdk import aws_dynamodb as dynamodb
from constructs import Construct

from .config import EnvironmentSettings

PUBLIC_GAMES_INDEX = "public-games"
"""Lists public games in the lobby, most recently changed first, without a scan."""
PUBLIC_GAMES_PROJECTION = ("game_uuid", "room", "nicknames")
"""What the public list shows; everything else stays out of the index (and its cost)."""
DUE_GAMES_INDEX = "due-games"
"""Games the clock must act on, earliest first (sparse: only live items with ``due_at``);
the sweeper's and a restarted clock's agenda. Identical to ``create_table`` in
app/store/dynamo.py."""
DUE_GAMES_PROJECTION = ("game_uuid", "version")
TTL_ATTRIBUTE = "expires_at"
"""Epoch seconds after which DynamoDB deletes an abandoned game, free of charge."""


def add_index(
    table: dynamodb.Table,
    name: str,
    hash_key: str,
    range_key: str,
    projected: Sequence[str] | None = None,
) -> None:
    """A global secondary index on a string ``hash_key`` and a number ``range_key``,
    projecting the keys only or those and ``projected`` (as app/store/dynamo/wire.py's ``index``
    describes it to the stores' ``create_table``)."""
    table.add_global_secondary_index(
        index_name=name,
        partition_key=dynamodb.Attribute(name=hash_key, type=dynamodb.AttributeType.STRING),
        sort_key=dynamodb.Attribute(name=range_key, type=dynamodb.AttributeType.NUMBER),
        projection_type=(
            dynamodb.ProjectionType.KEYS_ONLY
            if projected is None
            else dynamodb.ProjectionType.INCLUDE
        ),
        non_key_attributes=None if projected is None else list(projected),
    )


class Database(Construct):
    """One on-demand table (single-table design: ``pk``/``sk``) and its two indexes.

    On-demand billing because traffic is spiky and mostly idle: no capacity to plan, and
    nothing to pay when nobody plays. ``dynamodb.Table`` (``AWS::DynamoDB::Table``) rather
    than ``TableV2`` (a global table) because the service lives in one region.
    """

    def __init__(self, scope: Construct, construct_id: str, *, settings: EnvironmentSettings):
        super().__init__(scope, construct_id)
        self.table = dynamodb.Table(
            self,
            "Games",
            partition_key=dynamodb.Attribute(name="pk", type=dynamodb.AttributeType.STRING),
            sort_key=dynamodb.Attribute(name="sk", type=dynamodb.AttributeType.STRING),
            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
            time_to_live_attribute=TTL_ATTRIBUTE,
            # Every change, as the item after it, for the websocket pusher (watch.py).
            stream=dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
            point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                point_in_time_recovery_enabled=True
            ),
            deletion_protection=settings.deletion_protection,
            removal_policy=settings.removal_policy,
        )
        add_index(
            self.table, PUBLIC_GAMES_INDEX, "list_pk", "last_modified", PUBLIC_GAMES_PROJECTION
        )
        add_index(self.table, DUE_GAMES_INDEX, "due_pk", "due_at", DUE_GAMES_PROJECTION)
