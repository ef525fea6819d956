"""What the Lambda benchmarks share: the functions' environment, AWS clients whose every
call is answered in memory (DynamoDB, SQS and the API Gateway management API, stubbed at the
client: the real botocore request is built and serialised, then a ``before-call`` hook
answers it instead of the network, as botocore's Stubber does), API Gateway HTTP API (v2)
events, and the floor handler (one GetItem and one PutItem through Mangum and FastAPI).

Not moto: moto's in-process DynamoDB spends far more CPU than the code under test. The
fake's own bookkeeping (item sizes, units) is done when its usage is taken, outside the
timed requests; building an event and decoding the reply (:func:`invoke`, :func:`parse`)
are outside them too.

``BLEF_BENCH_TREE`` names another checkout whose ``app`` the harness drives instead of this
one's (``benchmarks/lambda_cpu.py --against``): the same events, fake and floor for both.
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_DIR = Path(os.environ.get("BLEF_BENCH_TREE") or Path(__file__).resolve().parent.parent)
if str(REPO_DIR) not in sys.path:
    sys.path.insert(0, str(REPO_DIR))

from tests.support.apigw import LambdaContext, http_api_event  # noqa: E402

TABLE = "blef-benchmark"
QUEUE_URL = "https://sqs.eu-west-1.amazonaws.com/123456789012/blef-clock"
LAMBDA_ENVIRONMENT = {
    "BLEF_STORE": "dynamodb",
    "BLEF_TABLE_NAME": TABLE,
    "BLEF_CLOCK_QUEUE_URL": QUEUE_URL,
    "BLEF_WEBSOCKET_ENDPOINT": "https://ws123.execute-api.eu-west-1.amazonaws.com/live",
    "BLEF_AI_THINK_SECONDS": "0",
    "BLEF_RATE_LIMIT_BURST": "0",  # one benchmark address creates hundreds of games
    "AWS_DEFAULT_REGION": "eu-west-1",
    "AWS_REGION": "eu-west-1",
    "AWS_ACCESS_KEY_ID": "benchmark",
    "AWS_SECRET_ACCESS_KEY": "benchmark",
    # Logs as the deployed functions write them (infra/blef_infra/functions.py): JSON lines
    # through Powertools, at INFO.
    "LOG_LEVEL": "INFO",
    "AWS_LAMBDA_FUNCTION_NAME": "blef-benchmark",
    "POWERTOOLS_METRICS_NAMESPACE": "Blef",
    "POWERTOOLS_SERVICE_NAME": "blef",
}


def set_lambda_environment() -> None:
    for key in [k for k in os.environ if k.startswith("BLEF_")]:
        del os.environ[key]
    os.environ.update(LAMBDA_ENVIRONMENT)


def item_size(item: dict[str, Any]) -> int:
    """An item's size as DynamoDB bills it (names plus values, in bytes)."""
    return sum(len(name.encode()) + _value_size(value) for name, value in item.items())


def _value_size(value: dict[str, Any]) -> int:
    ((kind, data),) = value.items()
    if kind == "S":
        return len(data.encode())
    if kind == "N":
        return (len(data.strip("-").replace(".", "").lstrip("0")) + 1) // 2 + 1
    if kind == "B":
        return len(data)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "M":
        return 3 + sum(len(k.encode()) + _value_size(v) + 1 for k, v in data.items())
    if kind == "L":
        return 3 + sum(_value_size(v) + 1 for v in data)
    return len(json.dumps(data))  # SS, NS, BS: not used by this service


def write_units(size: int) -> int:
    return max(1, -(-size // 1024))


def read_units(size: int, consistent: bool = True) -> float:
    units = max(1, -(-size // 4096))
    return float(units) if consistent else units / 2


@dataclass
class Usage:
    """What the stubbed clients were asked, in DynamoDB's billing terms."""

    calls: Counter[str] = field(default_factory=Counter)
    write_units: float = 0.0
    read_units: float = 0.0
    sqs_messages: int = 0
    websocket_messages: int = 0

    def add(self, other: Usage) -> None:
        self.calls.update(other.calls)
        self.write_units += other.write_units
        self.read_units += other.read_units
        self.sqs_messages += other.sqs_messages
        self.websocket_messages += other.websocket_messages


class _Http:
    status_code = 200
    headers: dict[str, str] = {}  # noqa: RUF012
    content = b""
    raw = None


class FakeAws:
    """One in-memory DynamoDB table (every table name shares it), an SQS queue that
    swallows messages, and a management API that accepts posts; counts what each costs."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str], dict[str, Any]] = {}
        self.usage = Usage()
        self.sent: list[str] = []
        self.on_state_write: Callable[[dict[str, Any] | None, dict[str, Any]], None] | None = None
        self._reads: list[tuple[dict[str, Any] | None, bool]] = []
        self._writes: list[tuple[dict[str, Any] | None, dict[str, Any], bool]] = []

    def take_usage(self) -> Usage:
        """What was asked since the last take, its units worked out now (not while a
        request is timed)."""
        usage, self.usage = self.usage, Usage()
        for item, consistent in self._reads:
            usage.read_units += read_units(item_size(item) if item else 1, consistent)
        for old, new, transactional in self._writes:
            size = max(item_size(new), item_size(old) if old else 0)
            usage.write_units += write_units(size) * (2 if transactional else 1)
        self._reads.clear()
        self._writes.clear()
        return usage

    def attach(self, client: Any) -> Any:
        service = client.meta.service_model.service_id.hyphenize()
        client.meta.events.register(f"before-call.{service}", self._answer)
        return client

    @staticmethod
    def _key(key: dict[str, Any]) -> tuple[str, str]:
        return key["pk"]["S"], key["sk"]["S"]

    def _answer(self, model: Any, params: dict[str, Any], **_: Any) -> tuple[_Http, dict[str, Any]]:
        body = params.get("body") or b"{}"
        request = json.loads(body) if isinstance(body, (bytes, str)) else dict(body)
        handler: Callable[[dict[str, Any]], dict[str, Any]] = getattr(self, f"_{model.name}")
        self.usage.calls[model.name] += 1
        return _Http(), handler(request)

    # ---- DynamoDB
    def _GetItem(self, request: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        item = self.items.get(self._key(request["Key"]))
        self._reads.append((item, request.get("ConsistentRead", False)))
        return {"Item": item} if item is not None else {}

    def _put(self, item: dict[str, Any], transactional: bool = False) -> None:
        key = self._key(item)
        old = self.items.get(key)
        self._writes.append((old, item, transactional))
        self.items[key] = item
        if key[1] == "STATE" and self.on_state_write is not None:
            self.on_state_write(old, item)

    def _PutItem(self, request: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        self._put(request["Item"])
        return {}

    def _TransactWriteItems(self, request: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        for entry in request["TransactItems"]:
            if "Put" in entry:
                self._put(entry["Put"]["Item"], transactional=True)
            elif "Update" in entry:
                self.usage.write_units += 2
            elif "Delete" in entry:
                self.usage.write_units += 2
                self.items.pop(self._key(entry["Delete"]["Key"]), None)
        return {}

    def _UpdateItem(self, request: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        key = self._key(request["Key"])
        item = self.items.setdefault(key, dict(request["Key"]))
        value = int(item.get("value", {"N": "0"})["N"]) + 1
        item["value"] = {"N": str(value)}
        self._writes.append((None, dict(item), False))
        return {"Attributes": {"value": {"N": str(value)}}}

    def _DeleteItem(self, request: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        old = self.items.pop(self._key(request["Key"]), None)
        self._writes.append((None, old or {}, False))
        return {"Attributes": old} if old and request.get("ReturnValues") else {}

    def _Query(self, request: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        self.usage.read_units += 1
        return {"Items": [], "Count": 0, "ScannedCount": 0}

    # ---- SQS and the websocket management API
    def _SendMessageBatch(self, request: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        entries = request.get("Entries", [])
        self.usage.sqs_messages += len(entries)
        self.sent.extend(e["MessageBody"] for e in entries)
        return {
            "Successful": [
                {"Id": e["Id"], "MessageId": uuid.uuid4().hex, "MD5OfMessageBody": "0" * 32}
                for e in entries
            ],
            "Failed": [],
        }

    def _PostToConnection(self, request: dict[str, Any]) -> dict[str, Any]:  # noqa: N802
        self.usage.websocket_messages += 1
        return {}


def install(fake: FakeAws) -> None:
    """Every AWS client the app makes from now on (app/cloud/clients.py) is answered by
    ``fake``."""
    from app.cloud import clients as aws

    made = aws.client

    def client(service: str, **kwargs: Any) -> Any:
        return fake.attach(made(service, **kwargs))

    aws.client = client


# ---------------------------------------------------------------------- events


def http_event(method: str, path: str, query: dict[str, Any] | None = None) -> dict[str, Any]:
    """An API Gateway HTTP API (payload format 2.0) event, from one client address."""
    return http_api_event(method, path, query, headers={"x-forwarded-for": "203.0.113.7"})


def sqs_event(bodies: list[str]) -> dict[str, Any]:
    return {
        "Records": [
            {"messageId": uuid.uuid4().hex, "body": body, "eventSource": "aws:sqs"}
            for body in bodies
        ]
    }


def invoke(handler: Any, event: dict[str, Any]) -> dict[str, Any]:
    """One invocation of ``handler`` with ``event``: its raw reply (what is timed)."""
    reply: dict[str, Any] = handler(event, LambdaContext())
    return reply


def parse(reply: dict[str, Any]) -> tuple[int, Any]:
    """An HTTP function's reply as (status, decoded JSON body)."""
    text = reply.get("body") or ""
    return int(reply["statusCode"]), json.loads(text) if text else None


def call(handler: Any, method: str, path: str, **query: Any) -> tuple[int, Any]:
    return parse(invoke(handler, http_event(method, path, query or None)))


# ---------------------------------------------------------------------- the floor


def floor_handler(fake: FakeAws) -> Callable[[dict[str, Any], Any], dict[str, Any]]:
    """One GetItem (strongly consistent) and one PutItem of the item it read, through
    Mangum and a bare FastAPI app: the least a request of this service can do."""
    from fastapi import FastAPI
    from mangum import Mangum

    from app.cloud import clients as aws

    client = aws.client("dynamodb", region_name="eu-west-1")
    fake.attach(client)
    app = FastAPI()

    @app.get("/floor/{game}")
    def floor(game: str) -> dict[str, Any]:
        key = {"pk": {"S": f"GAME#{game}"}, "sk": {"S": "STATE"}}
        item = client.get_item(TableName=TABLE, Key=key, ConsistentRead=True).get("Item")
        client.put_item(TableName=TABLE, Item=item or key)
        return {"game": game, "found": item is not None}

    return Mangum(app, lifespan="off")  # type: ignore[no-any-return]
