"""The lines sent to external programs, and how their answers are read."""

from __future__ import annotations

import doctest
import json

import pytest

from arena import protocol
from arena.protocol import GAME_OVER, YOUR_TURN, BadAnswer, RoundLog, message, parse_answer
from engine.dealing import seed_sequence
from engine.facts import CHECK
from engine.game import Game
from engine.views import view_for


def test_the_doctests_of_the_protocol_module_pass() -> None:
    assert doctest.testmod(protocol).failed == 0


def _started_game() -> Game:
    game = Game(seed_source=seed_sequence(5))
    for nick in ("ann", "ben", "cy"):
        game.join(nick)
    game.start()
    return game


def test_a_turn_message_is_the_players_own_view_with_who_and_why_and_the_rounds() -> None:
    game = _started_game()
    rounds = RoundLog()
    me = game.current_player
    assert me is not None
    game.apply(3)
    rounds.add(game.apply(CHECK) or pytest.fail("a check ends the round"))
    me = game.current_player
    assert me is not None
    sent = message(game, me, YOUR_TURN, rounds)
    assert sent.endswith("\n")
    assert sent.count("\n") == 1
    data = json.loads(sent)
    assert data.pop("event") == "your_turn"
    assert data.pop("you") == me
    finished = data.pop("rounds")
    assert data == {k: v for k, v in view_for(game, me).items() if k != "you"}
    assert [h["nickname"] for h in data["hands"]] == [me]
    assert data["legal_actions"] == list(range(88))
    assert len(finished) == 1
    assert finished[0]["history"][-1]["action_id"] == 89
    assert {h["nickname"] for h in finished[0]["hands"]} == {"ann", "ben", "cy"}


def test_the_game_over_message_shows_the_winner_and_every_hand() -> None:
    game = Game(seed_source=seed_sequence(5))
    game.join("ann")
    game.join("ben")
    game.start()
    rounds = RoundLog()
    while (record := game.apply(CHECK if game.min_bet else 0)) is None or not record.ended_game:
        if record is not None:
            rounds.add(record)
    rounds.add(record)
    data = json.loads(message(game, "ann", GAME_OVER, rounds))
    assert data["event"] == "game_over"
    assert data["status"] == "Finished"
    assert data["winner"] == game.winner
    assert "legal_actions" not in data
    assert len(data["hands"]) == 2
    assert len(data["rounds"]) == len(rounds) == game.round_number


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b'{"action_id": 0}', 0),
        (b'{"action_id": 88}\r', 88),
        (b'{"action_id": 200}', 200),  # a number: whether it is legal is the game's business
        (b'{"action_id": 5, "note": "bluffing"}', 5),
    ],
)
def test_an_answer_is_an_object_with_an_integer_action_id(line: bytes, expected: int) -> None:
    assert parse_answer(line) == expected


@pytest.mark.parametrize(
    "line",
    [
        b"",
        b"5",
        b"check",
        b'{"action": 5}',
        b'{"action_id": "5"}',
        b'{"action_id": 5.0}',
        b'{"action_id": true}',
        b'[{"action_id": 5}]',
        b'\xff{"action_id": 5}',
    ],
)
def test_anything_else_is_a_bad_answer(line: bytes) -> None:
    assert isinstance(parse_answer(line), BadAnswer)


def test_a_long_bad_answer_is_shortened_in_the_detail() -> None:
    answer = parse_answer(b"x" * 10_000)
    assert isinstance(answer, BadAnswer)
    assert len(answer.detail) < 120
