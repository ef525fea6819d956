"""The game clock on AWS (app/clock/aws.py): the table's stream schedules a delayed SQS
message for every new due time of a game (a version due when the one before it was sends
none: the stream's old image says so), the queue fires it, and a sweeper catches what slipped.

::

    games table ── stream (NEW_AND_OLD_IMAGES) ── filter: STATE items put with due_at
        └─> Scheduler function (app.entrypoints.clock.schedule) ── SendMessageBatch, delayed
    Clock queue (SQS-managed encryption; DLQ after 5 receives)
        └─> Fire function (app.entrypoints.clock.fire) ── GameClock.advance, conditional write
    EventBridge rule, rate(1 minute)
        └─> Sweeper function (app.entrypoints.clock.sweep) ── GameClock.sweep

Each function has its own role (``blef_function``) with exactly the grants it needs; the
stream is granted explicitly rather than through ``DynamoEventSource``, whose grant adds
``dynamodb:ListStreams`` on ``*`` (as in watch.py). Alarms notify the stack's alarm topic.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from aws_cdk import Duration
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as cloudwatch_actions
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_lambda_event_sources as sources
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from .config import EnvironmentSettings
from .functions import code_asset, function_maker, read_table_stream
from .monitoring import alarm

SCHEDULE_HANDLER: Final = "app.entrypoints.clock.schedule"
FIRE_HANDLER: Final = "app.entrypoints.clock.fire"
SWEEP_HANDLER: Final = "app.entrypoints.clock.sweep"

FIRE_TIMEOUT: Final = Duration.seconds(30)
"""One batch of AI moves and timeouts: a few table reads and one conditional write each."""
QUEUE_VISIBILITY: Final = Duration.seconds(180)
"""Six times the fire function's timeout, as AWS advises for an SQS event source, so a
message is not delivered again while a slow invocation still holds it."""
MAX_RECEIVE_COUNT: Final = 5
DLQ_RETENTION: Final = Duration.days(14)
FIRE_BATCH_SIZE: Final = 10
FIRE_MAX_CONCURRENCY: Final = 10
"""At most this many fire invocations at once: a burst of due games cannot take the
account's concurrency from the HTTP API."""
SCHEDULE_TIMEOUT: Final = Duration.seconds(30)
SWEEP_TIMEOUT: Final = Duration.seconds(60)
SWEEP_RATE: Final = Duration.minutes(1)
STREAM_BATCH_SIZE: Final = 100
STREAM_RETRIES: Final = 5
STREAM_MAX_RECORD_AGE: Final = Duration.minutes(10)
"""A record the scheduler cannot send after retries is skipped; the sweeper acts on its game
within a minute of it falling due."""
ALARM_PERIOD: Final = Duration.minutes(1)
OLDEST_MESSAGE_ALARM_SECONDS: Final = 60
"""Messages wait their delay invisibly; a *visible* message older than a minute means the
fire function is not keeping up (or failing)."""
ITERATOR_AGE_ALARM_MS: Final = 60_000


def stream_filters() -> list[dict[str, Any]]:
    """What the scheduler is invoked for: a game's live item inserted or modified with a
    ``due_at`` in its new image, or with the status ``Finished`` (the ladder settles a rated
    game: app/clock/ladder.py). Round snapshots, connections, deletions and running games
    with nothing due never invoke it."""
    return [
        lambda_.FilterCriteria.filter(
            {
                "eventName": lambda_.FilterRule.or_("INSERT", "MODIFY"),
                "dynamodb": {
                    "Keys": {"sk": {"S": lambda_.FilterRule.is_equal("STATE")}},
                    "NewImage": {"due_at": {"N": lambda_.FilterRule.exists()}},
                },
            }
        ),
        lambda_.FilterCriteria.filter(
            {
                "eventName": lambda_.FilterRule.or_("INSERT", "MODIFY"),
                "dynamodb": {
                    "Keys": {"sk": {"S": lambda_.FilterRule.is_equal("STATE")}},
                    "NewImage": {"status": {"S": lambda_.FilterRule.is_equal("Finished")}},
                },
            }
        ),
    ]


class Clock(Construct):
    """The clock queue and its dead-letter queue, the scheduler, fire and sweeper functions,
    the sweeper's schedule, and the clock's alarms (on ``alarm_topic``)."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        settings: EnvironmentSettings,
        table: dynamodb.Table,
        asset_dir: Path,
        alarm_topic: sns.ITopic,
    ):
        super().__init__(scope, construct_id)
        if table.table_stream_arn is None:
            raise ValueError("the games table needs a stream (NEW_AND_OLD_IMAGES) for the clock")
        self._settings = settings
        self._code = code_asset(self, asset_dir)
        self._function = function_maker(self, settings, self._code)

        self.dead_letters = sqs.Queue(
            self,
            "DeadLetterQueue",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            retention_period=DLQ_RETENTION,
        )
        self.queue = sqs.Queue(
            self,
            "Queue",
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            enforce_ssl=True,
            visibility_timeout=QUEUE_VISIBILITY,
            dead_letter_queue=sqs.DeadLetterQueue(
                queue=self.dead_letters, max_receive_count=MAX_RECEIVE_COUNT
            ),
        )
        environment = {
            "BLEF_STORE": "dynamodb",
            "BLEF_TABLE_NAME": table.table_name,
            "BLEF_CLOCK_QUEUE_URL": self.queue.queue_url,
            "BLEF_AI_THINK_SECONDS": str(settings.ai_think_seconds),
        }

        self.scheduler = self._function(
            "Scheduler",
            handler=SCHEDULE_HANDLER,
            description=f"Blef clock: due games to the delay queue ({settings.name})",
            timeout=SCHEDULE_TIMEOUT,
            environment=environment,
        )
        self.queue.grant_send_messages(self.scheduler)
        self.stream_mapping = read_table_stream(
            self,
            self.scheduler,
            table,
            batch_size=STREAM_BATCH_SIZE,
            retry_attempts=STREAM_RETRIES,
            bisect_batch_on_error=True,
            max_record_age=STREAM_MAX_RECORD_AGE,
            report_batch_item_failures=True,
            filters=stream_filters(),
        )

        self.fire = self._function(
            "Fire",
            handler=FIRE_HANDLER,
            description=f"Blef clock: AI moves and move timeouts ({settings.name})",
            timeout=FIRE_TIMEOUT,
            environment=environment,
        )
        table.grant_read_write_data(self.fire)
        self.queue.grant_send_messages(self.fire)  # an early message goes back with its delay
        self.fire.add_event_source(
            sources.SqsEventSource(
                self.queue,
                batch_size=FIRE_BATCH_SIZE,
                max_concurrency=FIRE_MAX_CONCURRENCY,
                report_batch_item_failures=True,
            )
        )

        self.sweeper = self._function(
            "Sweeper",
            handler=SWEEP_HANDLER,
            description=f"Blef clock: overdue games, every minute ({settings.name})",
            timeout=SWEEP_TIMEOUT,
            environment=environment,
        )
        table.grant_read_write_data(self.sweeper)
        self.rule = events.Rule(
            self,
            "SweepSchedule",
            description=f"Blef clock: the sweeper's minute ({settings.name})",
            schedule=events.Schedule.rate(SWEEP_RATE),
            targets=[targets.LambdaFunction(self.sweeper, retry_attempts=0)],
        )

        self.alarms = self._alarms()
        action = cloudwatch_actions.SnsAction(alarm_topic)
        for each in self.alarms:
            each.add_alarm_action(action)
            each.add_ok_action(action)

    def _alarms(self) -> list[cloudwatch.Alarm]:
        alarms = [
            alarm(
                self,
                "DeadLettersAlarm",
                self.dead_letters.metric_approximate_number_of_messages_visible(
                    period=ALARM_PERIOD, statistic="Maximum"
                ),
                threshold=0,
                comparison=cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
                description="Clock messages failed 5 times: games may wait for the sweeper.",
            ),
            alarm(
                self,
                "OldestMessageAlarm",
                self.queue.metric_approximate_age_of_oldest_message(
                    period=ALARM_PERIOD, statistic="Maximum"
                ),
                threshold=OLDEST_MESSAGE_ALARM_SECONDS,
                comparison=cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
                description="A due clock message waited over a minute: AI moves lag.",
            ),
            alarm(
                self,
                "SchedulerIteratorAgeAlarm",
                self.scheduler.metric("IteratorAge", period=ALARM_PERIOD, statistic="Maximum"),
                threshold=ITERATOR_AGE_ALARM_MS,
                comparison=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                evaluation_periods=3,
                description="The clock scheduler lags the table's stream by a minute or more.",
            ),
        ]
        for name, function in (
            ("Scheduler", self.scheduler),
            ("Fire", self.fire),
            ("Sweeper", self.sweeper),
        ):
            alarms.append(
                alarm(
                    self,
                    f"{name}ErrorsAlarm",
                    function.metric_errors(period=ALARM_PERIOD, statistic="Sum"),
                    threshold=1,
                    comparison=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                    description=f"The clock's {name.lower()} function failed.",
                )
            )
        return alarms
