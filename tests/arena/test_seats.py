"""Seat rotation, nicknames and seeds of tournament games."""

from __future__ import annotations

import doctest
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena import seats
from arena.seats import agent_seed, game_master_seed, nickname, rotate, seat_assignment
from engine.facts import NICKNAME_PATTERN


def test_the_doctests_of_the_seats_module_pass() -> None:
    assert doctest.testmod(seats).failed == 0


def test_the_first_game_fills_the_seats_with_the_agents_in_turn() -> None:
    assert seat_assignment(n_agents=3, n_players=5, game_index=0) == (0, 1, 2, 0, 1)


def test_each_game_shifts_the_assignment_by_one() -> None:
    assert [seat_assignment(3, 3, k) for k in range(4)] == [
        (0, 1, 2),
        (1, 2, 0),
        (2, 0, 1),
        (0, 1, 2),
    ]


@given(st.integers(1, 8), st.integers(2, 8), st.integers(0, 1000))
def test_over_as_many_games_as_agents_every_agent_sits_in_every_seat_once(
    n_agents: int, n_players: int, start: int
) -> None:
    games = [seat_assignment(n_agents, n_players, start + k) for k in range(n_agents)]
    for seat in range(n_players):
        assert sorted(game[seat] for game in games) == list(range(n_agents))


@given(st.integers(1, 8), st.integers(2, 8))
def test_over_a_full_rotation_every_agent_holds_the_same_number_of_seats(
    n_agents: int, n_players: int
) -> None:
    held = Counter(a for k in range(n_agents) for a in seat_assignment(n_agents, n_players, k))
    assert set(held.values()) == {n_players}


def test_rotate_picks_the_items_of_the_assignment() -> None:
    assert rotate(["a", "b"], 4, 1) == ["b", "a", "b", "a"]


def test_a_seat_assignment_needs_agents_and_seats() -> None:
    with pytest.raises(ValueError, match="at least one agent"):
        seat_assignment(0, 2, 0)


@given(st.text(max_size=60), st.integers(0, 7))
def test_every_name_gives_a_valid_nickname_ending_with_the_seat(name: str, seat: int) -> None:
    nick = nickname(name, seat)
    assert NICKNAME_PATTERN.fullmatch(nick)
    assert nick.endswith(f"_{seat + 1}")


def test_seeds_depend_on_the_tournament_seed_the_game_and_the_seat() -> None:
    assert game_master_seed(1, 0) == game_master_seed(1, 0)
    assert len({game_master_seed(s, k) for s in (1, 2) for k in (0, 1)}) == 4
    assert agent_seed(1, 0, 0) == agent_seed(1, 0, 0)
    assert len({agent_seed(1, k, j) for k in (0, 1) for j in (0, 1)}) == 4
