"""The DynamoDB table holding every game, its round snapshots and the public-games index."""

from __future__ import annotations

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
        self.table.add_global_secondary_index(
            index_name=PUBLIC_GAMES_INDEX,
            partition_key=dynamodb.Attribute(name="list_pk", type=dynamodb.AttributeType.STRING),
            sort_key=dynamodb.Attribute(name="last_modified", type=dynamodb.AttributeType.NUMBER),
            projection_type=dynamodb.ProjectionType.INCLUDE,
            non_key_attributes=list(PUBLIC_GAMES_PROJECTION),
        )
        self.table.add_global_secondary_index(
            index_name=DUE_GAMES_INDEX,
            partition_key=dynamodb.Attribute(name="due_pk", type=dynamodb.AttributeType.STRING),
            sort_key=dynamodb.Attribute(name="due_at", type=dynamodb.AttributeType.NUMBER),
            projection_type=dynamodb.ProjectionType.INCLUDE,
            non_key_attributes=list(DUE_GAMES_PROJECTION),
        )
