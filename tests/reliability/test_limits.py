"""Limits: request bodies, nicknames, the public list, idle and incomplete connections.

Where the natural answer is not a JSON 4xx, the test says so: an idle keep-alive connection
and a connection that never sends a request are simply closed; a request line or header
block past h11's 16 KiB is answered by uvicorn itself with a plain-text 400.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.api.main import create_app
from app.api.middleware import BodyLimitMiddleware
from app.cli.serve import KEEP_ALIVE_SECONDS
from app.config.settings import Settings
from app.service import GameService
from app.service.errors import InvalidParameter
from app.store.base import GameStore
from app.store.sqlite import SqliteStore
from benchmarks.load import Server
from engine.facts import MAX_NICKNAME_LENGTH

REQUEST_TIMEOUT = 1.0
"""BLEF_REQUEST_TIMEOUT_SECONDS for the server of the incomplete-request tests."""
WAIT = 60.0
"""How long a test waits for the server to close a connection before calling it a failure."""


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(db_path=tmp_path / "blef.db", max_listed_games=5)


@pytest.fixture
def service(settings: Settings) -> Iterator[GameService]:
    store = SqliteStore(settings.db_path)
    yield GameService(store, settings)
    store.close()


@pytest.fixture
def client(settings: Settings, service: GameService) -> Iterator[TestClient]:
    with TestClient(create_app(settings, service)) as http:
        yield http


@pytest.fixture
def game(client: TestClient) -> str:
    return str(client.get("/games/create").json()["game_uuid"])


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """blef serve with a 1 s request timeout."""
    tmp = tmp_path_factory.mktemp("limits")
    server = Server(
        tmp / "blef.db",
        tmp / "server.log",
        env={"BLEF_REQUEST_TIMEOUT_SECONDS": str(REQUEST_TIMEOUT)},
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def connect(server: Server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)


def read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response with a content-length, read off a raw socket."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed before a response: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines)}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk
        body += chunk
    return int(status_line.split()[1]), headers, body


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closes the connection (within WAIT seconds)."""
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


# ------------------------------------------------------------------ request bodies


def test_a_body_over_the_limit_is_refused_with_413_declared_or_streamed(
    client: TestClient, game: str, settings: Settings
) -> None:
    big = json.dumps({"nickname": "x" * settings.max_body_bytes}).encode()
    declared = client.post(
        f"/games/{game}/join", content=big, headers={"Content-Type": "application/json"}
    )
    streamed = client.post(
        f"/games/{game}/join",
        content=iter([big[:1000], big[1000:]]),  # chunked: no Content-Length
        headers={"Content-Type": "application/json"},
    )
    for reply in (declared, streamed):
        assert reply.status_code == 413
        assert reply.json()["code"] == "body_too_large"
    assert client.get(f"/games/{game}").json()["players"] == []


def test_a_body_just_under_the_limit_is_read_and_judged_on_its_content(
    client: TestClient, game: str, settings: Settings
) -> None:
    body = json.dumps({"nickname": "x" * (settings.max_body_bytes - 100)})
    reply = client.post(
        f"/games/{game}/join", content=body, headers={"Content-Type": "application/json"}
    )
    assert reply.status_code == 400
    assert reply.json()["code"] == "invalid_nickname"


def test_a_body_over_the_limit_gets_413_from_blef_serve_too(strict_server: Server) -> None:
    with httpx.Client(base_url=strict_server.url, timeout=WAIT) as http:
        game = http.get("/games/create").json()["game_uuid"]
        reply = http.post(f"/games/{game}/join", content=b"{" + b" " * 20_000 + b"}")
    assert reply.status_code == 413
    assert reply.json()["code"] == "body_too_large"


# ------------------------------------------------------------------ nicknames


@pytest.mark.parametrize(
    ("length", "status"),
    [(1, 200), (MAX_NICKNAME_LENGTH, 200), (MAX_NICKNAME_LENGTH + 1, 400), (5000, 400)],
)
def test_nicknames_are_one_to_32_characters_in_both_forms(
    client: TestClient, game: str, length: int, status: int
) -> None:
    name = "N" + "n" * (length - 1)
    by_get = client.get(f"/games/{game}/join", params={"nickname": name})
    by_post = client.post(f"/games/{game}/join", json={"nickname": name.lower()})
    assert by_get.status_code == status
    assert by_post.status_code == (400 if status == 200 else status)  # same name, any case
    if status == 400:
        assert by_get.json()["code"] == by_post.json()["code"] == "invalid_nickname"
        assert len(by_get.json()["error"]) < 300  # a long value is not echoed whole


def test_a_long_query_gets_a_json_400_and_a_huge_head_a_plain_400_from_uvicorn(
    strict_server: Server,
) -> None:
    """A long nickname in the query string reaches the app, which refuses it (JSON 400,
    the value not echoed whole). A request head still incomplete past h11's 16 KiB never
    reaches the app: uvicorn answers a plain-text 400 and closes the connection."""
    with httpx.Client(base_url=strict_server.url, timeout=WAIT) as http:
        game = http.get("/games/create").json()["game_uuid"]
        long_query = http.get(f"/games/{game}/join", params={"nickname": "n" * 20_000})
    assert long_query.status_code == 400 and long_query.json()["code"] == "invalid_nickname"
    assert len(long_query.text) < 500
    sock = connect(strict_server)
    try:
        # 17 KiB of a request line, and no end to it: the buffer passes 16 KiB incomplete.
        sock.sendall(f"GET /games/{game}/join?nickname={'n' * 17_000}".encode())
        reply = b""
        while chunk := sock.recv(65536):  # the whole reply, to the close
            reply += chunk
        assert reply.startswith(b"HTTP/1.1 400 ")
        assert b"content-type: text/plain" in reply.lower()
        assert b"Invalid HTTP request" in reply
    finally:
        sock.close()
    with httpx.Client(base_url=strict_server.url, timeout=WAIT) as http:
        assert http.get(f"/games/{game}").json()["players"] == []


# ------------------------------------------------------------------ the public list


def _public_games(service: GameService, count: int) -> None:
    for i in range(count):
        game = service.create_game()["game_uuid"]
        admin = service.join(game, f"admin{i}")["player_uuid"]
        service.set_public(game, admin, public=True)


def test_the_public_list_never_exceeds_the_maximum_and_a_larger_limit_is_a_400(
    any_store: GameStore,
) -> None:
    service = GameService(any_store, Settings(max_listed_games=5))
    _public_games(service, 8)
    assert len(service.list_public()) == 5
    assert len(service.list_public(5)) == 5
    assert len(service.list_public(2)) == 2
    for limit in (0, 6, 1000):
        with pytest.raises(InvalidParameter, match="between 1 and 5"):
            service.list_public(limit)


@pytest.mark.parametrize(
    ("limit", "status", "shown"),
    [
        (None, 200, 5),
        ("5", 200, 5),
        ("1", 200, 1),
        ("6", 400, 0),
        ("1001", 400, 0),
        ("0", 400, 0),
        ("x", 400, 0),
    ],
)
def test_get_games_with_a_limit(
    client: TestClient, service: GameService, limit: str | None, status: int, shown: int
) -> None:
    _public_games(service, 7)
    params: dict[str, Any] = {} if limit is None else {"limit": limit}
    reply = client.get("/games", params=params)
    assert reply.status_code == status
    if status == 200:
        assert len(reply.json()) == shown
    else:
        assert reply.json()["code"] in ("invalid_parameter", "invalid_request")
        assert "limit" in reply.json()["error"]


# ------------------------------------------------------------------ idle and slow connections


def test_an_idle_keep_alive_connection_is_closed_after_the_timeout(strict_server: Server) -> None:
    sock = connect(strict_server)
    try:
        for _ in range(2):  # the connection is kept alive between requests...
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: blef\r\n\r\n")
            status, headers, _ = read_response(sock)
            assert status == 200 and headers.get("connection") != "close"
        started = time.monotonic()
        assert closed_by_server(sock)  # ...and closed once idle for the keep-alive timeout
        assert time.monotonic() - started >= KEEP_ALIVE_SECONDS - 1
    finally:
        sock.close()


def test_a_connection_that_never_sends_a_request_is_closed(strict_server: Server) -> None:
    sock = connect(strict_server)
    try:
        assert closed_by_server(sock)
    finally:
        sock.close()


def test_a_request_head_that_never_completes_gets_408_and_is_closed(strict_server: Server) -> None:
    sock = connect(strict_server)
    try:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: blef\r\nX-Slow: ")
        status, headers, body = read_response(sock)
        assert status == 408 and headers["connection"] == "close"
        assert json.loads(body)["code"] == "request_timeout"
        assert closed_by_server(sock)
    finally:
        sock.close()


def test_a_partial_head_after_a_response_on_a_kept_alive_connection_is_also_cut(
    strict_server: Server,
) -> None:
    """Any byte cancels uvicorn's keep-alive timer; the head deadline still applies."""
    sock = connect(strict_server)
    try:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: blef\r\n\r\n")
        assert read_response(sock)[0] == 200
        sock.sendall(b"GET /health HTTP/1.1\r\n")
        assert read_response(sock)[0] == 408
        assert closed_by_server(sock)
    finally:
        sock.close()


def test_a_body_that_never_completes_gets_408_and_is_closed(strict_server: Server) -> None:
    sock = connect(strict_server)
    try:
        sock.sendall(
            b"POST /games/create HTTP/1.1\r\nHost: blef\r\nContent-Type: application/json\r\n"
            b"Content-Length: 10\r\n\r\n{"
        )
        status, headers, body = read_response(sock)
        assert status == 408 and headers["connection"] == "close"
        assert json.loads(body)["code"] == "request_timeout"
        assert closed_by_server(sock)
    finally:
        sock.close()
    with httpx.Client(base_url=strict_server.url, timeout=WAIT) as http:
        assert http.get("/health").status_code == 200  # and the server serves on


def test_the_body_deadline_is_the_app_s_own_so_it_holds_under_any_server() -> None:
    """The middleware answers 408 itself, whatever server runs the app."""
    sent: list[dict[str, Any]] = []
    reached = False

    async def app(scope: Any, receive: Any, send: Any) -> None:
        nonlocal reached
        reached = True

    async def never() -> dict[str, Any]:
        await asyncio.sleep(3600)
        return {}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "headers": [(b"content-length", b"10")]}
    asyncio.run(BodyLimitMiddleware(app, limit=1000, timeout=0.05)(scope, never, send))  # type: ignore[arg-type]
    assert not reached
    assert sent[0]["status"] == 408
    assert json.loads(sent[1]["body"])["code"] == "request_timeout"


def test_a_websocket_outlives_the_request_head_deadline(strict_server: Server) -> None:
    """The head deadline ends once the upgrade request is in: a watcher stays connected."""
    client = pytest.importorskip("websockets.sync.client")
    with httpx.Client(base_url=strict_server.url, timeout=WAIT) as http:
        game = http.get("/games/create").json()["game_uuid"]
        admin = http.get(f"/games/{game}/join", params={"nickname": "ann"}).json()
        http.get(f"/games/{game}/join", params={"nickname": "ben"})
        http.get(f"/games/{game}/start", params={"admin_uuid": admin["player_uuid"]})
        url = f"ws://127.0.0.1:{strict_server.port}/ws/live"
        with client.connect(url, additional_headers={"game_uuid": game}) as ws:
            assert json.loads(ws.recv(timeout=WAIT))["statusCode"] == 200
            time.sleep(REQUEST_TIMEOUT * 2)
            assert ws.ping().wait(WAIT)
