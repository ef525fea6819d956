"""uvicorn's h11 protocol with a deadline for every request head (used by ``blef serve``).

uvicorn closes a keep-alive connection that stays idle ``timeout_keep_alive`` seconds after a
response, but it waits without limit for a request head that never completes: a connection
that sends nothing, or a head sent a few bytes at a time (any byte cancels the keep-alive
timer). A few hundred such connections reach ``limit_concurrency``, and from then on every
other client gets 503. Here each request head must be complete within ``head_timeout``
seconds of the connection opening or of its own first byte; otherwise the connection is
closed, after a 408 if part of a request had arrived. (A body that arrives too slowly is
answered 408 by the app itself, see app/api/middleware.py.)

Imported only by ``blef serve``, which passes the class to uvicorn as its ``http`` protocol.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


def _timeout_response() -> bytes:
    body = json.dumps({"error": "Request not received in time", "code": "request_timeout"}).encode()
    head = (
        "HTTP/1.1 408 Request Timeout\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode() + body


class HeadTimeoutH11Protocol(H11Protocol):
    """H11Protocol, plus a deadline on reading each request head."""

    head_timeout: ClassVar[float] = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None

    @classmethod
    def with_timeout(cls, seconds: float) -> type[HeadTimeoutH11Protocol]:
        return type(cls.__name__, (cls,), {"head_timeout": seconds})

    def _arm_head_timer(self) -> None:
        self._cancel_head_timer()
        self._head_timer = self.loop.call_later(self.head_timeout, self._head_timed_out)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _waiting_for_a_head(self) -> bool:
        return self.conn.their_state is h11.IDLE and self.conn.our_state is h11.IDLE

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        # The first bytes of a request after a response start its head's clock (until then,
        # an idle connection is uvicorn's keep-alive timer's business).
        idle = self._head_timer is None and not self.transport.is_closing()
        if idle and self._waiting_for_a_head():
            self._arm_head_timer()

    def handle_events(self) -> None:
        super().handle_events()
        if self._head_timer is not None and not self._waiting_for_a_head():
            self._cancel_head_timer()  # the head is in: the request is being handled

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or not self._waiting_for_a_head():
            return
        partial, _ = self.conn.trailing_data
        if partial:
            self.transport.write(_timeout_response())
        self.transport.close()
