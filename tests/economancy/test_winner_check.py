"""Looking for a winner: the engine keeps every seat's points as a running tally and looks
only when a seat's points or the seats in the game changed. These properties check, at every
step of random games (with forfeits at random moments), that the tally is the armies' count
and that no game goes on once a seat has won, counted from the armies themselves."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.economancy import GAME, EconomancyRules, EconomancyState
from engine.economancy.cards import CARDS
from engine.economancy.state import POINTS_TO_WIN

games = st.tuples(
    st.integers(0, 2**32),
    st.integers(2, 4),
    st.sampled_from(["base", "simple"]),
    st.sampled_from([9, 5]),
    st.integers(1, 40),
    st.floats(0.0, 1.0),
    st.floats(0.0, 0.02),
)


def _counted(army: list[int]) -> int:
    return sum(CARDS[kind].points for kind in army)


def _won(state: EconomancyState) -> int | None:
    """The seat that has won by the rules, counted from the armies (None: nobody yet)."""
    alive = [s for s in range(state.n) if state.cards[s]]
    if len(alive) == 1:
        return alive[0]
    points = [_counted(state.cards[s]) for s in alive]
    top = max(points)
    if top >= POINTS_TO_WIN and points.count(top) == 1:
        return alive[points.index(top)]
    return None


def _step(state: EconomancyState, rng: random.Random, calm: float, forfeits: float) -> None:
    alive = [s for s in range(state.n) if state.cards[s]]
    if rng.random() < forfeits:
        state.forfeit(rng.choice(alive))
        return
    seat = rng.choice(state.to_act())
    moves = state.legal_moves(seat)
    calm_choice = state.phase == "investing" or state.asking_attacker()
    move = 0 if calm_choice and rng.random() < calm else rng.choice(moves)
    state.apply(seat, move)


@settings(max_examples=60, deadline=None)
@given(games)
def test_the_points_tally_is_every_armys_count_after_every_move_and_forfeit(
    params: tuple[int, int, str, int, int, float, float],
) -> None:
    seed, n, cards, bubble, days, calm, forfeits = params
    rng = random.Random(seed)
    state = GAME.setup(EconomancyRules(cards=cards, bubble_attack=bubble, day_limit=days), n)
    while True:
        assert state.score == [_counted(army) for army in state.cards]
        copy = state.clone()
        assert copy.score == state.score
        if state.over:
            break
        _step(state, rng, calm, forfeits)
        assert copy.score == [_counted(army) for army in copy.cards]  # the copy is apart


@settings(max_examples=60, deadline=None)
@given(games)
def test_no_game_goes_on_once_a_seat_has_won_and_the_winner_is_the_one_the_armies_show(
    params: tuple[int, int, str, int, int, float, float],
) -> None:
    seed, n, cards, bubble, days, calm, forfeits = params
    rng = random.Random(seed)
    state = GAME.setup(EconomancyRules(cards=cards, bubble_attack=bubble, day_limit=days), n)
    while not state.over:
        assert _won(state) is None
        _step(state, rng, calm, forfeits)
    if state.reason == "day_limit":
        assert state.winner is None
        assert _won(state) is None
    else:
        assert state.winner is not None
        assert state.winner == _won(state)


def test_an_army_set_by_hand_is_counted_again_when_the_state_is_refreshed() -> None:
    state = GAME.setup(EconomancyRules(), 2)
    incantation = next(k for k, card in enumerate(CARDS) if card.name == "Incantation")
    state.cards = [[0, incantation, incantation], [0]]
    state.uses = [[0, 0, 0], [0]]
    state.refresh()
    assert state.score == [6, 0]
    stored = GAME.restore(state.to_dict())
    assert stored.score == [6, 0]
