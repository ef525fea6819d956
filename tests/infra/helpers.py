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


def logical_id(template: Template, resource_type: str) -> str:
    return only(template.find_resources(resource_type))[0]


def properties(template: Template, resource_type: str) -> dict[str, Any]:
    return dict(only(template.find_resources(resource_type))[1]["Properties"])


def policy_statements(template: Template) -> Iterator[dict[str, Any]]:
    """Every statement of every policy the stack writes: policies, and roles' inline ones."""
    for policy in template.find_resources("AWS::IAM::Policy").values():
        yield from policy["Properties"]["PolicyDocument"]["Statement"]
    for role in template.find_resources("AWS::IAM::Role").values():
        for inline in role["Properties"].get("Policies", []):
            yield from inline["PolicyDocument"]["Statement"]


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]
