"""Issue 28: ``X-Forwarded-For`` is believed only from the proxies the operator names
(``BLEF_TRUSTED_PROXIES``), from nobody by default. Each test runs ``blef serve`` on
127.0.0.1 and speaks to it from other loopback addresses: 127.0.0.2 plays the proxy (trusted
or not), 127.0.0.3 a client that forges the header. The create route's token bucket shows
whose address a request is counted against."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError

from app.cli.serve import forwarding
from app.config.settings import Settings
from benchmarks.load import Server
from tests.support.peers import client_from, socket_from

PROXY = "127.0.0.2"
FORGER = "127.0.0.3"
BURST = 3


def test_the_setting_takes_addresses_and_networks_and_refuses_anything_else_by_name() -> None:
    assert forwarding(Settings()) == {"proxy_headers": False}
    named = Settings(trusted_proxies=" 127.0.0.1, 10.0.0.0/8,::1 ,")
    assert named.trusted_proxies == "127.0.0.1/32,10.0.0.0/8,::1/128"
    assert forwarding(named) == {
        "proxy_headers": True,
        "forwarded_allow_ips": ["127.0.0.1/32", "10.0.0.0/8", "::1/128"],
    }
    for wrong in ("localhost", "*", "10.0.0.0/33"):
        with pytest.raises(ValidationError, match="trusted_proxies must be a comma list"):
            Settings(trusted_proxies=wrong)


@contextmanager
def serving(tmp_path: Path, **env: str) -> Iterator[Server]:
    running = Server(
        tmp_path / "blef.db",
        tmp_path / "server.log",
        env={
            "BLEF_RATE_LIMIT_BURST": str(BURST),
            "BLEF_RATE_LIMIT_PER_SECOND": "0.001",  # no refill within a test
            "BLEF_MAX_CONNECTIONS_PER_ADDRESS": "2",
            "BLEF_MAX_WEBSOCKETS_PER_ADDRESS": "1",
            **env,
        },
    )
    running.start()
    try:
        yield running
    finally:
        running.stop()


def create_as(client: httpx.Client, forwarded_for: str | None = None) -> int:
    headers = {} if forwarded_for is None else {"X-Forwarded-For": forwarded_for}
    return client.post("/games/create", headers=headers).status_code


def test_without_the_setting_the_header_is_believed_from_nobody_and_each_tcp_peer_is_counted(
    tmp_path: Path,
) -> None:
    # uvicorn's own variable would make it believe everyone: blef serve ignores it.
    with (
        serving(tmp_path, FORWARDED_ALLOW_IPS="*") as server,
        client_from(PROXY, server) as proxy,
        client_from(FORGER, server) as other,
    ):
        codes = [create_as(proxy, f"198.51.100.{i}") for i in range(BURST + 1)]
        assert codes == [200] * BURST + [429]
        assert create_as(other) == 200


def test_a_named_proxy_s_clients_are_counted_apart_and_any_other_peer_by_its_own_address(
    tmp_path: Path,
) -> None:
    with (
        serving(tmp_path, BLEF_TRUSTED_PROXIES=f"{PROXY}, 10.0.0.0/8") as server,
        client_from(PROXY, server) as proxy,
        client_from(FORGER, server) as forger,
    ):
        alice = [create_as(proxy, "198.51.100.1") for _ in range(BURST + 1)]
        assert alice == [200] * BURST + [429]
        assert create_as(proxy, "198.51.100.2") == 200  # another client: its own bucket
        # A client that forges the header through the proxy is counted as the address the
        # proxy adds last (the peer the proxy saw), whatever it wrote before it.
        assert create_as(proxy, "203.0.113.9, 198.51.100.1") == 429
        assert create_as(proxy, "198.51.100.1, 10.1.2.3") == 429  # a named proxy is skipped
        # A peer not named is counted by its TCP address, whatever header it sends.
        forged = [create_as(forger, f"203.0.113.{i}") for i in range(BURST + 1)]
        assert forged == [200] * BURST + [429]


def test_a_named_proxy_s_websockets_count_per_forwarded_client_and_its_connections_uncapped(
    tmp_path: Path,
) -> None:
    client = pytest.importorskip("websockets.sync.client")
    with serving(tmp_path, BLEF_TRUSTED_PROXIES=PROXY) as server:
        with client_from(FORGER, server) as other:
            game = other.get("/games/create").json()["game_uuid"]
        url = f"ws://127.0.0.1:{server.port}/ws?game_uuid={game}"

        def watch(address: str, forwarded_for: str) -> object:
            return client.connect(
                url,
                sock=socket_from(address, server),
                open_timeout=20,
                additional_headers={"X-Forwarded-For": forwarded_for},
            )

        with ExitStack() as stack:
            # Three clients through the proxy, each within its cap of one websocket: more
            # connections from the proxy's address than its cap of two would allow a client.
            for i in range(3):
                ws = stack.enter_context(watch(PROXY, f"198.51.100.{i}"))  # type: ignore[arg-type]
                assert json.loads(ws.recv(timeout=20))  # type: ignore[attr-defined]
            second = stack.enter_context(watch(PROXY, "198.51.100.0"))  # type: ignore[arg-type]
            with pytest.raises(Exception):  # noqa: B017, PT011 - closed by the server
                second.recv(timeout=20)  # type: ignore[attr-defined]
            assert second.close_code == 1013  # type: ignore[attr-defined]
            # The proxy's own connections are not capped (two from any other address are).
            held = [stack.enter_context(socket_from(PROXY, server)) for _ in range(3)]
            assert len(held) == 3
            with client_from(PROXY, server) as proxy:
                assert proxy.get("/games").status_code == 200
            others = [stack.enter_context(socket_from(FORGER, server)) for _ in range(3)]
            assert others[-1].recv(4096).startswith(b"HTTP/1.1 503")
