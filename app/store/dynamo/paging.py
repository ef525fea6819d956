"""The one loop that reads every page of a DynamoDB Query."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import AttributeValueTypeDef

    Item = dict[str, AttributeValueTypeDef]


def query_all(
    client: DynamoDBClient,
    *,
    page_size: int | None = None,
    counted: Callable[[], None] | None = None,
    **query: Any,
) -> Iterator[Item]:
    """Every item a Query finds, page after page (``page_size`` items a page; None:
    DynamoDB's 1 MB pages). ``counted`` is called once per request sent."""
    start: Item | None = None
    while True:
        kwargs: dict[str, Any] = {}
        if start is not None:
            kwargs["ExclusiveStartKey"] = start
        if page_size is not None:
            kwargs["Limit"] = page_size
        if counted is not None:
            counted()
        page = client.query(**query, **kwargs)
        yield from page.get("Items", [])
        start = page.get("LastEvaluatedKey")
        if not start:
            return
