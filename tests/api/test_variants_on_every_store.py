"""A game of every kind of variant through the service on SQLite and on DynamoDB (moto):
the rules, the common cards, the teams and the rematch are stored, read back and played the
same on both, and each round's snapshot carries them."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config.settings import Settings
from app.service import GameService
from app.store.base import GameStore
from tests.support.clock import FakeClock


@pytest.fixture
def service(store: GameStore, tmp_path: Path) -> GameService:
    settings = Settings(db_path=tmp_path / "blef.db", ai_think_seconds=0, run_clock=False)
    return GameService(store, settings, clock=FakeClock())


def test_a_variant_game_with_teams_and_its_rematch_on_every_store(service: GameService) -> None:
    made = service.create_game(nickname="ann", team=1)
    game, players = made["game_uuid"], {"ann": made["player_uuid"]}
    for name, team in (("ben", 2), ("cat", 1), ("dan", 2)):
        players[name] = service.join(game, name, team=team)["player_uuid"]
    rules = {"deck_size": 32, "jokers": 2, "blanks": 1, "common_cards": -1}
    assert service.change_rules(game, players["ann"], rules) == {"message": "Rules updated"}
    service.start(game, players["ann"])
    rounds = 0
    for _ in range(3000):
        seen = service.state(game, None).body
        if seen["status"] == "Finished":
            break
        assert seen["rules"]["deck_size"] == 32
        assert len(seen["common_hand"]) >= 1
        mover = seen["cp_nickname"]
        view = service.state(game, players[mover]).body
        mates = {h["nickname"] for h in view["hands"]}
        team = next(p["team"] for p in view["players"] if p["nickname"] == mover)
        assert mates <= {p["nickname"] for p in view["players"] if p["team"] == team}
        legal = view["legal_actions"]
        action = legal[-1] if view["history"] else legal[0]
        answer = service.play(game, players[mover], action)
        if action == 140:
            rounds += 1
            assert answer["history"][-1]["action_id"] == 141
            assert answer["rules"]["jokers"] == 2
            snapshot = service.state(game, None, str(answer["round_number"])).body
            assert snapshot["common_hand"] == answer["common_hand"]
    else:
        raise AssertionError("the game did not end")
    finished = service.state(game, None).body
    assert (
        len({p["team"] for p in finished["players"] if p["nickname"] in finished["winners"]}) == 1
    )
    assert rounds >= 2
    again = service.rematch(game, players["dan"])
    assert service.rematch(game, players["ann"])["game_uuid"] == again["game_uuid"]
    next_game = service.state(again["game_uuid"], again["player_uuid"]).body
    assert next_game["rules"]["deck_size"] == 32
    assert [p["team"] for p in next_game["players"]] == [2, 1]
