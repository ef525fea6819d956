"""Properties of whole random games: they end, nothing goes negative, hidden choices stay
hidden, legality is exact, storage and replay are faithful."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.economancy import GAME, EconomancyRules, EconomancyState
from engine.economancy.cards import CARDS, PASS
from engine.protocol import MoveRefused

_NAMES = [card.name for card in CARDS] + [PASS, "Dragon"]

games = st.tuples(
    st.integers(0, 2**32),
    st.integers(2, 4),
    st.sampled_from(["base", "simple"]),
    st.sampled_from([9, 5]),
    st.integers(1, 12),
    st.floats(0.0, 1.0),
)


def _choose(state: EconomancyState, seat: int, rng: random.Random, calm: float) -> int | str:
    moves = state.legal_moves(seat)
    calm_choice = state.phase == "investing" or state.asking_attacker()
    if calm_choice and rng.random() < calm:  # invest nothing, never attack: long games
        return 0
    return rng.choice(moves)


def _candidates(state: EconomancyState, seat: int) -> list[int | str]:
    size = len(state.cards[seat]) if 0 <= seat < state.n else 0
    return [*range(-1, max(size, state.coins[seat] if seat < state.n else 0) + 2), *_NAMES]


def _play(
    params: tuple[int, int, str, int, int, float], check: bool
) -> tuple[EconomancyState, list[tuple[int, int | str]], list[dict[str, object]]]:
    seed, n, cards, bubble, days, calm = params
    rules = EconomancyRules(cards=cards, bubble_attack=bubble, day_limit=days)
    rng = random.Random(seed)
    state = GAME.setup(rules, n)
    moves: list[tuple[int, int | str]] = []
    stored = [state.to_dict()]
    steps = 0
    while not state.over:
        steps += 1
        assert steps < 5000
        to_act = state.to_act()
        assert to_act
        assert state.turn().seats == frozenset(to_act)
        seat = rng.choice(to_act)
        move = _choose(state, seat, rng, calm)
        if check:
            _check_refusals(state, rng)
        shop = dict(state.shop)
        views = [state.view(v) for v in (*range(n), None)]
        events = state.apply(seat, move)
        moves.append((seat, move))
        if [e.kind for e in events] == ["chose"]:  # a hidden choice changes no one's view
            assert views == [state.view(v) for v in (*range(n), None)]
        assert all(state.shop[k] <= shop[k] for k in shop)
        assert all(c >= 0 for c in state.coins)
        state.validate()
        stored.append(state.to_dict())
        if check:
            assert GAME.restore(stored[-1]).to_dict() == stored[-1]
    return state, moves, stored


def _check_refusals(state: EconomancyState, rng: random.Random) -> None:
    seat = rng.randrange(-1, state.n + 1)
    legal = state.legal_moves(seat) if 0 <= seat < state.n else []
    before = state.to_dict()
    for move in _candidates(state, seat):
        if move in legal:
            continue
        with pytest.raises(MoveRefused) as refused:
            state.apply(seat, move)
        assert refused.value.code
        assert refused.value.message
        assert state.to_dict() == before
    if legal:  # every legal move is accepted
        for move in legal:
            trial = GAME.restore(before)
            trial.apply(seat, move)


@settings(max_examples=40, deadline=None)
@given(games)
def test_every_random_game_ends_by_the_day_limit_with_legality_exact_and_storage_faithful(
    params: tuple[int, int, str, int, int, float],
) -> None:
    state, _, _ = _play(params, check=True)
    assert state.day_count <= params[4]
    result = state.result()
    assert result is not None
    assert len(result.places) == params[1]
    assert (state.winner is None) == (result.reason == "day_limit")
    if state.winner is not None:
        assert result.winners == (state.winner,)


@settings(max_examples=25, deadline=None)
@given(games)
def test_replaying_the_moves_gives_the_same_states(
    params: tuple[int, int, str, int, int, float],
) -> None:
    state, moves, stored = _play(params, check=False)
    rules = EconomancyRules(cards=params[2], bubble_attack=params[3], day_limit=params[4])
    again = GAME.setup(rules, params[1])
    assert again.to_dict() == stored[0]
    for (seat, move), expected in zip(moves, stored[1:], strict=True):
        again.apply(seat, move)
        assert again.to_dict() == expected
    assert again.result() == state.result()


@settings(max_examples=25, deadline=None)
@given(games, st.integers(0, 3))
def test_a_seat_rebuilt_from_its_own_view_sees_the_same_view(
    params: tuple[int, int, str, int, int, float], who: int
) -> None:
    seed, n, cards, bubble, days, calm = params
    rng = random.Random(seed)
    rules = EconomancyRules(cards=cards, bubble_attack=bubble, day_limit=days)
    state = GAME.setup(rules, n)
    while not state.over:
        seat = rng.choice(state.to_act())
        if not state.pending:
            view = state.view(who % n)
            assert EconomancyState.from_view(view, rules).view(who % n) == view
        state.apply(seat, _choose(state, seat, rng, calm))


@settings(max_examples=20, deadline=None)
@given(games, st.integers(0, 3), st.integers(0, 400))
def test_a_forfeit_at_any_moment_leaves_a_valid_game_that_still_ends(
    params: tuple[int, int, str, int, int, float], who: int, when: int
) -> None:
    seed, n, cards, bubble, days, calm = params
    rng = random.Random(seed)
    state = GAME.setup(EconomancyRules(cards=cards, bubble_attack=bubble, day_limit=days), n)
    steps = 0
    while not state.over:
        if steps == when and state.cards[who % n]:
            state.forfeit(who % n)
            state.validate()
            assert not state.cards[who % n]
            continue
        seat = rng.choice(state.to_act())
        state.apply(seat, _choose(state, seat, rng, calm))
        steps += 1
    result = state.result()
    assert result is not None


@settings(max_examples=25, deadline=None)
@given(games)
def test_the_state_as_text_is_the_views_compact_json_at_every_step(
    params: tuple[int, int, str, int, int, float],
) -> None:
    seed, n, cards, bubble, days, calm = params
    rng = random.Random(seed)
    state = GAME.setup(EconomancyRules(cards=cards, bubble_attack=bubble, day_limit=days), n)
    while True:
        for viewer in (*range(n), None):
            expected = json.dumps(state.view(viewer), separators=(",", ":"), ensure_ascii=False)
            assert state.view_text(viewer) == expected
        if state.over:
            break
        seat = rng.choice(state.to_act())
        state.apply(seat, _choose(state, seat, rng, calm))
