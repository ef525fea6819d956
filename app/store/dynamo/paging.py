"""The one loop that reads the pages of a DynamoDB Query, and what is built on it: every
item, a count, and BatchGetItem's loop over unprocessed keys. Used by the games' store
(app/store/dynamo/store.py), the watchers (app/watch/connections.py) and the ladder's store
(app/ladder/dynamo/)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import AttributeValueTypeDef, QueryOutputTypeDef

    Item = dict[str, AttributeValueTypeDef]

BATCH_GET: Final = 100
"""BatchGetItem takes at most 100 keys."""
BATCH_GET_ATTEMPTS: Final = 10


def query_pages(
    client: DynamoDBClient,
    *,
    page_size: int | Callable[[], int] | None = None,
    counted: Callable[[], None] | None = None,
    **query: Any,
) -> Iterator[QueryOutputTypeDef]:
    """Every page of a Query, as DynamoDB answers them (``Items``, ``Count``), until the last
    one or until the caller stops asking. ``page_size``: the ``Limit`` of each request (a
    callable is asked before each one, so a caller may ask for what it still needs; None:
    DynamoDB's 1 MB pages). ``counted`` is called once per request sent."""
    start: Item | None = None
    while True:
        kwargs: dict[str, Any] = {}
        if start is not None:
            kwargs["ExclusiveStartKey"] = start
        limit = page_size() if callable(page_size) else page_size
        if limit is not None:
            kwargs["Limit"] = limit
        if counted is not None:
            counted()
        page = client.query(**query, **kwargs)
        yield page
        start = page.get("LastEvaluatedKey")
        if not start:
            return


def query_all(
    client: DynamoDBClient,
    *,
    page_size: int | None = None,
    counted: Callable[[], None] | None = None,
    **query: Any,
) -> Iterator[Item]:
    """Every item a Query finds, page after page (``page_size`` items a page; None:
    DynamoDB's 1 MB pages). ``counted`` is called once per request sent."""
    for page in query_pages(client, page_size=page_size, counted=counted, **query):
        yield from page.get("Items", [])


def query_count(client: DynamoDBClient, **query: Any) -> int:
    """How many items a Query matches (``Select = COUNT``, every page summed)."""
    return sum(int(page.get("Count", 0)) for page in query_pages(client, Select="COUNT", **query))


def get_many(
    client: DynamoDBClient, table_name: str, keys: Sequence[Item], *, consistent: bool = True
) -> list[Item]:
    """The items at ``keys`` that exist (BatchGetItem, 100 keys a call, the unprocessed keys
    asked again with a growing pause), in no particular order."""
    found: list[Item] = []
    for start in range(0, len(keys), BATCH_GET):
        pending: list[Item] = list(keys[start : start + BATCH_GET])
        for attempt in range(BATCH_GET_ATTEMPTS):
            reply = client.batch_get_item(
                RequestItems={table_name: {"Keys": pending, "ConsistentRead": consistent}}
            )
            found.extend(reply.get("Responses", {}).get(table_name, []))
            unprocessed = reply.get("UnprocessedKeys", {}).get(table_name)
            if not unprocessed:
                break
            pending = list(unprocessed["Keys"])
            time.sleep(0.01 * 2**attempt)
        else:
            raise RuntimeError(f"BatchGetItem left keys unprocessed {BATCH_GET_ATTEMPTS} times")
    return found
