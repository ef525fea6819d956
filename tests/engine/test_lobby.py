"""The lobby: joining, nicknames, the admin, public or private, and the start."""

from __future__ import annotations

from typing import Any

import pytest

from engine import errors
from engine.dealing import seating_order, seed_sequence
from engine.facts import max_cards
from engine.game import Game, Status
from engine.views import view_for
from tests.engine.builders import NAMES, lobby, snapshot, started


@pytest.mark.parametrize(
    "nickname",
    [
        "a",
        "Z",
        "alice",
        "Bob_2",
        "a1_b2_c3",
        "A" + "b" * 63,
        "JAN_kowalski",
        "Łukasz",
        "Zoé",
        "Ёжик_7",
        "李小龍",
    ],
)
def test_a_nickname_starting_with_a_letter_then_letters_digits_or_single_underscores_is_accepted(
    nickname: str,
) -> None:
    game = Game()
    assert game.join(nickname) == 0
    assert game.nicknames == [nickname]


@pytest.mark.parametrize(
    "nickname",
    [
        "",
        "1abc",
        "_abc",
        "a-b",
        "a b",
        "a.b",
        "alice\n",
        " alice",
        "A" + "b" * 64,  # 65 characters
        "Dazhbog_(AI)",  # the AI form is not for people
        "x_",  # no trailing underscore
        "a__b",  # no doubled underscore
        "Zoe\u0301",  # a combining mark: the service composes it (NFC) before the engine
        "a\u200db",  # a zero-width joiner
    ],
)
def test_a_malformed_nickname_is_refused(nickname: str) -> None:
    game = Game()
    with pytest.raises(errors.InvalidNickname):
        game.join(nickname)
    assert game.nicknames == []


@pytest.mark.parametrize("nickname", [None, 5, b"alice", ["alice"]])
def test_a_nickname_that_is_not_a_string_is_refused(nickname: Any) -> None:
    with pytest.raises(errors.InvalidNickname):
        Game().join(nickname)


@pytest.mark.parametrize("other", ["alice", "Alice", "ALICE", "aLiCe"])
def test_nicknames_are_unique_ignoring_case(other: str) -> None:
    game = Game()
    game.join("alice")
    with pytest.raises(errors.NicknameTaken, match="Nickname already taken"):
        game.join(other)
    assert game.nicknames == ["alice"]


def test_the_first_player_to_join_is_the_admin() -> None:
    assert Game().admin is None
    game = Game()
    game.join("bob")
    game.join("alice")
    assert game.admin == "bob"
    assert [row.nickname for row in game.players] == ["bob", "alice"]
    assert all(row.n_cards == 0 for row in game.players)


def test_an_ai_player_is_called_by_its_agent_name_then_numbered() -> None:
    game = lobby(1)
    first = game.ai_nickname("Dazhbog")
    assert first == "Dazhbog_(AI)"
    game.join(first, ai_agent="random")
    second = game.ai_nickname("Dazhbog")
    assert second == "Dazhbog_2_(AI)"
    game.join(second, ai_agent="random")
    assert game.ai_nickname("Dazhbog") == "Dazhbog_3_(AI)"
    assert game.ai_nickname("Swarog") == "Swarog_(AI)"
    assert [row.ai_agent for row in game.players] == [None, "random", "random"]


def test_an_ai_nickname_must_have_the_ai_form() -> None:
    game = lobby(1)
    with pytest.raises(errors.InvalidNickname):
        game.join("Dazhbog", ai_agent="random")
    with pytest.raises(errors.InvalidNickname):
        game.join("Dazhbog_9_(AI)", ai_agent="random")  # no game has nine AI players


def test_the_room_is_full_at_eight_players() -> None:
    game = lobby(8)
    before = snapshot(game)
    with pytest.raises(errors.RoomFull, match="Game room full"):
        game.join("ivan")
    with pytest.raises(errors.RoomFull):
        game.join(game.ai_nickname("Dazhbog"), ai_agent="random")
    assert snapshot(game) == before
    assert game.n_players == 8


def test_nobody_joins_after_the_start() -> None:
    game = started(2)
    before = snapshot(game)
    with pytest.raises(errors.GameAlreadyStarted, match="Game already started"):
        game.join("zed")
    assert snapshot(game) == before


def test_only_the_admin_starts_the_game() -> None:
    game = lobby(3)
    before = snapshot(game)
    with pytest.raises(errors.NotAdmin):
        game.start(by="bob")
    with pytest.raises(errors.NotAdmin):
        game.start(by="stranger")
    assert snapshot(game) == before
    game.start(by="alice")
    assert game.status is Status.RUNNING


def test_a_start_without_naming_who_asks_skips_the_admin_check() -> None:
    game = lobby(2)
    game.start()
    assert game.status is Status.RUNNING


@pytest.mark.parametrize("n", [0, 1])
def test_a_game_needs_at_least_two_players_to_start(n: int) -> None:
    game = lobby(n)
    with pytest.raises(errors.TooFewPlayers, match="At least 2 players"):
        game.start()
    assert game.status is Status.NOT_STARTED
    assert game.round_number == 0


def test_a_game_cannot_start_twice() -> None:
    game = started(2)
    before = snapshot(game)
    with pytest.raises(errors.GameAlreadyStarted):
        game.start(by="alice")
    assert snapshot(game) == before


def test_the_admin_makes_the_game_public_or_private_in_the_lobby() -> None:
    game = lobby(2)
    assert game.public is False
    assert game.set_public(True, by="alice") is True
    assert view_for(game, None)["public"] is True
    assert game.set_public(True, by="alice") is False  # redundant
    assert game.set_public(False, by="alice") is True
    assert view_for(game, None)["public"] is False
    assert game.set_public(False) is False


def test_only_the_admin_makes_the_game_public() -> None:
    game = lobby(2)
    with pytest.raises(errors.NotAdmin):
        game.set_public(True, by="bob")
    assert game.public is False


def test_the_game_cannot_be_made_public_or_private_once_started() -> None:
    game = started(2)
    before = snapshot(game)
    for public in (True, False):
        with pytest.raises(errors.GameAlreadyStarted, match="Cannot make the change"):
            game.set_public(public, by="alice")
    assert snapshot(game) == before


def test_the_start_makes_the_game_private() -> None:
    game = lobby(3)
    game.set_public(True, by="alice")
    game.start(by="alice")
    assert game.public is False


@pytest.mark.parametrize("n", range(2, 9))
def test_the_start_seats_every_joiner_once_each_holding_one_card(n: int) -> None:
    game = started(n, seed=n)
    assert sorted(game.nicknames) == sorted(NAMES[:n])
    assert game.status is Status.RUNNING
    assert game.round_number == 1
    assert game.max_cards == max_cards(n)
    assert [row.n_cards for row in game.players] == [1] * n
    assert all(len(game.hand(name)) == 1 for name in game.nicknames)
    assert game.current_seat == 0
    assert game.admin == "alice"


def test_the_seating_is_shuffled_by_the_first_rounds_seed() -> None:
    first_seed = seed_sequence(11)()
    game = lobby(5, seed=11)
    game.start()
    order = seating_order(first_seed, 5)
    assert game.nicknames == [NAMES[i] for i in order]
    assert game.commitment is not None


def test_the_admin_need_not_sit_first() -> None:
    first_seats = {started(4, seed=s).nicknames[0] for s in range(40)}
    assert "alice" in first_seats
    assert len(first_seats) == 4


def test_ai_players_keep_their_agent_through_the_shuffle() -> None:
    game = lobby(2, seed=5)
    game.join(game.ai_nickname("Dazhbog"), ai_agent="random")
    game.start()
    agents = {row.nickname: row.ai_agent for row in game.players}
    assert agents == {"alice": None, "bob": None, "Dazhbog_(AI)": "random"}
