"""A match (engine/match.py): any game's table and state as the service keeps it. Random
legal games of Economancy and Figgie played through it: no seat's view holds another seat's
hidden parts, storage round-trips at every step, and a stored Blef game stays Blef's."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import errors
from engine.dealing import seed_sequence
from engine.game import Game
from engine.match import Match, agent_nickname_stem, kind_of
from engine.protocol import InvalidRules, MalformedMove, MoveRefused, TurnMode


def _seated(kind: str, n: int, seed: int) -> Match:
    match = Match.new(kind)
    match.join("ann")
    for k in range(1, n):
        match.join(f"Bot{k}_(AI)", ai_agent="random")
    match.start(by="ann", seeds=seed_sequence(seed), now=1000.0)
    return match


def _round_trips(match: Match) -> None:
    stored = json.loads(json.dumps(match.to_dict()))
    assert Match.from_dict(stored).to_dict() == match.to_dict()


def _figgie_secrets(match: Match) -> list[str]:
    """What only the settlement may show, as it would appear in JSON."""
    state: Any = match.state
    return [state.seed.hex(), '"goal_suit"', '"initial_hands"', '"settlement"']


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.integers(10, 120))
def test_an_economancy_choice_changes_no_other_viewers_view_until_it_is_revealed(
    seed: int, n: int, moves: int
) -> None:
    rng = random.Random(seed)
    match = _seated("economancy", n, seed)
    for _ in range(moves):
        turn = match.turn()
        if not turn.seats:
            break
        seat = rng.choice(sorted(turn.seats))
        state: Any = match.state
        move = rng.choice(list(state.legal_moves(seat)))
        others = [v for v in [None, *range(n)] if v != seat]
        before = {v: match.view(v) for v in others}
        events = match.apply(seat, [move])
        if turn.mode is TurnMode.SIMULTANEOUS and [e.kind for e in events] == ["chose"]:
            assert {v: match.view(v) for v in others} == before
            assert events[0].to_dict() == {"kind": "chose", "seat": seat}
        _round_trips(match)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32), st.integers(4, 5), st.integers(5, 80))
def test_a_figgie_view_holds_its_own_hand_and_no_other_until_the_settlement(
    seed: int, n: int, orders: int
) -> None:
    rng = random.Random(seed)
    match = _seated("figgie", n, seed)
    state: Any = match.state
    for k in range(orders):
        seat = rng.randrange(n)
        legal = state.legal_moves(seat)
        match.apply(seat, match.definition.move_to_json(rng.choice(legal)), now=1000.0 + k)
        for viewer in [None, *range(n)]:
            view = match.view(viewer)
            assert view is not None
            text = json.dumps(view)
            assert not any(secret in text for secret in _figgie_secrets(match))
            if viewer is None:
                assert "hand" not in view
            else:
                hand = state.market.hands[viewer]
                assert list(view["hand"].values()) == list(hand)
        _round_trips(match)
    match.advance(1000.0 + state.rules.trading_seconds)
    assert match.result() is not None
    assert match.status.value == "Finished"
    assert sum(state.market.chips) == n * state.rules.starting_chips  # chips conserved
    assert '"goal_suit"' in json.dumps(match.view(None))
    _round_trips(match)


def test_a_stored_blef_game_has_no_kind_and_reads_as_blef() -> None:
    game = Game(seed_source=seed_sequence(3))
    game.join("ann")
    game.join("bob")
    game.start()
    stored = game.to_dict()
    assert "kind" not in stored
    assert kind_of(stored) == "blef"
    assert Game.from_dict(stored).to_dict() == stored


def test_a_match_names_its_kind_and_only_its_lobby_until_the_start() -> None:
    match = Match.new("figgie", {"trading_seconds": 60})
    match.join("ann")
    stored = match.to_dict()
    assert kind_of(stored) == "figgie"
    assert stored["state"] is None and match.view(0) is None
    assert match.rules["trading_seconds"] == 60
    _round_trips(match)


def test_a_match_refuses_to_start_short_of_the_games_seats_and_changes_nothing() -> None:
    match = Match.new("figgie")
    match.join("ann")
    match.join("Bot_(AI)", ai_agent="random")
    before = match.to_dict()
    with pytest.raises(errors.TooFewPlayers, match="4 players"):
        match.start(by="ann")
    assert match.to_dict() == before


def test_only_the_admin_starts_a_match() -> None:
    match = Match.new("economancy")
    match.join("ann")
    match.join("bob")
    with pytest.raises(errors.NotAdmin):
        match.start(by="bob")


def test_a_move_before_the_start_or_after_the_end_is_refused() -> None:
    match = Match.new("economancy")
    match.join("ann")
    with pytest.raises(errors.GameNotStarted):
        match.apply(0, [0])
    figgie = _seated("figgie", 4, 1)
    figgie.advance(10_000.0)
    with pytest.raises(errors.GameFinished):
        figgie.apply(0, {"type": "bid", "suit": "spades", "price": 3})


def test_bad_rules_and_malformed_moves_are_the_games_refusals() -> None:
    with pytest.raises(InvalidRules):
        Match.new("economancy", {"bubble_attack": "lots"})
    match = _seated("economancy", 2, 1)
    with pytest.raises(MalformedMove):
        match.apply(0, {"invest": 1})
    with pytest.raises(MoveRefused):
        match.apply(0, [99])


def test_the_safest_move_of_a_late_economancy_seat_is_its_default() -> None:
    match = _seated("economancy", 3, 2)
    assert match.safest_move(1) == 0  # investing: nothing


def test_an_unknown_kind_is_not_a_match() -> None:
    with pytest.raises(KeyError, match="chess"):
        Match.new("chess")


def test_an_agents_name_becomes_an_ai_nickname_stem() -> None:
    assert agent_nickname_stem("greedy_points") == "GreedyPoints"
    assert agent_nickname_stem("ours") == "Ours"
