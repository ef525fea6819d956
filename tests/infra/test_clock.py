"""The game clock on AWS: the delay queue and its dead-letter queue, the stream feeding the
scheduler (filtered to live items with something due), the fire function on the queue, the
sweeper's minute, what each function may do, and the clock's alarms."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pytest

from app.store.dynamo import keys
from tests.infra.helpers import (
    as_list,
    function_with_handler,
    ladder_table,
    logical_id,
    metrics_environment,
    only,
    role_of,
    role_statements,
)

if TYPE_CHECKING:
    from aws_cdk.assertions import Template

EVERY_ENVIRONMENT = pytest.mark.parametrize("env", ["dev", "prod"])
SCHEDULE = "app.entrypoints.clock.schedule"
FIRE = "app.entrypoints.clock.fire"
SWEEP = "app.entrypoints.clock.sweep"


def _queues(template: Template) -> tuple[str, dict[str, Any], str, dict[str, Any]]:
    """(logical id, properties) of the clock queue, then of its dead-letter queue."""
    queues = template.find_resources("AWS::SQS::Queue")
    assert len(queues) == 2
    (main,) = [q for q, r in queues.items() if "RedrivePolicy" in r["Properties"]]
    (dlq,) = [q for q in queues if q != main]
    return main, queues[main]["Properties"], dlq, queues[dlq]["Properties"]


def _actions(statements: list[dict[str, Any]]) -> dict[str, list[Any]]:
    allowed: dict[str, list[Any]] = {}
    for statement in statements:
        assert statement["Effect"] == "Allow"
        for action in as_list(statement["Action"]):
            allowed.setdefault(action, []).extend(as_list(statement["Resource"]))
    return allowed


def _statements(template: Template, handler: str) -> list[dict[str, Any]]:
    return role_statements(template, role_of(function_with_handler(template, handler)[1]))


@EVERY_ENVIRONMENT
def test_the_clock_queue_is_encrypted_outlives_a_slow_fire_and_dead_letters_after_5_receives(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    _, queue, dlq, dead = _queues(template)
    _, fire = function_with_handler(template, FIRE)
    assert queue["SqsManagedSseEnabled"] is True
    assert dead["SqsManagedSseEnabled"] is True
    assert queue["VisibilityTimeout"] > fire["Timeout"]
    assert queue["RedrivePolicy"] == {
        "deadLetterTargetArn": {"Fn::GetAtt": [dlq, "Arn"]},
        "maxReceiveCount": 5,
    }


@EVERY_ENVIRONMENT
def test_the_scheduler_is_fed_only_live_items_with_something_due_and_reports_failed_records(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    scheduler, properties = function_with_handler(template, SCHEDULE)
    _, mapping = only(
        template.find_resources(
            "AWS::Lambda::EventSourceMapping", {"Properties": {"FunctionName": {"Ref": scheduler}}}
        )
    )
    source = mapping["Properties"]
    table = logical_id(template, "AWS::DynamoDB::Table")
    assert source["EventSourceArn"] == {"Fn::GetAtt": [table, "StreamArn"]}
    assert source["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert source["BisectBatchOnFunctionError"] is True
    assert source["MaximumRetryAttempts"] >= 1
    patterns = [json.loads(f["Pattern"]) for f in source["FilterCriteria"]["Filters"]]
    assert patterns == [
        {
            "eventName": ["INSERT", "MODIFY"],
            "dynamodb": {
                "Keys": {"sk": {"S": [keys.STATE_SK]}},  # the app's key (infra imports no app)
                "NewImage": {"due_at": {"N": [{"exists": True}]}},
            },
        },
        {  # a game that finished: the ladder settles it if it is rated
            "eventName": ["INSERT", "MODIFY"],
            "dynamodb": {
                "Keys": {"sk": {"S": [keys.STATE_SK]}},
                "NewImage": {"status": {"S": ["Finished"]}},
            },
        },
    ]
    assert set(mapping["DependsOn"]) >= {role_of(properties)}


@EVERY_ENVIRONMENT
def test_the_fire_function_consumes_the_queue_reporting_the_messages_that_failed(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    fire, _ = function_with_handler(template, FIRE)
    queue, _, _, _ = _queues(template)
    _, mapping = only(
        template.find_resources(
            "AWS::Lambda::EventSourceMapping", {"Properties": {"FunctionName": {"Ref": fire}}}
        )
    )
    source = mapping["Properties"]
    assert source["EventSourceArn"] == {"Fn::GetAtt": [queue, "Arn"]}
    assert source["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert source["BatchSize"] <= 10
    assert source["ScalingConfig"]["MaximumConcurrency"] >= 2


@EVERY_ENVIRONMENT
def test_the_sweeper_runs_every_minute(templates: Mapping[str, Template], env: str) -> None:
    template = templates[env]
    sweeper, _ = function_with_handler(template, SWEEP)
    _, rule = only(template.find_resources("AWS::Events::Rule"))
    assert rule["Properties"]["ScheduleExpression"] == "rate(1 minute)"
    assert rule["Properties"]["State"] == "ENABLED"
    (target,) = rule["Properties"]["Targets"]
    assert target["Arn"] == {"Fn::GetAtt": [sweeper, "Arn"]}
    permission = template.find_resources(
        "AWS::Lambda::Permission",
        {"Properties": {"Principal": "events.amazonaws.com"}},
    )
    (allowed,) = permission.values()
    assert allowed["Properties"]["FunctionName"] == {"Fn::GetAtt": [sweeper, "Arn"]}


@EVERY_ENVIRONMENT
def test_every_clock_function_is_told_the_table_the_queue_and_the_think_time(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    table = {"Ref": logical_id(template, "AWS::DynamoDB::Table")}
    queue, _, _, _ = _queues(template)
    for handler in (SCHEDULE, FIRE, SWEEP):
        _, function = function_with_handler(template, handler)
        assert function["Environment"]["Variables"] == {
            "BLEF_STORE": "dynamodb",
            "BLEF_TABLE_NAME": table,
            "BLEF_CLOCK_QUEUE_URL": {"Ref": queue},
            "BLEF_LADDER_TABLE_NAME": {"Ref": ladder_table(template)[0]},
            "BLEF_AI_THINK_SECONDS": "1.0",
            "LOG_LEVEL": "INFO",
            **metrics_environment(env),
        }


@EVERY_ENVIRONMENT
def test_the_scheduler_may_read_the_stream_and_send_to_the_queue_and_nothing_else(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    statements = _statements(template, SCHEDULE)
    for statement in statements:
        assert "*" not in as_list(statement["Resource"]), statement
    allowed = _actions(statements)
    queue, _, _, _ = _queues(template)
    stream = {"Fn::GetAtt": [logical_id(template, "AWS::DynamoDB::Table"), "StreamArn"]}
    for action in ("DescribeStream", "GetRecords", "GetShardIterator", "ListStreams"):
        assert allowed.pop(f"dynamodb:{action}") == [stream]
    sqs = {a: r for a, r in allowed.items() if a.startswith("sqs:")}
    assert "sqs:SendMessage" in sqs
    assert all(r == [{"Fn::GetAtt": [queue, "Arn"]}] for r in sqs.values())
    assert not {a for a in allowed if a.startswith("dynamodb:")}
    assert {a.split(":")[0] for a in allowed} <= {"sqs", "logs"}


@EVERY_ENVIRONMENT
@pytest.mark.parametrize("handler", [FIRE, SWEEP])
def test_the_fire_and_sweeper_functions_may_use_the_table_and_its_indexes_only(
    templates: Mapping[str, Template], env: str, handler: str
) -> None:
    template = templates[env]
    statements = _statements(template, handler)
    for statement in statements:
        assert "*" not in as_list(statement["Resource"]), statement
    allowed = _actions(statements)
    table = logical_id(template, "AWS::DynamoDB::Table")
    assert {"Fn::GetAtt": [table, "Arn"]} in allowed["dynamodb:PutItem"]
    assert {"Fn::GetAtt": [table, "Arn"]} in allowed["dynamodb:Query"]
    assert not any(a.startswith("dynamodb:") and "Stream" in a for a in allowed)
    queue, _, _, _ = _queues(template)
    for action, resources in allowed.items():
        if action.startswith("sqs:"):
            assert all(r == {"Fn::GetAtt": [queue, "Arn"]} for r in resources)
    assert "sqs:SendMessage" in allowed  # fire: an early message again; both: a ladder look


def _alarms(template: Template) -> list[dict[str, Any]]:
    return [a["Properties"] for a in template.find_resources("AWS::CloudWatch::Alarm").values()]


def _alarm_on(template: Template, namespace: str, metric: str, dimension: Any) -> dict[str, Any]:
    found = [
        a
        for a in _alarms(template)
        if (a.get("Namespace"), a.get("MetricName")) == (namespace, metric)
        and dimension in [d["Value"] for d in a.get("Dimensions", [])]
    ]
    assert len(found) == 1, f"one alarm on {namespace} {metric}, found {len(found)}"
    return found[0]


@EVERY_ENVIRONMENT
def test_the_clock_alarms_on_dead_letters_waiting_messages_errors_and_stream_lag(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    topic = {"Ref": logical_id(template, "AWS::SNS::Topic")}
    queue, _, dlq, _ = _queues(template)
    dead = _alarm_on(
        template,
        "AWS/SQS",
        "ApproximateNumberOfMessagesVisible",
        {"Fn::GetAtt": [dlq, "QueueName"]},
    )
    assert (dead["Threshold"], dead["ComparisonOperator"]) == (0, "GreaterThanThreshold")
    oldest = _alarm_on(
        template, "AWS/SQS", "ApproximateAgeOfOldestMessage", {"Fn::GetAtt": [queue, "QueueName"]}
    )
    assert (oldest["Threshold"], oldest["ComparisonOperator"]) == (60, "GreaterThanThreshold")
    alarms = [dead, oldest]
    for handler in (SCHEDULE, FIRE, SWEEP):
        errors = _alarm_on(
            template, "AWS/Lambda", "Errors", {"Ref": function_with_handler(template, handler)[0]}
        )
        assert (errors["Statistic"], errors["Threshold"]) == ("Sum", 1)
        alarms.append(errors)
    lag = _alarm_on(
        template, "AWS/Lambda", "IteratorAge", {"Ref": function_with_handler(template, SCHEDULE)[0]}
    )
    assert lag["Threshold"] == 60_000
    alarms.append(lag)
    for alarm in alarms:
        assert alarm["AlarmActions"] == [topic]
        assert alarm["OKActions"] == [topic]
        assert alarm["TreatMissingData"] == "notBreaching"
