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

from app.config.settings import Settings
from app.service import GameService
from app.store.sqlite import SqliteStore
from benchmarks.load import check_rounds, stored_moves
from engine.dealing import seed_sequence
from tests.reliability.history import check_stored_game, new_game, play_to_the_end

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
