"""Serialisation: a game survives JSON, and an impossible state is refused with a reason."""

from __future__ import annotations

import copy
import faulthandler
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.dealing import deal_hands, seed_sequence
from engine.errors import InvalidState
from engine.facts import CHECK
from engine.game import Game, RoundRecord
from engine.views import view_for
from tests.engine.builders import (
    NAMES,
    SEED,
    bet_that_does_not_exist,
    lobby,
    no_more_seeds,
    running,
    running_state,
    started,
)
from tests.engine.reference import pair_of, set_exists

State = dict[str, Any]


def through_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


def finished_state(cards: list[int], history: list[tuple[int, int]], after: list[int]) -> State:
    """A finished game's dict: ``cards`` were dealt, ``history`` played, ``after`` is held."""
    state = running_state(cards)
    state["status"] = "Finished"
    state["current"] = None
    state["history"] = [list(e) for e in history]
    for row, n in zip(state["players"], after, strict=True):
        row["n_cards"] = n
    return state


def pooled(cards: list[int]) -> list[tuple[int, int]]:
    hands, _ = deal_hands(SEED, cards)
    return [pair_of(card) for hand in hands for card in hand]


def absent_bet(cards: list[int]) -> int:
    return min(a for a in range(88) if not set_exists(a, pooled(cards)))


def present_bet(cards: list[int]) -> int:
    return max(a for a in range(88) if set_exists(a, pooled(cards)))


def mid_round() -> State:
    """Three players holding 2, 1 and 1 cards; alice bet 5, bob bet 9; carol to move."""
    return running_state([2, 1, 1], current=2, history=[(0, 5), (1, 9)])


def finished() -> State:
    """Alice, at the maximum of 11, bet a set that was not there; bob checked and won."""
    bet = absent_bet([11, 1])
    return finished_state([11, 1], [(0, bet), (1, CHECK), (0, 89)], [0, 1])


def not_started() -> State:
    return lobby(3).to_dict()


# ---------------------------------------------------------------- round trips


def stages() -> list[Game]:
    games = [Game(), lobby(1), lobby(3), started(2), started(8)]
    game = started(4, seed=9)
    for _ in range(3):
        game.apply(1)
        games.append(copy.deepcopy(game))
        game.apply(CHECK)
        games.append(copy.deepcopy(game))
    done = running([11, 1], seed_source=no_more_seeds)
    done.apply(bet_that_does_not_exist(done))
    done.apply(CHECK)
    games.append(done)
    return games


def test_a_game_round_trips_through_json_at_every_stage() -> None:
    for game in stages():
        data = game.to_dict()
        again = Game.from_dict(through_json(data))
        assert again.to_dict() == data
        assert again.status is game.status
        assert again.players == game.players
        assert again.history == game.history
        assert again.legal_actions() == game.legal_actions()
        assert again.winner == game.winner
        for viewer in (None, *game.nicknames):
            assert view_for(again, viewer) == view_for(game, viewer)


def test_a_loaded_game_plays_on_exactly_as_the_original() -> None:
    original = started(3, seed=4)
    original.apply(2)
    copy_ = Game.from_dict(through_json(original.to_dict()), seed_source=seed_sequence("on"))
    original_more = Game.from_dict(original.to_dict(), seed_source=seed_sequence("on"))
    for game in (copy_, original_more):
        game.apply(7)
    assert copy_.to_dict() == original_more.to_dict()
    assert copy_.apply(CHECK) == original_more.apply(CHECK)
    assert copy_.to_dict() == original_more.to_dict()


def test_a_round_record_round_trips_through_its_public_form() -> None:
    game = started(3, seed=12)
    game.apply(4)
    game.apply(30)
    record = game.apply(CHECK)
    assert record is not None
    again = RoundRecord.from_dict(through_json(record.to_dict()))
    assert again == record
    assert again.to_dict() == record.to_dict()


def test_a_forfeited_round_and_a_game_finished_by_forfeit_round_trip() -> None:
    game = started(3, seed=12)
    game.apply(4)
    first = game.forfeit(game.nicknames[2])
    last = game.forfeit(game.nicknames[0])
    assert game.winner == game.nicknames[1]
    for record in (first, last):
        assert record.forfeited
        assert RoundRecord.from_dict(through_json(record.to_dict())) == record
    stored = game.to_dict()
    assert Game.from_dict(through_json(stored)).to_dict() == stored


def test_a_round_record_with_a_check_out_of_turn_is_refused() -> None:
    game = started(3, seed=12)
    game.apply(4)
    record = game.apply(CHECK)
    assert record is not None
    public = record.to_dict()
    bettor, checker = public["history"][0]["player"], public["history"][1]["player"]
    third = next(n for n in game.nicknames if n not in (bettor, checker))
    public["history"][1]["player"] = third
    with pytest.raises(InvalidState, match="the check came out of turn"):
        RoundRecord.from_dict(public)


def test_a_round_record_with_a_forged_hand_is_refused() -> None:
    game = started(3, seed=12)
    game.apply(4)
    record = game.apply(CHECK)
    assert record is not None
    public = record.to_dict()
    hand = public["hands"][0]["hand"]
    hand[0] = {"value": (hand[0]["value"] + 1) % 6, "colour": hand[0]["colour"]}
    with pytest.raises(InvalidState, match="seed deals"):
        RoundRecord.from_dict(public)


def test_a_round_record_whose_counts_differ_from_its_hands_is_refused() -> None:
    game = started(3, seed=12)
    game.apply(4)
    record = game.apply(CHECK)
    assert record is not None
    public = record.to_dict()
    public["players"][0]["n_cards"] = 3
    with pytest.raises(InvalidState, match="as many cards as counted"):
        RoundRecord.from_dict(public)


def test_a_round_record_of_a_single_player_is_refused_as_an_invalid_state() -> None:
    hands, _ = deal_hands(SEED, [1])
    card = pair_of(hands[0][0])
    data = {
        "round_number": 1,
        "max_cards": 11,
        "players": [{"nickname": "alice", "n_cards": 1}],
        "hands": [{"nickname": "alice", "hand": [{"value": card[0], "colour": card[1]}]}],
        "history": [
            {"player": "alice", "action_id": 0},
            {"player": "alice", "action_id": 88},
            {"player": "alice", "action_id": 89},
        ],
        "seed": SEED.hex(),
    }
    with pytest.raises(InvalidState):
        RoundRecord.from_dict(data)


# ---------------------------------------------------------------- refusals


def change(base: Callable[[], State], **fields: Any) -> Callable[[], State]:
    def make() -> State:
        state = base()
        state.update(fields)
        return state

    return make


def edit(base: Callable[[], State], how: Callable[[State], Any]) -> Callable[[], State]:
    def make() -> State:
        state = base()
        how(state)
        return state

    return make


def other_card(state: State) -> int:
    dealt = {card for hand in state["hands"] for card in hand}
    return min(set(range(24)) - dealt)


def set_row(i: int, **fields: Any) -> Callable[[State], None]:
    return lambda s: s["players"][i].update(fields)


CORRUPTIONS: list[tuple[str, Callable[[], Any], str]] = [
    # not a game at all
    ("a list", lambda: [], "expected an object"),
    ("nothing", lambda: None, "expected an object"),
    ("unknown format", change(mid_round, format=2), "unknown format 2"),
    ("no format", edit(mid_round, lambda s: s.pop("format")), "unknown format None"),
    ("format as a string", change(mid_round, format="1"), "unknown format '1'"),
    ("bad status", change(mid_round, status="Paused"), "unknown status 'Paused'"),
    ("no status", edit(mid_round, lambda s: s.pop("status")), "unknown status None"),
    # players
    ("players not a list", change(mid_round, players="alice"), "players must be a list"),
    ("a player not an object", change(mid_round, players=["alice"]), "each player"),
    (
        "duplicate nicknames",
        edit(mid_round, set_row(1, nickname="ALICE")),
        "nicknames must be unique",
    ),
    ("a malformed nickname", edit(mid_round, set_row(1, nickname="1bob")), "bad nickname"),
    ("a missing nickname", edit(mid_round, lambda s: s["players"][1].pop("nickname")), "bad nick"),
    ("ai_agent not a string", edit(mid_round, set_row(1, ai_agent=5)), "ai_agent must be"),
    ("a negative card count", edit(mid_round, set_row(1, n_cards=-1)), "bad card count"),
    ("a card count as a string", edit(mid_round, set_row(1, n_cards="1")), "bad card count"),
    ("a card count as a bool", edit(mid_round, set_row(1, n_cards=True)), "bad card count"),
    (
        "nine players",
        change(mid_round, players=[{"nickname": f"p{i}", "n_cards": 1} for i in range(9)]),
        "at most 8 players",
    ),
    (
        "one player only",
        edit(
            mid_round,
            lambda s: s.update(
                players=s["players"][:1], hands=s["hands"][:1], history=[], current=0
            ),
        ),
        "at least two players",
    ),
    ("too many cards", lambda: running_state([12, 1]), "nobody holds more than the maximum"),
    (
        "a count that is not the hand",
        edit(mid_round, set_row(0, n_cards=1)),
        "as many cards as counted",
    ),
    # admin and flags
    ("the admin not a player", change(mid_round, admin="zed"), "the admin must be a player"),
    ("no admin", change(mid_round, admin=None), "has an admin"),
    ("an admin of nobody", change(lambda: Game().to_dict(), admin="zed"), "has an admin"),
    ("public as a string", change(mid_round, public="false"), "public must be true or false"),
    ("a started public game", change(mid_round, public=True), "a started game is private"),
    ("max_cards wrong", change(mid_round, max_cards=10), "max_cards must be 8 or the choice"),
    ("max_cards missing", edit(mid_round, lambda s: s.pop("max_cards")), "must be integers"),
    ("round as a string", change(mid_round, round_number="3"), "must be integers"),
    ("a running round 0", change(mid_round, round_number=0), "round 1 or later"),
    # seed and hands
    (
        "a tampered hand",
        edit(mid_round, lambda s: s["hands"][1].__setitem__(0, other_card(s))),
        "not what the round's seed deals",
    ),
    (
        "hands swapped",
        edit(mid_round, lambda s: s.update(hands=[s["hands"][0], s["hands"][2], s["hands"][1]])),
        "seed deals",
    ),
    ("a hand out of order", edit(mid_round, lambda s: s["hands"][0].reverse()), "seed deals"),
    ("another seed", change(mid_round, seed="11" * 32), "not what the round's seed deals"),
    ("a seed not hex", change(mid_round, seed="zz" * 32), "seed must be 64 hex digits"),
    ("a short seed", change(mid_round, seed="ab" * 31), "seed must be 64 hex digits"),
    (
        "a 31-byte seed padded to 64 characters",
        change(
            lambda: running_state([2, 1, 1], seed=bytes.fromhex("ab" * 31)),
            seed="ab" * 31 + "  ",
        ),
        "seed must be 64 hex digits",
    ),
    ("no seed", change(mid_round, seed=None), "seed must be 64 hex digits"),
    ("hands not a list", change(mid_round, hands="x"), "one hand per player"),
    ("a hand missing", edit(mid_round, lambda s: s["hands"].pop()), "one hand per player"),
    ("a hand not a list", edit(mid_round, lambda s: s["hands"].__setitem__(0, 3)), "a hand must"),
    ("card 24", edit(mid_round, lambda s: s["hands"][1].__setitem__(0, 24)), "cards are 0..23"),
    ("card -1", edit(mid_round, lambda s: s["hands"][1].__setitem__(0, -1)), "cards are 0..23"),
    ("card as a string", edit(mid_round, lambda s: s["hands"][1].__setitem__(0, "3")), "0..23"),
    # history
    ("history not a list", change(mid_round, history="x"), "history must be a list"),
    ("a short history entry", change(mid_round, history=[[0]]), "history entries are"),
    ("a long history entry", change(mid_round, history=[[0, 5, 1]]), "history entries are"),
    ("an action as a string", change(mid_round, history=[[0, "5"]]), "history entries are"),
    ("action 90", change(mid_round, history=[[0, 90]], current=1), "outside 0..89"),
    ("seat 3 of 3", change(mid_round, history=[[3, 5]]), "a seat that does not exist"),
    ("equal bets", change(mid_round, history=[[0, 5], [1, 5]]), "bets must strictly rise"),
    ("falling bets", change(mid_round, history=[[0, 9], [1, 5]]), "bets must strictly rise"),
    ("a bet out of turn", change(mid_round, history=[[0, 5], [2, 9]], current=0), "out of turn"),
    ("a check mid-round", change(mid_round, history=[[0, 5], [1, 88]]), "only bets may come"),
    (
        "a bet by an eliminated player",
        lambda: running_state([2, 0, 1], history=[(1, 5)], current=2),
        "an eliminated player cannot bet",
    ),
    # whose turn
    ("current out of range", change(mid_round, current=5), "bad current"),
    ("current negative", change(mid_round, current=-1), "bad current"),
    ("current missing", change(mid_round, current=None), "bad current"),
    ("current as a string", change(mid_round, current="2"), "bad current"),
    ("current as a bool", change(mid_round, current=True), "bad current"),
    ("current eliminated", lambda: running_state([2, 0, 1], current=1), "bad current"),
    ("current not after the last bet", change(mid_round, current=0), "must follow the last"),
    # who is left
    ("one player left running", lambda: running_state([2, 0, 0]), "at least two players left"),
    ("nobody left running", lambda: running_state([0, 0, 0]), "at least two players left"),
    ("nobody left finished", edit(finished, set_row(1, n_cards=0)), "exactly one player left"),
    # the lobby
    ("cards before the start", edit(not_started, set_row(0, n_cards=1)), "nobody holds cards"),
    ("moves before the start", change(not_started, history=[[0, 5]]), "no moves before"),
    ("a turn before the start", change(not_started, current=0), "no moves before"),
    ("a seed before the start", change(not_started, seed=SEED.hex()), "no deal yet"),
    ("hands before the start", change(not_started, hands=[[1], [2], [3]]), "no deal yet"),
    ("a round before the start", change(not_started, round_number=1), "has no round"),
    # the finish
    ("a turn after the finish", change(finished, current=1), "nobody moves in a finished game"),
    ("two left after the finish", edit(finished, set_row(0, n_cards=11)), "exactly one player"),
    ("no loser event", edit(finished, lambda s: s["history"].pop()), "the final round has a loser"),
    (
        "the winner as loser",
        edit(finished, lambda s: s["history"][-1].__setitem__(0, 1)),
        "the final loser left the game",
    ),
    ("the winner's count changed", edit(finished, set_row(1, n_cards=2)), "only the loser's"),
    (
        "the final loser under the maximum",
        lambda: finished_state([5, 1], [(0, absent_bet([5, 1])), (1, CHECK), (0, 89)], [0, 1]),
        "the final loser went over the maximum",
    ),
    (
        "the bettor eliminated for a set that was there",
        lambda: finished_state(
            [11, 11], [(0, present_bet([11, 11])), (1, CHECK), (0, 89)], [0, 11]
        ),
        "the wrong player lost",
    ),
]


@pytest.mark.parametrize(
    ("make", "message"),
    [pytest.param(make, message, id=name) for name, make, message in CORRUPTIONS],
)
def test_an_impossible_state_is_refused_with_a_clear_reason(
    make: Callable[[], Any], message: str
) -> None:
    state = make()
    faulthandler.dump_traceback_later(20, exit=True)  # a refusal must never hang
    try:
        with pytest.raises(InvalidState) as refused:
            Game.from_dict(state)
    finally:
        faulthandler.cancel_dump_traceback_later()
    assert str(refused.value).startswith("Invalid game state: ")
    assert message in str(refused.value)


def test_the_base_states_of_the_corruption_table_are_themselves_valid() -> None:
    for make in (mid_round, finished, not_started):
        state = make()
        assert Game.from_dict(state).to_dict() == state
    assert Game.from_dict(finished()).winner == NAMES[1]


# ---------------------------------------------------------------- fuzzing

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 100) | st.text(max_size=4) | st.just("alice"),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON value: dict keys and list positions, recursively."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            found += paths(inner, (*prefix, i))
    return found


@given(st.sampled_from([mid_round, finished, not_started]), st.data())
def test_any_corruption_of_a_stored_state_loads_or_is_refused_as_an_invalid_state(
    make: Callable[[], State], data: st.DataObject
) -> None:
    state = make()
    path = data.draw(st.sampled_from(paths(state)), label="path")
    *parents, last = path
    target: Any = state
    for step in parents:
        target = target[step]
    if data.draw(st.booleans(), label="delete") and isinstance(target, dict):
        del target[last]
    else:
        target[last] = data.draw(json_values, label="value")
    try:
        game: Game | None = Game.from_dict(state)
    except InvalidState as refused:
        game, reason = None, str(refused)
    if game is None:
        assert reason.startswith("Invalid game state: ")
    else:  # what loads is a real state: it stores and loads again unchanged
        stored = game.to_dict()
        assert Game.from_dict(through_json(stored)).to_dict() == stored


def a_round_record() -> State:
    game = started(3, seed=12)
    game.apply(4)
    game.apply(9)
    record = game.apply(CHECK)
    assert record is not None
    return through_json(record.to_dict())  # type: ignore[no-any-return]


@given(st.data())
def test_any_corruption_of_a_round_record_loads_or_is_refused_as_an_invalid_state(
    data: st.DataObject,
) -> None:
    public = a_round_record()
    path = data.draw(st.sampled_from(paths(public)), label="path")
    *parents, last = path
    target: Any = public
    for step in parents:
        target = target[step]
    target[last] = data.draw(json_values, label="value")
    try:
        record: RoundRecord | None = RoundRecord.from_dict(public)
    except InvalidState as refused:
        record, reason = None, str(refused)
    if record is None:
        assert reason.startswith("Invalid game state: ")
    else:
        assert RoundRecord.from_dict(through_json(record.to_dict())) == record
