"""Events as AWS delivers them to the websocket handlers, and a fake management API.

- :func:`connect_event`, :func:`disconnect_event`, :func:`message_event`: API Gateway
  WebSocket API proxy events (``requestContext.routeKey``, ``connectionId``, headers as the
  client sent them, ``queryStringParameters`` or None).
- :func:`stream_record`, :func:`stream_event`: DynamoDB stream records
  (``NEW_AND_OLD_IMAGES``) as the event source mapping hands them to the pusher, built from
  items read back from the table.
- :class:`FakeManagementApi`: records posts, and answers 410 Gone for chosen connections.
- :func:`connected`: a new connection through the websocket handler's ``$connect``.
"""

from __future__ import annotations

import itertools
import json
import threading
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from botocore.exceptions import ClientError

from app.entrypoints import websocket as websocket_handler

DOMAIN = "abc123.execute-api.eu-west-1.amazonaws.com"
ENDPOINT = f"https://{DOMAIN}/live"
STREAM_ARN = (
    "arn:aws:dynamodb:eu-west-1:123456789012:table/blef-test/stream/2026-11-21T00:00:00.000"
)
_sequence = itertools.count(1)


def new_connection_id() -> str:
    """An id of the form API Gateway gives (base64, often ending with ``=``)."""
    return uuid.uuid4().hex[:15] + "="


def _request_context(route_key: str, connection_id: str, event_type: str) -> dict[str, Any]:
    return {
        "routeKey": route_key,
        "eventType": event_type,
        "connectionId": connection_id,
        "domainName": DOMAIN,
        "stage": "live",
        "apiId": "abc123",
        "requestId": uuid.uuid4().hex,
        "connectedAt": 1795233600000,
        "requestTimeEpoch": 1795233600000,
        "identity": {"sourceIp": "203.0.113.7"},
    }


def connected(headers: Mapping[str, str] | None = None) -> str:
    """Open a new connection through the websocket handler's ``$connect`` with ``headers``;
    its id, once the handler has accepted it (200)."""
    connection = new_connection_id()
    assert websocket_handler.connect(connect_event(connection, headers))["statusCode"] == 200
    return connection


def connect_event(
    connection_id: str,
    headers: Mapping[str, str] | None = None,
    query: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    all_headers = {
        "Host": DOMAIN,
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
        **(headers or {}),
    }
    return {
        "headers": all_headers,
        "multiValueHeaders": {k: [v] for k, v in all_headers.items()},
        "queryStringParameters": dict(query) if query else None,
        "requestContext": _request_context("$connect", connection_id, "CONNECT"),
        "isBase64Encoded": False,
    }


def disconnect_event(connection_id: str) -> dict[str, Any]:
    return {
        "headers": {"Host": DOMAIN},
        "requestContext": {
            **_request_context("$disconnect", connection_id, "DISCONNECT"),
            "disconnectStatusCode": 1001,
            "disconnectReason": "Going away",
        },
        "isBase64Encoded": False,
    }


def message_event(connection_id: str, body: str) -> dict[str, Any]:
    return {
        "requestContext": _request_context("$default", connection_id, "MESSAGE"),
        "body": body,
        "isBase64Encoded": False,
    }


def stream_record(
    item: Mapping[str, Any], event_name: str = "MODIFY", old: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """One stream record (``NEW_AND_OLD_IMAGES``) carrying ``item`` (a raw DynamoDB item) as
    its new image, and ``old`` (the item before the change, if any) as its old image."""
    image = dict(item)
    dynamodb: dict[str, Any] = {
        "ApproximateCreationDateTime": 1795233600,
        "Keys": {"pk": image["pk"], "sk": image["sk"]},
        "SequenceNumber": str(next(_sequence)).zfill(21),
        "SizeBytes": len(json.dumps(image)),
        "StreamViewType": "NEW_AND_OLD_IMAGES",
    }
    if event_name != "REMOVE":
        dynamodb["NewImage"] = image
    if old is not None:
        dynamodb["OldImage"] = dict(old)
    return {
        "eventID": uuid.uuid4().hex,
        "eventName": event_name,
        "eventVersion": "1.1",
        "eventSource": "aws:dynamodb",
        "awsRegion": "eu-west-1",
        "dynamodb": dynamodb,
        "eventSourceARN": STREAM_ARN,
    }


def stream_event(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    return {"Records": list(records)}


@dataclass
class FakeManagementApi:
    """Records every post; a connection in ``gone`` answers 410 (``GoneException``) that
    many times (``None``: always), one in ``broken`` answers 500, and one the service closed
    answers 410 from then on, as API Gateway's does (a retried batch may still try it)."""

    gone: dict[str, int | None] = field(default_factory=dict)
    broken: set[str] = field(default_factory=set)
    posts: list[tuple[str, bytes]] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)
    """Connections closed by the service (``DeleteConnection``), in order."""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def delete_connection(self, *, ConnectionId: str) -> dict[str, Any]:  # noqa: N803
        with self._lock:
            self.closed.append(ConnectionId)
        return {}

    def messages(self, connection_id: str) -> list[dict[str, Any]]:
        """Every message posted to one connection, ``{"statusCode", "body"}`` with the body
        decoded, whatever its status."""
        return [
            {**message, "body": json.loads(message["body"])}
            for target, data in self.posts
            if target == connection_id
            for message in [json.loads(data)]
        ]

    def post_to_connection(self, *, Data: bytes, ConnectionId: str) -> dict[str, Any]:  # noqa: N803
        with self._lock:
            if ConnectionId in self.closed:
                raise _error("GoneException", 410)
            if ConnectionId in self.gone:
                left = self.gone[ConnectionId]
                if left is None or left > 0:
                    if left is not None:
                        self.gone[ConnectionId] = left - 1
                    raise _error("GoneException", 410)
            if ConnectionId in self.broken:
                raise _error("InternalServerError", 500)
            self.posts.append((ConnectionId, Data))
        return {}

    def bodies(self, connection_id: str) -> list[dict[str, Any]]:
        """The state objects posted to one connection, read as the iOS client reads them."""
        found = []
        for target, data in self.posts:
            if target == connection_id:
                message = json.loads(data)
                assert message["statusCode"] == 200
                found.append(json.loads(message["body"]))
        return found


def _error(code: str, status: int) -> ClientError:
    return ClientError(
        {
            "Error": {"Code": code, "Message": code},
            "ResponseMetadata": {"HTTPStatusCode": status},
        },
        "PostToConnection",
    )
