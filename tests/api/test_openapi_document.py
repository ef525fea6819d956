"""The OpenAPI document in api_docs/ is generated from the app and must not go stale."""

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.main import create_app
from app.cli.openapi import render
from app.config.settings import Settings

CHECKED_IN = Path(__file__).resolve().parents[2] / "api_docs" / "openapi.json"


def test_the_checked_in_openapi_document_matches_the_app() -> None:
    assert CHECKED_IN.read_text(encoding="utf-8") == render(), (
        "api_docs/openapi.json is stale: run `make openapi` and commit the result"
    )


def test_every_established_route_is_documented_in_both_forms() -> None:
    paths = json.loads(CHECKED_IN.read_text(encoding="utf-8"))["paths"]
    for change in ("join", "start", "play", "make-public", "make-private", "invite-aiagent"):
        assert set(paths[f"/games/{{game_uuid}}/{change}"]) == {"get", "post"}, change
    assert set(paths["/games/create"]) == {"get", "post"}
    assert "get" in paths["/games/{game_uuid}"] and "get" in paths["/games"]


# ----------------------------------------------- the document says what the server does


def _parameter(document: dict[str, Any], path: str, method: str, name: str) -> dict[str, Any]:
    found = [p for p in document["paths"][path][method]["parameters"] if p["name"] == name]
    assert len(found) == 1, (path, method, name)
    return found[0]


def test_the_documented_limit_maximum_is_the_configured_one(tmp_path: Path) -> None:
    settings = Settings(db_path=tmp_path / "blef.db", max_listed_games=7, run_clock=False)
    app = create_app(settings)
    limit = _parameter(app.openapi(), "/games", "get", "limit")
    assert limit["schema"]["maximum"] == 7
    with TestClient(app) as http:
        assert http.get("/games", params={"limit": 7}).status_code == 200
        refused = http.get("/games", params={"limit": 8})
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid_parameter"


def test_the_checked_in_document_bounds_limit_by_the_default_maximum() -> None:
    document = json.loads(CHECKED_IN.read_text(encoding="utf-8"))
    assert _parameter(document, "/games", "get", "limit")["schema"]["maximum"] == 100


def test_a_parameter_the_server_needs_is_documented_required_and_keeps_its_established_400(
    client: TestClient,
) -> None:
    document = json.loads(CHECKED_IN.read_text(encoding="utf-8"))
    nickname = _parameter(document, "/games/{game_uuid}/join", "get", "nickname")
    assert nickname["required"] is True
    admin = _parameter(document, "/games/{game_uuid}/start", "get", "admin_uuid")
    assert admin["required"] is True and admin["schema"]["format"] == "uuid"
    assert document["components"]["schemas"]["JoinRequest"]["required"] == ["nickname"]

    game = client.get("/games/create").json()["game_uuid"]
    missing = client.get(f"/games/{game}/join")
    assert missing.status_code == 400  # never FastAPI's 422
    assert missing.json() == {
        "error": "Bad input value in 'nickname': \nNickname missing - please supply it",
        "code": "missing_parameter",
    }


def test_a_spectator_may_read_the_state_without_a_player_uuid() -> None:
    document = json.loads(CHECKED_IN.read_text(encoding="utf-8"))
    reader = _parameter(document, "/games/{game_uuid}", "get", "player_uuid")
    assert reader["required"] is False


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "OPTIONS"])
def test_an_unsupported_method_gets_405_with_an_allow_header_listing_both_forms(
    client: TestClient, method: str
) -> None:
    game = client.get("/games/create").json()["game_uuid"]
    response = client.request(method, f"/games/{game}/join")
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"
    allowed = {m.strip() for m in response.headers["allow"].split(",")}
    assert allowed - {"HEAD"} == {"GET", "POST"}


def test_a_route_with_one_method_allows_only_that_one(client: TestClient) -> None:
    response = client.post("/games")
    assert response.status_code == 405
    assert {m.strip() for m in response.headers["allow"].split(",")} - {"HEAD"} == {"GET"}
