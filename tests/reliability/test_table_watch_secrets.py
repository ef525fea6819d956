"""The secret-holder invariant for what the websocket pushes of a table of another game
(Figgie, whose hands are secret), as a property test over random sequences of what several
actors do: join (with names that collide, so a nickname given up is taken by a newcomer),
leave, be removed by the host, start, send orders, react, and open watchers with their current
secret or none (a spectator). Throughout, on the local websocket (``/ws``):

- a spectator's watcher is never sent a seat (``you`` is null) nor a hand;
- a seat's watcher is sent only that seat's body: ``you`` names the nickname its secret was
  given to, and a hand only as that seat's; once the seat is gone (left, removed) it is sent
  nothing more, not even when a newcomer takes the same nickname;
- every watcher's versions strictly increase, and each one still open is sent the newest.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any, TypeVar

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from app.api.main import create_app
from app.config.settings import Settings
from app.service import GameService
from engine.errors import BlefError
from tests.support.memory_store import MemoryStore

T = TypeVar("T")
WAIT_SECONDS = 60.0
ACTORS = 5
NAMES = ("ann", "bob", "cid", "dee", "eve", "ann")
SUITS = ("spades", "clubs", "hearts", "diamonds")

steps = st.lists(
    st.one_of(
        st.tuples(st.just("join"), st.integers(0, ACTORS - 1), st.sampled_from(NAMES)),
        st.tuples(st.just("leave"), st.integers(0, ACTORS - 1)),
        st.tuples(st.just("remove"), st.integers(0, ACTORS - 1), st.sampled_from(NAMES)),
        st.tuples(st.just("start"), st.integers(0, ACTORS - 1)),
        st.tuples(
            st.just("order"),
            st.integers(0, ACTORS - 1),
            st.sampled_from(("bid", "ask", "lift", "hit")),
            st.sampled_from(SUITS),
            st.integers(1, 12),
        ),
        st.tuples(st.just("watch"), st.integers(0, ACTORS - 1), st.booleans()),
        st.tuples(st.just("react"), st.integers(0, ACTORS - 1), st.sampled_from(("👍", "🎉"))),
    ),
    min_size=1,
    max_size=18,
)


def bounded(read: Callable[[], T]) -> T:
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(read).result(timeout=WAIT_SECONDS)
    finally:
        pool.shutdown(wait=False)


@dataclass
class Watch:
    ws: WebSocketTestSession
    secret: str | None
    nickname: str | None
    gone_at: int | None = None
    """The version at which its seat went (None: still seated, or a spectator)."""
    bodies: list[dict[str, Any]] = field(default_factory=list)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(seated=st.booleans(), steps=steps)
def test_a_tables_pushes_show_a_seat_only_to_its_secrets_holder(
    seated: bool, steps: list[Any]
) -> None:
    service = GameService(MemoryStore(), Settings(run_clock=False, order_burst=0))
    game = service.create_table("figgie")["game_uuid"]
    secrets: dict[int, tuple[str, str]] = {}  # actor -> (secret, nickname)
    watches: list[Watch] = []

    def version() -> int:
        return int(service.table("figgie", game, None)["version"])

    if seated:  # a full table first, so that starts, orders and hands are common
        steps = [("join", k, name) for k, name in enumerate(NAMES[:4])] + steps
    with TestClient(create_app(service.settings, service)) as client, ExitStack() as opened:
        for step in steps:
            actor = step[1]
            held = secrets.get(actor)
            try:
                if step[0] == "join" and held is None:
                    made = service.join_table("figgie", game, step[2])
                    secrets[actor] = (made["player_uuid"], step[2])
                elif step[0] == "leave" and held is not None:
                    service.leave_table("figgie", game, held[0])
                    _gone(secrets, watches, actor, version())
                elif step[0] == "remove" and held is not None:
                    service.remove_from_table("figgie", game, held[0], step[2])
                    out = next(a for a, (_, n) in secrets.items() if n == step[2])
                    _gone(secrets, watches, out, version())
                elif step[0] == "start" and held is not None:
                    service.start_table("figgie", game, held[0])
                elif step[0] == "order" and held is not None:
                    move: dict[str, Any] = {"type": step[2], "suit": step[3]}
                    if step[2] in ("bid", "ask"):
                        move["price"] = step[4]
                    service.move("figgie", game, held[0], move)
                elif step[0] == "react" and held is not None:
                    service.react_table("figgie", game, held[0], step[2])
                elif step[0] == "watch":
                    seat = held if step[2] else None
                    sent = {"game_uuid": game}
                    if seat is not None:
                        sent["authorization"] = f"Bearer {seat[0]}"
                    ws = opened.enter_context(client.websocket_connect("/ws", headers=sent))
                    if seat is None:
                        watches.append(Watch(ws, None, None))
                    else:
                        watches.append(Watch(ws, seat[0], seat[1]))
            except BlefError:
                pass  # refused by the rules: nothing changed
        final = version()
        for watch in watches:
            _drain(watch, final)

    for watch in watches:
        versions = [body["version"] for body in watch.bodies]
        assert versions == sorted(set(versions))
        for body in watch.bodies:
            if watch.secret is None:
                assert body["you"] is None and "hand" not in (body["view"] or {})
                continue
            assert body["you"] is not None
            assert body["seats"][body["you"]]["nickname"] == watch.nickname
            if watch.gone_at is not None:
                assert body["version"] < watch.gone_at
            if body["view"] is not None:
                assert body["view"]["seat"] == body["you"]
        if watch.gone_at is None and watch.bodies:
            assert watch.bodies[-1]["version"] == final
            assert watch.bodies[-1] == service.table("figgie", game, watch.secret)


def _gone(secrets: dict[int, tuple[str, str]], watches: list[Watch], actor: int, at: int) -> None:
    """The seat of ``actor`` went at version ``at``: its watchers must hear nothing of it."""
    secret, _ = secrets.pop(actor)
    for watch in watches:
        if watch.secret == secret and watch.gone_at is None:
            watch.gone_at = at


def _drain(watch: Watch, final: int) -> None:
    """Read ``watch`` until it is closed or has been sent version ``final``."""
    while not watch.bodies or watch.bodies[-1]["version"] < final:
        try:
            message = json.loads(bounded(watch.ws.receive_text))
        except WebSocketDisconnect:
            assert watch.gone_at is not None, "a watcher still seated was closed"
            return
        body = json.loads(message["body"])
        if message["statusCode"] != 200:  # the seat was gone by the time it connected
            assert watch.gone_at is not None or body["code"] in ("unknown_player",)
            continue
        watch.bodies.append(body)
