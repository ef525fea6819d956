"""API Gateway HTTP API (payload format 2.0) events and a Lambda context, for invoking
``app.entrypoints.http.handler`` the way AWS does."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode


@dataclass
class LambdaContext:
    function_name: str = "blef-api"
    memory_limit_in_mb: int = 512
    invoked_function_arn: str = "arn:aws:lambda:eu-west-1:123456789012:function:blef-api"
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))

    def get_remaining_time_in_millis(self) -> int:
        return 10_000


def http_api_event(
    method: str,
    path: str,
    query: dict[str, Any] | None = None,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    raw_query = urlencode(query or {})
    all_headers = {"host": "abc123.execute-api.eu-west-1.amazonaws.com", "user-agent": "test"}
    all_headers |= {k.lower(): v for k, v in (headers or {}).items()}
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": path,
        "rawQueryString": raw_query,
        "headers": all_headers,
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "abc123",
            "domainName": "abc123.execute-api.eu-west-1.amazonaws.com",
            "domainPrefix": "abc123",
            "http": {
                "method": method,
                "path": path,
                "protocol": "HTTP/1.1",
                "sourceIp": "203.0.113.7",
                "userAgent": "test",
            },
            "requestId": uuid.uuid4().hex,
            "routeKey": "$default",
            "stage": "$default",
            "time": "21/Nov/2026:04:00:00 +0000",
            "timeEpoch": 1795233600000,
        },
        "isBase64Encoded": False,
    }
    if query:
        event["queryStringParameters"] = {k: str(v) for k, v in query.items()}
    if body is not None:
        event["body"] = json.dumps(body)
        event["headers"]["content-type"] = "application/json"
    return event


def invoke(handler: Any, method: str, path: str, **kwargs: Any) -> tuple[int, Any]:
    """Invoke the handler; returns the status and the decoded JSON body (None if empty)."""
    result = handler(http_api_event(method, path, **kwargs), LambdaContext())
    text = result.get("body") or ""
    return int(result["statusCode"]), json.loads(text) if text else None
