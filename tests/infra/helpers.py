"""Small readers of synthesised templates, for assertions that Match cannot express."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aws_cdk.assertions import Template

PLACEHOLDER_STACK = "Blef-placeholder"
"""A stack synthesised without a Lambda asset folder."""


def only(resources: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The one resource of a ``Template.find_resources`` answer: its logical id (to refer to
    it from another resource, never to assert it) and its definition."""
    assert len(resources) == 1, f"expected one resource, found {sorted(resources)}"
    ((logical_id, resource),) = resources.items()
    return logical_id, dict(resource)


LADDER_PREFIX = "Ladder"
"""The ladder's resources (infra/blef_infra/ladder.py): its table is not *the* table of the
tests that look at the games table (tests/infra/test_ladder.py looks at it)."""


def _resources(template: Template, resource_type: str) -> dict[str, Any]:
    found = template.find_resources(resource_type)
    if resource_type == "AWS::DynamoDB::Table":
        found = {k: v for k, v in found.items() if not k.startswith(LADDER_PREFIX)}
    return dict(found)


def logical_id(template: Template, resource_type: str) -> str:
    return only(_resources(template, resource_type))[0]


def properties(template: Template, resource_type: str) -> dict[str, Any]:
    return dict(only(_resources(template, resource_type))[1]["Properties"])


def ladder_table(template: Template) -> tuple[str, dict[str, Any]]:
    """(logical id, properties) of the ladder's table."""
    tables = template.find_resources("AWS::DynamoDB::Table")
    (found,) = [k for k in tables if k.startswith(LADDER_PREFIX)]
    return found, dict(tables[found]["Properties"])


def policy_statements(template: Template) -> Iterator[dict[str, Any]]:
    """Every statement of every policy the stack writes: policies, and roles' inline ones."""
    for policy in template.find_resources("AWS::IAM::Policy").values():
        yield from policy["Properties"]["PolicyDocument"]["Statement"]
    for role in template.find_resources("AWS::IAM::Role").values():
        for inline in role["Properties"].get("Policies", []):
            yield from inline["PolicyDocument"]["Statement"]


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


API_HANDLER = "app.entrypoints.http.handler"
ROUTES_HANDLER = "app.entrypoints.websocket.route"
PUSH_HANDLER = "app.entrypoints.websocket.push"
"""The HTTP API's function; the websocket's functions are told apart by their handlers too."""


def function_with_handler(template: Template, handler: str) -> tuple[str, dict[str, Any]]:
    """The logical id and the properties of the one function running ``handler``."""
    logical, resource = only(
        template.find_resources("AWS::Lambda::Function", {"Properties": {"Handler": handler}})
    )
    return logical, dict(resource["Properties"])


def api_function(template: Template) -> tuple[str, dict[str, Any]]:
    return function_with_handler(template, API_HANDLER)


def api_of_protocol(template: Template, protocol: str) -> tuple[str, dict[str, Any]]:
    """The logical id and the properties of the one API Gateway v2 API of ``protocol``
    (``HTTP`` or ``WEBSOCKET``)."""
    logical, resource = only(
        template.find_resources(
            "AWS::ApiGatewayV2::Api", {"Properties": {"ProtocolType": protocol}}
        )
    )
    return logical, dict(resource["Properties"])


def of_api(template: Template, resource_type: str, api: str) -> dict[str, dict[str, Any]]:
    """The resources of ``resource_type`` (stages, routes, integrations) of one API."""
    return {
        logical: dict(resource["Properties"])
        for logical, resource in template.find_resources(resource_type).items()
        if resource["Properties"].get("ApiId") == {"Ref": api}
    }


def role_of(function: Mapping[str, Any]) -> str:
    """The logical id of a function's role (from its properties)."""
    role: str = function["Role"]["Fn::GetAtt"][0]
    return role


def role_statements(template: Template, role: str) -> list[dict[str, Any]]:
    """The statements of every policy attached to one role (by logical id)."""
    return [
        statement
        for policy in template.find_resources("AWS::IAM::Policy").values()
        if {"Ref": role} in policy["Properties"]["Roles"]
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
    ]


def metrics_environment(env: str) -> dict[str, str]:
    """What every function is told of its business metrics (app/observability/metrics.py)."""
    return {"POWERTOOLS_SERVICE_NAME": "blef", "POWERTOOLS_METRICS_NAMESPACE": f"Blef/{env}"}


def logical_id_with_prefix(template: Template, prefix: str) -> str:
    """The one resource whose logical id is ``prefix`` and CDK's 8-character hash."""
    (found,) = [k for k in template.to_json()["Resources"] if k[:-8] == prefix]
    return str(found)


class TableRecorder:
    """A DynamoDB client that records what ``create_table`` (app/store/dynamo/wire.py) asks for:
    the table's request and its time to live, the table at once active."""

    class exceptions:  # noqa: N801 (as a boto3 client spells its modeled errors)
        class ResourceInUseException(Exception):
            pass

    def __init__(self) -> None:
        self.request: dict[str, Any] = {}
        self.ttl: dict[str, Any] = {}

    def create_table(self, **request: Any) -> None:
        self.request = request

    def get_waiter(self, name: str) -> Any:
        class Waiter:
            def wait(self, **_: Any) -> None:
                pass

        return Waiter()

    def describe_time_to_live(self, **_: Any) -> dict[str, Any]:
        return {"TimeToLiveDescription": {"TimeToLiveStatus": "DISABLED"}}

    def update_time_to_live(self, **request: Any) -> None:
        self.ttl = request["TimeToLiveSpecification"]
