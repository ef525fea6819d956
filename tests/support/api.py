"""A thin helper over an HTTP client for the Blef API, used by several test suites.

It speaks both forms: the established GET routes with query parameters, and the POST forms
with JSON bodies and Bearer credentials.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


class _Response(Protocol):
    status_code: int
    headers: Any

    def json(self) -> Any: ...


class _Client(Protocol):
    def get(self, url: str, **kwargs: Any) -> Any: ...

    def post(self, url: str, **kwargs: Any) -> Any: ...


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


@dataclass
class Blef:
    http: _Client

    # established GET forms -------------------------------------------------------------
    def create(self) -> str:
        r = self.http.get("/games/create")
        assert r.status_code == 200, r.text
        return str(r.json()["game_uuid"])

    def join(self, game: str, nickname: str) -> str:
        r = self.http.get(f"/games/{game}/join", params={"nickname": nickname})
        assert r.status_code == 200, r.text
        return str(r.json()["player_uuid"])

    def start(self, game: str, admin: str) -> None:
        r = self.http.get(f"/games/{game}/start", params={"admin_uuid": admin})
        assert r.status_code == 202, r.text

    def state(self, game: str, player: str | None = None, round_: int | None = None) -> Any:
        params: dict[str, Any] = {}
        if player is not None:
            params["player_uuid"] = player
        if round_ is not None:
            params["round"] = round_
        r = self.http.get(f"/games/{game}", params=params)
        assert r.status_code == 200, r.text
        return r.json()

    def play(self, game: str, player: str, action_id: int) -> Any:
        return self.http.get(
            f"/games/{game}/play", params={"player_uuid": player, "action_id": action_id}
        )

    # POST forms ---------------------------------------------------------------------------
    def create_post(self, key: str | None = None) -> str:
        headers = {"Idempotency-Key": key} if key else {}
        r = self.http.post("/games/create", headers=headers)
        assert r.status_code == 200, r.text
        return str(r.json()["game_uuid"])

    def join_post(self, game: str, nickname: str) -> str:
        r = self.http.post(f"/games/{game}/join", json={"nickname": nickname})
        assert r.status_code == 200, r.text
        return str(r.json()["player_uuid"])

    def start_post(self, game: str, admin: str) -> None:
        r = self.http.post(f"/games/{game}/start", headers=bearer(admin))
        assert r.status_code == 202, r.text

    def play_post(self, game: str, player: str, action_id: Any, **extra: Any) -> Any:
        headers = bearer(player)
        if "key" in extra:
            headers["Idempotency-Key"] = extra.pop("key")
        return self.http.post(
            f"/games/{game}/play", json={"action_id": action_id, **extra}, headers=headers
        )


def next_action(state: dict[str, Any], rng: Any) -> int:
    """A move for the current player: usually the lowest legal bet, sometimes a check."""
    history = state["history"]
    if not history:
        return int(rng.randrange(0, 6))
    last = history[-1]["action_id"]
    if last >= 87 or rng.random() < 0.45:
        return 88
    return int(last + 1 + rng.randrange(0, 3)) if last + 3 < 88 else 88
