"""AI players invited through the established route play their turns as their own changes,
made by the game clock after the human's request has returned: a human plays only their own
turns, and every AI move is a version of its own that clients see."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from fastapi.testclient import TestClient

from app.clock.local import LocalClock
from app.config.settings import Settings
from app.service import GameService
from app.store.sqlite import SqliteStore
from engine.agents import AGENTS
from tests.support.api import Blef, bearer, next_action


def test_a_game_with_one_human_and_ai_players_runs_to_the_end(
    blef: Blef, client: TestClient, clock: LocalClock
) -> None:
    game = blef.create()
    human = blef.join(game, "alice")
    for name in ("Dazhbog", "Porevit", "random"):
        response = client.get(
            f"/games/{game}/invite-aiagent", params={"admin_uuid": human, "agent_name": name}
        )
        assert response.status_code == 200, response.text
    blef.start(game, human)
    rng = random.Random(2)
    human_moves = 0
    for _ in range(2000):
        clock.run_until_idle()
        state = client.get(f"/games/{game}", headers=bearer(human)).json()
        if state["status"] == "Finished":
            break
        # Once the clock is idle it is the human's turn, or the game is over (the AI
        # players finish it alone after the human is out).
        assert state["cp_nickname"] == "alice", state["cp_nickname"]
        response = blef.play(game, human, next_action(state, rng))
        assert response.status_code == 200, response.text
        human_moves += 1
    final = client.get(f"/games/{game}").json()
    assert final["status"] == "Finished"
    assert human_moves > 0
    record = client.get(f"/games/{game}/record").json()
    players_of_rounds = {m["player"] for r in record["rounds"] for m in r["history"]}
    assert {"Dazhbog_(AI)", "Porevit_(AI)", "random_(AI)"} <= players_of_rounds


def test_ai_nicknames_follow_the_established_pattern(blef: Blef, client: TestClient) -> None:
    game = blef.create()
    admin = blef.join(game, "alice")
    messages = [
        client.get(
            f"/games/{game}/invite-aiagent", params={"admin_uuid": admin, "agent_name": "random"}
        ).json()["message"]
        for _ in range(3)
    ]
    assert messages == [
        "random_(AI) joined the game",
        "random_2_(AI) joined the game",
        "random_3_(AI) joined the game",
    ]
    players = blef.state(game)["players"]
    assert [p.get("ai_agent") for p in players] == [None, "random", "random", "random"]


def test_every_built_in_agent_can_be_invited_by_its_own_name(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    admin = blef.join(game, "alice")
    for name in sorted(AGENTS)[:7]:
        response = client.post(
            f"/games/{game}/invite-aiagent", json={"agent_name": name}, headers=bearer(admin)
        )
        assert response.status_code == 200, response.text
        assert response.json()["message"] == f"{name}_(AI) joined the game"


def test_inviting_is_refused_clearly_when_it_cannot_be_done(blef: Blef, client: TestClient) -> None:
    game = blef.create()
    admin = blef.join(game, "alice")
    other = blef.join(game, "bob")

    def invite(agent: str, who: str = admin) -> tuple[int, str]:
        response = client.get(
            f"/games/{game}/invite-aiagent", params={"admin_uuid": who, "agent_name": agent}
        )
        return response.status_code, response.json().get("code", "")

    assert invite("Nobody") == (400, "unknown_agent")
    assert invite("random", other) == (400, "not_admin")
    for _ in range(6):
        assert invite("random")[0] == 200
    assert invite("random") == (403, "room_full")
    blef.start(game, admin)
    assert invite("random") == (403, "game_already_started")


class _Recorder:
    """A learning agent that records which finished rounds it was told before acting."""

    name = "random"
    learns_from_rounds = True
    made: ClassVar[list[_Recorder]] = []

    def __init__(self, seed: int | None) -> None:
        self.told: list[int] = []
        self.round_at_first_move: int | None = None
        _Recorder.made.append(self)

    def act(self, obs: Any) -> int:
        if self.round_at_first_move is None:
            self.round_at_first_move = obs.round_number
        return obs.min_bet if obs.min_bet < 88 else 88

    def round_ended(self, record: Any) -> None:
        self.told.append(record.number)


def test_an_ai_that_learns_is_told_every_earlier_round_when_it_is_made_mid_game(
    settings: Settings,
) -> None:
    store = SqliteStore(settings.db_path)
    _Recorder.made.clear()
    service = GameService(store, settings, agent_factory=lambda name, seed: _Recorder(seed))  # type: ignore[arg-type, return-value]
    game = service.create_game()["game_uuid"]
    human = service.join(game, "alice")["player_uuid"]
    service.invite_ai(game, human, "random")
    clock = LocalClock(service)
    service.start(game, human)
    for _ in range(400):
        clock.run_until_idle()
        state = service.state(game).body
        if state["status"] == "Finished":
            break
        service.play(game, human, 88 if state["history"] else 0)
    late = [a for a in _Recorder.made if a.round_at_first_move and a.round_at_first_move > 1]
    assert late, "no AI was made after the first round"
    for agent in late:
        assert agent.told[: agent.round_at_first_move - 1] == list(
            range(1, agent.round_at_first_move)
        )
    store.close()
