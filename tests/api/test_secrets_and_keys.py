"""Issue 11, points 1 to 3: a reply holding a secret is never replayed to a stranger, keyed
creates share nothing across clients, and no string input can cause a 5xx."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.api.main import create_app
from app.config.settings import Settings
from app.service import GameService
from app.store.sqlite import SqliteStore
from tests.support.api import Blef, bearer

GUESSABLE = ["join-1", "k", "create-abc", "a" * 40, "1234567890123456789012", "x" * 22 + "y"]


def join_keyed(client: TestClient, game: str, nickname: str, key: str) -> object:
    return client.post(
        f"/games/{game}/join", json={"nickname": nickname}, headers={"Idempotency-Key": key}
    )


# ------------------------------------------------------------------ point 1: join keys


@pytest.mark.parametrize("key", GUESSABLE)
def test_a_guessable_key_on_join_is_refused_with_a_clear_reason(
    blef: Blef, client: TestClient, key: str
) -> None:
    game = blef.create()
    reply = client.post(
        f"/games/{game}/join", json={"nickname": "alice"}, headers={"Idempotency-Key": key}
    )
    assert reply.status_code == 400
    assert reply.json()["code"] == "weak_idempotency_key"
    assert "hard to guess" in reply.json()["error"]
    assert blef.state(game)["players"] == []


def test_the_original_client_retrying_its_join_gets_its_secret_back(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    key = str(uuid.uuid4())
    first = client.post(
        f"/games/{game}/join", json={"nickname": "alice"}, headers={"Idempotency-Key": key}
    )
    again = client.post(
        f"/games/{game}/join", json={"nickname": "alice"}, headers={"Idempotency-Key": key}
    )
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()


def test_a_stranger_with_another_key_and_the_same_nickname_gets_no_secret(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    mine = client.post(
        f"/games/{game}/join",
        json={"nickname": "alice"},
        headers={"Idempotency-Key": str(uuid.uuid4())},
    ).json()["player_uuid"]
    theirs = client.post(
        f"/games/{game}/join",
        json={"nickname": "alice"},
        headers={"Idempotency-Key": "A1b2C3d4E5f6G7h8I9j0K1"},
    )
    assert theirs.status_code == 400 and theirs.json()["code"] == "nickname_taken"
    assert mine not in theirs.text


def test_a_stranger_replaying_a_guessable_key_that_was_once_accepted_finds_nothing(
    blef: Blef, client: TestClient
) -> None:
    """The attack of the issue: the victim used ``join-1``; today refused outright, so
    there is no stored reply for the attacker to collect."""
    game = blef.create()
    victim = client.post(
        f"/games/{game}/join", json={"nickname": "alice"}, headers={"Idempotency-Key": "join-1"}
    )
    attacker = client.post(
        f"/games/{game}/join", json={"nickname": "alice"}, headers={"Idempotency-Key": "join-1"}
    )
    assert victim.status_code == attacker.status_code == 400
    assert "player_uuid" not in attacker.json()


def test_stored_replies_keep_only_a_hash_of_the_key(
    blef: Blef, client: TestClient, service: GameService
) -> None:
    game = blef.create()
    key = str(uuid.uuid4())
    client.post(f"/games/{game}/join", json={"nickname": "alice"}, headers={"Idempotency-Key": key})
    doc = service.store.load(game)
    assert doc is not None and len(doc.replies) == 1
    assert key not in json.dumps(doc.to_dict())


def test_moves_keep_accepting_short_keys_since_their_replies_hold_no_secret(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create_post()
    players = {name: blef.join_post(game, name) for name in ("alice", "bob")}
    blef.start_post(game, players["alice"])
    mover = players[blef.state(game)["cp_nickname"]]
    assert blef.play_post(game, mover, 3, key="move-1").status_code == 200


# ------------------------------------------------------------------ point 2: create keys


def test_a_guessable_key_on_create_is_refused(client: TestClient) -> None:
    reply = client.post("/games/create", headers={"Idempotency-Key": "create-abc"})
    assert reply.status_code == 400 and reply.json()["code"] == "weak_idempotency_key"


def test_a_keyed_game_uuid_cannot_be_computed_from_the_key(client: TestClient) -> None:
    key = str(uuid.uuid4())
    made = client.post("/games/create", headers={"Idempotency-Key": key}).json()["game_uuid"]
    namespace = uuid.UUID("5b1e6d1c-8f63-4d0e-9d1e-6b1ef0c0ffee")  # the old derivation
    assert made != str(uuid.uuid5(namespace, key))
    assert uuid.UUID(made).version == 4


def test_a_keyed_create_retried_after_its_game_expired_gets_410_game_gone(
    client: TestClient, service: GameService
) -> None:
    key = str(uuid.uuid4())
    game = client.post("/games/create", headers={"Idempotency-Key": key}).json()["game_uuid"]
    doc = service.store.load(game)
    assert doc is not None
    with service.store._write() as conn:  # type: ignore[attr-defined]
        conn.execute("UPDATE games SET expires_at = 1 WHERE game_uuid = ?", (game,))
    again = client.post("/games/create", headers={"Idempotency-Key": key})
    assert again.status_code == 410
    assert again.json()["code"] == "game_gone"


def test_the_established_get_create_still_makes_a_fresh_game_each_time(blef: Blef) -> None:
    assert blef.create() != blef.create()


# ------------------------------------------------------------------ point 3: any text


def test_a_lone_surrogate_nickname_is_a_400_not_a_500(blef: Blef, client: TestClient) -> None:
    game = blef.create()
    reply = client.post(
        f"/games/{game}/join",
        content=b'{"nickname": "\\ud800"}',
        headers={"Content-Type": "application/json"},
    )
    assert reply.status_code == 400, reply.text
    assert reply.json()["code"] == "invalid_parameter"


def test_a_lone_surrogate_agent_name_is_a_400_not_a_500(blef: Blef, client: TestClient) -> None:
    game = blef.create()
    admin = blef.join_post(game, "alice")
    reply = client.post(
        f"/games/{game}/invite-aiagent",
        content=b'{"agent_name": "x\\udfff"}',
        headers={"Content-Type": "application/json", **bearer(admin)},
    )
    assert reply.status_code == 400, reply.text


@pytest.fixture
def unlimited(tmp_path: Path) -> Iterator[TestClient]:
    """A client of an app without per-address limits: the property test makes hundreds of
    requests from one address, and is about text, not rates."""
    settings = Settings(db_path=tmp_path / "blef.db", rate_limit_burst=0)
    store = SqliteStore(settings.db_path)
    app = create_app(settings, GameService(store, settings))
    with TestClient(app, raise_server_exceptions=False) as http:
        yield http
    store.close()


_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=12)
"""Arbitrary Unicode, lone surrogates (category Cs) included."""

_POST_ROUTES = [
    ("/games/create", None),
    ("/games/{game}/join", "nickname"),
    ("/games/{game}/invite-aiagent", "agent_name"),
    ("/games/{game}/start", None),
    ("/games/{game}/make-public", None),
    ("/games/{game}/make-private", None),
    ("/games/{game}/play", "action_id"),
]


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    route=st.sampled_from(_POST_ROUTES),
    value=_TEXT,
    field=st.sampled_from(["nickname", "agent_name", "action_id", "expected_version", "x"]),
    where=st.sampled_from(["body", "path", "query", "bearer", "key"]),
)
def test_any_unicode_in_any_string_field_gets_a_4xx_or_a_success_never_a_5xx(
    unlimited: TestClient, route: tuple[str, str | None], value: str, field: str, where: str
) -> None:
    client = unlimited
    game = client.get("/games/create").json()["game_uuid"]
    path = route[0].replace("{game}", game)
    headers: dict[str, str | bytes] = {"Content-Type": "application/json"}
    body = {route[1] or field: value}
    query = ""
    raw_value = _escape(value)
    if where == "path":
        path = route[0].replace("{game}", raw_value or "x")
    elif where == "query":
        query = "?" + "&".join(f"{n}={raw_value}" for n in ("admin_uuid", "player_uuid", "limit"))
    elif where == "bearer":
        headers["Authorization"] = b"Bearer " + _header_bytes(value)
    elif where == "key":
        headers["Idempotency-Key"] = _header_bytes(value)
    raw = json.dumps(body).encode()  # ASCII, with \\uXXXX escapes: lone surrogates survive
    reply = client.post(path + query, content=raw, headers=headers)  # type: ignore[arg-type]
    assert reply.status_code < 500, (path, body, reply.text)
    assert "error" in reply.json() or reply.status_code < 300
    for read in (f"/games/{game}", "/games", f"/games/{game}/record"):
        got = client.get(f"{read}?player_uuid={raw_value}&round={raw_value}&limit={raw_value}")
        assert got.status_code < 500, got.text


def _escape(value: str) -> str:
    """``value`` percent-encoded as UTF-8, a lone surrogate as its (invalid) UTF-8 bytes."""
    return quote(value.encode("utf-8", "surrogatepass"), safe="")


def _header_bytes(value: str) -> bytes:
    """Header bytes as a client could send them: anything but CR, LF and NUL."""
    data = value.encode("utf-8", "surrogatepass")
    return bytes(b for b in data if b not in b"\r\n\x00").strip() or b"x"
