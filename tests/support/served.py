"""An app served by uvicorn on a real socket of 127.0.0.1, as ``blef serve`` serves it, for
tests that need a real client (a websocket library speaking the protocol over TCP)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

WAIT_SECONDS = 60.0


@contextmanager
def served(app: Any) -> Iterator[str]:
    """Serve ``app`` on a free port of 127.0.0.1 until the block ends; yields
    ``127.0.0.1:<port>``."""
    import uvicorn

    # IPPROTO_TCP, named: asyncio sets TCP_NODELAY only on a socket whose ``proto`` says TCP
    # (the connections accepted inherit it), as on the sockets uvicorn makes for ``blef
    # serve``. With ``socket.socket()`` (proto 0) every answer waited ~40 ms for the client's
    # delayed ACK (Nagle's algorithm holding the body behind the headers).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + WAIT_SECONDS
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise AssertionError("uvicorn did not start")
            time.sleep(0.01)
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(WAIT_SECONDS)
        sock.close()
