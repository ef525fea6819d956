"""Blef behind the game protocol: the definition the registry finds, and random games played
through the protocol alone (turns, legal moves, events, views, results, storage)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import errors
from engine.blef import GAME, BlefState
from engine.dealing import seed_sequence
from engine.games import definition
from engine.protocol import GameState, MalformedMove, MoveRefused, TurnMode


def test_the_registry_finds_blef_and_its_state_answers_the_game_protocol() -> None:
    blef = definition("blef")
    assert blef is GAME
    assert (blef.name, blef.min_seats, blef.max_seats) == ("blef", 2, 8)
    state = blef.setup(blef.default_rules(), 4, seed_sequence(1))
    assert isinstance(state, GameState)
    assert state.n_seats == 4


@pytest.mark.parametrize("text", ["5", 5.0, True, None, [5], {"action_id": 5}])
def test_a_move_that_is_not_an_integer_is_malformed(text: object) -> None:
    with pytest.raises(MalformedMove):
        GAME.parse_move(text)


def test_a_seat_that_is_not_to_move_is_refused_and_nothing_changes() -> None:
    state = GAME.setup(GAME.default_rules(), 3, seed_sequence(2))
    before = json.dumps(state.to_dict())
    waiting = (state.current_seat + 1) % 3  # type: ignore[operator]
    with pytest.raises(MoveRefused) as refused:
        state.apply(waiting, 0)
    assert refused.value.code == errors.NotYourTurn.code
    assert json.dumps(state.to_dict()) == before


def test_a_check_before_any_bet_is_refused_by_the_rules() -> None:
    state = GAME.setup(GAME.default_rules(), 2, seed_sequence(3))
    seat = state.current_seat
    assert seat is not None
    with pytest.raises(MoveRefused):
        state.apply(seat, state.rules.check)


def hidden_hands(view: dict[str, object]) -> set[str]:
    hands = view["hands"]
    assert isinstance(hands, dict)
    return set(hands)


@settings(max_examples=30)
@given(
    seed=st.integers(0, 2**32),
    n_seats=st.integers(2, 8),
    pick=st.randoms(use_true_random=False),
)
def test_a_random_game_through_the_protocol_ends_with_places_and_never_shows_a_hidden_hand(
    seed: int, n_seats: int, pick: random.Random
) -> None:
    state = GAME.setup(GAME.default_rules(), n_seats, seed_sequence(seed))
    for _ in range(2000):
        turn = state.turn()
        if not turn.seats:
            break
        assert turn.mode is TurnMode.ONE and len(turn.seats) == 1
        (seat,) = turn.seats
        for other in range(n_seats):
            assert bool(state.legal_moves(other)) == (other == seat)
            shown = hidden_hands(state.view(other))
            assert shown <= {str(other)}  # no teams: only one's own hand
        assert hidden_hands(state.view(None)) == set()
        move = pick.choice(state.legal_moves(seat))
        events = state.apply(seat, move)
        assert events[0].seat == seat and events[0].data == {"action_id": move}
        copy = GAME.restore(json.loads(json.dumps(state.to_dict())))
        assert [copy.view(v) for v in (None, *range(n_seats))] == [
            state.view(v) for v in (None, *range(n_seats))
        ]
    result = state.result()
    assert result is not None and state.finished
    assert result.places.count(1) == 1  # one player is left standing
    assert sorted(result.places)[1:] == [2] * (n_seats - 1)
    dealt = {str(s) for s in range(n_seats) if state.hand_indices(s)}
    assert hidden_hands(state.view(None)) == dealt  # every hand of the final round, shown


def test_time_changes_nothing_in_blef() -> None:
    state: BlefState = GAME.setup(GAME.default_rules(), 2, seed_sequence(4))
    before = state.to_dict()
    assert list(state.advance(10**9)) == []
    assert state.to_dict() == before
