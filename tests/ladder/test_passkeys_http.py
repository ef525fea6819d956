"""Passkeys, devices, deletion and board pages over HTTP, as the browser calls them and as an
attacker would: every refusal a 4xx with its code, never a 500, no secret in any list."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.main import create_app
from app.config.settings import Settings
from app.service import GameService
from app.store.sqlite import SqliteStore
from tests.ladder.contract import named as stored_account
from tests.ladder.contract import rated
from tests.support.authenticator import SoftAuthenticator, b64url
from tests.support.fairness import buckets_frozen

ORIGIN = "https://blef.test"
RP_ID = "blef.test"


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def client(tmp_path: Path, **overrides: Any) -> Iterator[TestClient]:
    settings = Settings(
        db_path=tmp_path / "blef.db",
        run_clock=False,
        ai_think_seconds=0,
        public_origin=ORIGIN,
        **overrides,
    )
    store = SqliteStore(settings.db_path)
    with TestClient(buckets_frozen(create_app(settings, GameService(store, settings)))) as http:
        yield http
    store.close()


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    yield from client(tmp_path)


def account(http: TestClient, handle: str) -> dict[str, Any]:
    made = http.post("/ladder/accounts", json={"handle": handle})
    assert made.status_code == 201, made.text
    return made.json()  # type: ignore[no-any-return]


def add_passkey(http: TestClient, secret: str) -> SoftAuthenticator:
    device = SoftAuthenticator(ORIGIN, RP_ID)
    options = http.post("/ladder/passkeys/register/options", headers=bearer(secret))
    assert options.status_code == 200, options.text
    added = http.post(
        "/ladder/passkeys/register", json=device.create(options.json()), headers=bearer(secret)
    )
    assert added.status_code == 201, added.text
    return device


def sign_in(http: TestClient, device: SoftAuthenticator, **bent: Any) -> Any:
    options = http.post("/ladder/passkeys/login/options")
    assert options.status_code == 200, options.text
    return http.post("/ladder/passkeys/login", json=device.get(options.json(), **bent))


def refused(answer: Any, status: int, code: str) -> None:
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
    assert answer.json()["error"]


def test_a_person_adds_a_passkey_and_signs_in_on_a_new_device_over_http(
    http: TestClient,
) -> None:
    made = account(http, "Ania")
    phone = add_passkey(http, made["secret"])
    listed = http.get("/ladder/passkeys", headers=bearer(made["secret"])).json()["passkeys"]
    assert [p["credential_id"] for p in listed] == [b64url(phone.credential_id)]

    signed_in = sign_in(http, phone)
    assert signed_in.status_code == 200, signed_in.text
    body = signed_in.json()
    assert body["handle"] == "Ania" and body["account_id"] == made["account_id"]
    assert body["secret"] != made["secret"]
    assert http.get("/ladder/me", headers=bearer(body["secret"])).json()["handle"] == "Ania"

    # The new device signs out: its secret opens nothing; the first device's still does.
    assert http.delete("/ladder/me/secret", headers=bearer(body["secret"])).status_code == 204
    refused(http.get("/ladder/me", headers=bearer(body["secret"])), 400, "unknown_account")
    assert http.get("/ladder/me", headers=bearer(made["secret"])).status_code == 200
    shown = json.dumps([listed, http.get("/ladder/players/Ania").json()])
    for secret in (made["secret"], body["secret"]):
        assert secret not in shown


def test_a_replayed_or_forged_sign_in_is_refused_with_its_reason(http: TestClient) -> None:
    made = account(http, "Ania")
    phone = add_passkey(http, made["secret"])
    options = http.post("/ladder/passkeys/login/options").json()
    answer = phone.get(options)
    assert http.post("/ladder/passkeys/login", json=answer).status_code == 200
    refused(http.post("/ladder/passkeys/login", json=answer), 400, "challenge_unknown")
    refused(sign_in(http, phone, origin="https://evil.example"), 400, "wrong_origin")
    refused(sign_in(http, phone, sign_count=1), 400, "passkey_counter")
    refused(sign_in(http, SoftAuthenticator(ORIGIN, RP_ID)), 400, "unknown_passkey")
    stranger = SoftAuthenticator(ORIGIN, RP_ID, credential_id=phone.credential_id)
    stranger.user_handle = phone.user_handle
    refused(sign_in(http, stranger, sign_count=100), 400, "passkey_not_verified")


def test_the_origin_a_request_claims_is_never_the_one_checked(http: TestClient) -> None:
    """An attacker's page at another origin sends its own Origin header (and Host) with an
    answer made for that origin: the configured origin decides, so it is refused."""
    made = account(http, "Ania")
    phone = add_passkey(http, made["secret"])
    evil = "https://evil.example"
    options = http.post("/ladder/passkeys/login/options", headers={"Origin": evil}).json()
    assert options["rpId"] == RP_ID
    answer = http.post(
        "/ladder/passkeys/login",
        json=phone.get(options, origin=evil, rp_id="evil.example"),
        headers={"Origin": evil, "Host": "evil.example"},
    )
    refused(answer, 400, "wrong_origin")


@pytest.mark.parametrize(
    ("content", "code"),
    [
        ("not json at all", "invalid_request"),
        ("[1, 2]", "invalid_request"),
        ('"a string"', "invalid_request"),
        ("{}", "passkey_malformed"),
        ('{"id": "AA", "rawId": "AA", "type": "public-key", "response": []}', "passkey_malformed"),
        (
            '{"id": "AA", "rawId": "AA", "type": "public-key", "response": {"clientDataJSON":'
            ' "eyJ0eXBlIjogMX0", "authenticatorData": "AA", "signature": "AA"}}',
            "passkey_malformed",
        ),
    ],
)
def test_a_malformed_body_is_a_clear_400_on_every_passkey_route(
    http: TestClient, content: str, code: str
) -> None:
    made = account(http, "Ania")
    headers = {"Content-Type": "application/json", **bearer(made["secret"])}
    for path in ("/ladder/passkeys/login", "/ladder/passkeys/register"):
        refused(http.post(path, content=content, headers=headers), 400, code)


def test_the_passkey_routes_ask_for_the_account_where_they_need_it(http: TestClient) -> None:
    refused(http.post("/ladder/passkeys/register/options"), 401, "missing_parameter")
    refused(http.post("/ladder/passkeys/register", json={}), 401, "missing_parameter")
    refused(http.get("/ladder/passkeys"), 401, "missing_parameter")
    refused(
        http.post("/ladder/passkeys/register/options", headers=bearer("nope")),
        400,
        "unknown_account",
    )


def test_the_only_key_of_an_account_without_a_passkey_is_not_signed_out(
    http: TestClient,
) -> None:
    made = account(http, "Ania")
    refused(http.delete("/ladder/me/secret", headers=bearer(made["secret"])), 409, "last_way_in")
    assert http.get("/ladder/me", headers=bearer(made["secret"])).status_code == 200


def test_passkeys_answer_503_where_no_public_origin_is_set(tmp_path: Path) -> None:
    settings = Settings(db_path=tmp_path / "blef.db", run_clock=False)
    with TestClient(create_app(settings)) as http:
        refused(http.post("/ladder/passkeys/login/options"), 503, "passkeys_unavailable")


def test_a_flood_of_passkey_challenges_from_one_address_is_limited(tmp_path: Path) -> None:
    for http in client(tmp_path):
        answers = [http.post("/ladder/passkeys/login/options").status_code for _ in range(22)]
        assert answers[:20] == [200] * 20 and answers[20:] == [429, 429]


# ------------------------------------------------------------------ deletion


def test_a_deleted_accounts_secret_and_passkey_open_nothing_and_its_profile_is_404(
    http: TestClient,
) -> None:
    made = account(http, "Ania")
    phone = add_passkey(http, made["secret"])
    assert http.delete("/ladder/me", headers=bearer(made["secret"])).status_code == 204
    refused(http.get("/ladder/me", headers=bearer(made["secret"])), 400, "unknown_account")
    refused(http.delete("/ladder/me", headers=bearer(made["secret"])), 400, "unknown_account")
    refused(sign_in(http, phone), 400, "unknown_passkey")
    refused(http.get("/ladder/players/Ania"), 404, "unknown_handle")
    assert account(http, "Ania")["account_id"] != made["account_id"], "the handle is free"


def test_an_account_waiting_for_a_game_is_not_deleted(http: TestClient) -> None:
    made = account(http, "Ania")
    http.post("/ladder/queue", json={"pool": "standard-2"}, headers=bearer(made["secret"]))
    answer = http.delete("/ladder/me", headers=bearer(made["secret"]))
    refused(answer, 409, "account_busy")
    assert "queue" in answer.json()["error"]
    assert http.get("/ladder/queue", headers=bearer(made["secret"])).json()["state"] == "waiting"
    http.delete("/ladder/queue", headers=bearer(made["secret"]))
    assert http.delete("/ladder/me", headers=bearer(made["secret"])).status_code == 204


# ------------------------------------------------------------------ board pages


def test_the_board_is_read_past_a_hundred_in_pages_with_ranks_that_hold_ties(
    http: TestClient,
) -> None:
    store = http.app.state.ladder.get().store  # type: ignore[attr-defined]
    for i in range(150):
        made = stored_account(store, f"P{i:03d}")
        rated(store, made, 3.0 + (i // 10), 1.0)  # ten to a rating: ties everywhere
    first = http.get("/ladder/leaderboard/standard-2?limit=100").json()
    second = http.get("/ladder/leaderboard/standard-2?limit=100&offset=100").json()
    assert first["next_offset"] == 100 and "next_offset" not in second
    rows = first["players"] + second["players"]
    assert len({r["handle"] for r in rows}) == 150
    assert [r["rank"] for r in rows] == [1 + 10 * (i // 10) for i in range(150)]
    assert second["players"][0]["rank"] == 101 and second["players"][5]["rank"] == 101
