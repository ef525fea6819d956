"""The table as people use it (issue 13): leave, resign, remove, readiness and auto start, a
chosen maximum of cards, reactions, nickname reports. Driven over HTTP as a new client does
(POST, JSON body, Bearer credentials), and as an attacker would (no or stolen credentials,
wrong states, floods, races)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.main import create_app
from app.api.routes.watch import CLOSE_REFUSED
from app.clock.local import LocalClock
from app.config.settings import Settings
from app.service import GameService
from app.service.errors import ConflictError
from app.store.sqlite import SqliteStore
from tests.api.test_watch_websocket import bounded, closed_with, headers
from tests.support.api import Blef, bearer
from tests.support.clock import FakeClock

NEW_ROUTES = (
    ("leave", None),
    ("resign", None),
    ("remove", {"nickname": "bob"}),
    ("ready", {"ready": True}),
    ("set-auto-start", {"auto_start": True}),
    ("set-max-cards", {"max_cards": 3}),
    ("react", {"reaction": "👍"}),
    ("report", {"nickname": "bob"}),
)


def post(blef: Blef, game: str, action: str, who: str | None, body: Any = None) -> Any:
    headers = bearer(who) if who is not None else {}
    if body is None:
        return blef.http.post(f"/games/{game}/{action}", headers=headers)
    # Sent as JSON text with \u escapes, as any client may (a lone surrogate included).
    headers["Content-Type"] = "application/json"
    return blef.http.post(f"/games/{game}/{action}", content=json.dumps(body), headers=headers)


def ok(response: Any) -> str:
    assert response.status_code == 200, response.text
    return str(response.json()["message"])


def refused(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code, body
    return str(body["error"])


def lobby(blef: Blef, *names: str) -> tuple[str, dict[str, str]]:
    game = blef.create()
    return game, {name: blef.join_post(game, name) for name in names}


def invite(blef: Blef, game: str, admin: str, agent: str = "random") -> str:
    r = blef.http.post(
        f"/games/{game}/invite-aiagent", json={"agent_name": agent}, headers=bearer(admin)
    )
    assert r.status_code == 200, r.text
    return str(r.json()["message"]).removesuffix(" joined the game")


def nicknames(state: dict[str, Any]) -> list[str]:
    return [p["nickname"] for p in state["players"]]


# ---------------------------------------------------------------- leaving the lobby


def test_a_player_who_leaves_the_lobby_frees_their_seat_nickname_and_uuid(blef: Blef) -> None:
    game, players = lobby(blef, "alice", "bob", "carol")
    assert ok(post(blef, game, "leave", players["bob"])) == "You left the game"
    assert nicknames(blef.state(game)) == ["alice", "carol"]
    gone = blef.http.get(f"/games/{game}", params={"player_uuid": players["bob"]})
    refused(gone, 400, "unknown_player")
    refused(post(blef, game, "leave", players["bob"]), 400, "unknown_player")
    blef.join_post(game, "bob")  # the nickname is free again
    assert nicknames(blef.state(game)) == ["alice", "carol", "bob"]


def test_when_the_admin_leaves_the_next_human_to_have_joined_becomes_admin(blef: Blef) -> None:
    game, players = lobby(blef, "alice")
    invite(blef, game, players["alice"])  # an AI joined before bob: it cannot be admin
    players["bob"] = blef.join_post(game, "bob")
    players["carol"] = blef.join_post(game, "carol")
    message = ok(post(blef, game, "leave", players["alice"]))
    assert message == "You left the game - bob is the admin now"
    assert blef.state(game)["admin_nickname"] == "bob"
    refused(post(blef, game, "set-max-cards", players["carol"], {"max_cards": 2}), 400, "not_admin")
    blef.start_post(game, players["bob"])
    assert blef.state(game)["status"] == "Running"


def test_the_last_human_out_empties_the_game_and_takes_it_off_the_public_list(
    blef: Blef,
) -> None:
    game, players = lobby(blef, "alice")
    invite(blef, game, players["alice"])
    blef.http.post(f"/games/{game}/make-public", headers=bearer(players["alice"]))
    assert game in [g["game_uuid"] for g in blef.http.get("/games").json()]
    ok(post(blef, game, "leave", players["alice"]))
    state = blef.state(game)
    assert (state["players"], state["admin_nickname"], state["public"]) == ([], None, "false")
    assert game not in [g["game_uuid"] for g in blef.http.get("/games").json()]
    newcomer = blef.join_post(game, "dora")  # an emptied game is a fresh lobby until it expires
    assert blef.state(game, newcomer)["admin_nickname"] == "dora"


def test_leaving_a_running_game_says_to_resign_and_a_finished_one_is_refused(
    blef: Blef,
) -> None:
    game, players = lobby(blef, "alice", "bob")
    blef.start_post(game, players["alice"])
    error = refused(post(blef, game, "leave", players["bob"]), 403, "game_already_started")
    assert "resign" in error
    ok(post(blef, game, "resign", players["bob"]))
    refused(post(blef, game, "leave", players["alice"]), 400, "game_finished")


# ---------------------------------------------------------------- resigning


def test_a_resigning_player_is_out_at_once_and_the_game_goes_on(blef: Blef) -> None:
    game, players = lobby(blef, "alice", "bob", "carol")
    blef.start_post(game, players["alice"])
    before = blef.state(game)
    waiting = next(n for n in nicknames(before) if n != before["cp_nickname"])
    ok(post(blef, game, "resign", players[waiting]))
    after = blef.state(game, players[waiting])
    assert after["status"] == "Running"
    assert after["round_number"] == before["round_number"] + 1
    assert {p["nickname"]: p["n_cards"] for p in after["players"]}[waiting] == 0
    assert after["hands"] == []  # out: no cards any more, but still watching as a player
    # The abandoned round is kept and shown as every ended round is: it ends with the 89
    # event of the player who resigned, as the Android client reads a round's loser.
    ended = blef.state(game, round_=before["round_number"])
    assert ended["history"][-1] == {"player": waiting, "action_id": 89}
    refused(post(blef, game, "resign", players[waiting]), 409, "already_out")


def test_a_resignation_that_leaves_one_player_finishes_the_game(blef: Blef) -> None:
    game, players = lobby(blef, "alice", "bob")
    blef.start_post(game, players["alice"])
    message = ok(post(blef, game, "resign", players["alice"]))
    assert message == "You resigned - you are out of the game; bob won"
    state = blef.state(game)
    assert (state["status"], state["winner"], state["cp_nickname"]) == ("Finished", "bob", None)
    refused(post(blef, game, "resign", players["bob"]), 400, "game_finished")


def test_resigning_in_the_lobby_is_refused_with_the_way_to_leave(blef: Blef) -> None:
    game, players = lobby(blef, "alice", "bob")
    refused(post(blef, game, "resign", players["bob"]), 400, "game_not_started")


# ---------------------------------------------------------------- removing a player


def test_the_admin_removes_an_ai_and_a_human_whose_uuid_then_stops_working(blef: Blef) -> None:
    game, players = lobby(blef, "alice", "bob")
    ai = invite(blef, game, players["alice"])
    assert ok(post(blef, game, "remove", players["alice"], {"nickname": ai})) == (
        f"{ai} was removed from the game"
    )
    ok(post(blef, game, "remove", players["alice"], {"nickname": "bob"}))
    assert nicknames(blef.state(game)) == ["alice"]
    refused(post(blef, game, "ready", players["bob"], {"ready": True}), 400, "unknown_player")


def test_removing_is_refused_for_yourself_a_stranger_a_non_admin_and_after_the_start(
    blef: Blef,
) -> None:
    game, players = lobby(blef, "alice", "bob", "carol")
    alice, bob = players["alice"], players["bob"]
    refused(post(blef, game, "remove", alice, {"nickname": "alice"}), 400, "cannot_remove_self")
    refused(post(blef, game, "remove", alice, {"nickname": "zed"}), 400, "unknown_player")
    refused(post(blef, game, "remove", bob, {"nickname": "carol"}), 400, "not_admin")
    refused(post(blef, game, "remove", alice, {}), 400, "missing_parameter")
    refused(post(blef, game, "remove", alice, {"nickname": 7}), 400, "invalid_parameter")
    blef.start_post(game, alice)
    refused(post(blef, game, "remove", alice, {"nickname": "bob"}), 403, "game_already_started")


# ---------------------------------------------------------------- readiness and auto start


def test_the_game_starts_by_itself_once_every_human_is_ready(blef: Blef) -> None:
    game, players = lobby(blef, "alice", "bob")
    invite(blef, game, players["alice"])
    assert ok(post(blef, game, "set-auto-start", players["alice"], {"auto_start": True})) == (
        "Auto start on"
    )
    assert ok(post(blef, game, "ready", players["bob"], {"ready": True})) == "Ready"
    state = blef.state(game)
    assert (state["ready"], state["auto_start"], state["status"]) == (["bob"], True, "Not started")
    assert ok(post(blef, game, "ready", players["alice"], {"ready": True})) == (
        "Ready - Game started"
    )
    state = blef.state(game)
    assert (state["status"], state["ready"], state["round_number"]) == ("Running", [], 1)
    refused(
        post(blef, game, "ready", players["bob"], {"ready": False}), 403, "game_already_started"
    )


def test_a_player_can_take_back_being_ready_and_a_repeat_changes_nothing(blef: Blef) -> None:
    game, players = lobby(blef, "alice", "bob")
    ok(post(blef, game, "ready", players["bob"], {"ready": True}))
    version = blef.state(game)["version"]
    assert ok(post(blef, game, "ready", players["bob"], {"ready": True})).startswith(
        "Request redundant"
    )
    assert blef.state(game)["version"] == version
    assert ok(post(blef, game, "ready", players["bob"], {"ready": False})) == "Not ready"
    assert blef.state(game)["ready"] == []


def test_turning_auto_start_on_when_everyone_is_ready_starts_at_once(blef: Blef) -> None:
    game, players = lobby(blef, "alice", "bob")
    for secret in players.values():
        ok(post(blef, game, "ready", secret, {"ready": True}))
    assert blef.state(game)["status"] == "Not started"  # auto start is off by default
    message = ok(post(blef, game, "set-auto-start", players["alice"], {"auto_start": True}))
    assert message == "Auto start on - Game started"
    assert blef.state(game)["status"] == "Running"


def test_a_lone_ready_admin_does_not_start_and_the_admins_start_ignores_readiness(
    blef: Blef,
) -> None:
    game, players = lobby(blef, "alice")
    ok(post(blef, game, "set-auto-start", players["alice"], {"auto_start": True}))
    ok(post(blef, game, "ready", players["alice"], {"ready": True}))
    assert blef.state(game)["status"] == "Not started"  # one player is not a game
    players["bob"] = blef.join_post(game, "bob")  # a new human is not ready yet
    assert blef.state(game)["status"] == "Not started"
    blef.start_post(game, players["alice"])  # the admin's start works as it always has
    assert blef.state(game)["status"] == "Running"


def test_the_unready_player_leaving_starts_a_game_set_to_auto_start(blef: Blef) -> None:
    game, players = lobby(blef, "alice", "bob", "carol")
    ok(post(blef, game, "set-auto-start", players["alice"], {"auto_start": True}))
    ok(post(blef, game, "ready", players["alice"], {"ready": True}))
    ok(post(blef, game, "ready", players["bob"], {"ready": True}))
    assert ok(post(blef, game, "leave", players["carol"])) == "You left the game - Game started"
    assert blef.state(game)["status"] == "Running"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({}, "missing_parameter"),
        ({"ready": None}, "missing_parameter"),
        ({"ready": 1}, "invalid_parameter"),
        ({"ready": "true"}, "invalid_parameter"),
        ({"ready": True, "extra": 1}, "invalid_request"),
    ],
)
def test_ready_takes_a_json_boolean_only(blef: Blef, body: Any, code: str) -> None:
    game, players = lobby(blef, "alice")
    refused(post(blef, game, "ready", players["alice"], body), 400, code)


# ---------------------------------------------------------------- the maximum of cards


def test_a_chosen_maximum_holds_in_play_one_card_means_out_at_the_first_loss(
    blef: Blef,
) -> None:
    game, players = lobby(blef, "alice", "bob")
    assert ok(post(blef, game, "set-max-cards", players["alice"], {"max_cards": 1})) == (
        "Maximum of cards set to 1"
    )
    before = blef.state(game)
    assert (before["chosen_max_cards"], before["max_cards"]) == (1, 0)  # 0 before the start
    blef.start_post(game, players["alice"])
    state = blef.state(game)
    assert state["max_cards"] == 1
    mover = players[state["cp_nickname"]]
    assert blef.play_post(game, mover, 0).status_code == 200
    other = players[blef.state(game)["cp_nickname"]]
    assert blef.play_post(game, other, 88).status_code == 200
    finished = blef.state(game)
    assert finished["status"] == "Finished"  # the loser of the one check went past 1 card


def test_a_maximum_chosen_for_few_players_is_capped_at_the_start_if_more_joined(
    blef: Blef,
) -> None:
    game, players = lobby(blef, "alice", "bob")
    ok(post(blef, game, "set-max-cards", players["alice"], {"max_cards": 9}))
    for name in ("carol", "dave", "erin"):
        players[name] = blef.join_post(game, name)
    blef.start_post(game, players["alice"])
    assert blef.state(game)["max_cards"] == 4  # the rule's maximum for five players


@pytest.mark.parametrize(
    ("value", "code"),
    [
        (0, "invalid_max_cards"),
        (12, "invalid_max_cards"),
        (-1, "invalid_max_cards"),
        ("3", "invalid_parameter"),
        (3.0, "invalid_parameter"),
        (True, "invalid_parameter"),
        (None, "missing_parameter"),
    ],
)
def test_a_maximum_out_of_range_or_not_an_integer_is_refused(
    blef: Blef, value: Any, code: str
) -> None:
    game, players = lobby(blef, "alice", "bob")
    refused(post(blef, game, "set-max-cards", players["alice"], {"max_cards": value}), 400, code)


def test_the_range_of_the_maximum_follows_the_players_seated(blef: Blef) -> None:
    game, players = lobby(blef, "alice", "bob", "carol", "dave")
    error = refused(
        post(blef, game, "set-max-cards", players["alice"], {"max_cards": 7}),
        400,
        "invalid_max_cards",
    )
    assert error == "The maximum of cards must be an integer between 1 and 6 for 4 players"
    ok(post(blef, game, "set-max-cards", players["alice"], {"max_cards": 6}))
    blef.start_post(game, players["alice"])
    refused(
        post(blef, game, "set-max-cards", players["alice"], {"max_cards": 2}),
        403,
        "game_already_started",
    )


# ---------------------------------------------------------------- reactions


def test_a_reaction_is_shown_in_the_state_with_who_sent_it(blef: Blef) -> None:
    game, players = lobby(blef, "alice", "bob")
    assert ok(post(blef, game, "react", players["bob"], {"reaction": "🎉"})) == "Reaction sent"
    [shown] = blef.state(game)["reactions"]
    assert (shown["nickname"], shown["reaction"]) == ("bob", "🎉")
    assert isinstance(shown["at"], float)


def test_only_the_last_five_reactions_are_kept(tmp_path: Path) -> None:
    with table_client(tmp_path) as (blef, fake):
        game, players = lobby(blef, "alice", "bob")
        sent = ["👍", "👎", "👏", "😂", "😮", "😢", "🤔"]
        for i, reaction in enumerate(sent):
            fake.advance(10)
            ok(
                post(
                    blef,
                    game,
                    "react",
                    players["alice" if i % 2 else "bob"],
                    {"reaction": reaction},
                )
            )
        assert [r["reaction"] for r in blef.state(game)["reactions"]] == sent[-5:]


@pytest.mark.parametrize("reaction", ["💩", "👍👍", "thumbs up", " 👍", 5, ["👍"], "\ud83d"])
def test_a_reaction_not_in_the_list_is_refused(blef: Blef, reaction: Any) -> None:
    game, players = lobby(blef, "alice")
    response = post(blef, game, "react", players["alice"], {"reaction": reaction})
    assert response.status_code == 400, response.text
    assert response.json()["code"] in ("unknown_reaction", "invalid_parameter")


class table_client:  # noqa: N801 (a context manager used like a function)
    """A client on a service whose clock the test moves (for the reaction rate)."""

    def __init__(self, tmp_path: Path) -> None:
        self.settings = Settings(
            db_path=tmp_path / "table.db", ai_think_seconds=0, run_clock=False, rate_limit_burst=0
        )
        self.fake = FakeClock()
        self.store = SqliteStore(self.settings.db_path)
        self.service = GameService(self.store, self.settings, clock=self.fake)
        self.http = TestClient(create_app(self.settings, self.service))

    def __enter__(self) -> tuple[Blef, FakeClock]:
        self.http.__enter__()
        return Blef(self.http), self.fake

    def __exit__(self, *exc: object) -> None:
        self.http.__exit__(*exc)
        self.store.close()


def test_a_reaction_flood_is_refused_per_player_with_retry_after(tmp_path: Path) -> None:
    with table_client(tmp_path) as (blef, fake):
        game, players = lobby(blef, "alice", "bob")
        for _ in range(3):
            ok(post(blef, game, "react", players["alice"], {"reaction": "😂"}))
        flood = post(blef, game, "react", players["alice"], {"reaction": "😂"})
        refused(flood, 429, "too_many_reactions")
        assert flood.headers["Retry-After"] == "10"
        ok(post(blef, game, "react", players["bob"], {"reaction": "👍"}))  # bob is not starved
        fake.advance(9.5)
        refused(
            post(blef, game, "react", players["alice"], {"reaction": "😂"}),
            429,
            "too_many_reactions",
        )
        fake.advance(0.5)
        ok(post(blef, game, "react", players["alice"], {"reaction": "😂"}))
        reactions = blef.state(game)["reactions"]
        assert [r["nickname"] for r in reactions] == ["alice"] * 3 + ["bob", "alice"]


def test_a_reaction_racing_a_move_does_not_cost_the_move(service: GameService) -> None:
    """A reaction that wins the race to save leaves the cards and the turn as they were, so
    the move is re-applied to the fresher version rather than refused with a 409."""
    game = service.create_game()["game_uuid"]
    alice = service.join(game, "alice")["player_uuid"]
    bob = service.join(game, "bob")["player_uuid"]
    service.start(game, alice)
    state = service.state(game).body
    mover = alice if state["cp_nickname"] == "alice" else bob
    load = service.store.load
    raced: list[bool] = []

    def load_then_a_reaction(game_uuid: str) -> Any:
        doc = load(game_uuid)
        if not raced:  # the move has read the game; a reaction is saved before it saves
            raced.append(True)
            service.react(game, alice, "👍")
        return doc

    service.store.load = load_then_a_reaction  # type: ignore[method-assign]
    body = service.play(game, mover, 3)
    assert raced and body["history"][-1]["action_id"] == 3
    assert len(service.state(game).body["reactions"]) == 1


def test_a_move_racing_a_real_change_of_the_game_is_still_refused(service: GameService) -> None:
    game = service.create_game()["game_uuid"]
    alice = service.join(game, "alice")["player_uuid"]
    bob = service.join(game, "bob")["player_uuid"]
    carol = service.join(game, "carol")["player_uuid"]
    service.start(game, alice)
    seats = {"alice": alice, "bob": bob, "carol": carol}
    mover_name = service.state(game).body["cp_nickname"]
    waiting = next(s for n, s in seats.items() if n != mover_name)
    load = service.store.load
    raced: list[bool] = []

    def load_then_a_resignation(game_uuid: str) -> Any:
        doc = load(game_uuid)
        if not raced:
            raced.append(True)
            service.resign(game, waiting)
        return doc

    service.store.load = load_then_a_resignation  # type: ignore[method-assign]
    with pytest.raises(ConflictError):
        service.play(game, seats[mover_name], 3)


# ---------------------------------------------------------------- every new route


@pytest.mark.parametrize(("action", "body"), NEW_ROUTES)
def test_every_table_route_wants_a_bearer_credential(blef: Blef, action: str, body: Any) -> None:
    game, _ = lobby(blef, "alice", "bob")
    response = post(blef, game, action, None, body)
    refused(response, 401, "missing_parameter")
    assert response.headers["WWW-Authenticate"] == "Bearer"
    in_url = blef.http.post(f"/games/{game}/{action}?player_uuid=x", json=body)
    assert in_url.status_code == 401  # never from the URL, where secrets end up in logs


@pytest.mark.parametrize(("action", "body"), NEW_ROUTES)
def test_a_player_of_another_game_is_nobody_here(blef: Blef, action: str, body: Any) -> None:
    game, _ = lobby(blef, "alice", "bob")
    _, strangers = lobby(blef, "mallory")
    response = post(blef, game, action, strangers["mallory"], body)
    assert response.status_code == 400, response.text
    assert response.json()["code"] in ("unknown_player", "not_admin")
    assert nicknames(blef.state(game)) == ["alice", "bob"]


@pytest.mark.parametrize(("action", "body"), NEW_ROUTES)
def test_a_table_route_on_an_unknown_game_says_so(blef: Blef, action: str, body: Any) -> None:
    _, players = lobby(blef, "alice")
    response = post(blef, "0" * 8 + "-0000-4000-8000-" + "0" * 12, action, players["alice"], body)
    refused(response, 400, "game_not_found")


def test_every_table_change_is_pushed_to_a_websocket_watcher(
    blef: Blef, client: TestClient
) -> None:
    game, players = lobby(blef, "alice", "bob")
    with client.websocket_connect("/ws", headers=headers(game, players["bob"])) as ws:
        first = json.loads(json.loads(bounded(ws.receive_text))["body"])
        assert first["you"] == "bob"
        ok(post(blef, game, "react", players["alice"], {"reaction": "👏"}))
        pushed = json.loads(json.loads(bounded(ws.receive_text))["body"])
        assert [(r["nickname"], r["reaction"]) for r in pushed["reactions"]] == [("alice", "👏")]
        ok(post(blef, game, "ready", players["alice"], {"ready": True}))
        pushed = json.loads(json.loads(bounded(ws.receive_text))["body"])
        assert pushed["ready"] == ["alice"]


# ---------------------------------------------------------------- races


def test_players_racing_to_be_ready_start_an_auto_start_game_exactly_once(
    service: GameService,
) -> None:
    game = service.create_game()["game_uuid"]
    secrets = [service.join(game, f"p{i}")["player_uuid"] for i in range(6)]
    service.set_auto_start(game, secrets[0], True)
    barrier = threading.Barrier(len(secrets))
    replies: list[str] = []

    def ready(secret: str) -> None:
        barrier.wait()
        replies.append(service.set_ready(game, secret, True)["message"])

    threads = [threading.Thread(target=ready, args=(s,)) for s in secrets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(replies) == ["Ready"] * 5 + ["Ready - Game started"]
    state = service.state(game).body
    assert (state["status"], state["round_number"], len(state["players"])) == ("Running", 1, 6)


def test_players_racing_to_leave_all_leave_and_the_last_empties_the_game(
    service: GameService,
) -> None:
    game = service.create_game()["game_uuid"]
    secrets = [service.join(game, f"p{i}")["player_uuid"] for i in range(8)]
    barrier = threading.Barrier(len(secrets))

    def leave(secret: str) -> None:
        barrier.wait()
        service.leave(game, secret)

    threads = [threading.Thread(target=leave, args=(s,)) for s in secrets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    state = service.state(game).body
    assert (state["players"], state["admin_nickname"]) == ([], None)


# ---------------------------------------------------------------- reports


def test_a_nickname_reported_by_every_other_human_is_shown_as_player_seat(
    blef: Blef, service: GameService, clock: LocalClock
) -> None:
    game, players = lobby(blef, "alice", "bob", "carol")
    invite(blef, game, players["alice"])
    blef.start_post(game, players["alice"])
    clock.run_until_idle()
    state = blef.state(game)
    mover = state["cp_nickname"]
    assert mover != "Dazhbog_(AI)"
    blef.play_post(game, players[mover], 0)
    clock.run_until_idle()
    # End round 1 with a check, whoever must make it.
    while blef.state(game)["round_number"] == 1:
        current = blef.state(game)["cp_nickname"]
        blef.play_post(game, players[current], 88)
        clock.run_until_idle()
    seat = nicknames(blef.state(game)).index("carol") + 1
    assert ok(post(blef, game, "report", players["alice"], {"nickname": "carol"})) == "Reported"
    assert "carol" in nicknames(blef.state(game))  # one of two other humans is not enough
    message = ok(post(blef, game, "report", players["bob"], {"nickname": "carol"}))
    alias = f"Player_{seat}"
    assert message == f"Reported - carol is shown as {alias} from now on"
    state = blef.state(game, players["carol"])
    assert "carol" not in str(state) and alias in nicknames(state)
    assert state["you"] == alias  # carol's own client learns her new name
    round_1 = blef.state(game, round_=1)
    assert "carol" not in str(round_1)  # the stored round is shown under the new name too
    reports = service.store.list_reports(10)
    assert {(r.reporter, r.nickname, r.game_uuid) for r in reports} == {
        ("alice", "carol", game),
        ("bob", "carol", game),
    }
    again = ok(post(blef, game, "report", players["alice"], {"nickname": alias}))
    assert again.startswith("Request redundant")


def test_a_hidden_nickname_cannot_be_taken_again_at_that_table(blef: Blef) -> None:
    game, players = lobby(blef, "alice", "Rude")
    ok(post(blef, game, "report", players["alice"], {"nickname": "Rude"}))
    assert nicknames(blef.state(game)) == ["alice", "Player_2"]
    r = blef.http.post(f"/games/{game}/join", json={"nickname": "rude"})
    refused(r, 400, "nickname_taken")
    # The renamed player still plays with their UUID.
    ok(post(blef, game, "ready", players["Rude"], {"ready": True}))
    assert blef.state(game)["ready"] == ["Player_2"]


def test_reporting_yourself_an_ai_a_stranger_or_twice_is_refused_or_redundant(
    blef: Blef, service: GameService
) -> None:
    game, players = lobby(blef, "alice", "bob", "carol")
    ai = invite(blef, game, players["alice"])
    alice = players["alice"]
    refused(post(blef, game, "report", alice, {"nickname": "alice"}), 400, "cannot_report_self")
    refused(post(blef, game, "report", alice, {"nickname": ai}), 400, "cannot_report_ai")
    refused(post(blef, game, "report", alice, {"nickname": "zed"}), 400, "unknown_player")
    refused(post(blef, game, "report", alice, {"nickname": ""}), 400, "missing_parameter")
    ok(post(blef, game, "report", alice, {"nickname": "bob"}))
    assert ok(post(blef, game, "report", alice, {"nickname": "bob"})) == (
        "Request redundant - already reported"
    )
    assert len(service.store.list_reports(10)) == 1  # the same report again replaces it


def test_a_reporter_leaving_does_not_count_and_the_rest_of_the_table_decides(
    blef: Blef,
) -> None:
    game, players = lobby(blef, "alice", "bob", "carol", "dave")
    ok(post(blef, game, "report", players["bob"], {"nickname": "dave"}))
    ok(post(blef, game, "report", players["carol"], {"nickname": "dave"}))
    assert "dave" in nicknames(blef.state(game))  # alice has not reported
    ok(post(blef, game, "leave", players["bob"]))  # bob's report goes with him
    ok(post(blef, game, "leave", players["carol"]))
    assert "dave" in nicknames(blef.state(game))  # alice, now the only other, has not
    ok(post(blef, game, "report", players["alice"], {"nickname": "dave"}))
    assert nicknames(blef.state(game)) == ["alice", "Player_2"]


def test_the_last_human_who_had_not_reported_leaving_hides_the_nickname(blef: Blef) -> None:
    game, players = lobby(blef, "alice", "bob", "carol")
    ok(post(blef, game, "report", players["bob"], {"nickname": "carol"}))
    ok(post(blef, game, "leave", players["alice"]))
    state = blef.state(game)
    assert (nicknames(state), state["admin_nickname"]) == (["bob", "Player_2"], "bob")


def test_a_watcher_renamed_by_reports_keeps_watching_and_a_removed_one_is_closed(
    blef: Blef, client: TestClient
) -> None:
    game, players = lobby(blef, "alice", "Rude", "carl")

    def next_state(ws: Any) -> dict[str, Any]:
        return dict(json.loads(json.loads(bounded(ws.receive_text))["body"]))

    with (
        client.websocket_connect("/ws", headers=headers(game, players["Rude"])) as rude,
        client.websocket_connect("/ws", headers=headers(game, players["carl"])) as carl,
    ):
        assert next_state(rude)["you"] == "Rude"
        next_state(carl)
        ok(post(blef, game, "report", players["alice"], {"nickname": "Rude"}))
        ok(post(blef, game, "report", players["carl"], {"nickname": "Rude"}))
        next_state(rude)  # the first report: nothing shown yet
        renamed = next_state(rude)
        assert renamed["you"] == "Player_2" and "Rude" not in json.dumps(renamed)
        next_state(carl), next_state(carl)
        ok(post(blef, game, "remove", players["alice"], {"nickname": "carl"}))
        assert next_state(rude)["players"][-1]["nickname"] == "Player_2"
        assert closed_with(carl) == CLOSE_REFUSED  # carl is no longer at the table
