"""The same races over real HTTP, against ``blef serve`` in a subprocess (uvicorn, SQLite).

Every racing thread has its own keep-alive client (its own connection). After each race the
game is checked twice: in the SQLite file, as the server wrote it (history.check_stored_game),
and over HTTP against what the clients were told (benchmarks/load.verify_game).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.store.sqlite import SqliteStore
from benchmarks.load import GameLog, Server, choose, verify_game
from engine.facts import MAX_PLAYERS
from tests.reliability.history import check_stored_game

JOINERS = 16
TRIALS = 3
RETRIES = 12
MOVES = 10

Request = tuple[str, str, dict[str, Any]]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("http-races")
    server = Server(tmp / "blef.db", tmp / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def http(served: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=served.url, timeout=30) as client:
        yield client


@pytest.fixture
def stored(served: Server) -> Iterator[SqliteStore]:
    """The server's SQLite file, read by this process alongside it (WAL allows that)."""
    store = SqliteStore(Path(served.db))
    yield store
    store.close()


def race(url: str, requests: list[Request]) -> list[httpx.Response]:
    """Send each request from its own client and connection, all released at once."""
    clients = [httpx.Client(base_url=url, timeout=30) for _ in requests]
    for client in clients:  # open the connections first, so the race is in the requests
        client.get("/health")
    barrier = threading.Barrier(len(requests))

    def send(i: int) -> httpx.Response:
        method, path, kwargs = requests[i]
        barrier.wait()
        return clients[i].request(method, path, **kwargs)

    try:
        with ThreadPoolExecutor(len(requests)) as pool:
            return list(pool.map(send, range(len(requests))))
    finally:
        for client in clients:
            client.close()


def bearer(secret: str, key: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {secret}"}
    if key is not None:
        headers["Idempotency-Key"] = key
    return headers


def new_game(http: httpx.Client, names: list[str], *, start: bool) -> GameLog:
    log = GameLog(http.get("/games/create").json()["game_uuid"])
    for name in names:
        reply = http.get(f"/games/{log.game_uuid}/join", params={"nickname": name})
        log.players[name] = reply.json()["player_uuid"]
    if start:
        assert (
            http.post(
                f"/games/{log.game_uuid}/start", headers=bearer(log.players[names[0]])
            ).status_code
            == 202
        )
        log.started = True
    return log


def test_many_players_joining_at_once_over_http_lose_no_one_and_never_exceed_eight(
    served: Server, http: httpx.Client, stored: SqliteStore
) -> None:
    for trial in range(TRIALS):
        log = new_game(http, [], start=False)
        names = [f"Racer_{trial}_{i}" for i in range(JOINERS)]  # (no leet reading of a rude word)
        requests: list[Request] = [
            ("GET", f"/games/{log.game_uuid}/join", {"params": {"nickname": n}})
            if i % 2
            else ("POST", f"/games/{log.game_uuid}/join", {"json": {"nickname": n}})
            for i, n in enumerate(names)
        ]
        replies = race(served.url, requests)

        for name, reply in zip(names, replies, strict=True):
            if reply.status_code == 200:
                log.players[name] = reply.json()["player_uuid"]
            else:
                assert (reply.status_code, reply.json()["code"]) in {
                    (403, "room_full"),
                    (409, "conflict"),
                }
        assert 1 <= len(log.players) <= MAX_PLAYERS
        doc = check_stored_game(stored, log.game_uuid)
        assert doc.player_uuids == log.players
        assert doc.version == 1 + len(log.players)
        assert verify_game(http, log) == []


@pytest.mark.parametrize("form", ["post_expected_version", "get_established"])
def test_the_same_move_from_two_clients_at_once_is_applied_once(
    served: Server, http: httpx.Client, stored: SqliteStore, form: str
) -> None:
    log = new_game(http, ["ann", "ben", "cat"], start=True)
    base = f"/games/{log.game_uuid}"
    rng = random.Random(11)
    for _ in range(MOVES):
        state = http.get(base).json()
        if state["status"] == "Finished":
            break
        mover, action, version = state["cp_nickname"], choose(state, rng), state["version"]
        secret = log.players[mover]
        if form == "post_expected_version":
            request: Request = (
                "POST",
                f"{base}/play",
                {
                    "json": {"action_id": action, "expected_version": version},
                    "headers": bearer(secret),
                },
            )
        else:
            request = (
                "GET",
                f"{base}/play",
                {"params": {"player_uuid": secret, "action_id": action}},
            )
        replies = race(served.url, [request, request])

        statuses = sorted(r.status_code for r in replies)
        [refused] = [r for r in replies if r.status_code != 200]
        if form == "post_expected_version":
            assert statuses == [200, 409]
        else:  # see test_concurrency_service: 409, or the refusal the new state calls for
            assert statuses in ([200, 400], [200, 409])
            assert refused.json()["code"] in ("conflict", "not_your_turn", "illegal_action")
        log.moves.append((mover, action))
        assert check_stored_game(stored, log.game_uuid).version == version + 1
    assert verify_game(http, log) == []


def test_parallel_retries_with_one_idempotency_key_over_http_apply_once_with_one_reply(
    served: Server, http: httpx.Client, stored: SqliteStore
) -> None:
    log = new_game(http, ["ann", "ben"], start=True)
    base = f"/games/{log.game_uuid}"
    rng = random.Random(12)
    for i in range(MOVES):
        state = http.get(base).json()
        if state["status"] == "Finished":
            break
        mover, action = state["cp_nickname"], choose(state, rng)
        key = f"{log.game_uuid}-{i}"
        request: Request = (
            "POST",
            f"{base}/play",
            {"json": {"action_id": action}, "headers": bearer(log.players[mover], key)},
        )
        replies = race(served.url, [request] * RETRIES)

        assert [r.status_code for r in replies] == [200] * RETRIES
        assert all(r.json() == replies[0].json() for r in replies)
        log.moves.append((mover, action))
        assert check_stored_game(stored, log.game_uuid).version == state["version"] + 1
    assert verify_game(http, log) == []


def test_a_start_racing_joins_over_http_seats_exactly_the_acknowledged_players(
    served: Server, http: httpx.Client, stored: SqliteStore
) -> None:
    for trial in range(TRIALS):
        log = new_game(http, ["admin", "first"], start=False)
        base = f"/games/{log.game_uuid}"
        names = [f"t{trial}late{i}" for i in range(JOINERS - 4)]
        requests: list[Request] = [
            ("GET", f"{base}/start", {"params": {"admin_uuid": log.players["admin"]}})
        ]
        requests += [("POST", f"{base}/join", {"json": {"nickname": n}}) for n in names]
        start, *joins = race(served.url, requests)

        assert start.status_code in (202, 409)
        for name, reply in zip(names, joins, strict=True):
            if reply.status_code == 200:
                log.players[name] = reply.json()["player_uuid"]
            else:
                assert (reply.status_code, reply.json()["code"]) in {
                    (403, "game_already_started"),
                    (403, "room_full"),
                    (409, "conflict"),
                }
        if start.status_code == 409:
            assert (
                http.post(f"{base}/start", headers=bearer(log.players["admin"])).status_code == 202
            )
        log.started = True
        doc = check_stored_game(stored, log.game_uuid)
        assert doc.status == "Running"
        assert doc.player_uuids == log.players
        assert doc.version == 1 + 2 + (len(log.players) - 2) + 1
        assert verify_game(http, log) == []
