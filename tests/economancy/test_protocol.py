"""Economancy behind the game protocol: the registry, the rules value, turns, views."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.economancy import GAME, EconomancyRules
from engine.games import definition
from engine.protocol import GameState, InvalidRules, TurnMode
from tests.economancy.helpers import army, play, state_with


def test_the_registry_gives_the_economancy_definition_and_its_states_follow_the_protocol() -> None:
    assert definition("economancy") is GAME
    state = GAME.setup(GAME.default_rules(), 3)
    assert isinstance(state, GameState)
    assert state.n_seats == 3
    assert state.advance(10.0) == []
    assert state.result() is None


def test_the_default_rules_are_the_base_game_with_bubble_nine_and_a_hundred_days() -> None:
    assert GAME.rules_to_dict(GAME.default_rules()) == {
        "cards": "base",
        "bubble_attack": 9,
        "day_limit": 100,
        "on_timeout": "default_move",
    }


@given(
    st.sampled_from(["base", "simple"]),
    st.sampled_from([9, 5]),
    st.integers(1, 10_000),
    st.sampled_from(["default_move", "forfeit"]),
)
def test_rules_round_trip_through_json(cards: str, bubble: int, days: int, timeout: str) -> None:
    rules = EconomancyRules(cards=cards, bubble_attack=bubble, day_limit=days, on_timeout=timeout)
    assert GAME.rules_from_dict(GAME.rules_to_dict(rules)) == rules


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"cards": "all"}, "cards must be one of base, simple"),
        ({"bubble_attack": 7}, "bubble_attack must be 9 or 5"),
        ({"day_limit": 0}, "day_limit must be an integer from 1 to 10000"),
        ({"day_limit": "100"}, "day_limit must be an integer"),
        ({"on_timeout": "wait"}, "on_timeout must be one of default_move, forfeit"),
        ({"colour": "red"}, "unknown rule 'colour'"),
    ],
)
def test_bad_rules_are_refused_naming_the_value(data: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidRules, match=message):
        GAME.rules_from_dict(data)


def test_a_table_of_one_or_five_is_refused() -> None:
    for n in (1, 5):
        with pytest.raises(InvalidRules, match="2 to 4 players"):
            GAME.setup(GAME.default_rules(), n)


def test_investing_is_simultaneous_the_attacker_alone_and_defending_simultaneous() -> None:
    state = state_with([army("Ghost"), army("Worker"), army("Worker")], [1, 0, 0])
    turn = state.turn()
    assert (turn.mode, turn.seats) == (TurnMode.SIMULTANEOUS, frozenset({0, 1, 2}))
    state.apply(1, 0)
    assert state.turn().seats == frozenset({0, 2})
    play(state, (0, 1), (2, 0))
    assert (state.turn().mode, state.turn().seats) == (TurnMode.ONE, frozenset({0}))
    state.apply(0, 1)
    assert (state.turn().mode, state.turn().seats) == (TurnMode.SIMULTANEOUS, frozenset({1, 2}))


def test_a_spectator_sees_the_state_with_player_null() -> None:
    state = GAME.setup(GAME.default_rules(), 2)
    spectator = state.view(None)
    assert spectator["player"] is None
    assert {k: v for k, v in spectator.items() if k != "player"} == {
        k: v for k, v in state.view(0).items() if k != "player"
    }
