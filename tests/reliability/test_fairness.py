"""Issue 11, point 4: fairness per client address. One client over its limits is refused
while another is served: the tests speak to ``blef serve`` on 127.0.0.1 from two loopback
addresses, 127.0.0.2 (the flooder) and 127.0.0.3 (everyone else). Token buckets are tested
on a fake clock; no assertion depends on how fast anything runs."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.api.fairness import TokenBuckets
from benchmarks.load import Server
from tests.support.peers import client_from, socket_from

FLOODER = "127.0.0.2"
OTHER = "127.0.0.3"
BURST = 5
CONNECTIONS = 4
IN_FLIGHT = 3
WEBSOCKETS = 2


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# ------------------------------------------------------------------ token buckets


def test_a_bucket_grants_its_burst_then_says_how_long_to_wait() -> None:
    clock = FakeClock()
    buckets = TokenBuckets(burst=3, per_second=0.5, clock=clock)
    assert [buckets.take(("a", "create")) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take(("a", "create")) == pytest.approx(2.0)
    clock.now += 2.0
    assert buckets.take(("a", "create")) == 0.0


def test_one_address_emptying_its_bucket_leaves_another_address_full() -> None:
    buckets = TokenBuckets(burst=2, per_second=1.0, clock=FakeClock())
    for _ in range(10):
        buckets.take(("flooder", "create"))
    assert buckets.take(("flooder", "create")) > 0
    assert buckets.take(("other", "create")) == 0.0
    assert buckets.take(("flooder", "join")) == 0.0  # each route its own bucket


@given(
    burst=st.integers(1, 20),
    rate=st.floats(0.1, 50),
    gaps=st.lists(st.floats(0, 5), min_size=1, max_size=200),
)
def test_a_bucket_never_grants_more_than_its_burst_plus_what_time_refilled(
    burst: int, rate: float, gaps: list[float]
) -> None:
    clock = FakeClock()
    buckets = TokenBuckets(burst=burst, per_second=rate, clock=clock)
    granted = 0
    for gap in gaps:
        clock.now += gap
        wait = buckets.take(("a", "x"))
        assert wait >= 0
        granted += wait == 0.0
    assert granted <= burst + rate * sum(gaps) + 1e-6


# ------------------------------------------------------------------ against blef serve


@pytest.fixture
def fair_server(tmp_path: Path) -> Iterator[Server]:
    running = Server(
        tmp_path / "blef.db",
        tmp_path / "server.log",
        env={
            "BLEF_RATE_LIMIT_BURST": str(BURST),
            "BLEF_RATE_LIMIT_PER_SECOND": "0.001",  # no refill within a test
            "BLEF_MAX_CONNECTIONS_PER_ADDRESS": str(CONNECTIONS),
            "BLEF_MAX_IN_FLIGHT_PER_ADDRESS": str(IN_FLIGHT),
            "BLEF_MAX_WEBSOCKETS_PER_ADDRESS": str(WEBSOCKETS),
            "BLEF_REQUEST_TIMEOUT_SECONDS": "30",
        },
    )
    running.start()
    try:
        yield running
    finally:
        running.stop()


def test_a_client_past_its_create_bucket_gets_429_while_another_address_creates(
    fair_server: Server,
) -> None:
    with client_from(FLOODER, fair_server) as flooder, client_from(OTHER, fair_server) as other:
        made = [flooder.post("/games/create") for _ in range(BURST)]
        assert all(r.status_code == 200 for r in made)
        refused = flooder.post("/games/create")
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate_limited"
        assert int(refused.headers["retry-after"]) >= 1
        assert flooder.get("/games/create").status_code == 429  # the GET form shares it
        assert other.post("/games/create").status_code == 200
        game = other.get("/games/create").json()["game_uuid"]
        assert flooder.get(f"/games/{game}").status_code == 200  # reads are not limited


def test_a_client_past_its_join_bucket_gets_429_while_another_address_joins(
    fair_server: Server,
) -> None:
    with client_from(FLOODER, fair_server) as flooder, client_from(OTHER, fair_server) as other:
        game = other.get("/games/create").json()["game_uuid"]
        codes = [
            flooder.get(f"/games/{game}/join", params={"nickname": f"spam{i}"}).status_code
            for i in range(BURST + 1)
        ]
        assert codes[-1] == 429
        joined = other.get(f"/games/{game}/join", params={"nickname": "real"})
        assert joined.status_code == 200


def test_connections_past_one_address_cap_get_503_while_another_address_is_served(
    fair_server: Server,
) -> None:
    with ExitStack() as stack:
        held = [stack.enter_context(socket_from(FLOODER, fair_server)) for _ in range(CONNECTIONS)]
        assert len(held) == CONNECTIONS
        one_more = stack.enter_context(socket_from(FLOODER, fair_server))
        answer = one_more.recv(4096)
        assert answer.startswith(b"HTTP/1.1 503")
        assert b"too_many_connections" in answer
        with client_from(OTHER, fair_server) as other:
            assert other.get("/games").status_code == 200


def test_requests_in_flight_past_one_address_cap_get_429_while_another_address_is_served(
    fair_server: Server,
) -> None:
    game = str(uuid.uuid4())
    head = (
        f"POST /games/{game}/play HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: 20\r\n\r\n"
    ).encode()
    with ExitStack() as stack:
        for _ in range(IN_FLIGHT):  # bodies that never come: requests held in flight
            sock = stack.enter_context(socket_from(FLOODER, fair_server))
            sock.sendall(head)
        with client_from(FLOODER, fair_server) as flooder:
            refused = _eventually_refused(flooder)
            assert refused.json()["code"] == "too_many_in_flight"
            assert "retry-after" in refused.headers
        with client_from(OTHER, fair_server) as other:
            assert other.get("/games").status_code == 200


def _eventually_refused(client: httpx.Client) -> httpx.Response:
    """The held requests reach the app shortly after their heads are sent; ask until the
    cap shows (a bounded number of tries, no clock)."""
    for _ in range(200):
        reply = client.get("/games")
        if reply.status_code == 429:
            return reply
        assert reply.status_code == 200
    pytest.fail("the in-flight cap never applied")


def test_websockets_past_one_address_cap_are_closed_1013_while_another_address_watches(
    fair_server: Server,
) -> None:
    client = pytest.importorskip("websockets.sync.client")
    with client_from(OTHER, fair_server) as other:
        game = other.get("/games/create").json()["game_uuid"]
    url = f"ws://127.0.0.1:{fair_server.port}/ws?game_uuid={game}"

    def watch(address: str) -> object:
        return client.connect(url, sock=socket_from(address, fair_server), open_timeout=20)

    with ExitStack() as stack:
        for _ in range(WEBSOCKETS):
            ws = stack.enter_context(watch(FLOODER))  # type: ignore[arg-type]
            assert json.loads(ws.recv(timeout=20))  # type: ignore[attr-defined]
        refused = stack.enter_context(watch(FLOODER))  # type: ignore[arg-type]
        with pytest.raises(Exception):  # noqa: B017, PT011 - closed by the server
            refused.recv(timeout=20)  # type: ignore[attr-defined]
        assert refused.close_code == 1013  # type: ignore[attr-defined]
        served = stack.enter_context(watch(OTHER))  # type: ignore[arg-type]
        assert json.loads(served.recv(timeout=20))  # type: ignore[attr-defined]


def test_websockets_opened_and_closed_do_not_use_up_the_connection_cap(
    fair_server: Server,
) -> None:
    client = pytest.importorskip("websockets.sync.client")
    with client_from(OTHER, fair_server) as other:
        game = other.get("/games/create").json()["game_uuid"]
    url = f"ws://127.0.0.1:{fair_server.port}/ws?game_uuid={game}"
    for _ in range(CONNECTIONS + 2):
        with client.connect(url, sock=socket_from(FLOODER, fair_server), open_timeout=20) as ws:
            assert json.loads(ws.recv(timeout=20))
    with client_from(FLOODER, fair_server) as flooder:
        assert flooder.get("/games").status_code == 200
