"""Alarms on what hurts players, a small dashboard, and a topic the alarms notify."""

from __future__ import annotations

from collections.abc import Sequence

from aws_cdk import Duration
from aws_cdk import aws_apigatewayv2 as apigw
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as cloudwatch_actions
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from constructs import Construct

from .config import EnvironmentSettings

PERIOD = Duration.minutes(5)

CONFLICT_RATE_ALARM_PERCENT = 5
"""Conflicts (409: a move decided on a state that is gone) per 100 moves, for 15 minutes.
Two players rarely race for one turn; a rate this high means clients retry badly or a
write path is slow enough to lose races."""
CLOCK_LATENESS_P99_ALARM_SECONDS = 10
"""An AI move or a timeout made this long after its due time (p99, 15 minutes): the delay
queue rounds up to a whole second and a fired message takes well under one more, so this
means messages are lost (the sweeper's minute catches them) or the fire function lags."""
CLOCK_LATENESS_MAX_ALARM_SECONDS = 120
"""A single AI move or timeout made two minutes late: past the sweeper's minute, so both the
message and the sweeper failed it."""

TABLE_OPERATIONS = (
    dynamodb.Operation.GET_ITEM,
    dynamodb.Operation.QUERY,
    dynamodb.Operation.PUT_ITEM,
    dynamodb.Operation.UPDATE_ITEM,
    dynamodb.Operation.DELETE_ITEM,
    dynamodb.Operation.TRANSACT_WRITE_ITEMS,
    dynamodb.Operation.BATCH_WRITE_ITEM,
)
"""The operations a game store uses; ``SystemErrors`` is reported per operation, and an
alarm's metric math may combine at most 10 metrics, so they are listed rather than all."""


class Monitoring(Construct):
    """Alarms (all notifying :attr:`topic`) and a dashboard, ``blef-<environment>``.

    Every alarm treats missing data as fine: an idle service reports no datapoints.

    - API 5xx: the app answers every bad input with a 4xx, so a 5xx is a bug or an outage.
    - Lambda errors: the app turns exceptions into responses, so an invocation error is a
      crash, a timeout or running out of memory.
    - Lambda throttles: reserved concurrency reached; players get errors.
    - Lambda p99 duration: players wait; normal requests take tens of milliseconds.
    - DynamoDB system errors: AWS-side failures on the table.
    - Websocket functions' errors, and the pusher's iterator age (how far behind the table's
      stream it is): watchers of a game would miss or lag its updates.

    On the business metrics (app/observability/metrics.py: EMF lines of every function, in the
    environment's namespace):

    - refusals with code ``invalid_state``: a stored game the engine cannot read (a bug or
      a corrupt item; the API answers 500);
    - the conflict rate (refusals ``conflict`` per 100 moves) above 5% for 15 minutes;
    - the clock late: AI moves and timeouts made 10 s or more after their due time (p99, 15
      minutes), or any one of them two minutes late (its message and the sweeper both
      missed it).

    DynamoDB ``UserErrors`` are on the dashboard but not alarmed: the metric counts the client
    errors of every table in the account and region, so it cannot say that this one is unwell.
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        settings: EnvironmentSettings,
        http_api: apigw.HttpApi,
        function: lambda_.Function,
        table: dynamodb.Table,
        watch_functions: Sequence[lambda_.Function] = (),
        pusher: lambda_.Function | None = None,
        alarm_email: str | None = None,
    ):
        super().__init__(scope, construct_id)
        self.topic = sns.Topic(self, "AlarmTopic", display_name=f"Blef alarms ({settings.name})")
        if alarm_email:
            self.topic.add_subscription(subscriptions.EmailSubscription(alarm_email))

        api_5xx = http_api.metric_server_error(period=PERIOD, statistic="Sum")
        api_4xx = http_api.metric_client_error(period=PERIOD, statistic="Sum")
        api_requests = http_api.metric_count(period=PERIOD, statistic="Sum")
        api_latency = http_api.metric_latency(period=PERIOD, statistic="p99")
        fn_errors = function.metric_errors(period=PERIOD, statistic="Sum")
        fn_throttles = function.metric_throttles(period=PERIOD, statistic="Sum")
        fn_invocations = function.metric_invocations(period=PERIOD, statistic="Sum")
        fn_p99 = function.metric_duration(period=PERIOD, statistic="p99")
        fn_p50 = function.metric_duration(period=PERIOD, statistic="p50")
        fn_concurrency = function.metric("ConcurrentExecutions", period=PERIOD, statistic="Maximum")
        table_system_errors = table.metric_system_errors_for_operations(
            operations=list(TABLE_OPERATIONS), period=PERIOD
        )
        table_user_errors = table.metric_user_errors(period=PERIOD, statistic="Sum")
        table_reads = table.metric_consumed_read_capacity_units(period=PERIOD, statistic="Sum")
        table_writes = table.metric_consumed_write_capacity_units(period=PERIOD, statistic="Sum")

        self.alarms = [
            self._alarm(
                "Api5xxAlarm",
                api_5xx,
                threshold=5,
                description="The HTTP API answered 5 or more requests with a 5xx in 5 minutes.",
            ),
            self._alarm(
                "FunctionErrorsAlarm",
                fn_errors,
                threshold=1,
                description="The Lambda function failed (crash, timeout, out of memory).",
            ),
            self._alarm(
                "FunctionThrottlesAlarm",
                fn_throttles,
                threshold=1,
                description="The Lambda function was throttled: reserved concurrency reached.",
            ),
            self._alarm(
                "FunctionP99DurationAlarm",
                fn_p99,
                threshold=settings.p99_duration_alarm_ms,
                evaluation_periods=3,
                description=(
                    f"Lambda p99 duration above {settings.p99_duration_alarm_ms} ms for 15 minutes."
                ),
            ),
            self._alarm(
                "TableSystemErrorsAlarm",
                table_system_errors,
                threshold=1,
                description="DynamoDB returned system errors (HTTP 500) on the games table.",
            ),
        ]
        for index, watch_function in enumerate(watch_functions):
            self.alarms.append(
                self._alarm(
                    f"WatchFunctionErrorsAlarm{index}",
                    watch_function.metric_errors(period=PERIOD, statistic="Sum"),
                    threshold=1,
                    description="A websocket function failed: watchers miss updates.",
                )
            )
        if pusher is not None:
            self.alarms.append(
                self._alarm(
                    "PusherIteratorAgeAlarm",
                    pusher.metric("IteratorAge", period=PERIOD, statistic="Maximum"),
                    threshold=60_000,
                    evaluation_periods=3,
                    description="Websocket updates lag the game by a minute or more.",
                )
            )
        business = BusinessMetrics(settings.metrics_namespace)
        self.alarms.extend(self._business_alarms(business))
        action = cloudwatch_actions.SnsAction(self.topic)
        for alarm in self.alarms:
            alarm.add_alarm_action(action)
            alarm.add_ok_action(action)

        self.dashboard = cloudwatch.Dashboard(
            self,
            "Dashboard",
            dashboard_name=f"blef-{settings.name}",
            default_interval=Duration.hours(3),
        )
        self.dashboard.add_widgets(
            _graph("API requests", [api_requests], right=[api_4xx, api_5xx]),
            _graph("API latency p99 (ms)", [api_latency]),
            _graph(
                "Lambda invocations and errors", [fn_invocations], right=[fn_errors, fn_throttles]
            ),
        )
        self.dashboard.add_widgets(
            _graph("Lambda duration (ms)", [fn_p50, fn_p99]),
            _graph("Lambda concurrent executions", [fn_concurrency]),
            _graph(
                "DynamoDB capacity units and errors",
                [table_reads, table_writes],
                right=[table_system_errors, table_user_errors],
            ),
        )
        self.dashboard.add_widgets(
            _graph(
                "Games",
                [business.started, business.finished],
                right=[business.moves, business.ai_moves, business.timeouts],
            ),
            _graph(
                "Refusals (invalid_state, conflict)", [business.invalid_state, business.conflicts]
            ),
            _graph("Clock lateness (s)", [business.lateness_p50, business.lateness_p99]),
        )
        self.dashboard.add_widgets(
            cloudwatch.AlarmStatusWidget(title="Alarms", alarms=self.alarms, width=24)
        )

    def _business_alarms(self, business: BusinessMetrics) -> list[cloudwatch.Alarm]:
        conflict_rate = cloudwatch.MathExpression(
            expression="IF(moves > 0, 100 * FILL(conflicts, 0) / moves, 0)",
            using_metrics={"conflicts": business.conflicts, "moves": business.moves},
            period=PERIOD,
            label="Conflicts per 100 moves",
        )
        return [
            self._alarm(
                "InvalidStateAlarm",
                business.invalid_state,
                threshold=1,
                description="A stored game failed the engine's validation (answered 500).",
            ),
            self._alarm(
                "ConflictRateAlarm",
                conflict_rate,
                threshold=CONFLICT_RATE_ALARM_PERCENT,
                evaluation_periods=3,
                description=(
                    f"{CONFLICT_RATE_ALARM_PERCENT} or more conflicts (409) per 100 moves "
                    "for 15 minutes."
                ),
            ),
            self._alarm(
                "ClockLatenessP99Alarm",
                business.lateness_p99,
                threshold=CLOCK_LATENESS_P99_ALARM_SECONDS,
                evaluation_periods=3,
                description=(
                    f"AI moves and timeouts came {CLOCK_LATENESS_P99_ALARM_SECONDS} s or more "
                    "late (p99) for 15 minutes."
                ),
            ),
            self._alarm(
                "ClockLatenessMaxAlarm",
                business.lateness_max,
                threshold=CLOCK_LATENESS_MAX_ALARM_SECONDS,
                description="An AI move or a timeout came two minutes late: the clock missed it.",
            ),
        ]

    def _alarm(
        self,
        construct_id: str,
        metric: cloudwatch.IMetric,
        *,
        threshold: float,
        description: str,
        evaluation_periods: int = 1,
    ) -> cloudwatch.Alarm:
        return alarm(
            self,
            construct_id,
            metric,
            threshold=threshold,
            description=description,
            evaluation_periods=evaluation_periods,
        )


class BusinessMetrics:
    """The business metrics the functions print (app/observability/metrics.py), as CloudWatch
    metrics: namespace ``Blef/<environment>``, dimension ``service=blef`` (and ``code`` for
    refusals)."""

    def __init__(self, namespace: str) -> None:
        def metric(name: str, statistic: str = "Sum", **extra: str) -> cloudwatch.Metric:
            return cloudwatch.Metric(
                namespace=namespace,
                metric_name=name,
                dimensions_map={"service": "blef", **extra},
                statistic=statistic,
                period=PERIOD,
            )

        self.started = metric("GamesStarted")
        self.finished = metric("GamesFinished")
        self.moves = metric("Moves")
        self.ai_moves = metric("AIMoves")
        self.timeouts = metric("Timeouts")
        self.invalid_state = metric("Refusals", code="invalid_state")
        self.conflicts = metric("Refusals", code="conflict")
        self.lateness_p50 = metric("ClockLateness", "p50")
        self.lateness_p99 = metric("ClockLateness", "p99")
        self.lateness_max = metric("ClockLateness", "Maximum")


def _graph(
    title: str,
    left: list[cloudwatch.IMetric],
    *,
    right: list[cloudwatch.IMetric] | None = None,
) -> cloudwatch.GraphWidget:
    return cloudwatch.GraphWidget(title=title, left=left, right=right or [], width=8)


def alarm(
    scope: Construct,
    construct_id: str,
    metric: cloudwatch.IMetric,
    *,
    threshold: float,
    description: str,
    comparison: cloudwatch.ComparisonOperator = (
        cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD
    ),
    evaluation_periods: int = 1,
) -> cloudwatch.Alarm:
    """An alarm on ``metric`` past ``threshold``; missing data is not a breach (an idle
    service is a healthy one)."""
    return cloudwatch.Alarm(
        scope,
        construct_id,
        metric=metric,
        threshold=threshold,
        evaluation_periods=evaluation_periods,
        comparison_operator=comparison,
        treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING,
        alarm_description=description,
    )
