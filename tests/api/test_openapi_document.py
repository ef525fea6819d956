"""The OpenAPI document in api_docs/ is generated from the app and must not go stale."""

from pathlib import Path

from app.openapi import render

CHECKED_IN = Path(__file__).resolve().parents[2] / "api_docs" / "openapi.json"


def test_the_checked_in_openapi_document_matches_the_app() -> None:
    assert CHECKED_IN.read_text(encoding="utf-8") == render(), (
        "api_docs/openapi.json is stale: run `make openapi` and commit the result"
    )


def test_every_established_route_is_documented_in_both_forms() -> None:
    import json

    paths = json.loads(CHECKED_IN.read_text(encoding="utf-8"))["paths"]
    for change in ("join", "start", "play", "make-public", "make-private", "invite-aiagent"):
        assert set(paths[f"/games/{{game_uuid}}/{change}"]) == {"get", "post"}, change
    assert set(paths["/games/create"]) == {"get", "post"}
    assert "get" in paths["/games/{game_uuid}"] and "get" in paths["/games"]
