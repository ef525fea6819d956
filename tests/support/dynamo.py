"""DynamoDB for tests, on moto: in-process, or as a real HTTP server on 127.0.0.1.

Two ways to get a fresh games table:

- :func:`moto_dynamo_table`: ``moto.mock_aws`` in this process. Fast; boto3 never opens a
  socket. Everything made inside is gone when the block ends.
- :func:`moto_server` + :func:`server_dynamo_table`: moto's server in a thread of this
  process, bound to 127.0.0.1 on a free port, spoken to over real HTTP by boto3. Start one
  server per test session (or xdist worker) and make one uniquely named table per test.

Every helper sets fake credentials and the region only while it runs and then restores the
environment, so nothing leaks into other tests and no real AWS account is ever reachable.

Two things to know about moto:

- It does not serialise requests. Two concurrent conditional writes can both pass their
  condition, and a failing transaction restores a copy of the table taken before it ran,
  undoing a concurrent write. DynamoDB makes each request atomic, and the stores rely on
  exactly that, so the helpers here run moto's DynamoDB requests one at a time
  (:func:`serialised_moto_dynamodb`). Without it, 8 threads racing on one version produced
  several "winners" in about half of 60 runs (with a short thread switch interval).
- The in-process mock and the threaded server share moto's backends in this process, and
  ``mock_aws`` resets them when it starts and stops. Tables made on the server therefore
  last one test at most when in-process tests run in the same worker: make them per test.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any
from unittest.mock import patch

import boto3
from botocore.exceptions import ClientError

from app.store.dynamo.store import DynamoStore, create_table

REGION = "eu-west-1"

_FAKE_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SECURITY_TOKEN": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": REGION,
    "AWS_REGION": REGION,
    "AWS_CONFIG_FILE": os.devnull,
    "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
}
_CLEARED = (
    "AWS_PROFILE",
    "AWS_DEFAULT_PROFILE",
    "AWS_ENDPOINT_URL",
    "AWS_ENDPOINT_URL_DYNAMODB",
    "AWS_ROLE_ARN",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
)


@contextmanager
def fake_aws_env() -> Iterator[None]:
    """Fake credentials and region (no profile, no endpoint override, no proxy for
    localhost) inside the block; the environment exactly as it was afterwards."""
    with patch.dict(os.environ, _FAKE_ENV):
        for name in _CLEARED:
            os.environ.pop(name, None)
        for name in ("NO_PROXY", "no_proxy"):
            current = os.environ.get(name, "")
            os.environ[name] = ",".join(p for p in (current, "127.0.0.1", "localhost") if p)
        yield


@contextmanager
def serialised_moto_dynamodb() -> Iterator[None]:
    """Make moto handle one DynamoDB request at a time, as DynamoDB's per-request atomicity
    requires (see the module docstring). Nests safely."""
    from moto.dynamodb.responses import DynamoHandler

    lock = threading.RLock()
    original = DynamoHandler.call_action

    def call_action(self: Any) -> Any:
        with lock:
            return original(self)

    with patch.object(DynamoHandler, "call_action", call_action):
        yield


def unique_table_name(prefix: str = "blef-test") -> str:
    """A table name no other test (or xdist worker) uses."""
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


@dataclass(frozen=True)
class DynamoTable:
    """A games table ready for tests: a raw client for looking at items, and store factory."""

    client: Any
    table_name: str
    region_name: str = REGION
    endpoint_url: str | None = None

    def store(self) -> DynamoStore:
        """A store that builds its own client lazily, exactly as the service does."""
        return DynamoStore(
            self.table_name, endpoint_url=self.endpoint_url, region_name=self.region_name
        )

    def item(self, pk: str, sk: str) -> dict[str, Any] | None:
        """The raw item at a key (strongly consistent), or None."""
        reply = self.client.get_item(
            TableName=self.table_name,
            Key={"pk": {"S": pk}, "sk": {"S": sk}},
            ConsistentRead=True,
        )
        item: dict[str, Any] | None = reply.get("Item")
        return item

    def keys(self) -> list[tuple[str, str]]:
        """Every (pk, sk) in the table, sorted."""
        keys: list[tuple[str, str]] = []
        kwargs: dict[str, Any] = {}
        while True:
            page = self.client.scan(TableName=self.table_name, ConsistentRead=True, **kwargs)
            keys.extend((i["pk"]["S"], i["sk"]["S"]) for i in page.get("Items", []))
            if not page.get("LastEvaluatedKey"):
                return sorted(keys)
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


@contextmanager
def moto_dynamo_table(table_name: str | None = None) -> Iterator[DynamoTable]:
    """A fresh games table in an in-process moto mock (everything inside talks to it)."""
    from moto import mock_aws

    name = table_name or unique_table_name()
    with fake_aws_env(), serialised_moto_dynamodb(), mock_aws():
        client = boto3.session.Session().client("dynamodb", region_name=REGION)
        create_table(client, name)
        yield DynamoTable(client=client, table_name=name)


@contextmanager
def moto_server() -> Iterator[str]:
    """moto's server on 127.0.0.1 at a free port, in a thread; yields its endpoint URL and
    stops it afterwards."""
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    with serialised_moto_dynamodb():
        server.start()
        try:
            host, port = server.get_host_and_port()
            yield f"http://{host}:{port}"
        finally:
            server.stop()


@contextmanager
def server_dynamo_table(endpoint_url: str, table_name: str | None = None) -> Iterator[DynamoTable]:
    """A fresh games table on a moto server, made (and dropped afterwards) over HTTP."""
    name = table_name or unique_table_name()
    with fake_aws_env():
        client = boto3.session.Session().client(
            "dynamodb", endpoint_url=endpoint_url, region_name=REGION
        )
        create_table(client, name)
        try:
            yield DynamoTable(
                client=client, table_name=name, endpoint_url=endpoint_url, region_name=REGION
            )
        finally:
            with suppress(ClientError):  # already gone, e.g. reset by an in-process mock
                client.delete_table(TableName=name)
            client.close()
