"""Reading moves from JSON, and refusing the moves the rules do not allow (nothing changes)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.economancy import GAME, EconomancyRules
from engine.economancy.errors import (
    AlreadyChose,
    BadInvestment,
    CannotAfford,
    CannotAttack,
    CannotDefend,
    CardUsedUp,
    IndexOutOfRange,
    NotInShop,
    WrongPhase,
)
from engine.economancy.state import EconomancyState
from engine.protocol import GameOver, MalformedMove, MoveRefused, NotYourTurn
from tests.economancy.helpers import SIMPLE, army, play, state_with

BASE = EconomancyRules(cards="base")


@pytest.mark.parametrize(
    ("data", "move"),
    [
        ([3], 3),
        (3, 3),
        (["3"], 3),
        ([" 3 "], 3),
        ([3.0], 3),
        ([-1], -1),
        (["Ghost"], "Ghost"),
        ("Ghost", "Ghost"),
        (["gold fish"], "Gold Fish"),
        (["Pass"], "Pass"),
        (["pass"], "Pass"),
        (["Dragon"], "Dragon"),
        (["Sorcerer's Stipend"], "Sorcerer's Stipend"),
    ],
)
def test_moves_are_read_as_both_player_families_write_them(data: Any, move: int | str) -> None:
    assert GAME.parse_move(data) == move


@pytest.mark.parametrize(
    "data",
    [[], [1, 2], [True], True, None, [None], {"move": 1}, [1.5], [""], [[1]], [float("inf")]],
)
def test_anything_else_is_malformed(data: Any) -> None:
    with pytest.raises(MalformedMove):
        GAME.parse_move(data)


@given(
    # (not st.from_type(object): the objects it builds include typing's cached aliases, and
    # what it does to them broke the CDK's type checks later in the same process)
    st.binary()
    | st.complex_numbers()
    | st.sets(st.integers())
    | st.tuples(st.integers())
    | st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
        lambda c: st.lists(c) | st.dictionaries(st.text(), c),
    )
)
def test_parsing_any_json_gives_a_move_or_malformed_move_never_another_error(data: Any) -> None:
    try:
        move = GAME.parse_move(data)
    except MalformedMove:
        return
    assert type(move) in (int, str)
    assert GAME.parse_move(GAME.move_to_json(move)) == move


def _refused(state: EconomancyState, seat: int, move: int | str, error: type[MoveRefused]) -> str:
    before = state.to_dict()
    with pytest.raises(error) as caught:
        state.apply(seat, move)
    assert state.to_dict() == before
    return caught.value.message


def test_investing_more_than_ones_coins_or_a_negative_amount_is_refused() -> None:
    state = GAME.setup(SIMPLE, 2)
    assert "0 to 3" in _refused(state, 0, 4, BadInvestment)
    _refused(state, 0, -1, BadInvestment)
    _refused(state, 0, "Ghost", WrongPhase)


def test_a_seat_that_has_chosen_cannot_choose_again_and_a_seat_not_asked_cannot_act() -> None:
    state = GAME.setup(SIMPLE, 2)
    state.apply(0, 1)
    _refused(state, 0, 0, AlreadyChose)
    _refused(state, 5, 0, NotYourTurn)


def test_attacking_refuses_an_index_out_of_range_a_card_that_cannot_attack_or_is_used_up() -> None:
    state = state_with([army("Bubble", "Ghost"), army("Worker", "Worker")], [1, 0])
    play(state, (0, 1), (1, 0))
    assert "0 to 2" in _refused(state, 0, 3, IndexOutOfRange)
    assert "Bubble cannot attack" in _refused(state, 0, 1, CannotAttack)
    _refused(state, 0, "Pass", WrongPhase)
    _refused(state, 1, 1, NotYourTurn)
    play(state, (0, 2), (1, 1))
    assert state.to_act() == () or state.phase == "buy"


def test_defending_refuses_the_stipend_and_a_used_card() -> None:
    state = state_with(
        [army("Worker", "Worker"), army("Thug", "Worker")], [1, 0], rules=SIMPLE.__class__()
    )
    play(state, (0, 1), (1, 0), (0, 1))
    assert "Stipend cannot defend" in _refused(state, 1, 0, CannotDefend)
    _refused(state, 1, 3, IndexOutOfRange)
    state.apply(1, 1)  # the thug: the attacking worker faints
    state.apply(0, 1)  # the other worker, now at index 1
    assert "already defended" in _refused(state, 1, 1, CardUsedUp)
    _refused(state, 0, 2, NotYourTurn)


def test_buying_refuses_an_unaffordable_card_and_one_not_in_this_games_shop() -> None:
    state = GAME.setup(SIMPLE, 2)
    play(state, (0, 0), (1, 0))
    assert "costs 4 coins and you have 3" in _refused(state, 0, "Incantation", CannotAfford)
    _refused(state, 0, "Golem", NotInShop)
    _refused(state, 0, "Sorcerer's Stipend", NotInShop)
    _refused(state, 0, "Dragon", NotInShop)
    _refused(state, 0, 1, WrongPhase)


def test_nothing_is_accepted_once_the_game_is_over() -> None:
    state = state_with([army("Ghost"), army()], [1, 0])
    play(state, (0, 1), (1, 0), (0, 1))
    assert state.over
    _refused(state, 0, 0, GameOver)


def test_the_default_move_is_legal_in_every_phase() -> None:
    state = state_with([army("Ghost"), army("Worker", "Bubble")], [1, 0])
    assert state.default_move(0) == 0
    play(state, (0, 1), (1, 0))
    assert state.default_move(0) == 0
    state.apply(0, 1)
    assert state.default_move(1) == 1
    state.apply(1, state.default_move(1))
    assert state.default_move(0) == "Pass"
    with pytest.raises(NotYourTurn):
        GAME.setup(SIMPLE, 2).default_move(7)
