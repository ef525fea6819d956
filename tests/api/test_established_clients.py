"""The established iOS and Android apps, driven as they drive a server: their decoding,
branching, polling and ordering rules (api_docs/guide.md), one test per way they
broke before the game clock."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.main import create_app
from app.clock.local import LocalClock
from app.config.settings import Settings
from app.service import GameService
from app.store.sqlite import SqliteStore
from tests.api.test_watch_websocket import bounded
from tests.support.api import Blef
from tests.support.clock import FakeClock

POLL_SECONDS = 1.0
THINK_SECONDS = 1.0
GENERATED_NAME = "Inconceivable_Ichabodcraniosaurus"  # 33 characters, from the apps' generator


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


@pytest.fixture
def paced(tmp_path: Path, fake: FakeClock) -> tuple[TestClient, GameService, LocalClock]:
    """The service as deployed (AI think time 1 s), on a clock the test moves."""
    settings = Settings(
        db_path=tmp_path / "paced.db", ai_think_seconds=THINK_SECONDS, run_clock=False
    )
    store = SqliteStore(settings.db_path)
    service = GameService(store, settings, clock=fake)
    clock = LocalClock(service)
    with TestClient(create_app(settings, service), raise_server_exceptions=False) as http:
        yield http, service, clock
    store.close()


# ---------------------------------------------------------------------------- Android


@dataclass
class Android:
    """The Android game screen: polls the state once a second; when ``round_number``
    changes, asks ``round=<the round_number of its last message>`` to show how that round
    ended (read with org.json's getString(...).toInt())."""

    http: TestClient
    game: str
    me: str
    last: dict[str, Any] | None = None
    reveals: list[int] = field(default_factory=list)

    def poll(self) -> dict[str, Any]:
        response = self.http.get(f"/games/{self.game}", params={"player_uuid": self.me})
        assert response.status_code == 200, response.text
        state = response.json()
        if self.last is not None and str(state["round_number"]) != str(self.last["round_number"]):
            asked = int(str(self.last["round_number"]))
            ended = self.http.get(
                f"/games/{self.game}", params={"player_uuid": self.me, "round": asked}
            )
            assert ended.status_code == 200, ended.text  # round=0 straight after the start
            body = ended.json()
            if body["history"] and body["history"][-1]["action_id"] == 89:
                self.reveals.append(int(str(body["round_number"])))
        if state["status"] == "Finished" and self.last and self.last["status"] != "Finished":
            self.reveals.append(int(str(state["round_number"])))  # the final round, as it ended
        self.last = state
        return state


def test_android_asking_round_0_straight_after_the_start_gets_the_current_state(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    me = blef.join(game, "Anna")
    lobby = client.get(f"/games/{game}", params={"player_uuid": me}).json()
    blef.join(game, "Bartek")
    blef.start(game, me)
    # Its last message was the lobby (round_number 0): it asks for round 0.
    response = client.get(
        f"/games/{game}", params={"player_uuid": me, "round": lobby["round_number"]}
    )
    assert response.status_code == 200
    assert response.json()["status"] == "Running"
    assert response.json() == client.get(f"/games/{game}", params={"player_uuid": me}).json()


def test_android_quick_play_sees_the_reveal_of_every_round_ai_players_end(
    paced: tuple[TestClient, GameService, LocalClock], fake: FakeClock
) -> None:
    http, service, clock = paced
    blef = Blef(http)
    game = blef.create()
    me = blef.join(game, GENERATED_NAME)
    for agent in ("Dazhbog", "Porevit"):
        r = http.get(
            f"/games/{game}/invite-aiagent", params={"admin_uuid": me, "agent_name": agent}
        )
        assert r.status_code == 200
    blef.start(game, me)
    android = Android(http, game, me)
    rng = random.Random(5)
    fake.advance(0.5)  # the app polls half-way between the AI players' moves
    for _ in range(3000):
        state = android.poll()
        if state["status"] == "Finished":
            break
        if state["cp_nickname"] == GENERATED_NAME:
            history = state["history"]
            action = (
                88
                if history and (rng.random() < 0.5 or history[-1]["action_id"] >= 80)
                else (history[-1]["action_id"] + 1 if history else rng.randrange(0, 6))
            )
            reply = http.get(
                f"/games/{game}/play", params={"player_uuid": me, "action_id": action}
            ).json()
            if reply["cp_nickname"] is None:  # isNull("cp_nickname"): it showed this round
                android.reveals.append(reply["round_number"])
        fake.advance(POLL_SECONDS)
        clock.run_due()
    final = android.poll()
    assert final["status"] == "Finished"
    rounds = {s.round_number for s in service.store.load_rounds(game)}
    assert set(android.reveals) == rounds  # every round's end shown, none skipped


# ---------------------------------------------------------------------------- iOS


@dataclass
class Ios:
    """The iOS game screen: keeps the newest update by ``last_modified`` (ignoring one not
    newer than what it holds) from the websocket and its own play responses; shows a reveal
    for a message holding the ended round's several hands."""

    held: dict[str, Any] | None = None
    reveals: list[int] = field(default_factory=list)

    def receive(self, body: dict[str, Any]) -> None:
        if self.held is not None and body["last_modified"] <= self.held["last_modified"]:
            return
        self.held = body
        if len(body["hands"]) > 1 and body["history"] and body["history"][-1]["action_id"] == 89:
            self.reveals.append(body["round_number"])

    def outcome_for(self, me: str) -> str:
        assert self.held is not None
        if self.held["status"] != "Finished":
            return "playing"
        alive = [p["nickname"] for p in self.held["players"] if p["n_cards"] > 0]
        return "You won!" if alive == [me] else "You lost"


def test_ios_after_the_last_check_shows_the_loser_their_loss(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    players = {name: blef.join(game, name) for name in ("alice", "bob")}
    blef.start(game, players["alice"])
    watchers = {name: Ios() for name in players}
    with (
        client.websocket_connect(
            "/ws", headers={"game_uuid": game, "player_uuid": players["alice"]}
        ) as a,
        client.websocket_connect(
            "/ws", headers={"game_uuid": game, "player_uuid": players["bob"]}
        ) as b,
    ):
        sockets = {"alice": a, "bob": b}

        def pump(count: int) -> None:
            for name, ws in sockets.items():
                for _ in range(count):
                    watchers[name].receive(json.loads(json.loads(bounded(ws.receive_text))["body"]))

        pump(1)
        state = blef.state(game)
        while state["status"] != "Finished":
            mover = players[state["cp_nickname"]]
            action = 88 if state["history"] else 0
            reply = blef.play(game, mover, action)
            assert reply.status_code == 200
            watchers[state["cp_nickname"]].receive(reply.json())  # its own play response
            pump(2 if action == 88 else 1)  # a check: the round, then what follows
            state = blef.state(game)
    winner = state["winner"]
    for name, ios in watchers.items():
        assert ios.outcome_for(name) == ("You won!" if name == winner else "You lost")
    assert sorted(set(watchers["alice"].reveals)) == list(range(1, state["round_number"] + 1))


def test_ios_watching_a_game_with_ai_players_gets_every_version_and_every_round(
    client: TestClient, blef: Blef, clock: LocalClock, service: GameService
) -> None:
    """One human and two AI players, watched over the websocket: every version arrives,
    in order, each ended round as its snapshot with every hand before the next state; after
    the human is out, the AI players finish alone."""
    game = blef.create()
    me = blef.join(game, "alice")
    for agent in ("random", "random"):
        client.get(f"/games/{game}/invite-aiagent", params={"admin_uuid": me, "agent_name": agent})
    with client.websocket_connect("/ws", headers={"game_uuid": game, "player_uuid": me}) as ws:
        messages = [json.loads(json.loads(bounded(ws.receive_text))["body"])]
        blef.start(game, me)
        rng = random.Random(3)
        for _ in range(3000):
            clock.run_until_idle()
            state = blef.state(game, me)
            if state["status"] == "Finished":
                break
            assert state["cp_nickname"] == "alice"
            action = (
                88
                if state["history"] and rng.random() < 0.6
                else (state["history"][-1]["action_id"] + 1 if state["history"] else 0)
            )
            assert blef.play(game, me, min(action, 88)).status_code == 200
        final = blef.state(game, me)
        snapshots = service.store.load_rounds(game)
        # The first state, then every change: a state per version, a snapshot per round.
        expected = 1 + final["version"] - messages[0]["version"] + len(snapshots)
        while len(messages) < expected:
            messages.append(json.loads(json.loads(bounded(ws.receive_text))["body"]))
    states = [m for m in messages if not m.get("loser")]
    ended = [m for m in messages if m.get("loser")]
    assert [m["version"] for m in states] == list(range(states[0]["version"], final["version"] + 1))
    assert [m["round_number"] for m in ended] == [s.round_number for s in snapshots]
    for snapshot in ended:
        assert snapshot["history"][-1]["action_id"] == 89
        assert len(snapshot["hands"]) == sum(1 for p in snapshot["players"] if p["n_cards"])
        position = messages.index(snapshot)
        assert messages[position + 1]["version"] == snapshot["version"]  # then its state
    stamps = [m["last_modified"] for m in messages[1:]]
    assert stamps == sorted(stamps)
    assert len(set(stamps)) == len(stamps)  # iOS drops an update not newer than it holds
    ios = Ios()
    for message in messages:
        ios.receive(message)
    assert sorted(set(ios.reveals)) == [s.round_number for s in snapshots]
    assert messages[-1]["status"] == "Finished"
    # Once alice is out, nobody asks for anything, yet the game reached its end.
    out_round = next(
        (
            s["round_number"]
            for s in ended
            if s["loser"] == "alice"
            and next(p["n_cards"] for p in s["players"] if p["nickname"] == "alice")
            == s["max_cards"]
        ),
        None,
    )
    if out_round is not None:
        assert final["winner"] != "alice"


def test_ios_public_games_watcher_with_no_headers_gets_public_games_only(
    client: TestClient, blef: Blef
) -> None:
    private = blef.create()
    blef.join(private, "hidden")
    game = blef.create()
    admin = blef.join(game, "alice")
    client.get(f"/games/{game}/make-public", params={"admin_uuid": admin})
    with client.websocket_connect("/ws/live") as ws:  # no headers at all: the start screen
        first = json.loads(bounded(ws.receive_text))
        blef.join(game, "bob")
        joined = json.loads(bounded(ws.receive_text))
        blef.join(private, "nobody_sees_me")
        client.get(f"/games/{game}/make-private", params={"admin_uuid": admin})
        left = json.loads(bounded(ws.receive_text))
    bodies = [json.loads(m["body"]) for m in (first, joined, left)]
    assert all(m["statusCode"] == 200 for m in (first, joined, left))
    for body in bodies:
        assert set(body) == {"game_uuid", "room", "public", "last_modified", "players"}
        assert body["game_uuid"] == game
    assert bodies[0]["players"] == ["alice"]
    assert bodies[1]["players"] == ["alice", "bob"]
    assert (bodies[1]["public"], bodies[2]["public"]) == ("true", "false")
    assert bodies[0]["last_modified"] < bodies[1]["last_modified"] < bodies[2]["last_modified"]


# ---------------------------------------------------------------------------- both apps


def test_the_apps_generated_nicknames_of_33_to_64_characters_are_accepted(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    assert blef.join(game, GENERATED_NAME)
    assert blef.join(game, "A" + "b" * 63)
    too_long = client.get(f"/games/{game}/join", params={"nickname": "A" + "b" * 64})
    assert too_long.status_code == 400


@pytest.mark.parametrize(
    ("nickname", "reason"),
    [("Anna", "Nickname already taken"), ("9lives", "Nickname must start with a letter")],
)
def test_a_refused_nickname_uses_the_established_text(
    blef: Blef, client: TestClient, nickname: str, reason: str
) -> None:
    game = blef.create()
    blef.join(game, "Anna")
    response = client.get(f"/games/{game}/join", params={"nickname": nickname})
    assert response.status_code == 400
    assert response.json()["error"].startswith(
        f"Bad input value in 'nickname': {nickname}\n{reason}"
    )
    assert response.json()["code"] in ("nickname_taken", "invalid_nickname")


def test_an_unknown_game_uses_the_established_text(client: TestClient) -> None:
    game = "5b1e6d1c-8f63-4d0e-9d1e-6b1ef0c0ffee"
    response = client.get(f"/games/{game}")
    assert response.status_code == 400
    assert response.json() == {
        "error": f"Bad input value in 'game_uuid': {game}\nGame does not exist",
        "code": "game_not_found",
    }
