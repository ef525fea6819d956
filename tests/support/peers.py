"""Clients of a server the tests started, each from a loopback address of its own (127.x.y.z),
so that per-address limits see several peers on one machine."""

from __future__ import annotations

import socket

import httpx

from benchmarks.load import Server


def client_from(address: str, server: Server) -> httpx.Client:
    """An HTTP client of ``server`` whose connections come from ``address``."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=server.url, transport=transport, timeout=20)


def socket_from(address: str, server: Server) -> socket.socket:
    """A TCP connection to ``server`` from ``address``."""
    sock = socket.socket()
    sock.settimeout(20)
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", server.port))
    return sock
