"""The games table: keys, the public-games index, expiry, backups, and what deletion does."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import pytest

from tests.infra.helpers import TableRecorder, properties

if TYPE_CHECKING:
    from aws_cdk.assertions import Template

EVERY_ENVIRONMENT = pytest.mark.parametrize("env", ["dev", "prod"])


@EVERY_ENVIRONMENT
def test_games_are_keyed_by_string_pk_and_sk_and_billed_per_request(
    templates: Mapping[str, Template], env: str
) -> None:
    templates[env].resource_count_is("AWS::DynamoDB::Table", 2)  # the games', the ladder's
    templates[env].has_resource_properties(
        "AWS::DynamoDB::Table",
        {
            "KeySchema": [
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"},
            ],
            "BillingMode": "PAY_PER_REQUEST",
        },
    )


@EVERY_ENVIRONMENT
def test_the_indexes_list_public_games_by_last_change_and_due_games_by_due_time(
    templates: Mapping[str, Template], env: str
) -> None:
    table = properties(templates[env], "AWS::DynamoDB::Table")
    assert table["GlobalSecondaryIndexes"] == [
        {
            "IndexName": "public-games",
            "KeySchema": [
                {"AttributeName": "list_pk", "KeyType": "HASH"},
                {"AttributeName": "last_modified", "KeyType": "RANGE"},
            ],
            "Projection": {
                "ProjectionType": "INCLUDE",
                "NonKeyAttributes": ["game_uuid", "room", "nicknames"],
            },
        },
        {
            "IndexName": "due-games",
            "KeySchema": [
                {"AttributeName": "due_pk", "KeyType": "HASH"},
                {"AttributeName": "due_at", "KeyType": "RANGE"},
            ],
            "Projection": {
                "ProjectionType": "INCLUDE",
                "NonKeyAttributes": ["game_uuid", "version"],
            },
        },
    ]
    types = {a["AttributeName"]: a["AttributeType"] for a in table["AttributeDefinitions"]}
    assert types == {
        "pk": "S",
        "sk": "S",
        "list_pk": "S",
        "last_modified": "N",
        "due_pk": "S",
        "due_at": "N",
    }


@EVERY_ENVIRONMENT
def test_the_stacks_table_has_exactly_the_keys_and_indexes_the_store_creates_locally(
    templates: Mapping[str, Template], env: str
) -> None:
    from app.store.dynamo.store import create_table

    recorder = TableRecorder()
    create_table(recorder, "blef-games")
    table = properties(templates[env], "AWS::DynamoDB::Table")
    assert table["TimeToLiveSpecification"] == recorder.ttl
    assert table["KeySchema"] == recorder.request["KeySchema"]
    assert table["GlobalSecondaryIndexes"] == recorder.request["GlobalSecondaryIndexes"]
    assert sorted(table["AttributeDefinitions"], key=str) == sorted(
        recorder.request["AttributeDefinitions"], key=str
    )


@EVERY_ENVIRONMENT
def test_games_expire_through_the_expires_at_attribute_and_can_be_restored_to_any_point(
    templates: Mapping[str, Template], env: str
) -> None:
    templates[env].has_resource_properties(
        "AWS::DynamoDB::Table",
        {
            "TimeToLiveSpecification": {"AttributeName": "expires_at", "Enabled": True},
            "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True},
        },
    )


def test_prod_keeps_its_table_when_the_stack_goes_and_refuses_deletion(prod: Template) -> None:
    prod.has_resource(
        "AWS::DynamoDB::Table",
        {
            "DeletionPolicy": "Retain",
            "UpdateReplacePolicy": "Retain",
            "Properties": {"DeletionProtectionEnabled": True},
        },
    )


def test_dev_table_is_destroyed_with_its_stack(dev: Template) -> None:
    dev.has_resource(
        "AWS::DynamoDB::Table",
        {
            "DeletionPolicy": "Delete",
            "UpdateReplacePolicy": "Delete",
            "Properties": {"DeletionProtectionEnabled": False},
        },
    )
