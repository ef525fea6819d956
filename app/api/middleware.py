"""ASGI middleware: a request id and an access-log line per request, and a bound on the
size of request bodies (413 past it)."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
import uuid
from http import HTTPStatus
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.observability.logs import game_id, game_tag, request_id

log = logging.getLogger("blef.access")
_SAFE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
_GAME_PATH = re.compile(r"/games/([0-9A-Fa-f-]{32,36})(?:/|$)")


def _incoming_request_id(scope: Scope) -> str:
    context = scope.get("aws.context")
    aws_id = getattr(context, "aws_request_id", None)
    if isinstance(aws_id, str) and _SAFE_ID.fullmatch(aws_id):
        return str(aws_id)
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            text = str(value.decode("latin-1"))
            if _SAFE_ID.fullmatch(text):
                return text
    return uuid.uuid4().hex


class RequestLogMiddleware:
    """Sets the request id (Lambda's own, a safe ``X-Request-ID``, or a new one) and the
    game's tag for every log line of the request, answers the id in ``X-Request-ID``, and
    writes one access line per request: for every request, or, with ``successes=False``,
    only for those answered 400 or above. On Lambda the API's own access log already has a
    line for every request, with the function's request id to join them
    (infra/blef_infra/api.py), so a second line for each success would cost CPU and log
    volume for nothing."""

    def __init__(self, app: ASGIApp, *, successes: bool = True) -> None:
        self.app = app
        self.successes = successes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = _incoming_request_id(scope)
        token = request_id.set(rid)
        game = _GAME_PATH.match(scope.get("path", ""))
        game_token = game_id.set(game_tag(game.group(1).lower()) if game else None)
        started = time.perf_counter()
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", rid.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if self.successes or status >= HTTPStatus.BAD_REQUEST:
                route = scope.get("route")
                log.info(
                    "request",
                    extra={
                        "method": scope.get("method"),
                        "route": getattr(route, "path", None) or "unmatched",
                        "status": status,
                        "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                    },
                )
            request_id.reset(token)
            game_id.reset(game_token)


class BodyLimitMiddleware:
    """Read at most ``limit`` bytes of a request body, within ``timeout`` seconds; answer
    413 past the size and 408 past the time (a client sending a body slowly, or not at all
    after its headers, would otherwise hold a connection and a worker thread forever)."""

    def __init__(self, app: ASGIApp, limit: int, timeout: float = 10.0) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.limit + 1
                if declared > self.limit:
                    await self._too_large(send)
                    return
        chunks: list[bytes] = []
        size = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                await self._refuse(
                    send, 408, "Request body not received in time", "request_timeout"
                )
                return
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.limit:
                await self._too_large(send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send) -> None:
        message = f"Request body too large: at most {self.limit} bytes"
        await self._refuse(send, 413, message, "body_too_large")

    @staticmethod
    async def _refuse(send: Send, status: int, message: str, code: str) -> None:
        payload: dict[str, Any] = {"error": message, "code": code}
        body = json.dumps(payload).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
