"""What this service adds: POST forms with Bearer credentials, versions with ETag/304 and
409s, idempotent retries, canonical UUIDs, auditable deals, the game record, and a clear 4xx
for every bad input."""

from __future__ import annotations

import hashlib
import random
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engine.dealing import deal
from tests.support.api import Blef, bearer, next_action


def started_game(
    blef: Blef, names: tuple[str, ...] = ("alice", "bob", "carol")
) -> tuple[str, dict[str, str]]:
    game = blef.create_post()
    players = {name: blef.join_post(game, name) for name in names}
    blef.start_post(game, players[names[0]])
    return game, players


def current(blef: Blef, game: str, players: dict[str, str]) -> tuple[dict[str, Any], str]:
    state = blef.state(game)
    return state, players[state["cp_nickname"]]


def test_a_whole_game_runs_through_the_post_forms_with_bearer_credentials(
    blef: Blef, client: TestClient
) -> None:
    game, players = started_game(blef)
    rng = random.Random(3)
    for _ in range(5000):
        state = client.get(f"/games/{game}", headers=bearer(players["alice"])).json()
        if state["status"] == "Finished":
            break
        mover = players[state["cp_nickname"]]
        mine = client.get(f"/games/{game}", headers=bearer(mover)).json()
        action = next_action(mine, rng)
        assert action in mine["legal_actions"]
        response = blef.play_post(game, mover, action)
        assert response.status_code == 200, response.text
    else:
        pytest.fail("the game did not finish")
    final = client.get(f"/games/{game}").json()
    assert final["status"] == "Finished" and final["winner"] in players
    assert len(final["hands"]) == 2  # the final round's two players, both shown
    record = client.get(f"/games/{game}/record").json()
    assert [r["round_number"] for r in record["rounds"]] == list(
        range(1, final["round_number"] + 1)
    )
    assert record["winner"] == final["winner"]


def test_legal_actions_appear_only_in_the_view_of_the_player_whose_turn_it_is(
    blef: Blef, client: TestClient
) -> None:
    game, players = started_game(blef)
    state, mover = current(blef, game, players)
    assert "legal_actions" not in state
    mine = client.get(f"/games/{game}", headers=bearer(mover)).json()
    assert mine["legal_actions"] == list(range(88))
    waiting = next(p for p in players.values() if p != mover)
    assert "legal_actions" not in client.get(f"/games/{game}", headers=bearer(waiting)).json()
    blef.play_post(game, mover, 40)
    _, mover = current(blef, game, players)
    after = client.get(f"/games/{game}", headers=bearer(mover)).json()
    assert after["legal_actions"] == [*range(41, 88), 88]


def test_uuids_are_matched_in_their_canonical_form_whatever_their_case_or_braces(
    blef: Blef, client: TestClient
) -> None:
    game, players = started_game(blef)
    _, mover = current(blef, game, players)
    for form in (mover.upper(), "{" + mover + "}", "urn:uuid:" + mover):
        response = client.get(f"/games/{game.upper()}", params={"player_uuid": form})
        assert response.status_code == 200, form
        assert len(response.json()["hands"]) == 1
    assert blef.play(game.upper(), mover.upper(), 5).status_code == 200


def test_every_change_raises_the_version_which_is_also_the_etag(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    first = client.get(f"/games/{game}")
    assert first.json()["version"] == 1 and first.headers["etag"] == '"v1"'
    alice = blef.join(game, "alice")
    second = client.get(f"/games/{game}")
    assert second.json()["version"] == 2 and second.headers["etag"] == '"v2"'
    assert second.json()["last_modified"] > first.json()["last_modified"]
    blef.join(game, "bob")
    blef.start(game, alice)
    assert client.get(f"/games/{game}").json()["version"] == 4


def test_polling_with_a_matching_etag_answers_304_with_no_body(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    etag = client.get(f"/games/{game}").headers["etag"]
    unchanged = client.get(f"/games/{game}", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.content == b""
    blef.join(game, "alice")
    changed = client.get(f"/games/{game}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag


def test_a_move_with_a_stale_expected_version_is_refused_with_409_and_changes_nothing(
    blef: Blef, client: TestClient
) -> None:
    game, players = started_game(blef)
    state, mover = current(blef, game, players)
    stale = blef.play_post(game, mover, 3, expected_version=state["version"] - 1)
    assert stale.status_code == 409 and stale.json()["code"] == "conflict"
    assert blef.state(game) == state
    fresh = blef.play_post(game, mover, 3, expected_version=state["version"])
    assert fresh.status_code == 200 and fresh.json()["version"] == state["version"] + 1
    via_get = client.get(
        f"/games/{game}/play",
        params={"player_uuid": mover, "action_id": 4, "expected_version": state["version"]},
    )
    assert via_get.status_code == 409


def test_a_retried_move_with_the_same_idempotency_key_is_applied_once(blef: Blef) -> None:
    game, players = started_game(blef)
    state, mover = current(blef, game, players)
    first = blef.play_post(game, mover, 7, key="move-1")
    again = blef.play_post(game, mover, 7, key="move-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    after = blef.state(game)
    assert after["version"] == state["version"] + 1
    assert [m["action_id"] for m in after["history"]] == [7]


def test_an_idempotency_key_reused_for_another_request_is_refused(blef: Blef) -> None:
    game, players = started_game(blef)
    _, mover = current(blef, game, players)
    assert blef.play_post(game, mover, 7, key="k").status_code == 200
    _, next_mover = current(blef, game, players)
    reused = blef.play_post(game, next_mover, 9, key="k")
    assert reused.status_code == 422 and reused.json()["code"] == "idempotency_key_reused"


def test_creating_with_an_idempotency_key_twice_gives_the_same_game(blef: Blef) -> None:
    first, second = str(uuid.uuid4()), str(uuid.uuid4())
    assert blef.create_post(key=first) == blef.create_post(key=first)
    assert blef.create_post(key=first) != blef.create_post(key=second)


def test_a_retried_join_returns_the_same_player_and_adds_nobody(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    headers = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post(f"/games/{game}/join", json={"nickname": "alice"}, headers=headers)
    again = client.post(f"/games/{game}/join", json={"nickname": "alice"}, headers=headers)
    assert first.json() == again.json()
    assert [p["nickname"] for p in blef.state(game)["players"]] == ["alice"]


def test_each_deal_is_committed_before_the_round_and_verifiable_after_it(
    blef: Blef, client: TestClient
) -> None:
    game, players = started_game(blef)
    before, mover = current(blef, game, players)
    commitment = before["commitment"]
    assert "seed" not in before
    blef.play_post(game, mover, 0)
    _, checker = current(blef, game, players)
    ended = blef.play_post(game, checker, 88).json()
    seed = bytes.fromhex(ended["seed"])
    assert hashlib.sha256(seed).hexdigest() == commitment == ended["commitment"]
    in_round = [p for p in ended["players"] if p["n_cards"] > 0]
    dealt = deal(seed, [p["n_cards"] for p in in_round])
    shown = {h["nickname"]: h["hand"] for h in ended["hands"]}
    for player, hand in zip(in_round, dealt, strict=True):
        assert shown[player["nickname"]] == [c.to_dict() for c in hand]
    assert blef.state(game)["commitment"] != commitment


def test_the_game_record_is_refused_with_409_until_the_game_finishes(
    blef: Blef, client: TestClient
) -> None:
    game, _ = started_game(blef)
    response = client.get(f"/games/{game}/record")
    assert response.status_code == 409 and response.json()["code"] == "game_not_finished"


@pytest.mark.parametrize(
    ("method", "path", "kwargs"),
    [
        ("post", "/games/{g}/play", {"content": b"{not json"}),
        ("post", "/games/{g}/play", {"json": [1, 2]}),
        ("post", "/games/{g}/play", {"json": {"action_id": True}}),
        ("post", "/games/{g}/play", {"json": {"action_id": "5"}}),
        ("post", "/games/{g}/play", {"json": {"action_id": 10**40}}),
        ("post", "/games/{g}/play", {"json": {"action_id": 5.0}}),
        ("post", "/games/{g}/play", {"json": {"action_id": 5, "expected_version": "x"}}),
        ("post", "/games/{g}/play", {"json": {"action_id": 5, "surprise": 1}}),
        ("post", "/games/{g}/join", {"json": {"nickname": 12}}),
        ("post", "/games/{g}/join", {"json": {"nickname": True}}),
        ("post", "/games/{g}/join", {"json": {}}),
        ("post", "/games/{g}/invite-aiagent", {"json": {"agent_name": "Nobody"}}),
        ("get", "/games/{g}/play", {"params": {"action_id": "5"}, "headers": {}}),
        ("get", "/games/{g}", {"params": {"round": "9" * 50}}),
        ("get", "/games/{g}", {"params": {"player_uuid": "x" * 10000}, "headers": {}}),
        ("get", "/games/{g}", {"headers": {"Authorization": "Basic abc"}}),
        ("get", "/games", {"params": {"limit": "many"}}),
        ("get", "/games/{g}/join", {"params": {"nickname": "a" * 5000}}),
    ],
)
def test_bad_input_of_any_kind_gets_a_clear_4xx_never_a_5xx(
    blef: Blef, client: TestClient, method: str, path: str, kwargs: dict[str, Any]
) -> None:
    game, players = started_game(blef)
    headers = kwargs.pop("headers", bearer(players["alice"]))
    response = getattr(client, method)(path.format(g=game), headers=headers, **kwargs)
    assert 400 <= response.status_code < 500, response.text
    body = response.json()
    assert body["error"] and body["code"]


def test_moves_after_the_finish_are_refused_clearly(blef: Blef, service: Any) -> None:
    game, players = started_game(blef, ("alice", "bob"))
    rng = random.Random(1)
    for _ in range(5000):
        state = blef.state(game)
        if state["status"] == "Finished":
            break
        blef.play_post(game, players[state["cp_nickname"]], next_action(state, rng))
    late = blef.play_post(game, players["alice"], 88)
    assert late.status_code == 400 and late.json()["code"] == "game_finished"
    assert late.json()["error"] == "This game has already finished"


def test_a_body_above_the_limit_is_refused_with_413(blef: Blef, client: TestClient) -> None:
    game = blef.create()
    response = client.post(
        f"/games/{game}/join",
        content=b'{"nickname": "' + b"a" * 20000 + b'"}',
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 413 and response.json()["code"] == "body_too_large"


def test_every_response_carries_a_request_id(client: TestClient) -> None:
    assert len(client.get("/games").headers["x-request-id"]) >= 16
    echoed = client.get("/games", headers={"X-Request-ID": "trace-123"})
    assert echoed.headers["x-request-id"] == "trace-123"
