"""How the routes' blocking work runs: in a worker thread, or, on AWS Lambda, inline.

The routes are plain functions that block (the store). FastAPI runs such a route in one of
anyio's worker threads, so that a server (``blef serve``, uvicorn) goes on serving other
requests meanwhile. On Lambda an execution environment serves one request at a time, and
Mangum runs each invocation as a new task of its event loop: anyio ends its worker threads
with that task, so every invocation started and joined a thread of its own, which cost
more CPU than the rest of a cheap request (benchmarks/lambda_cpu.py).

:class:`BlockingRoute` (the routers' ``route_class``) hands a plain route function to
:func:`run_blocking`, which does exactly what FastAPI did for it (a worker thread, the
context copied), unless the request runs under :class:`InlineBlocking`, the middleware
the Lambda entry point adds: then the route runs in the request's own thread. The route,
its parameters, its OpenAPI entry and its answers are the same either way.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, TypeVar

from fastapi.routing import APIRoute
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

T = TypeVar("T")

_inline: ContextVar[bool] = ContextVar("blef_inline_blocking", default=False)


async def run_blocking(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``function(*args, **kwargs)``: in a worker thread, or inline under
    :class:`InlineBlocking`."""
    if _inline.get():
        return function(*args, **kwargs)
    return await run_in_threadpool(function, *args, **kwargs)


def through_blocking(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """``endpoint`` as a coroutine function that runs it by :func:`run_blocking` (the same
    name, documentation and signature, which FastAPI reads through ``__wrapped__``)."""

    @functools.wraps(endpoint)
    async def call(*args: Any, **kwargs: Any) -> Any:
        return await run_blocking(endpoint, *args, **kwargs)

    return call


class BlockingRoute(APIRoute):
    """An API route whose plain (blocking) endpoint runs by :func:`run_blocking`."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        if not inspect.iscoroutinefunction(endpoint):
            endpoint = through_blocking(endpoint)
        super().__init__(path, endpoint, **kwargs)


class InlineBlocking:
    """ASGI middleware: the blocking routes of the requests it passes run inline, in the
    request's own thread (for AWS Lambda, which serves one request at a time)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        token = _inline.set(True)
        try:
            await self.app(scope, receive, send)
        finally:
            _inline.reset(token)
