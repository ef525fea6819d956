"""Rounds: betting, checking, losing, elimination, who starts next, and the finish.

Exact situations are built with :func:`tests.engine.builders.running` (a crafted state loaded
through ``Game.from_dict``); which bets exist is decided by the plain reference rules.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import errors
from engine.dealing import commitment, deal_hands, seed_sequence
from engine.facts import CHECK, LOST_ROUND
from engine.game import Game, Move, RoundRecord, Status
from engine.views import view_for
from tests.engine.builders import (
    NAMES,
    bet_that_does_not_exist,
    bet_that_exists,
    lobby,
    no_more_seeds,
    running,
    snapshot,
    started,
)

ALICE, BOB, CAROL, DAVE, ERIN = NAMES[:5]


def counts(game: Game) -> list[int]:
    return [row.n_cards for row in game.players]


# ---------------------------------------------------------------- betting


def test_the_first_action_of_a_round_cannot_be_a_check() -> None:
    game = started(2)
    assert game.legal_actions() == list(range(88))
    assert not game.is_legal(CHECK)
    before = snapshot(game)
    with pytest.raises(errors.IllegalAction, match="not allowed right now"):
        game.apply(CHECK)
    assert snapshot(game) == before


def test_any_bet_may_open_a_round() -> None:
    for bet in (0, 41, 87):
        game = started(3)
        assert game.apply(bet) is None
        assert game.last_bet == bet


def test_bets_must_strictly_rise() -> None:
    game = started(3)
    game.apply(10)
    assert game.legal_actions() == [*range(11, 88), CHECK]
    before = snapshot(game)
    for lower_or_equal in (0, 9, 10):
        assert not game.is_legal(lower_or_equal)
        with pytest.raises(errors.IllegalAction):
            game.apply(lower_or_equal)
    assert snapshot(game) == before
    game.apply(11)
    assert game.last_bet == 11
    assert game.min_bet == 12


def test_after_the_most_senior_bet_only_a_check_is_legal() -> None:
    game = started(2)
    game.apply(87)
    assert game.legal_actions() == [CHECK]
    assert game.min_bet == CHECK
    with pytest.raises(errors.IllegalAction):
        game.apply(87)
    assert isinstance(game.apply(CHECK), RoundRecord)


def test_play_passes_to_the_next_player_in_seating_order() -> None:
    game = started(4)
    seats = [game.current_seat]
    for bet in range(5):
        game.apply(bet)
        seats.append(game.current_seat)
    assert seats == [0, 1, 2, 3, 0, 1]


def test_play_skips_eliminated_players() -> None:
    game = running([1, 0, 2, 1], current=0)
    seats = [game.current_seat]
    for bet in range(4):
        game.apply(bet)
        seats.append(game.current_seat)
    assert seats == [0, 2, 3, 0, 2]


def test_the_current_player_may_be_named_when_moving() -> None:
    game = started(2)
    first, second = game.nicknames
    assert game.apply(3, by=first) is None
    assert game.current_player == second
    assert game.history == (Move(first, 3),)


# ---------------------------------------------------------------- the check


def test_the_checker_loses_when_the_set_exists() -> None:
    game = running([2, 1, 1], current=0)
    bet = bet_that_exists(game)
    game.apply(bet, by=ALICE)
    record = game.apply(CHECK, by=BOB)
    assert record is not None
    assert record.loser == BOB
    assert record.checked_bet == bet
    assert [m.action_id for m in record.history] == [bet, CHECK, LOST_ROUND]
    assert [m.player for m in record.history] == [ALICE, BOB, BOB]


def test_the_bettor_loses_when_the_set_does_not_exist() -> None:
    game = running([2, 1, 1], current=0)
    bet = bet_that_does_not_exist(game)
    game.apply(bet, by=ALICE)
    record = game.apply(CHECK, by=BOB)
    assert record is not None
    assert record.loser == ALICE
    assert [m.player for m in record.history] == [ALICE, BOB, ALICE]


def test_the_set_is_looked_for_among_all_hands_pooled() -> None:
    # find a deal of one card each where both cards share a value: a pair only when pooled
    seed = next(
        bytes([i]) * 32
        for i in range(256)
        if len({card // 4 for hand in deal_hands(bytes([i]) * 32, [1, 1])[0] for card in hand}) == 1
    )
    game = running([1, 1], seed=seed)
    value = game.hand(ALICE)[0].value
    assert game.hand(BOB)[0].value == value
    game.apply(6 + value)  # a pair of that value: neither hand holds it alone
    record = game.apply(CHECK)
    assert record is not None
    assert record.loser == BOB  # the checker


def test_the_loser_holds_one_more_card_and_starts_the_next_round() -> None:
    game = running([2, 1, 1], current=0, seed_source=seed_sequence(1))
    next_seed = seed_sequence(1)()
    game.apply(bet_that_does_not_exist(game))  # alice bets
    game.apply(87)  # bob bets a great straight flush: impossible among four cards
    record = game.apply(CHECK)  # carol checks bob
    assert record is not None
    assert record.loser == BOB
    assert counts(game) == [2, 2, 1]
    assert game.current_player == BOB
    assert game.round_number == 4
    assert game.history == ()
    assert game.last_bet is None
    assert game.commitment == commitment(next_seed)
    hands, _ = deal_hands(next_seed, [2, 2, 1])
    assert [tuple(c.index for c in game.hand(n)) for n in (ALICE, BOB, CAROL)] == hands


def test_a_checker_who_loses_starts_the_next_round() -> None:
    game = running([1, 2, 1], current=0)
    game.apply(bet_that_exists(game))
    record = game.apply(CHECK)
    assert record is not None
    assert record.loser == BOB
    assert game.current_player == BOB
    assert counts(game) == [1, 3, 1]


def test_the_round_record_tells_how_the_round_was_dealt_and_ended() -> None:
    game = running([2, 1, 1], current=1)
    shown_commitment = game.commitment
    hands = {n: game.hand(n) for n in (ALICE, BOB, CAROL)}
    game.apply(5)
    record = game.apply(CHECK)
    assert record is not None
    assert record.number == 3
    assert record.n_cards == (2, 1, 1)
    assert record.hands == hands
    assert record.commitment == shown_commitment
    assert commitment(record.seed) == shown_commitment
    assert not record.ended_game
    public = record.to_dict()
    assert public["seed"] == record.seed.hex()
    assert public["loser"] == record.loser
    assert {h["nickname"] for h in public["hands"]} == {ALICE, BOB, CAROL}


# ---------------------------------------------------------------- elimination


def test_a_loser_above_the_maximum_is_eliminated_and_keeps_a_row_with_no_cards() -> None:
    game = running([1, 6, 0, 2], current=1)  # four players: at most 6 cards
    game.apply(bet_that_does_not_exist(game), by=BOB)
    record = game.apply(CHECK, by=DAVE)  # carol is out: dave is next after bob
    assert record is not None
    assert record.loser == BOB
    assert counts(game) == [1, 0, 0, 2]
    assert game.nicknames == list(NAMES[:4])
    assert game.hand(BOB) == ()
    assert game.status is Status.RUNNING


def test_after_an_eliminated_bettor_the_round_starts_with_the_next_player_around_the_table() -> (
    None
):
    game = running([1, 1, 8], current=2)  # three players: at most 8 cards
    game.apply(bet_that_does_not_exist(game), by=CAROL)
    record = game.apply(CHECK, by=ALICE)
    assert record is not None
    assert record.loser == CAROL
    assert counts(game) == [1, 1, 0]
    assert game.current_player == ALICE


def test_after_an_eliminated_checker_the_round_starts_with_the_next_player_still_in() -> None:
    game = running([1, 4, 0, 1, 1], current=0)  # five players: at most 4 cards
    game.apply(bet_that_exists(game), by=ALICE)
    record = game.apply(CHECK, by=BOB)
    assert record is not None
    assert record.loser == BOB
    assert counts(game) == [1, 0, 0, 1, 1]
    assert game.current_player == DAVE  # carol was already out
    game.apply(0, by=DAVE)
    assert game.current_player == ERIN
    game.apply(1, by=ERIN)
    assert game.current_player == ALICE


def test_eliminated_players_are_dealt_nothing() -> None:
    game = running([1, 4, 0, 1, 1], current=0, seed_source=seed_sequence(2))
    game.apply(bet_that_exists(game))
    game.apply(CHECK)
    assert [len(game.hand(n)) for n in NAMES[:5]] == [1, 0, 0, 1, 1]
    assert sum(len(game.hand(n)) for n in NAMES[:5]) == 3


# ---------------------------------------------------------------- the finish


def finished_game() -> tuple[Game, RoundRecord]:
    """Two players, alice at the maximum of 11 loses her bet: bob wins. No new deal."""
    game = running([11, 1], current=0, seed_source=no_more_seeds)
    game.apply(bet_that_does_not_exist(game), by=ALICE)
    record = game.apply(CHECK, by=BOB)
    assert record is not None
    return game, record


def test_the_game_finishes_with_exactly_one_winner() -> None:
    game, record = finished_game()
    assert game.status is Status.FINISHED
    assert game.winner == BOB
    assert record.ended_game
    assert record.loser == ALICE
    assert counts(game) == [0, 1]
    assert sum(1 for c in counts(game) if c) == 1


def test_the_last_player_standing_wins_even_after_earlier_eliminations() -> None:
    game = running([0, 8, 1], current=1, seed_source=no_more_seeds)
    game.apply(bet_that_does_not_exist(game), by=BOB)
    game.apply(CHECK, by=CAROL)
    assert game.status is Status.FINISHED
    assert game.winner == CAROL


def test_a_finished_game_keeps_its_final_round() -> None:
    before_check = running([11, 1], current=0)
    final_hands = {n: before_check.hand(n) for n in (ALICE, BOB)}
    final_commitment = before_check.commitment
    game, record = finished_game()
    assert game.round_number == 3
    assert [m.action_id for m in game.history][-2:] == [CHECK, LOST_ROUND]
    assert game.history == record.history
    assert {n: game.hand(n) for n in (ALICE, BOB)} == final_hands
    assert game.commitment == final_commitment
    assert game.revealed_seed == record.seed
    assert game.current_player is None
    view = view_for(game, None)
    assert {h["nickname"]: len(h["hand"]) for h in view["hands"]} == {ALICE: 11, BOB: 1}
    assert view["seed"] == record.seed.hex()
    assert view["winner"] == BOB


def test_nothing_is_legal_after_the_finish() -> None:
    game, _ = finished_game()
    before = snapshot(game)
    assert game.legal_actions() == []
    assert not any(game.is_legal(a) for a in range(89))
    for action in (0, 87, CHECK):
        with pytest.raises(errors.GameFinished):
            game.apply(action)
        with pytest.raises(errors.GameFinished):
            game.apply(action, by=BOB)
    with pytest.raises(errors.GameAlreadyStarted):
        game.join("zed")
    with pytest.raises(errors.GameAlreadyStarted):
        game.start(by=ALICE)
    with pytest.raises(errors.GameAlreadyStarted):
        game.set_public(True, by=ALICE)
    with pytest.raises(errors.GameFinished):
        game.forfeit(BOB)
    assert snapshot(game) == before
    assert game.status is Status.FINISHED


# ---------------------------------------------------------------- forfeits


def test_a_forfeit_ends_the_round_with_the_lost_round_event_and_no_check() -> None:
    game = running([2, 1, 1], current=0)
    game.apply(3, by=ALICE)
    record = game.forfeit(CAROL)
    assert record.forfeited
    assert record.checked_bet is None
    assert record.loser == CAROL
    assert [(m.player, m.action_id) for m in record.history] == [(ALICE, 3), (CAROL, LOST_ROUND)]
    assert counts(game) == [2, 1, 0]
    assert game.current_player == BOB  # it was bob's turn
    assert game.round_number == 4
    assert game.history == ()


def test_a_forfeit_by_the_player_to_move_passes_the_start_to_the_next_player_still_in() -> None:
    game = running([1, 2, 0, 1], current=1)
    game.forfeit(BOB)
    assert counts(game) == [1, 0, 0, 1]
    assert game.current_player == DAVE


def test_a_forfeit_that_leaves_one_player_finishes_the_game_without_a_new_deal() -> None:
    game = running([3, 2], current=0, seed_source=no_more_seeds)
    hands = {n: game.hand(n) for n in (ALICE, BOB)}
    record = game.forfeit(ALICE)
    assert record.ended_game
    assert game.status is Status.FINISHED
    assert game.winner == BOB
    assert game.history == (Move(ALICE, LOST_ROUND),)
    assert {n: game.hand(n) for n in (ALICE, BOB)} == hands
    assert game.legal_actions() == []


def test_a_forfeit_is_refused_before_the_start_and_for_anyone_not_playing() -> None:
    with pytest.raises(errors.GameNotStarted):
        lobby(2).forfeit(ALICE)
    game = running([1, 0, 1])
    before = snapshot(game)
    with pytest.raises(errors.UnknownPlayer):
        game.forfeit(BOB)  # already out
    with pytest.raises(errors.UnknownPlayer):
        game.forfeit("stranger")
    assert snapshot(game) == before


# ---------------------------------------------------------------- refused moves


def test_a_move_before_the_start_is_refused() -> None:
    game = lobby(2)
    with pytest.raises(errors.GameNotStarted):
        game.apply(0)
    assert game.legal_actions() == []
    assert not game.is_legal(0)


def test_a_move_out_of_turn_is_refused_and_changes_nothing() -> None:
    game = started(3)
    not_current = game.nicknames[1]
    before = snapshot(game)
    with pytest.raises(errors.NotYourTurn):
        game.apply(0, by=not_current)
    assert snapshot(game) == before


def test_a_move_by_someone_not_in_the_game_is_refused() -> None:
    game = started(2)
    before = snapshot(game)
    with pytest.raises(errors.UnknownPlayer):
        game.apply(0, by="stranger")
    assert snapshot(game) == before


def test_an_eliminated_player_never_has_the_turn() -> None:
    game = running([1, 0, 1], current=0)
    with pytest.raises(errors.NotYourTurn):
        game.apply(0, by=BOB)


@pytest.mark.parametrize("action", [-1, 89, 90, 1000, True, False, 1.0, "3", None])
def test_something_that_is_not_an_action_id_is_refused(action: Any) -> None:
    game = started(2)
    game.apply(2)
    before = snapshot(game)
    with pytest.raises(errors.InvalidAction, match="between 0 and 88"):
        game.apply(action)
    assert snapshot(game) == before


@pytest.mark.parametrize("action", [True, 1.0, "3", None, -1, 89])
def test_is_legal_says_no_to_anything_apply_refuses(action: Any) -> None:
    game = started(2)
    assert not game.is_legal(action)


def test_the_errors_carry_a_stable_code_and_the_established_message() -> None:
    cases = {
        errors.GameNotStarted: "game_not_started",
        errors.GameAlreadyStarted: "game_already_started",
        errors.GameFinished: "game_finished",
        errors.NotYourTurn: "not_your_turn",
        errors.InvalidAction: "invalid_action",
        errors.IllegalAction: "illegal_action",
        errors.RoomFull: "room_full",
        errors.InvalidNickname: "invalid_nickname",
        errors.NicknameTaken: "nickname_taken",
        errors.NotAdmin: "not_admin",
        errors.TooFewPlayers: "too_few_players",
        errors.UnknownPlayer: "unknown_player",
        errors.UnknownAgent: "unknown_agent",
        errors.RoundNotReached: "round_not_reached",
        errors.InvalidState: "invalid_state",
    }
    for cls, code in cases.items():
        error = cls()
        assert isinstance(error, errors.BlefError)
        assert error.code == code
        assert str(error) == error.message == cls.default_message
    assert str(errors.IllegalAction("why")) == "why"
    assert errors.RoomFull.default_message == "Game room full"
    assert errors.TooFewPlayers.default_message == "At least 2 players needed to start a game"
    assert errors.NotAdmin.default_message == "Admin UUID does not match"


def test_an_unknown_agent_name_is_refused() -> None:
    from engine.agents import resolve_agent_name

    assert resolve_agent_name("random") == "random"
    with pytest.raises(errors.UnknownAgent, match="no_such_bot"):
        resolve_agent_name("no_such_bot")


def test_a_stranger_has_no_seat_and_no_hand() -> None:
    game = started(2)
    with pytest.raises(errors.UnknownPlayer):
        game.seat_of("stranger")
    with pytest.raises(errors.UnknownPlayer):
        game.hand("stranger")
    assert not game.is_player("stranger")
