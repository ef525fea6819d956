"""The tables' routes are matched first (app/api/dispatch.py): a hosted game's request is
found at the head of the app's routes, and every request gets the answer it got when the
tables' routes were tried after every other route."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.routing import Match

from app.api.dispatch import PrefixDispatch
from app.api.main import create_app
from app.config.settings import Settings
from app.service import GameService
from app.store.sqlite import SqliteStore

MISSING = str(uuid.UUID(int=7))

REQUESTS: list[tuple[str, str, Any]] = [
    ("GET", "/figgie", None),
    ("GET", "/economancy", None),
    ("GET", "/blef", None),
    ("GET", "/figgie/games", None),
    ("GET", f"/figgie/games/{MISSING}", None),
    ("GET", "/figgie/games/not-a-uuid", None),
    ("POST", f"/figgie/games/{MISSING}/move", {"type": "lift", "suit": "hearts"}),
    ("POST", f"/figgie/games/{MISSING}/move", {"type": "buy"}),
    ("POST", f"/figgie/games/{MISSING}/join", {"nickname": "ann"}),
    ("PUT", "/figgie/games", None),
    ("DELETE", f"/figgie/games/{MISSING}/move", None),
    ("GET", f"/figgie/games/{MISSING}/nothing/here", None),
    ("GET", "/figgies/games", None),
    ("GET", "/chess/games", None),
    ("POST", f"/chess/games/{MISSING}/move", {}),
    ("GET", f"/ladder/games/{MISSING}", None),
    ("GET", f"/games/{MISSING}", None),
    ("GET", "/games", None),
    ("GET", "/health", None),
    ("GET", "/figgie/", None),
]


def _app(tmp_path: Path, name: str, dispatch: bool) -> Iterator[TestClient]:
    settings = Settings(db_path=tmp_path / f"{name}.db", run_clock=False)
    store = SqliteStore(settings.db_path)
    app = create_app(settings, GameService(store, settings))
    if not dispatch:
        app.router.routes[:] = [r for r in app.router.routes if not isinstance(r, PrefixDispatch)]
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client
    store.close()


@pytest.fixture
def with_dispatch(tmp_path: Path) -> Iterator[TestClient]:
    yield from _app(tmp_path, "with", dispatch=True)


@pytest.fixture
def without_dispatch(tmp_path: Path) -> Iterator[TestClient]:
    yield from _app(tmp_path, "without", dispatch=False)


def _answer(client: TestClient, method: str, path: str, body: Any) -> tuple[int, Any, str]:
    reply = client.request(method, path, json=body)
    try:
        content: Any = reply.json()
    except ValueError:
        content = reply.text
    if isinstance(content, dict):
        content.pop("request_id", None)
    return reply.status_code, content, reply.headers.get("allow", "")


@pytest.mark.parametrize(("method", "path", "body"), REQUESTS)
def test_every_request_gets_the_answer_it_got_without_the_dispatch(
    with_dispatch: TestClient, without_dispatch: TestClient, method: str, path: str, body: Any
) -> None:
    assert _answer(with_dispatch, method, path, body) == _answer(
        without_dispatch, method, path, body
    )


def test_a_figgie_order_is_matched_at_the_head_of_the_routes(tmp_path: Path) -> None:
    settings = Settings(db_path=tmp_path / "head.db", run_clock=False)
    app: FastAPI = create_app(settings)
    head = app.router.routes[0]
    assert isinstance(head, PrefixDispatch)
    scope = {
        "type": "http",
        "method": "POST",
        "path": f"/figgie/games/{MISSING}/move",
        "root_path": "",
        "headers": [],
        "query_string": b"",
    }
    assert head.matches(scope)[0] is Match.FULL
    for elsewhere in (f"/games/{MISSING}", f"/ladder/games/{MISSING}", "/chess/games"):
        assert head.matches({**scope, "path": elsewhere})[0] is Match.NONE
    # A wrong method is left to the routes in order (which answer 405 as before).
    assert head.matches({**scope, "method": "PUT"})[0] is Match.NONE


def test_a_full_round_trip_works_through_the_dispatch(with_dispatch: TestClient) -> None:
    created = with_dispatch.post("/figgie/games", json={}).json()["game_uuid"]
    joined = with_dispatch.post(f"/figgie/games/{created}/join", json={"nickname": "ann"})
    assert joined.status_code == 200
    table = with_dispatch.get(f"/figgie/games/{created}")
    assert table.status_code == 200
    assert table.json()["seats"][0]["nickname"] == "ann"
    assert table.headers["etag"] == f'"v{table.json()["version"]}"'
