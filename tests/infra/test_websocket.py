"""The websocket for watching games: the WebSocket API and its routes, the table's stream, the
filtered mapping feeding the pusher, and what each of the two functions may do."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pytest

from app.store.dynamo import keys
from tests.infra.helpers import (
    api_of_protocol,
    as_list,
    function_with_handler,
    logical_id,
    metrics_environment,
    of_api,
    only,
    role_of,
    role_statements,
)

if TYPE_CHECKING:
    from aws_cdk.assertions import Template

EVERY_ENVIRONMENT = pytest.mark.parametrize("env", ["dev", "prod"])
ROUTES = "app.entrypoints.websocket.route"
PUSH = "app.entrypoints.websocket.push"


def _table_arn(template: Template) -> dict[str, Any]:
    return {"Fn::GetAtt": [logical_id(template, "AWS::DynamoDB::Table"), "Arn"]}


def _actions(statements: list[dict[str, Any]], service: str) -> dict[str, list[Any]]:
    """The resources each action of ``service`` is allowed on."""
    allowed: dict[str, list[Any]] = {}
    for statement in statements:
        assert statement["Effect"] == "Allow"
        for action in as_list(statement["Action"]):
            if action.startswith(f"{service}:"):
                allowed.setdefault(action, []).extend(as_list(statement["Resource"]))
    return allowed


@EVERY_ENVIRONMENT
def test_a_websocket_api_routes_connect_disconnect_and_default_to_the_routes_function(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    api, properties = api_of_protocol(template, "WEBSOCKET")
    assert properties["Name"] == f"blef-watch-{env}"
    routes = of_api(template, "AWS::ApiGatewayV2::Route", api)
    assert sorted(r["RouteKey"] for r in routes.values()) == ["$connect", "$default", "$disconnect"]
    function, _ = function_with_handler(template, ROUTES)
    integrations = of_api(template, "AWS::ApiGatewayV2::Integration", api)
    for route in routes.values():
        integration = route["Target"]["Fn::Join"][1][1]["Ref"]
        assert integrations[integration]["IntegrationType"] == "AWS_PROXY"
        uri = json.dumps(integrations[integration]["IntegrationUri"])
        assert json.dumps({"Fn::GetAtt": [function, "Arn"]}) in uri
    permissions = [
        p["Properties"]
        for p in template.find_resources("AWS::Lambda::Permission").values()
        if p["Properties"]["FunctionName"] == {"Fn::GetAtt": [function, "Arn"]}
    ]
    assert len(permissions) == 3
    for permission in permissions:
        assert permission["Principal"] == "apigateway.amazonaws.com"
        assert {"Ref": api} in permission["SourceArn"]["Fn::Join"][1]


@pytest.mark.parametrize(
    ("env", "rate", "burst"), [("dev", 25, 50), ("prod", 500, 1000)], ids=["dev", "prod"]
)
def test_the_live_stage_deploys_itself_and_throttles_at_the_environments_limits(
    templates: Mapping[str, Template], env: str, rate: int, burst: int
) -> None:
    template = templates[env]
    api, _ = api_of_protocol(template, "WEBSOCKET")
    _, stage = only(of_api(template, "AWS::ApiGatewayV2::Stage", api))
    assert stage["StageName"] == "live"
    assert stage["AutoDeploy"] is True
    assert stage["DefaultRouteSettings"] == {
        "ThrottlingRateLimit": rate,
        "ThrottlingBurstLimit": burst,
    }


def test_the_stack_outputs_the_wss_url_of_the_live_stage(prod: Template) -> None:
    api, _ = api_of_protocol(prod, "WEBSOCKET")
    url = prod.find_outputs("WebSocketUrl")["WebSocketUrl"]["Value"]["Fn::Join"][1]
    assert url[:2] == ["wss://", {"Ref": api}]
    assert url[-1] == "/live"


@EVERY_ENVIRONMENT
def test_the_games_table_streams_each_item_as_it_was_and_is_so_a_game_leaving_the_list_is_seen(
    templates: Mapping[str, Template], env: str
) -> None:
    templates[env].has_resource_properties(
        "AWS::DynamoDB::Table",
        {"StreamSpecification": {"StreamViewType": "NEW_AND_OLD_IMAGES"}},
    )


@EVERY_ENVIRONMENT
def test_the_pusher_is_fed_only_game_states_ended_rounds_and_new_game_watchers(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    pusher, _ = function_with_handler(template, PUSH)
    _, mapping = only(
        template.find_resources(
            "AWS::Lambda::EventSourceMapping", {"Properties": {"FunctionName": {"Ref": pusher}}}
        )
    )
    properties = mapping["Properties"]
    assert properties["FunctionName"] == {"Ref": pusher}
    table = logical_id(template, "AWS::DynamoDB::Table")
    assert properties["EventSourceArn"] == {"Fn::GetAtt": [table, "StreamArn"]}
    assert properties["StartingPosition"] == "LATEST"
    assert properties["BisectBatchOnFunctionError"] is True
    assert properties["MaximumRetryAttempts"] >= 1
    patterns = [json.loads(f["Pattern"]) for f in properties["FilterCriteria"]["Filters"]]
    # The filters spell the app's keys (app/store/dynamo/keys.py): infra imports no app code.
    game = {"prefix": keys.GAME_PREFIX}
    assert patterns == [
        {
            "eventName": ["INSERT", "MODIFY"],
            "dynamodb": {"Keys": {"sk": {"S": [keys.STATE_SK]}}},
        },
        {
            "eventName": ["INSERT"],
            "dynamodb": {
                "Keys": {"pk": {"S": [game]}, "sk": {"S": [{"prefix": keys.ROUND_PREFIX}]}}
            },
        },
        {
            "eventName": ["INSERT"],
            "dynamodb": {
                "Keys": {"pk": {"S": [game]}, "sk": {"S": [{"prefix": keys.CONNECTION_PREFIX}]}}
            },
        },
    ]
    # created only once the pusher's role may read the stream
    assert set(mapping["DependsOn"]) >= {role_of(function_with_handler(template, PUSH)[1])}


@EVERY_ENVIRONMENT
def test_both_functions_are_told_the_table_and_the_pusher_the_stages_management_endpoint(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    table = {"Ref": logical_id(template, "AWS::DynamoDB::Table")}
    api, _ = api_of_protocol(template, "WEBSOCKET")
    common = {
        "BLEF_STORE": "dynamodb",
        "BLEF_TABLE_NAME": table,
        "LOG_LEVEL": "INFO",
        **metrics_environment(env),
    }
    _, routes = function_with_handler(template, ROUTES)
    assert routes["Environment"]["Variables"] == common
    _, pusher = function_with_handler(template, PUSH)
    variables = dict(pusher["Environment"]["Variables"])
    endpoint = variables.pop("BLEF_WEBSOCKET_ENDPOINT")["Fn::Join"][1]
    assert variables == common
    assert endpoint[:2] == ["https://", {"Ref": api}]
    assert endpoint[-1] == "/live"


@EVERY_ENVIRONMENT
def test_the_routes_function_may_get_put_and_delete_items_of_the_table_and_nothing_more(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    statements = role_statements(template, role_of(function_with_handler(template, ROUTES)[1]))
    allowed = _actions(statements, "dynamodb")
    assert sorted(allowed) == ["dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem"]
    for resources in allowed.values():
        assert _table_arn(template) in resources
    assert _actions(statements, "execute-api") == {}


@EVERY_ENVIRONMENT
def test_the_pusher_may_read_the_stream_find_and_delete_items_and_post_to_this_stage_only(
    templates: Mapping[str, Template], env: str
) -> None:
    template = templates[env]
    statements = role_statements(template, role_of(function_with_handler(template, PUSH)[1]))
    for statement in statements:
        assert "*" not in as_list(statement["Resource"]), statement
    allowed = _actions(statements, "dynamodb")
    stream = {"Fn::GetAtt": [logical_id(template, "AWS::DynamoDB::Table"), "StreamArn"]}
    for action in ("DescribeStream", "GetRecords", "GetShardIterator", "ListStreams"):
        assert allowed.pop(f"dynamodb:{action}") == [stream]
    assert sorted(allowed) == ["dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:Query"]
    assert not {"dynamodb:PutItem", "dynamodb:UpdateItem"} & set(allowed)

    api, _ = api_of_protocol(template, "WEBSOCKET")
    (connections,) = _actions(statements, "execute-api").pop("execute-api:ManageConnections")
    parts = connections["Fn::Join"][1]
    assert {"Ref": api} in parts
    assert parts[-1] == "/live/*/@connections/*"
