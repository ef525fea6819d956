"""The HTTP API: every request to the function, throttled, CORS for the web client, and access
logs with no secret in them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

import pytest

from tests.infra.helpers import api_function, api_of_protocol, of_api, only

if TYPE_CHECKING:
    from aws_cdk.assertions import Match, Template

EVERY_ENVIRONMENT = pytest.mark.parametrize("env", ["dev", "prod"])


@EVERY_ENVIRONMENT
def test_every_request_goes_to_the_function_through_the_default_route(
    templates: Mapping[str, Template], env: str, match: type[Match]
) -> None:
    template = templates[env]
    function, _ = api_function(template)
    api, properties = api_of_protocol(template, "HTTP")
    assert properties["Name"] == f"blef-{env}"
    routes = of_api(template, "AWS::ApiGatewayV2::Route", api)
    assert [r["RouteKey"] for r in routes.values()] == ["$default"]
    _, integration = only(of_api(template, "AWS::ApiGatewayV2::Integration", api))
    assert integration["IntegrationType"] == "AWS_PROXY"
    assert integration["PayloadFormatVersion"] == "2.0"
    assert integration["IntegrationUri"] == {"Fn::GetAtt": [function, "Arn"]}
    template.has_resource_properties(
        "AWS::Lambda::Permission",
        {
            "Action": "lambda:InvokeFunction",
            "Principal": "apigateway.amazonaws.com",
            "FunctionName": {"Fn::GetAtt": [function, "Arn"]},
            "SourceArn": match.any_value(),
        },
    )


@pytest.mark.parametrize(
    ("env", "rate", "burst"), [("dev", 25, 50), ("prod", 500, 1000)], ids=["dev", "prod"]
)
def test_the_default_stage_deploys_itself_and_throttles_at_the_environments_limits(
    templates: Mapping[str, Template], env: str, rate: int, burst: int
) -> None:
    template = templates[env]
    api, _ = api_of_protocol(template, "HTTP")
    _, stage = only(of_api(template, "AWS::ApiGatewayV2::Stage", api))
    assert stage["StageName"] == "$default"
    assert stage["AutoDeploy"] is True
    assert stage["DefaultRouteSettings"] == {
        "ThrottlingRateLimit": rate,
        "ThrottlingBurstLimit": burst,
    }


def test_cors_lets_any_origin_send_the_methods_and_headers_the_clients_use(
    prod: Template,
) -> None:
    cors = api_of_protocol(prod, "HTTP")[1]["CorsConfiguration"]
    assert cors["AllowOrigins"] == ["*"]
    assert sorted(cors["AllowMethods"]) == ["DELETE", "GET", "OPTIONS", "POST"]  # as the app
    assert sorted(cors["AllowHeaders"]) == [
        "Authorization",
        "Content-Type",
        "Idempotency-Key",
        "If-None-Match",
    ]
    assert "ETag" in cors["ExposeHeaders"]
    assert cors.get("AllowCredentials") in (None, False)


@EVERY_ENVIRONMENT
def test_access_logs_are_one_json_object_per_request_without_query_strings_or_headers(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    api, _ = api_of_protocol(template, "HTTP")
    _, stage = only(of_api(template, "AWS::ApiGatewayV2::Stage", api))
    settings = stage["AccessLogSettings"]
    access_log_group = settings["DestinationArn"]["Fn::GetAtt"][0]
    log_groups = template.find_resources("AWS::Logs::LogGroup")
    assert "RetentionInDays" in log_groups[access_log_group]["Properties"]

    entry = json.loads(settings["Format"])
    assert entry == {
        "requestId": "$context.requestId",
        "time": "$context.requestTime",
        "ip": "$context.identity.sourceIp",
        "httpMethod": "$context.httpMethod",
        "routeKey": "$context.routeKey",
        "path": "$context.path",
        "protocol": "$context.protocol",
        "status": "$context.status",
        "responseLength": "$context.responseLength",
        "responseLatency": "$context.responseLatency",
        "integrationLatency": "$context.integrationLatency",
        "integrationRequestId": "$context.integration.requestId",
    }
    logged = " ".join(entry.values()).lower()
    for secret_bearing in ("querystring", "header", "authorizer", "error", "$input", "$request"):
        assert secret_bearing not in logged
