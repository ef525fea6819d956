"""The Lambda functions: runtime, size, settings, code, logs, and least-privilege access.

The HTTP API's function is the one running ``app.entrypoints.http.handler``; the websocket's two
functions (tests/infra/test_websocket.py) share its runtime, code and logging rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pytest

from deployment import build_lambda_asset
from tests.infra.helpers import (
    api_function,
    api_of_protocol,
    as_list,
    ladder_table,
    logical_id,
    logical_id_with_prefix,
    metrics_environment,
    policy_statements,
    role_of,
    role_statements,
)

if TYPE_CHECKING:
    from aws_cdk.assertions import Match, Template

EVERY_ENVIRONMENT = pytest.mark.parametrize("env", ["dev", "prod"])


@EVERY_ENVIRONMENT
def test_every_function_runs_on_arm64_with_the_python_the_asset_is_built_for(
    templates: Mapping[str, Template], env: str
) -> None:
    functions = templates[env].find_resources("AWS::Lambda::Function")
    handlers = sorted(f["Properties"]["Handler"] for f in functions.values())
    assert handlers == [
        "app.entrypoints.clock.fire",
        "app.entrypoints.clock.schedule",
        "app.entrypoints.clock.sweep",
        "app.entrypoints.http.handler",
        "app.entrypoints.websocket.push",
        "app.entrypoints.websocket.route",
    ]
    for function in functions.values():
        assert function["Properties"]["Runtime"] == f"python{build_lambda_asset.PYTHON_VERSION}"
        assert function["Properties"]["Architectures"] == ["arm64"]
    assert build_lambda_asset.PLATFORM.endswith("aarch64")


@pytest.mark.parametrize(("env", "reserved"), [("dev", 5), ("prod", 50)], ids=["dev", "prod"])
def test_memory_timeout_and_reserved_concurrency_are_the_environments(
    templates: Mapping[str, Template], env: str, reserved: int
) -> None:
    templates[env].has_resource_properties(
        "AWS::Lambda::Function",
        {"MemorySize": 512, "Timeout": 10, "ReservedConcurrentExecutions": reserved},
    )


@EVERY_ENVIRONMENT
def test_the_app_is_told_to_use_dynamodb_and_this_stacks_table(
    templates: Mapping[str, Template], env: str
) -> None:
    table = logical_id(templates[env], "AWS::DynamoDB::Table")
    _, function = api_function(templates[env])
    assert function["Environment"]["Variables"] == {
        "BLEF_STORE": "dynamodb",
        "BLEF_TABLE_NAME": {"Ref": table},
        "BLEF_AI_THINK_SECONDS": "1.0",
        "BLEF_LADDER_TABLE_NAME": {"Ref": ladder_table(templates[env])[0]},
        "BLEF_CLOCK_QUEUE_URL": {"Ref": logical_id_with_prefix(templates[env], "ClockQueue")},
        "BLEF_PUBLIC_ORIGIN": {
            "Fn::Join": [
                "",
                [
                    "https://",
                    {"Ref": api_of_protocol(templates[env], "HTTP")[0]},
                    ".execute-api.",
                    {"Ref": "AWS::Region"},
                    ".",
                    {"Ref": "AWS::URLSuffix"},
                ],
            ]
        },
        "LOG_LEVEL": "INFO",
        **metrics_environment(env),
    }


def test_the_code_is_the_asset_folder_uploaded_by_cdk(dev: Template, match: type[Match]) -> None:
    dev.has_resource_properties(
        "AWS::Lambda::Function",
        {
            "Code": {
                "S3Bucket": match.any_value(),
                "S3Key": match.string_like_regexp(r"^[0-9a-f]{64}\.zip$"),
                "ZipFile": match.absent(),
            }
        },
    )


@pytest.mark.parametrize(("env", "days"), [("dev", 7), ("prod", 90)], ids=["dev", "prod"])
def test_each_function_logs_to_its_own_log_group_kept_for_the_environments_retention(
    templates: Mapping[str, Template], env: str, days: int
) -> None:
    template = templates[env]
    functions = template.find_resources("AWS::Lambda::Function").values()
    groups = [f["Properties"]["LoggingConfig"]["LogGroup"]["Ref"] for f in functions]
    assert len(set(groups)) == len(groups) == 6
    log_groups = template.find_resources("AWS::Logs::LogGroup")
    for log_group in groups:
        assert log_groups[log_group]["Properties"]["RetentionInDays"] == days


@EVERY_ENVIRONMENT
def test_no_policy_the_stack_writes_allows_anything_on_every_resource(
    templates: Mapping[str, Template], env: str
) -> None:
    statements = list(policy_statements(templates[env]))
    assert statements
    for statement in statements:
        assert "*" not in as_list(statement["Resource"]), statement


@EVERY_ENVIRONMENT
def test_each_function_has_a_role_of_its_own_with_no_managed_policies(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    functions = template.find_resources("AWS::Lambda::Function").values()
    roles = template.find_resources("AWS::IAM::Role")
    assert sorted(role_of(f["Properties"]) for f in functions) == sorted(roles)
    for role in roles.values():
        assert "ManagedPolicyArns" not in role["Properties"]
        assert role["Properties"]["AssumeRolePolicyDocument"]["Statement"] == [
            {
                "Action": "sts:AssumeRole",
                "Effect": "Allow",
                "Principal": {"Service": "lambda.amazonaws.com"},
            }
        ]


def _resources_of(statements: list[dict[str, Any]], service: str) -> list[Any]:
    return [
        resource
        for statement in statements
        if all(action.startswith(f"{service}:") for action in as_list(statement["Action"]))
        for resource in as_list(statement["Resource"])
    ]


@EVERY_ENVIRONMENT
def test_the_function_reads_and_writes_its_table_and_its_index_and_nothing_else(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    table_arn = {"Fn::GetAtt": [logical_id(template, "AWS::DynamoDB::Table"), "Arn"]}
    index_arns = {"Fn::Join": ["", [table_arn, "/index/*"]]}
    statements = role_statements(template, role_of(api_function(template)[1]))
    dynamodb = [
        s
        for s in statements
        if "dynamodb:PutItem" in as_list(s["Action"])
        and s["Resource"][0]["Fn::GetAtt"][0] == logical_id(template, "AWS::DynamoDB::Table")
    ]
    assert len(dynamodb) == 1
    actions = set(as_list(dynamodb[0]["Action"]))
    assert {"dynamodb:GetItem", "dynamodb:Query", "dynamodb:ConditionCheckItem"} <= actions
    assert not {"dynamodb:CreateTable", "dynamodb:DeleteTable", "dynamodb:UpdateTable"} & actions
    assert dynamodb[0]["Resource"] == [table_arn, index_arns]
    ladder_arn = {"Fn::GetAtt": [ladder_table(template)[0], "Arn"]}
    ladder_indexes = {"Fn::Join": ["", [ladder_arn, "/index/*"]]}
    assert {str(r) for r in _resources_of(statements, "dynamodb")} == {
        str(table_arn),
        str(index_arns),
        str(ladder_arn),
        str(ladder_indexes),
    }


@EVERY_ENVIRONMENT
def test_each_function_may_write_to_its_own_log_group_only(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    for function in template.find_resources("AWS::Lambda::Function").values():
        log_group = function["Properties"]["LoggingConfig"]["LogGroup"]["Ref"]
        statements = role_statements(template, role_of(function["Properties"]))
        logs = [s for s in statements if as_list(s["Action"])[0].startswith("logs:")]
        assert logs == [
            {
                "Action": ["logs:CreateLogStream", "logs:PutLogEvents"],
                "Effect": "Allow",
                "Resource": {"Fn::GetAtt": [log_group, "Arn"]},
            }
        ]
    every = [s for s in policy_statements(template) if as_list(s["Action"])[0].startswith("logs:")]
    assert len(every) == 6


def test_tracing_asked_for_in_the_context_traces_every_function_with_x_ray(
    match: type[Match],
) -> None:
    import aws_cdk as cdk
    from aws_cdk import aws_lambda as lambda_
    from aws_cdk.assertions import Template

    from infra.blef_infra import settings_for
    from infra.blef_infra.functions import blef_function

    assert settings_for("prod").tracing is False
    settings = settings_for("dev", {"tracing": "true"})
    stack = cdk.Stack(cdk.App(), "Traced")
    blef_function(
        stack,
        "Function",
        settings=settings,
        code=lambda_.Code.from_inline("def handler(event, context):\n    return {}\n"),
        handler="index.handler",
        description="traced",
        environment={},
    )
    template = Template.from_stack(stack)
    template.has_resource_properties(
        "AWS::Lambda::Function",
        {
            "TracingConfig": {"Mode": "Active"},
            "Environment": {"Variables": match.object_like({"BLEF_TRACING": "1"})},
        },
    )
    template.has_resource_properties(
        "AWS::IAM::Policy",
        {
            "PolicyDocument": {
                "Statement": match.array_with(
                    [
                        match.object_like(
                            {"Action": ["xray:PutTraceSegments", "xray:PutTelemetryRecords"]}
                        )
                    ]
                )
            }
        },
    )
