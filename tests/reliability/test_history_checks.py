"""The consistency checks used after every race, load and crash catch what they must.

A real game is played (seeded), its rounds pass; then each kind of corruption is made to a
copy and must be reported.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.config.settings import Settings
from app.service import GameService
from app.store.sqlite import SqliteStore
from benchmarks.load import check_rounds, stored_moves
from engine.dealing import seed_sequence
from tests.reliability.history import check_stored_game, new_game, play_to_the_end
from tests.support.clock import FakeClock
from tests.support.memory_store import MemoryStore

Rounds = list[dict[str, Any]]


@pytest.fixture
def played(tmp_path: Path) -> tuple[SqliteStore, str, Rounds]:
    store = SqliteStore(tmp_path / "blef.db")
    service = GameService(store, Settings(), seed_source=seed_sequence(3))
    game, players = new_game(service, ["ann", "ben", "cat"], start=True)
    play_to_the_end(service, game, players, random.Random(3))
    return store, game, [s.data for s in store.load_rounds(game)]


def _loser_swapped(rounds: Rounds) -> None:
    last = rounds[2]
    bettor, checker = last["history"][-3]["player"], last["history"][-2]["player"]
    other = bettor if last["loser"] == checker else checker
    last["loser"] = other
    last["history"][-1]["player"] = other


def _bets_fall(rounds: Rounds) -> None:
    history = rounds[1]["history"]
    history.insert(0, {"player": history[0]["player"], "action_id": 87})


def _seed_changed(rounds: Rounds) -> None:
    rounds[0]["seed"] = "00" * 32


def _loss_event_missing(rounds: Rounds) -> None:
    # (A missing check alone may read as a timeout of the player to move, which is legal.)
    del rounds[1]["history"][-1]


def _card_counts_wrong(rounds: Rounds) -> None:
    rounds[3]["players"][0]["n_cards"] += 1


def _round_lost(rounds: Rounds) -> None:
    del rounds[2]


CORRUPTIONS: list[Callable[[Rounds], None]] = [
    _loser_swapped,
    _bets_fall,
    _seed_changed,
    _loss_event_missing,
    _card_counts_wrong,
    _round_lost,
]


def test_a_real_game_passes_every_check(played: tuple[SqliteStore, str, Rounds]) -> None:
    store, game, rounds = played
    assert len(rounds) >= 5
    assert check_rounds(rounds) == []
    check_stored_game(store, game)
    moves = stored_moves(rounds, None)
    assert all(action <= 88 for _, action in moves)
    store.close()


@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=lambda f: f.__name__.strip("_"))
def test_every_kind_of_corruption_is_reported(
    played: tuple[SqliteStore, str, Rounds], corrupt: Callable[[Rounds], None]
) -> None:
    store, _, rounds = played
    broken = copy.deepcopy(rounds)
    corrupt(broken)
    assert check_rounds(broken) != []
    store.close()


def test_a_player_at_the_maximum_who_resigns_out_of_turn_passes_though_it_reads_like_a_timeout(
    tmp_path: Path,
) -> None:
    """A round lost with no move made, by a player holding the maximum: a timeout (the
    next after them begins) or a resignation out of turn (whoever's turn it was begins)
    leave the same counts, so either beginner passes (the fuzzer found the checker
    insisting on the first)."""
    store = SqliteStore(tmp_path / "blef.db")
    service = GameService(store, Settings(), seed_source=seed_sequence(5))
    game, players = new_game(service, ["ann", "ben", "cat", "dan"], start=False)
    service.change_rules(game, players["ann"], {"max_cards": 1})
    service.start(game, players["ann"])
    state = service.state(game).body
    seating = [p["nickname"] for p in state["players"]]
    current = seating.index(state["cp_nickname"])
    resigner = seating[(current + 1) % 4]  # not to move; the next after them is not either
    service.resign(game, players[resigner])
    rounds = [s.data for s in store.load_rounds(game)]
    after = service.state(game).body
    assert after["cp_nickname"] == seating[current] != seating[(current + 2) % 4]
    assert check_rounds(rounds, {**after, "round_number": after["round_number"]}) == []
    store.close()


def _resigned_before_the_first_bet(service: GameService) -> tuple[str, list[str], str, str]:
    """Four players; round 1 ends with a check, and in round 2, before anyone bets, a
    player who is not to move resigns. Returns the game, the seating, the player to move
    in round 2 (who began it) and the resigner."""
    game, players = new_game(service, ["ann", "ben", "cat", "dan"], start=True)
    for action in (0, 88):  # a bet on "high card 9", then a check
        service.play(game, players[service.state(game).body["cp_nickname"]], action)
    state = service.state(game).body
    seating = [p["nickname"] for p in state["players"]]
    beginner = state["cp_nickname"]
    assert state["round_number"] == 2 and state["history"] == []
    resigner = seating[(seating.index(beginner) + 2) % 4]
    service.resign(game, players[resigner])
    return game, seating, beginner, resigner


def test_a_round_ended_by_a_resignation_out_of_turn_before_any_bet_passes_though_its_history_starts_with_the_resigner(  # noqa: E501
    tmp_path: Path,
) -> None:
    """The round's only entry is the resigner's 89 event: it names who lost, not who
    began (the fuzzer found the checker reading it as the beginner, "round 2: begun by X,
    not the loser"). The player whose turn it was begins the next round."""
    store = SqliteStore(tmp_path / "blef.db")
    service = GameService(store, Settings(), seed_source=seed_sequence(5))
    game, _, beginner, resigner = _resigned_before_the_first_bet(service)
    second = store.load_rounds(game)[1].data
    assert second["history"] == [{"player": resigner, "action_id": 89}]
    assert service.state(game).body["cp_nickname"] == beginner
    check_stored_game(store, game)
    store.close()


def test_the_round_after_a_resignation_begun_by_anyone_but_whose_turn_it_was_is_reported(
    tmp_path: Path,
) -> None:
    """After a resignation the player whose turn it was begins; the checker knows who that
    was even when the resigned round had no bet (its beginner, from the round before)."""
    store = SqliteStore(tmp_path / "blef.db")
    service = GameService(store, Settings(), seed_source=seed_sequence(5))
    game, seating, beginner, resigner = _resigned_before_the_first_bet(service)
    rounds = [s.data for s in store.load_rounds(game)]
    current = {**service.state(game).body, "round_number": 3}
    assert check_rounds(rounds, current) == []
    wrong = next(n for n in seating if n not in (beginner, resigner))
    problems = check_rounds(rounds, {**current, "cp_nickname": wrong})
    assert problems == [f"round 3: {wrong} is to begin, not {beginner}"]
    store.close()


def test_a_first_round_begun_by_anyone_but_the_first_seat_is_reported(tmp_path: Path) -> None:
    """The table is turned at the start so that its first seat begins round 1."""
    store = SqliteStore(tmp_path / "blef.db")
    service = GameService(store, Settings(), seed_source=seed_sequence(5))
    game, _ = new_game(service, ["ann", "ben", "cat"], start=True)
    current = {**service.state(game).body, "round_number": 1}
    seating = [p["nickname"] for p in current["players"]]
    assert current["cp_nickname"] == seating[0]
    assert check_rounds([], current) == []
    problems = check_rounds([], {**current, "cp_nickname": seating[1]})
    assert problems == [f"round 1: {seating[1]} is to begin, not {seating[0]}"]
    store.close()


TIME_LIMIT = 10
STEPS = st.lists(
    st.tuples(st.sampled_from(["bet", "check", "resign", "time out"]), st.integers(0, 7)),
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(n_players=st.integers(2, 5), max_cards=st.integers(1, 2), steps=STEPS)
def test_bets_checks_resignations_and_timeouts_in_any_order_leave_a_history_the_checker_passes(
    n_players: int, max_cards: int, steps: list[tuple[str, int]]
) -> None:
    """Whoever moves, resigns (in turn or not, before the first bet or after) or runs out of
    time, and in whatever order, the engine's rounds and the checker's reading of the rules
    agree at every step (the fuzzer's finding, made systematic)."""
    clock = FakeClock()
    store = MemoryStore(clock=clock)
    service = GameService(
        store, Settings(run_clock=False), clock=clock, seed_source=seed_sequence(7)
    )
    names = ["ann", "ben", "cat", "dan", "eve"][:n_players]
    game, players = new_game(service, names, start=False)
    service.change_rules(game, players["ann"], {"max_cards": max_cards, "time_limit": TIME_LIMIT})
    service.start(game, players["ann"])
    for kind, pick in steps:
        state = service.state(game).body
        if state["status"] == "Finished":
            break
        in_play = [p["nickname"] for p in state["players"] if p["n_cards"]]
        to_move = state["cp_nickname"]
        if kind == "resign":
            service.resign(game, players[in_play[pick % len(in_play)]])
        elif kind == "time out":
            clock.advance(TIME_LIMIT + 1)
            doc = store.load(game)
            assert doc is not None
            assert service.advance(game, doc.version).acted
        else:
            last = state["history"][-1]["action_id"] if state["history"] else -1
            check = last >= 0 and (kind == "check" or last == 87)
            service.play(game, players[to_move], 88 if check else min(last + 1 + pick, 87))
        check_stored_game(store, game)
