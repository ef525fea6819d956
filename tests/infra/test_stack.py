"""The stack as a whole: its outputs, the guard against deploying without code, settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.infra.helpers import PLACEHOLDER_STACK, api_of_protocol, logical_id

if TYPE_CHECKING:
    from aws_cdk.assertions import Match, Template

    from tests.infra.conftest import Synthesised


def test_the_stack_outputs_the_api_url_and_the_table_name(
    prod: Template, match: type[Match]
) -> None:
    api, _ = api_of_protocol(prod, "HTTP")
    prod.has_output(
        "ApiUrl",
        {
            "Value": {
                "Fn::Join": [
                    "",
                    match.array_with(["https://", {"Ref": api}, ".execute-api."]),
                ]
            }
        },
    )
    prod.has_output("TableName", {"Value": {"Ref": logical_id(prod, "AWS::DynamoDB::Table")}})
    prod.has_output("AlarmTopicArn", {"Value": {"Ref": logical_id(prod, "AWS::SNS::Topic")}})


def test_stacks_built_with_their_asset_carry_no_error_or_warning(synthesised: Synthesised) -> None:
    assert synthesised.messages["Blef-dev"] == []
    assert synthesised.messages["Blef-prod"] == []


def test_without_a_built_asset_the_stack_carries_an_error_so_the_cli_will_not_deploy_it(
    synthesised: Synthesised,
) -> None:
    messages = synthesised.messages[PLACEHOLDER_STACK]
    assert sorted((level, path) for level, path, _ in messages) == [
        ("ERROR", f"/{PLACEHOLDER_STACK}/Api"),
        ("ERROR", f"/{PLACEHOLDER_STACK}/Clock"),
        ("ERROR", f"/{PLACEHOLDER_STACK}/Watch"),
    ]
    assert all("deployment/build_lambda_asset.py" in text for _, _, text in messages)


def test_context_values_override_concurrency_and_throttling() -> None:
    from infra.blef_infra import settings_for

    settings = settings_for(
        "prod",
        {"reserved_concurrency": "none", "throttle_rate_limit": "100", "throttle_burst_limit": 7},
    )
    assert settings.reserved_concurrency is None
    assert (settings.throttle_rate_limit, settings.throttle_burst_limit) == (100, 7)
    assert settings_for("dev", {"reserved_concurrency": "3"}).reserved_concurrency == 3
    with pytest.raises(ValueError, match="positive"):
        settings_for("dev", {"throttle_burst_limit": "0"})


def test_an_unknown_environment_is_refused_with_the_known_ones() -> None:
    from infra.blef_infra import settings_for

    with pytest.raises(ValueError, match="expected one of dev, prod"):
        settings_for("staging")


def test_context_flags_given_on_the_apps_own_command_line_are_read() -> None:
    from infra.blef_infra.context import context_flags

    flags = context_flags(["-c", "env=all", "--context", "lambda_asset=/tmp/x=y", "other"])
    assert flags == {"env": "all", "lambda_asset": "/tmp/x=y"}
    with pytest.raises(SystemExit, match="key=value"):
        context_flags(["-c", "env"])
