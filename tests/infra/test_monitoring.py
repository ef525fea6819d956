"""Alarms on what players would notice, a dashboard, and where alarms are sent."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pytest

from tests.infra.helpers import (
    PUSH_HANDLER,
    ROUTES_HANDLER,
    api_function,
    api_of_protocol,
    function_with_handler,
    logical_id,
)

if TYPE_CHECKING:
    from aws_cdk.assertions import Match, Template

EVERY_ENVIRONMENT = pytest.mark.parametrize("env", ["dev", "prod"])


def _alarms(template: Template) -> list[dict[str, Any]]:
    return [a["Properties"] for a in template.find_resources("AWS::CloudWatch::Alarm").values()]


def _alarm_on(
    template: Template, namespace: str, metric: str, dimension: Any = None
) -> dict[str, Any]:
    found = [
        a
        for a in _alarms(template)
        if (a.get("Namespace"), a.get("MetricName")) == (namespace, metric)
        and (dimension is None or dimension in [d["Value"] for d in a.get("Dimensions", [])])
    ]
    assert len(found) == 1, f"one alarm on {namespace} {metric}, found {len(found)}"
    return found[0]


@EVERY_ENVIRONMENT
def test_an_alarm_fires_on_api_5xx_responses(templates: Mapping[str, Template], env: str) -> None:
    template = templates[env]
    alarm = _alarm_on(template, "AWS/ApiGateway", "5xx")
    assert alarm["Statistic"] == "Sum"
    assert alarm["Dimensions"] == [
        {"Name": "ApiId", "Value": {"Ref": api_of_protocol(template, "HTTP")[0]}}
    ]


@EVERY_ENVIRONMENT
@pytest.mark.parametrize("metric", ["Errors", "Throttles"])
def test_an_alarm_fires_on_any_lambda_error_or_throttle(
    templates: Mapping[str, Template], env: str, metric: str
) -> None:
    template = templates[env]
    alarm = _alarm_on(template, "AWS/Lambda", metric, {"Ref": api_function(template)[0]})
    assert (alarm["Statistic"], alarm["Threshold"]) == ("Sum", 1)
    assert alarm["ComparisonOperator"] == "GreaterThanOrEqualToThreshold"
    assert alarm["Dimensions"] == [
        {"Name": "FunctionName", "Value": {"Ref": api_function(template)[0]}}
    ]


@EVERY_ENVIRONMENT
def test_an_alarm_fires_when_the_lambda_p99_duration_stays_high(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    alarm = _alarm_on(template, "AWS/Lambda", "Duration", {"Ref": api_function(template)[0]})
    assert alarm["ExtendedStatistic"] == "p99"
    assert 0 < alarm["Threshold"] < 10_000  # below the 10 s timeout
    assert alarm["EvaluationPeriods"] == 3


@EVERY_ENVIRONMENT
def test_an_alarm_fires_on_dynamodb_system_errors_of_the_games_table(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    table = {"Ref": logical_id(template, "AWS::DynamoDB::Table")}
    alarms = [a for a in _alarms(template) if "SystemErrors" in json.dumps(a.get("Metrics"))]
    assert len(alarms) == 1
    queries = alarms[0]["Metrics"]
    stats = [q["MetricStat"] for q in queries if "MetricStat" in q]
    assert {s["Metric"]["MetricName"] for s in stats} == {"SystemErrors"}
    assert {s["Metric"]["Namespace"] for s in stats} == {"AWS/DynamoDB"}
    assert all({"Name": "TableName", "Value": table} in s["Metric"]["Dimensions"] for s in stats)
    operations = {
        d["Value"] for s in stats for d in s["Metric"]["Dimensions"] if d["Name"] == "Operation"
    }
    assert {"GetItem", "PutItem", "Query", "TransactWriteItems"} <= operations
    assert len(queries) <= 10  # CloudWatch's limit on metrics in one alarm


@EVERY_ENVIRONMENT
def test_every_alarm_notifies_the_alarm_topic_and_ignores_silence(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    topic = {"Ref": logical_id(template, "AWS::SNS::Topic")}
    alarms = _alarms(template)
    assert (
        len(alarms) == 21
    )  # 12 of Monitoring (4 on business metrics), 6 of the clock, 3 of the ladder
    for alarm in alarms:
        assert alarm["AlarmActions"] == [topic]
        assert alarm["OKActions"] == [topic]
        assert alarm["TreatMissingData"] == "notBreaching"


def test_the_dashboard_graphs_the_alarmed_metrics(prod: Template) -> None:
    prod.resource_count_is("AWS::CloudWatch::Dashboard", 1)
    prod.has_resource_properties("AWS::CloudWatch::Dashboard", {"DashboardName": "blef-prod"})
    dashboard = prod.find_resources("AWS::CloudWatch::Dashboard")
    body = json.dumps(next(iter(dashboard.values()))["Properties"]["DashboardBody"])
    for metric in ("5xx", "Errors", "Throttles", "Duration", "SystemErrors", "UserErrors"):
        assert f'\\"{metric}\\"' in body, metric


@EVERY_ENVIRONMENT
def test_the_websocket_functions_alarm_on_errors_and_the_pusher_on_lag(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    for handler in (ROUTES_HANDLER, PUSH_HANDLER):
        logical = {"Ref": function_with_handler(template, handler)[0]}
        alarm = _alarm_on(template, "AWS/Lambda", "Errors", logical)
        assert (alarm["Statistic"], alarm["Threshold"]) == ("Sum", 1)
    pusher = {"Ref": function_with_handler(template, PUSH_HANDLER)[0]}
    lag = _alarm_on(template, "AWS/Lambda", "IteratorAge", pusher)
    assert lag["Statistic"] == "Maximum" and lag["Threshold"] == 60_000


# ------------------------------------------------------------------ the business metrics


@EVERY_ENVIRONMENT
def test_an_alarm_fires_on_any_invalid_state_refusal(
    templates: Mapping[str, Template], env: str, match: type[Match]
) -> None:
    templates[env].has_resource_properties(
        "AWS::CloudWatch::Alarm",
        {
            "Namespace": f"Blef/{env}",
            "MetricName": "Refusals",
            "Dimensions": match.array_equals(
                [{"Name": "code", "Value": "invalid_state"}, {"Name": "service", "Value": "blef"}]
            ),
            "Statistic": "Sum",
            "Threshold": 1,
            "ComparisonOperator": "GreaterThanOrEqualToThreshold",
            "EvaluationPeriods": 1,
        },
    )


@EVERY_ENVIRONMENT
def test_an_alarm_fires_when_conflicts_pass_5_per_100_moves_for_15_minutes(
    templates: Mapping[str, Template], env: str, match: type[Match]
) -> None:
    def query(name: str, metric: str, dimensions: list[dict[str, str]]) -> Any:
        return match.object_like(
            {
                "Id": name,
                "ReturnData": False,
                "MetricStat": match.object_like(
                    {
                        "Metric": {
                            "Namespace": f"Blef/{env}",
                            "MetricName": metric,
                            "Dimensions": match.array_equals(dimensions),
                        },
                        "Stat": "Sum",
                        "Period": 300,
                    }
                ),
            }
        )

    service = {"Name": "service", "Value": "blef"}
    templates[env].has_resource_properties(
        "AWS::CloudWatch::Alarm",
        {
            "Threshold": 5,
            "EvaluationPeriods": 3,
            "ComparisonOperator": "GreaterThanOrEqualToThreshold",
            "Metrics": match.array_with(
                [
                    match.object_like(
                        {"Expression": "IF(moves > 0, 100 * FILL(conflicts, 0) / moves, 0)"}
                    ),
                    query(
                        "conflicts", "Refusals", [{"Name": "code", "Value": "conflict"}, service]
                    ),
                    query("moves", "Moves", [service]),
                ]
            ),
        },
    )


@EVERY_ENVIRONMENT
@pytest.mark.parametrize(
    ("statistic", "threshold", "periods"),
    [("ExtendedStatistic", 10, 3), ("Statistic", 120, 1)],
)
def test_alarms_fire_when_the_clock_is_late_by_p99_or_by_a_missed_move(
    templates: Mapping[str, Template],
    env: str,
    match: type[Match],
    statistic: str,
    threshold: int,
    periods: int,
) -> None:
    value = "p99" if statistic == "ExtendedStatistic" else "Maximum"
    templates[env].has_resource_properties(
        "AWS::CloudWatch::Alarm",
        {
            "Namespace": f"Blef/{env}",
            "MetricName": "ClockLateness",
            "Dimensions": [{"Name": "service", "Value": "blef"}],
            statistic: value,
            "Threshold": threshold,
            "EvaluationPeriods": periods,
            "TreatMissingData": "notBreaching",
        },
    )


def test_the_dashboard_graphs_the_business_metrics(prod: Template) -> None:
    dashboard = prod.find_resources("AWS::CloudWatch::Dashboard")
    body = json.dumps(next(iter(dashboard.values()))["Properties"]["DashboardBody"])
    for metric in ("GamesStarted", "Moves", "AIMoves", "Timeouts", "Refusals", "ClockLateness"):
        assert f'\\"{metric}\\"' in body, metric
    assert "Blef/prod" in body


@EVERY_ENVIRONMENT
def test_every_function_prints_its_metrics_in_its_environments_namespace_and_traces_nothing(
    templates: Mapping[str, Template], env: str
) -> None:
    functions = templates[env].find_resources("AWS::Lambda::Function")
    assert len(functions) >= 6
    for resource in functions.values():
        variables = resource["Properties"]["Environment"]["Variables"]
        assert variables["POWERTOOLS_METRICS_NAMESPACE"] == f"Blef/{env}"
        assert variables["POWERTOOLS_SERVICE_NAME"] == "blef"
        assert "BLEF_TRACING" not in variables
        assert "TracingConfig" not in resource["Properties"]
