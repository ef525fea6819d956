"""Views: what each viewer may see, and nothing more."""

from __future__ import annotations

import json

import pytest

from engine import errors
from engine.dealing import commitment
from engine.facts import CHECK
from engine.game import Game
from engine.views import view_for
from tests.engine.builders import (
    NAMES,
    VIEW_KEYS,
    bet_that_does_not_exist,
    lobby,
    no_more_seeds,
    running,
    started,
)


def shown_hands(view: dict[str, object]) -> dict[str, list[dict[str, int]]]:
    hands = view["hands"]
    assert isinstance(hands, list)
    return {entry["nickname"]: entry["hand"] for entry in hands}


def own_hand(game: Game, nickname: str) -> list[dict[str, int]]:
    return [card.to_dict() for card in game.hand(nickname)]


def test_an_observer_sees_no_hand_in_a_running_round() -> None:
    game = started(4)
    game.apply(3)
    view = view_for(game, None)
    assert set(view) == VIEW_KEYS
    assert view["hands"] == []
    assert view["status"] == "Running"
    assert view["cp_nickname"] == game.current_player
    assert view["history"] == [{"player": game.nicknames[0], "action_id": 3}]


def test_a_player_sees_only_their_own_hand() -> None:
    game = running([2, 3, 1])
    for name in NAMES[:3]:
        view = view_for(game, name)
        assert shown_hands(view) == {name: own_hand(game, name)}


def test_only_the_current_player_is_shown_the_legal_actions() -> None:
    game = started(3)
    game.apply(10)
    current = game.current_player
    for name in game.nicknames:
        view = view_for(game, name)
        if name == current:
            assert view["legal_actions"] == [*range(11, 88), CHECK]
        else:
            assert "legal_actions" not in view
    assert "legal_actions" not in view_for(game, None)


def test_no_view_of_a_running_round_holds_its_seed() -> None:
    game = running([1, 2, 1])
    seed_hex = bytes(range(32)).hex()
    for viewer in (None, *NAMES[:3]):
        view = view_for(game, viewer)
        assert "seed" not in view
        assert seed_hex not in json.dumps(view)
        assert view["commitment"] == commitment(bytes(range(32)))


def test_an_eliminated_player_sees_no_cards_while_the_others_play() -> None:
    game = running([1, 0, 2])
    view = view_for(game, "bob")
    assert view["hands"] == []
    assert "legal_actions" not in view
    assert [row["n_cards"] for row in view["players"]] == [1, 0, 2]


def test_a_finished_game_shows_every_hand_of_its_final_round_and_its_seed() -> None:
    game = running([0, 8, 1], current=1, seed_source=no_more_seeds)
    final = {name: own_hand(game, name) for name in ("bob", "carol")}
    assert [len(hand) for hand in final.values()] == [8, 1]
    game.apply(bet_that_does_not_exist(game), by="bob")
    game.apply(CHECK, by="carol")
    for viewer in (None, "alice", "bob", "carol"):
        view = view_for(game, viewer)
        assert view["status"] == "Finished"
        assert shown_hands(view) == final  # alice was out before the final round
        assert view["seed"] == bytes(range(32)).hex()
        assert view["winner"] == "carol"
        assert view["cp_nickname"] is None
        assert "legal_actions" not in view


def test_a_lobby_view_shows_the_joiners_and_no_deal() -> None:
    game = lobby(3)
    view = view_for(game, "alice")
    assert view["admin_nickname"] == "alice"
    assert view["status"] == "Not started"
    assert view["round_number"] == 0
    assert view["max_cards"] == 0
    assert view["hands"] == []
    assert view["commitment"] is None
    assert view["cp_nickname"] is None
    assert [row["nickname"] for row in view["players"]] == ["alice", "bob", "carol"]


def test_a_stranger_gets_no_view() -> None:
    with pytest.raises(errors.UnknownPlayer):
        view_for(started(2), "mallory")


def test_a_view_is_plain_json() -> None:
    game = started(3)
    game.apply(4)
    for viewer in (None, *game.nicknames):
        view = view_for(game, viewer)
        assert json.loads(json.dumps(view)) == view


def test_an_ai_player_row_names_its_agent_in_views() -> None:
    game = lobby(1)
    game.join(game.ai_nickname("Dazhbog"), ai_agent="random")
    rows = view_for(game, None)["players"]
    assert rows == [
        {"nickname": "alice", "n_cards": 0},
        {"nickname": "Dazhbog_(AI)", "n_cards": 0, "ai_agent": "random"},
    ]


def test_an_observation_shows_a_player_their_own_hand_and_the_public_facts() -> None:
    from engine.observation import Observation

    game = running([2, 0, 3], current=2)
    game.apply(7)
    obs = Observation(game, 2)
    assert obs.nickname == "carol"
    assert obs.hand == game.hand("carol")
    assert obs.hand_indices == tuple(card.index for card in game.hand("carol"))
    assert obs.n_cards == (2, 0, 3)
    assert obs.total_cards == 5
    assert obs.n_players == 3
    assert obs.max_cards == 8
    assert (obs.min_bet, obs.last_bet, obs.can_check) == (8, 7, True)
    assert obs.legal_actions == game.legal_actions()
    assert obs.seat_history == [(2, 7)]
    assert obs.history == game.history
    assert not hasattr(obs, "hands")
