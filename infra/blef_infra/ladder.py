"""The ladder's DynamoDB table and its alarms (its schema: app/store/dynamo/ladder_keys.py;
the store: app/ladder/dynamo/; docs/ladder-dynamodb.md).

One on-demand table (``pk``/``sk``, identical to ``create_ladder_table``) with three sparse
indexes: ``ladder-board`` (each pool's board, sharded, by ordinal), ``ladder-open`` (the
tables not yet settled, for the sweeper) and ``ladder-expiry`` (the passkey challenges by
expiry, for their purge), and a time to live on ``expires`` (challenges DynamoDB removes
itself). The HTTP function and the clock's fire and sweeper
functions read and write it (granted by the stack); the alarms watch the ladder's business
metrics (app/observability/metrics.py).
"""

from __future__ import annotations

from typing import Final

from aws_cdk import Duration
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as cloudwatch_actions
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from constructs import Construct

from .config import EnvironmentSettings
from .database import add_index
from .monitoring import alarm

BOARD_INDEX: Final = "ladder-board"
BOARD_PROJECTION: Final = ("account_id", "pool", "mu", "sigma", "games", "handle_key")
"""A board row without its item (app/store/dynamo/ladder_keys.py ``BOARD_PROJECTION``)."""
OPEN_INDEX: Final = "ladder-open"
EXPIRY_INDEX: Final = "ladder-expiry"
TTL_ATTRIBUTE: Final = "expires"
ACTIONS: Final = (
    "dynamodb:GetItem",
    "dynamodb:BatchGetItem",
    "dynamodb:Query",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:ConditionCheckItem",
)
"""What the ladder's store calls (a transaction needs each of its items' actions); no Scan:
the store never scans, and its functions may not."""
ALARM_PERIOD: Final = Duration.minutes(5)
LONGEST_WAIT_ALARM_SECONDS: Final = 300
"""Someone queued five minutes unseated: the windows span the whole scale by then, so the
matcher is not looking (its looks lost, the sweeper failing) or the pool is empty."""


class Ladder(Construct):
    """The ladder's table and its alarms (on ``alarm_topic``)."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        settings: EnvironmentSettings,
        alarm_topic: sns.ITopic,
    ):
        super().__init__(scope, construct_id)
        self.table = dynamodb.Table(
            self,
            "Table",
            partition_key=dynamodb.Attribute(name="pk", type=dynamodb.AttributeType.STRING),
            sort_key=dynamodb.Attribute(name="sk", type=dynamodb.AttributeType.STRING),
            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
            point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                point_in_time_recovery_enabled=True
            ),
            deletion_protection=settings.deletion_protection,
            removal_policy=settings.removal_policy,
            time_to_live_attribute=TTL_ATTRIBUTE,
        )
        add_index(self.table, BOARD_INDEX, "board_pk", "ordinal", BOARD_PROJECTION)
        add_index(self.table, OPEN_INDEX, "open_pk", "formed_at")
        add_index(self.table, EXPIRY_INDEX, "expiry_pk", "expires_at")

        def metric(name: str, statistic: str) -> cloudwatch.Metric:
            return cloudwatch.Metric(
                namespace=settings.metrics_namespace,
                metric_name=name,
                dimensions_map={"service": "blef"},
                statistic=statistic,
                period=ALARM_PERIOD,
            )

        self.alarms = [
            alarm(
                self,
                "SettleFailuresAlarm",
                metric("LadderSettleFailures", "Sum"),
                threshold=1,
                description="A rated game's settlement failed: ratings wait for the sweeper.",
            ),
            alarm(
                self,
                "MatchErrorsAlarm",
                metric("LadderMatchErrors", "Sum"),
                threshold=3,
                description="The ladder's matcher failed 3 times in 5 minutes.",
            ),
            alarm(
                self,
                "LongestWaitAlarm",
                metric("LadderLongestWait", "Maximum"),
                threshold=LONGEST_WAIT_ALARM_SECONDS,
                comparison=cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
                description="Someone waited over 5 minutes in a ladder queue.",
            ),
        ]
        action = cloudwatch_actions.SnsAction(alarm_topic)
        for each in self.alarms:
            each.add_alarm_action(action)
            each.add_ok_action(action)

    def grant_use(self, function: lambda_.IFunction) -> None:
        """Let ``function`` read and write the ladder's items and query its indexes (no Scan,
        no table management)."""
        function.add_to_role_policy(
            iam.PolicyStatement(
                actions=list(ACTIONS),
                resources=[self.table.table_arn, f"{self.table.table_arn}/index/*"],
            )
        )
