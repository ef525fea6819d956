"""The established Blef contract, exactly: routes, fields and their JSON types, statuses and
messages, driven only through the GET routes the existing clients call."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from tests.support.api import Blef, next_action

NIL = "00000000-0000-4000-8000-000000000000"


def play_to_the_end(blef: Blef, game: str, players: dict[str, str], seed: int) -> list[Any]:
    """Plays with GET /play only; returns the responses to every check."""
    rng = random.Random(seed)
    checks = []
    for _ in range(5000):
        state = blef.state(game)
        if state["status"] == "Finished":
            return checks
        mover = players[state["cp_nickname"]]
        action = next_action(state, rng)
        response = blef.play(game, mover, action)
        assert response.status_code == 200, response.text
        if action == 88:
            checks.append(response.json())
    raise AssertionError("the game did not finish")


def test_a_whole_game_runs_through_the_established_routes_only(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    players = {name: blef.join(game, name) for name in ("alice", "bob", "carol")}
    admin = players["alice"]
    assert client.get(f"/games/{game}/make-public", params={"admin_uuid": admin}).json() == {
        "message": "Game made public"
    }
    listed = client.get("/games").json()
    assert [g["game_uuid"] for g in listed] == [game]
    assert listed[0]["players"] == ["alice", "bob", "carol"]
    assert isinstance(listed[0]["room"], int) and isinstance(listed[0]["last_modified"], float)

    blef.start(game, admin)
    started = blef.state(game)
    assert started["status"] == "Running" and started["round_number"] == 1
    assert started["public"] == "false" and started["max_cards"] == 8
    assert sorted(p["nickname"] for p in started["players"]) == ["alice", "bob", "carol"]

    checks = play_to_the_end(blef, game, players, seed=11)
    final = blef.state(game)
    assert final["status"] == "Finished" and final["cp_nickname"] is None
    assert final["history"][-1]["action_id"] == 89 and final["history"][-2]["action_id"] == 88
    assert len([p for p in final["players"] if p["n_cards"] > 0]) == 1
    assert len(checks) == final["round_number"]
    for response in checks:
        assert response["cp_nickname"] is None and response["history"][-1]["action_id"] == 89
        in_round = [p for p in response["players"] if p["n_cards"] > 0]
        assert len(response["hands"]) == len(in_round)

    for number in range(1, final["round_number"] + 1):
        snapshot = blef.state(game, round_=number)
        assert snapshot["round_number"] == number
        assert snapshot["history"][-1]["action_id"] == 89
        assert snapshot["history"][-2]["action_id"] == 88
        assert snapshot == checks[number - 1] | {
            "last_modified": snapshot["last_modified"],
            "version": snapshot["version"],
        }
    assert client.get("/games").json() == []


def test_the_state_object_has_the_established_fields_and_json_types(blef: Blef) -> None:
    game = blef.create()
    lobby = blef.state(game)
    assert lobby["admin_nickname"] is None and lobby["public"] == "false"
    assert lobby["status"] == "Not started" and lobby["round_number"] == 0
    assert lobby["max_cards"] == 0 and lobby["players"] == [] and lobby["hands"] == []
    assert lobby["cp_nickname"] is None and lobby["history"] == []
    assert isinstance(lobby["room"], int) and isinstance(lobby["last_modified"], float)
    alice = blef.join(game, "alice")
    blef.join(game, "bob")
    blef.start(game, alice)
    mine = blef.state(game, alice)
    assert mine["admin_nickname"] == "alice"
    assert [h["nickname"] for h in mine["hands"]] == ["alice"]
    card = mine["hands"][0]["hand"][0]
    assert set(card) == {"value", "colour"} and 0 <= card["value"] <= 5
    assert blef.state(game)["hands"] == []


def test_join_refusals_have_the_established_statuses_and_messages(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    alice = blef.join(game, "alice")

    def join(nickname: str | None) -> Any:
        params = {} if nickname is None else {"nickname": nickname}
        return client.get(f"/games/{game}/join", params=params)

    assert join(None).status_code == 400
    assert "Nickname missing" in join(None).json()["error"]
    for bad in ("1abc", "_x", "a b", "ab-c", "a" * 65, "zoë!", "Bob_(AI)", "a__b", "bob_"):
        response = join(bad)
        assert response.status_code == 400, bad
        assert response.json()["code"] == "invalid_nickname"
    taken = join("ALICE")
    assert (taken.status_code, taken.json()["error"]) == (
        400,
        "Bad input value in 'nickname': ALICE\nNickname already taken",
    )
    for i in range(7):
        blef.join(game, f"p{i}")
    full = join("late")
    assert (full.status_code, full.json()["error"]) == (403, "Game room full")
    blef.start(game, alice)
    started = client.get(f"/games/{game}/join", params={"nickname": "later"})
    assert (started.status_code, started.json()["error"]) == (403, "Game already started")


def test_start_refusals_have_the_established_statuses_and_messages(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    alice = blef.join(game, "alice")
    alone = client.get(f"/games/{game}/start", params={"admin_uuid": alice})
    assert (alone.status_code, alone.json()["error"]) == (
        403,
        "At least 2 players needed to start a game",
    )
    bob = blef.join(game, "bob")
    wrong = client.get(f"/games/{game}/start", params={"admin_uuid": bob})
    assert (wrong.status_code, wrong.json()["error"]) == (400, "Admin UUID does not match")
    missing = client.get(f"/games/{game}/start")
    assert missing.status_code == 400 and "Admin UUID missing" in missing.json()["error"]
    blef.start(game, alice)
    again = client.get(f"/games/{game}/start", params={"admin_uuid": alice})
    assert (again.status_code, again.json()["error"]) == (403, "Game already started")


def test_an_empty_game_cannot_be_started(blef: Blef, client: TestClient) -> None:
    game = blef.create()
    response = client.get(f"/games/{game}/start", params={"admin_uuid": NIL})
    assert response.status_code == 400
    assert response.json()["error"] == "Admin UUID does not match"


def test_play_refusals_have_the_established_statuses_and_messages(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    alice = blef.join(game, "alice")
    bob = blef.join(game, "bob")
    early = blef.play(game, alice, 3)
    assert (early.status_code, early.json()["error"]) == (400, "This game has not yet started")
    blef.start(game, alice)
    state = blef.state(game)
    mover, other = (alice, bob) if state["cp_nickname"] == "alice" else (bob, alice)
    wrong_turn = blef.play(game, other, 3)
    assert wrong_turn.status_code == 400 and wrong_turn.json()["code"] == "not_your_turn"
    assert "does not match the UUID of the current player" in wrong_turn.json()["error"]
    stranger = blef.play(game, NIL, 3)
    assert stranger.status_code == 400 and stranger.json()["code"] == "unknown_player"
    for bad in ("-1", "89", "1.5", "abc", "true", "1e3", "99999999999999999999"):
        response = client.get(
            f"/games/{game}/play", params={"player_uuid": mover, "action_id": bad}
        )
        assert response.status_code == 400, bad
        assert response.json()["error"] == (
            f"Bad input value in 'action_id': {bad}\nAction ID must be an integer between 0 and 88"
        )
    missing = client.get(f"/games/{game}/play", params={"player_uuid": mover})
    assert missing.status_code == 400 and "Action ID missing" in missing.json()["error"]
    first_check = blef.play(game, mover, 88)
    assert (first_check.status_code, first_check.json()["error"]) == (
        400,
        "This action not allowed right now",
    )
    assert blef.play(game, mover, 0).status_code == 200
    not_higher = blef.play(game, other, 0)
    assert (not_higher.status_code, not_higher.json()["error"]) == (
        400,
        "This action not allowed right now",
    )


def test_action_zero_is_a_valid_first_bet(blef: Blef) -> None:
    game = blef.create()
    alice = blef.join(game, "alice")
    bob = blef.join(game, "bob")
    blef.start(game, alice)
    mover = alice if blef.state(game)["cp_nickname"] == "alice" else bob
    response = blef.play(game, mover, 0)
    assert response.status_code == 200
    assert response.json()["history"] == [
        {"player": response.json()["history"][0]["player"], "action_id": 0}
    ]


def test_visibility_changes_answer_as_the_established_service(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    alice = blef.join(game, "alice")
    blef.join(game, "bob")

    def call(route: str, admin: str = alice) -> Any:
        return client.get(f"/games/{game}/{route}", params={"admin_uuid": admin})

    assert call("make-private").json() == {"message": "Request redundant - game already private"}
    assert call("make-public").json() == {"message": "Game made public"}
    assert call("make-public").json() == {"message": "Request redundant - game already public"}
    assert blef.state(game)["public"] == "true"
    assert call("make-private").json() == {"message": "Game made private"}
    assert call("make-public", NIL).status_code == 400
    blef.start(game, alice)
    late = call("make-public")
    assert (late.status_code, late.json()["error"]) == (
        403,
        "Cannot make the change - game already started",
    )


def test_state_refusals_are_clear_400s(blef: Blef, client: TestClient) -> None:
    game = blef.create()
    alice = blef.join(game, "alice")
    blef.join(game, "bob")
    unknown = client.get(f"/games/{NIL}")
    assert (unknown.status_code, unknown.json()["error"]) == (
        400,
        f"Bad input value in 'game_uuid': {NIL}\nGame does not exist",
    )
    bad = client.get("/games/not-a-uuid")
    assert bad.status_code == 400 and "Invalid game UUID" in bad.json()["error"]
    nobody = client.get(f"/games/{game}", params={"player_uuid": NIL})
    assert nobody.status_code == 400
    assert nobody.json()["error"] == "The UUID does not match any active player"
    blef.start(game, alice)
    ahead = client.get(f"/games/{game}", params={"round": 5})
    assert (ahead.status_code, ahead.json()["error"]) == (
        400,
        "The game has not reached this round",
    )
    for bad_round in ("-2", "x", "1.5", "1e3"):
        response = client.get(f"/games/{game}", params={"round": bad_round})
        assert (
            response.status_code == 400 and "round parameter is invalid" in response.json()["error"]
        )
    for current in ("", "-1", "1"):
        response = client.get(f"/games/{game}", params={"round": current})
        assert response.status_code == 200 and response.json()["round_number"] == 1


def test_the_public_list_shows_only_public_games_waiting_for_players(
    blef: Blef, client: TestClient
) -> None:
    private = blef.create()
    blef.join(private, "alice")
    waiting = blef.create()
    admin = blef.join(waiting, "bob")
    client.get(f"/games/{waiting}/make-public", params={"admin_uuid": admin})
    assert [g["game_uuid"] for g in client.get("/games").json()] == [waiting]
    blef.join(waiting, "carol")
    blef.start(waiting, admin)
    assert client.get("/games").json() == []


def test_no_response_ever_contains_another_players_uuid(blef: Blef, client: TestClient) -> None:
    game = blef.create()
    players = {name: blef.join(game, name) for name in ("alice", "bob", "carol")}
    client.get(f"/games/{game}/make-public", params={"admin_uuid": players["alice"]})
    seen = [client.get("/games").text]
    blef.start(game, players["alice"])
    rng = random.Random(5)
    for _ in range(2000):
        for name, secret in players.items():
            text = client.get(f"/games/{game}", params={"player_uuid": secret}).text
            assert all(s not in text for n, s in players.items() if n != name)
        state = blef.state(game)
        if state["status"] == "Finished":
            break
        seen.append(blef.play(game, players[state["cp_nickname"]], next_action(state, rng)).text)
    seen.append(client.get(f"/games/{game}/record").text)
    for text in seen:
        assert all(secret not in text for secret in players.values())


def test_unknown_routes_and_methods_answer_in_the_error_format(client: TestClient) -> None:
    missing = client.get("/nowhere")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    wrong_method = client.delete("/games/create")
    assert wrong_method.status_code == 405 and "error" in wrong_method.json()


def test_browsers_may_call_the_api_from_any_origin(client: TestClient) -> None:
    response = client.get("/games", headers={"Origin": "https://blef.example"})
    assert response.headers["access-control-allow-origin"] == "*"
    preflight = client.options(
        "/games/create",
        headers={"Origin": "https://blef.example", "Access-Control-Request-Method": "POST"},
    )
    assert preflight.status_code == 200
