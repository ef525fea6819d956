"""Issue 11, point 6: the public list cannot be flooded away. Pages, with the next page's
cursor in ``X-Next-Cursor`` (the body stays the JSON array the established clients read),
reach every listed game; make-public is rate-limited per address."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from app.api.main import create_app
from app.config.settings import Settings
from app.service import GameService
from app.store.sqlite import SqliteStore


def make_public_game(service: GameService, nickname: str) -> str:
    game = str(service.create_game()["game_uuid"])
    admin = str(service.join(game, nickname)["player_uuid"])
    service.set_public(game, admin, True)
    return game


def test_a_real_game_behind_120_spam_games_is_found_by_a_client_that_pages(
    client: TestClient, service: GameService
) -> None:
    real = make_public_game(service, "real")
    for i in range(120):
        make_public_game(service, f"spam{i}")
    first = client.get("/games")
    assert first.status_code == 200 and isinstance(first.json(), list)
    assert real not in {g["game_uuid"] for g in first.json()}  # pushed off the first page
    seen: list[str] = [g["game_uuid"] for g in first.json()]
    cursor = first.headers.get("x-next-cursor")
    while cursor:
        page = client.get("/games", params={"limit": 50, "cursor": cursor})
        assert page.status_code == 200
        seen += [g["game_uuid"] for g in page.json()]
        cursor = page.headers.get("x-next-cursor")
    assert real in seen
    assert len(seen) == len(set(seen)) == 121


def test_the_last_page_has_no_next_cursor(client: TestClient, service: GameService) -> None:
    make_public_game(service, "alone")
    reply = client.get("/games")
    assert len(reply.json()) == 1 and "x-next-cursor" not in reply.headers


def test_a_forged_cursor_is_a_400_not_a_500(client: TestClient) -> None:
    for forged in ("nope", "W10", "WzEsMl0", "WyJpbmYiLCJ4Il0", "%%%", "WzFlOTk5LCJ4Il0"):
        reply = client.get("/games", params={"cursor": forged})
        assert reply.status_code == 400, (forged, reply.text)
        assert reply.json()["code"] == "invalid_parameter"


def test_one_address_making_games_public_in_a_flood_is_rate_limited(tmp_path: Path) -> None:
    settings = Settings(  # a bucket that refills too slowly to matter on a slow machine
        db_path=tmp_path / "blef.db", rate_limit_burst=3, rate_limit_per_second=0.001
    )
    store = SqliteStore(settings.db_path)
    service = GameService(store, settings)
    games = []
    for i in range(5):
        game = str(service.create_game()["game_uuid"])
        games.append((game, str(service.join(game, f"a{i}")["player_uuid"])))
    app = create_app(settings, service)
    with (
        TestClient(app, client=("127.0.0.2", 1000)) as flooder,
        TestClient(app, client=("127.0.0.3", 1000)) as other,
    ):
        codes = [
            flooder.get(f"/games/{g}/make-public", params={"admin_uuid": a}).status_code
            for g, a in games[:4]
        ]
        assert codes == [200, 200, 200, 429]
        game, admin = games[4]
        assert (
            other.get(f"/games/{game}/make-public", params={"admin_uuid": admin}).status_code == 200
        )
    store.close()
