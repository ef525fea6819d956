"""Blef's standings (engine/standings.py): a finished game's places from its rounds, the
rule the ladder rates by."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import Game, Status
from engine.records import RoundRecord
from engine.standings import blef_result


def played_out(players: int, seed: int) -> tuple[Game, list[RoundRecord]]:
    """A game of ``players`` played to its end by random legal moves, and its rounds."""
    chooser = random.Random(seed)
    game = Game()
    for n in range(players):
        game.join(f"p{n}")
    game.start()
    rounds: list[RoundRecord] = []
    while game.status is not Status.FINISHED:
        ended = game.apply(chooser.choice(game.legal_actions()))
        if ended is not None:
            rounds.append(ended)
    return game, rounds


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10**9))
def test_every_seat_takes_one_place_and_the_games_winner_is_first(players: int, seed: int) -> None:
    game, rounds = played_out(players, seed)
    places = blef_result(rounds).places
    assert sorted(places) == list(range(1, players + 1))
    assert game.nicknames[places.index(1)] == game.winner


@settings(max_examples=40, deadline=None)
@given(players=st.integers(3, 6), seed=st.integers(0, 10**9))
def test_whoever_went_out_earlier_places_lower(players: int, seed: int) -> None:
    _, rounds = played_out(players, seed)
    places = blef_result(rounds).places
    went_out = {}
    for i, ended in enumerate(rounds[:-1]):
        if rounds[i + 1].n_cards[ended.loser_seat] == 0:
            went_out.setdefault(ended.loser_seat, i)
    for a, when_a in went_out.items():
        for b, when_b in went_out.items():
            if when_a < when_b:
                assert places[a] > places[b]


def test_rounds_that_leave_no_single_player_are_refused_by_name() -> None:
    ended = RoundRecord(1, ("a", "b"), (5, 5), (None, None), [], [], b"", 0, 5, False)
    both_out = [ended, ended._replace(loser_seat=1, n_cards=(0, 5))]
    with pytest.raises(ValueError, match="one player"):
        blef_result(both_out)
    with pytest.raises(ValueError, match="at least one round"):
        blef_result([])
