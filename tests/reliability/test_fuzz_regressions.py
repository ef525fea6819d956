"""What the fuzzing and the limit tests found, kept as plain regression tests."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api.main import create_app
from app.config.settings import Settings
from app.service import GameService
from app.store.sqlite import SqliteStore

GUIDE = (Path(__file__).resolve().parents[2] / "api_docs" / "guide.md").read_text("utf-8")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(db_path=tmp_path / "blef.db")
    store = SqliteStore(settings.db_path)
    with TestClient(create_app(settings, GameService(store, settings))) as http:
        yield http
    store.close()


@pytest.mark.parametrize("body", [b"\x97\xb4.\x1dm\xce", b"\xff0\x11", b"I\xb2"])
@pytest.mark.parametrize("route", ["join", "play", "invite-aiagent"])
def test_a_body_that_is_not_utf8_is_an_invalid_request_with_a_documented_code(
    client: TestClient, body: bytes, route: str
) -> None:
    """Found by schemathesis: such a body raised FastAPI's "There was an error parsing the
    body", answered with the code ``http_error``, which no document lists."""
    game = client.get("/games/create").json()["game_uuid"]
    reply = client.post(
        f"/games/{game}/{route}", content=body, headers={"Content-Type": "application/json"}
    )
    assert reply.status_code == 400
    assert reply.json()["code"] == "invalid_request"
    assert re.search(r"^\| `invalid_request` \| 400 \|", GUIDE, flags=re.MULTILINE)


def test_a_list_limit_above_the_maximum_is_refused_rather_than_cut_silently(
    client: TestClient,
) -> None:
    """``GET /games?limit=500`` used to return at most 100 games without a word."""
    reply = client.get("/games", params={"limit": 500})
    assert reply.status_code == 400
    assert reply.json()["error"].startswith("Bad input value in 'limit': 500")
    assert "between 1 and 100" in reply.json()["error"]
    assert client.get("/games", params={"limit": 100}).status_code == 200
