"""The lobby and table rules of the engine: leaving, removing, readiness and auto start, the
chosen maximum of cards, resigning and renaming; with a property test that any sequence of
them keeps the game valid (it survives a round trip through its stored form)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import errors
from engine.dealing import seed_sequence
from engine.facts import CHECK, MIN_PLAYERS, max_cards
from engine.game import Game, Status
from engine.rules import Rules


def table(*names: str, ais: int = 0) -> Game:
    game = Game(seed_source=seed_sequence(3))
    for name in names:
        game.join(name)
    for _ in range(ais):
        game.join(game.ai_nickname("Bot"), ai_agent="random")
    return game


def test_the_admin_leaving_hands_over_to_the_earliest_human_never_to_an_ai() -> None:
    game = Game()
    game.join("ann")
    game.join("Bot_(AI)", ai_agent="random")
    game.join("ben")
    game.leave("ann")
    assert (game.admin, game.nicknames) == ("ben", ["Bot_(AI)", "ben"])


def test_the_last_human_leaving_empties_the_game_and_makes_it_private() -> None:
    game = table("ann", ais=2)
    game.set_public(True)
    game.leave("ann")
    assert (game.nicknames, game.admin, game.public) == ([], None, False)


def test_leaving_or_removing_after_the_start_is_refused_and_changes_nothing() -> None:
    game = table("ann", "ben")
    game.start()
    before = game.to_dict()
    with pytest.raises(errors.GameAlreadyStarted):
        game.leave("ann")
    with pytest.raises(errors.GameAlreadyStarted):
        game.remove("ben", by="ann")
    assert game.to_dict() == before


def test_the_admin_cannot_remove_themselves_and_nobody_else_can_remove() -> None:
    game = table("ann", "ben", "cat")
    with pytest.raises(errors.CannotRemoveSelf):
        game.remove("ann", by="ann")
    with pytest.raises(errors.NotAdmin):
        game.remove("cat", by="ben")
    with pytest.raises(errors.UnknownPlayer):
        game.remove("zed", by="ann")
    game.remove("cat", by="ann")
    assert game.nicknames == ["ann", "ben"]


def test_an_ai_cannot_be_marked_ready_it_never_holds_a_game_back() -> None:
    game = table("ann", ais=1)
    with pytest.raises(errors.UnknownPlayer):
        game.set_ready("Bot_(AI)", True)
    game.table.auto_start = True
    assert game.set_ready("ann", True)
    assert game.status is Status.RUNNING


def test_inviting_ais_never_starts_an_auto_start_game_where_every_human_is_ready() -> None:
    game = table("ann")
    game.set_auto_start(True, by="ann")
    game.set_ready("ann", True)
    game.join("Bot_(AI)", ai_agent="random")
    game.join("Bot_2_(AI)", ai_agent="random")
    assert game.status is Status.NOT_STARTED  # the admin who invites two AIs gets both
    game.start(by="ann")
    assert game.n_players == 3


def test_after_ais_joined_a_ready_table_a_readiness_change_starts_an_auto_start_game() -> None:
    game = table("ann", "ben")
    game.set_auto_start(True, by="ann")
    game.set_ready("ann", True)
    game.join("Bot_(AI)", ai_agent="random")
    game.set_ready("ben", True)
    assert game.status is Status.RUNNING


@pytest.mark.parametrize("n", range(MIN_PLAYERS, 9))
def test_the_chosen_maximum_is_capped_by_the_rule_for_the_players_at_the_start(n: int) -> None:
    game = table("ann", "ben")
    game.set_max_cards(max_cards(2), by="ann")
    for i in range(n - 2):
        game.join(f"p{i}")
    game.start()
    assert game.max_cards == max_cards(n)


def test_a_maximum_of_one_ends_a_two_player_game_at_the_first_check() -> None:
    game = table("ann", "ben")
    game.set_max_cards(1, by="ann")
    game.start()
    game.apply(0)
    record = game.apply(CHECK)
    assert record.ended_game and game.status is Status.FINISHED
    assert Game.from_dict(game.to_dict()).winner == game.winner


@pytest.mark.parametrize("bad", [0, -1, 12, True, 2.0, "3", None])
def test_a_maximum_out_of_range_or_not_an_integer_is_refused(bad: object) -> None:
    game = table("ann", "ben")
    with pytest.raises(errors.InvalidMaxCards):
        game.set_max_cards(bad, by="ann")  # type: ignore[arg-type]
    assert game.chosen_max_cards is None


def test_resigning_twice_is_refused_and_the_first_ends_the_round() -> None:
    game = table("ann", "ben", "cat")
    game.start()
    out = game.nicknames[1]
    record = game.resign(out)
    assert record.history[-1].player == out and record.forfeited
    with pytest.raises(errors.AlreadyOut):
        game.resign(out)


def test_a_renamed_player_keeps_their_seat_cards_and_moves() -> None:
    game = table("ann", "ben")
    game.start()
    first = game.current_player
    assert first is not None
    game.apply(0, by=first)
    game.rename(first, "Player_9")
    assert game.history[0].player == "Player_9"
    assert game.hand("Player_9")
    with pytest.raises(errors.InvalidNickname):
        game.rename("Player_9", game.nicknames[1 - game.seat_of("Player_9")].upper())


def test_a_player_renamed_in_the_lobby_keeps_the_first_hand_the_rules_gave_their_name() -> None:
    game = Game(seed_source=seed_sequence(3), rules=Rules(initial_cards=(("ANN", 3),)))
    for name in ("ann", "ben"):
        game.join(name)
    game.rename("ann", "Player_1")
    assert game.rules.initial_cards == (("Player_1", 3),)
    game.start()
    assert len(game.hand("Player_1")) == 3
    assert len(game.hand("ben")) == 1


def test_a_game_stored_before_these_rules_existed_still_loads() -> None:
    stored = table("ann", "ben").to_dict()
    for key in ("ready", "auto_start", "chosen_max_cards"):
        del stored[key]
    game = Game.from_dict(stored)
    assert (game.ready, game.auto_start, game.chosen_max_cards) == ([], False, None)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("ready", ["zed"], "only seated humans can be ready"),
        ("ready", ["ben", "ann"], "in seat order"),
        ("ready", "ann", "ready must be a list"),
        ("auto_start", 1, "auto_start must be true or false"),
        ("chosen_max_cards", 0, "bad chosen_max_cards"),
        ("chosen_max_cards", 12, "bad chosen_max_cards"),
    ],
)
def test_impossible_lobby_choices_are_refused_on_loading(
    field: str, value: object, message: str
) -> None:
    stored = table("ann", "ben").to_dict()
    stored[field] = value
    with pytest.raises(errors.InvalidState, match=message):
        Game.from_dict(stored)


NAMES = ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy"]
operations = st.lists(
    st.one_of(
        st.tuples(st.just("join"), st.sampled_from(NAMES)),
        st.tuples(st.just("ai"), st.just("")),
        st.tuples(st.just("leave"), st.sampled_from(NAMES)),
        st.tuples(st.just("remove"), st.sampled_from(NAMES)),
        st.tuples(st.just("ready"), st.sampled_from(NAMES)),
        st.tuples(st.just("unready"), st.sampled_from(NAMES)),
        st.tuples(st.just("auto"), st.booleans().map(str)),
        st.tuples(st.just("max"), st.integers(-1, 12).map(str)),
        st.tuples(st.just("start"), st.just("")),
    ),
    max_size=40,
)


def _apply(game: Game, op: str, arg: str) -> None:
    admin = game.admin
    ai = next((n for n, a in zip(game.nicknames, game.ai_agents, strict=True) if a), None)
    actions = {
        "join": lambda: game.join(arg),
        "ai": lambda: game.join(game.ai_nickname("Bot"), ai_agent="random"),
        "leave": lambda: game.leave(arg),
        "remove": lambda: game.remove(ai if ai and arg in ("ann", "ben") else arg, by=admin),
        "ready": lambda: game.set_ready(arg, True),
        "unready": lambda: game.set_ready(arg, False),
        "auto": lambda: game.set_auto_start(arg == "True", by=admin),
        "max": lambda: game.set_max_cards(int(arg), by=admin),
        "start": lambda: game.start(by=admin),
    }
    actions[op]()


@settings(max_examples=300, deadline=None)
@given(operations)
def test_any_sequence_of_lobby_requests_keeps_the_game_valid(ops: list[tuple[str, str]]) -> None:
    game = Game(seed_source=seed_sequence(5))
    joined_last = False  # whether a join came since the last change that may start the game
    for op, arg in ops:
        before = game.to_dict()
        try:
            _apply(game, op, arg)
        except errors.BlefError:
            assert game.to_dict() == before  # a refusal changes nothing
        stored = game.to_dict()
        if op in ("join", "ai"):
            assert stored["status"] == before["status"]  # joining never starts the game
        if stored != before and op != "max":  # the maximum of cards never starts a game
            joined_last = op in ("join", "ai")
        assert Game.from_dict(stored).to_dict() == stored  # always a valid, loadable state
        humans = [n for n, a in zip(game.nicknames, game.ai_agents, strict=True) if a is None]
        if game.status is Status.NOT_STARTED:
            assert game.admin == (humans[0] if humans else None)  # the earliest human
            assert set(game.ready) <= set(humans)
            # It would have started, unless only joins came since every human was ready.
            assert joined_last or not (game.auto_start and game.everyone_ready)
            if not humans:
                assert game.nicknames == []
        else:
            chosen = game.chosen_max_cards or max_cards(game.n_players)
            assert game.max_cards == min(chosen, max_cards(game.n_players))
            assert game.ready == []


def test_an_ai_cannot_be_the_first_at_a_table() -> None:
    game = Game()
    with pytest.raises(errors.NotAdmin):
        game.join("Bot_(AI)", ai_agent="random")
    assert game.nicknames == []
