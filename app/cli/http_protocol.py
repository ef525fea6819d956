"""uvicorn's h11 protocol with a deadline for every request head (used by ``blef serve``).

uvicorn closes a keep-alive connection that stays idle ``timeout_keep_alive`` seconds after a
response, but it waits without limit for a request head that never completes: a connection
that sends nothing, or a head sent a few bytes at a time (any byte cancels the keep-alive
timer). A few hundred such connections reach ``limit_concurrency``, and from then on every
other client gets 503. Here each request head must be complete within ``head_timeout``
seconds of the connection opening or of its own first byte; otherwise the connection is
closed, after a 408 if part of a request had arrived. (A body that arrives too slowly is
answered 408 by the app itself, see app/api/middleware.py.)

A second guard keeps one client from holding the server's connections (``limit_concurrency``
counts everyone's): at most ``per_address`` connections from one client address are open at
once; one more is answered 503 and closed before it is read, while every other address goes on
being served. A proxy the operator trusts (``BLEF_TRUSTED_PROXIES``) is not capped: its
connections carry many clients, whom the app's own limits tell apart by ``X-Forwarded-For``.

Imported only by ``blef serve``, which passes the class to uvicorn as its ``http`` protocol.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Iterable
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


def _busy_response(per_address: int) -> bytes:
    body = json.dumps(
        {
            "error": f"Too many connections from your address (at most {per_address});"
            " reuse one (keep-alive) or retry later",
            "code": "too_many_connections",
        }
    ).encode()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "retry-after: 1\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode() + body


class HeadTimeoutH11Protocol(H11Protocol):
    """H11Protocol, plus a deadline on reading each request head and a cap on the open
    connections of each client address."""

    head_timeout: ClassVar[float] = 10.0
    per_address: ClassVar[int] = 0
    """0: no cap per address."""
    open_by_address: ClassVar[dict[str, int]] = {}
    """Open connections per address, shared by the connections of one configured class (all
    run on the server's one event loop, so no lock is needed)."""
    exempt: ClassVar[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]] = ()
    """Peers whose connections are not capped (the trusted proxies)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._address: str | None = None

    @classmethod
    def with_timeout(
        cls,
        seconds: float,
        per_address: int = 0,
        exempt: Iterable[ipaddress.IPv4Network | ipaddress.IPv6Network] = (),
    ) -> type[HeadTimeoutH11Protocol]:
        return type(
            cls.__name__,
            (cls,),
            {
                "head_timeout": seconds,
                "per_address": per_address,
                "open_by_address": {},
                "exempt": tuple(exempt),
            },
        )

    def _exempt(self, address: str) -> bool:
        if not self.exempt:
            return False
        try:
            peer = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(peer in network for network in self.exempt)

    def _admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count the connection against its address; False if the address is at its cap."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "unknown"
        if self._exempt(address):
            return True
        count = self.open_by_address.get(address, 0)
        if self.per_address and count >= self.per_address:
            return False
        self.open_by_address[address] = count + 1
        self._address = address
        return True

    def _release(self) -> None:
        if self._address is None:
            return
        count = self.open_by_address.get(self._address, 0) - 1
        if count > 0:
            self.open_by_address[self._address] = count
        else:
            self.open_by_address.pop(self._address, None)
        self._address = None

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
        if not self._admit(transport):
            self.transport.write(_busy_response(self.per_address))
            self.transport.close()
            return
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        self._release()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        # The transport passes to a websocket protocol, and this one never hears of the
        # connection again (no connection_lost): stop counting it here. Websockets have a
        # cap of their own per address (app/api/routes/watch.py).
        self._release()
        super().handle_websocket_upgrade(event)

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
