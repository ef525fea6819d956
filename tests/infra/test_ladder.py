"""The ladder on AWS (infra/blef_infra/ladder.py and the stack's wiring): its table exactly
as the store creates it locally, who may use it (never Scan), what each function is told,
and the alarms on the ladder's metrics."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import pytest

from tests.infra.helpers import (
    TableRecorder,
    as_list,
    function_with_handler,
    ladder_table,
    logical_id,
    role_of,
    role_statements,
)

if TYPE_CHECKING:
    from aws_cdk.assertions import Template

EVERY_ENVIRONMENT = pytest.mark.parametrize("env", ["dev", "prod"])
HTTP = "app.entrypoints.http.handler"
SCHEDULE = "app.entrypoints.clock.schedule"
FIRE = "app.entrypoints.clock.fire"
SWEEP = "app.entrypoints.clock.sweep"


@EVERY_ENVIRONMENT
def test_the_ladders_table_has_exactly_the_keys_indexes_and_ttl_the_store_creates_locally(
    templates: Mapping[str, Template], env: str
) -> None:
    from app.store.dynamo.ladder_keys import create_ladder_table

    recorder = TableRecorder()
    create_ladder_table(recorder, "blef-ladder")
    _, table = ladder_table(templates[env])
    assert table["TimeToLiveSpecification"] == recorder.ttl
    assert recorder.ttl == {"AttributeName": "expires", "Enabled": True}
    assert table["KeySchema"] == recorder.request["KeySchema"]
    assert table["GlobalSecondaryIndexes"] == recorder.request["GlobalSecondaryIndexes"]
    assert sorted(table["AttributeDefinitions"], key=str) == sorted(
        recorder.request["AttributeDefinitions"], key=str
    )
    assert table["BillingMode"] == "PAY_PER_REQUEST"
    assert table["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert table.get("DeletionProtectionEnabled", False) is (env == "prod")


def _dynamodb_on(template: Template, handler: str, table: str) -> set[str]:
    """The DynamoDB actions ``handler``'s role has on ``table`` (or its indexes)."""
    arn = {"Fn::GetAtt": [table, "Arn"]}
    actions: set[str] = set()
    for statement in role_statements(
        template, role_of(function_with_handler(template, handler)[1])
    ):
        resources = as_list(statement["Resource"])
        if arn in resources or {"Fn::Join": ["", [arn, "/index/*"]]} in resources:
            assert statement["Effect"] == "Allow"
            actions |= {a for a in as_list(statement["Action"]) if a.startswith("dynamodb:")}
    return actions


@EVERY_ENVIRONMENT
def test_the_api_fire_and_sweeper_use_the_ladders_items_and_may_never_scan(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    table, _ = ladder_table(template)
    for handler in (HTTP, FIRE, SWEEP):
        actions = _dynamodb_on(template, handler, table)
        assert actions == {
            "dynamodb:GetItem",
            "dynamodb:BatchGetItem",
            "dynamodb:Query",
            "dynamodb:PutItem",
            "dynamodb:UpdateItem",
            "dynamodb:DeleteItem",
            "dynamodb:ConditionCheckItem",
        }, handler
    assert _dynamodb_on(template, SCHEDULE, table) == set()  # it only sends messages


@EVERY_ENVIRONMENT
def test_the_api_may_ask_the_clock_queue_for_a_later_look(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    _, function = function_with_handler(template, HTTP)
    variables = function["Environment"]["Variables"]
    assert variables["BLEF_LADDER_TABLE_NAME"] == {"Ref": ladder_table(template)[0]}
    queue = variables["BLEF_CLOCK_QUEUE_URL"]["Ref"]
    assert template.find_resources("AWS::SQS::Queue")[queue]["Properties"].get("RedrivePolicy")
    sends = [
        s
        for s in role_statements(template, role_of(function))
        if "sqs:SendMessage" in as_list(s["Action"])
    ]
    assert [as_list(s["Resource"]) for s in sends] == [[{"Fn::GetAtt": [queue, "Arn"]}]]


@EVERY_ENVIRONMENT
def test_alarms_watch_settlements_the_matcher_and_long_waits(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    topic = {"Ref": logical_id(template, "AWS::SNS::Topic")}
    alarms = {
        a["Properties"].get("MetricName"): a["Properties"]
        for a in template.find_resources("AWS::CloudWatch::Alarm").values()
        if str(a["Properties"].get("MetricName", "")).startswith("Ladder")
    }
    assert set(alarms) == {"LadderSettleFailures", "LadderMatchErrors", "LadderLongestWait"}
    assert (
        alarms["LadderSettleFailures"]["Statistic"],
        alarms["LadderSettleFailures"]["Threshold"],
    ) == ("Sum", 1)
    assert alarms["LadderLongestWait"]["Statistic"] == "Maximum"
    assert alarms["LadderLongestWait"]["Threshold"] == 300
    assert alarms["LadderLongestWait"]["ComparisonOperator"] == "GreaterThanThreshold"
    for alarm in alarms.values():
        assert alarm["Namespace"] == f"Blef/{env}"
        assert alarm["Dimensions"] == [{"Name": "service", "Value": "blef"}]
        assert alarm["AlarmActions"] == alarm["OKActions"] == [topic]
        assert alarm["TreatMissingData"] == "notBreaching"


def test_the_metric_names_alarmed_are_the_ones_the_app_emits() -> None:
    from app.observability import metrics

    assert {
        metrics.LADDER_SETTLE_FAILURES,
        metrics.LADDER_MATCH_ERRORS,
        metrics.LADDER_LONGEST_WAIT,
    } == {"LadderSettleFailures", "LadderMatchErrors", "LadderLongestWait"}


def test_the_stack_outputs_the_ladders_table(dev: Template) -> None:
    outputs = dev.find_outputs("LadderTableName")
    assert next(iter(outputs.values()))["Value"] == {"Ref": ladder_table(dev)[0]}
