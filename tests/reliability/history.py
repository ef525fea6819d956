"""Checks that a stored game is consistent with its history, and helpers to play games.

The round-by-round rules (bets rise, 88 then 89, the loser as the revealed hands say, seeds
match their commitments, card counts follow) live in benchmarks/load.py, which checks games
over HTTP; here the same checks run on what a store holds.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from app.api.errors import status_of
from app.service import GameService
from app.store.base import GameDoc, GameStore
from benchmarks.load import check_rounds, choose
from engine.errors import BlefError
from engine.facts import MAX_PLAYERS
from engine.game import Game, Status
from engine.match import Match
from engine.views import view_for

T = TypeVar("T")


@dataclass(frozen=True)
class Outcome:
    """What one racing call got: its HTTP status (as the API would answer) and body or code."""

    status: int
    body: Any = None
    code: str | None = None


def call(work: Callable[[], Any]) -> Outcome:
    """Run a service call and classify it as the API would (status_of decides statuses)."""
    try:
        body = work()
    except BlefError as error:
        return Outcome(status_of(error), code=error.code)
    return Outcome(200, body)


def race(works: Sequence[Callable[[], T]]) -> list[T]:
    """Run every callable in its own thread, all released at once; results in order."""
    barrier = threading.Barrier(len(works))

    def run(work: Callable[[], T]) -> T:
        barrier.wait()
        return work()

    with ThreadPoolExecutor(len(works)) as pool:
        return list(pool.map(run, works))


def ended_rounds(doc: GameDoc) -> int:
    status = doc.status
    if status == Status.NOT_STARTED.value:
        return 0
    number = int(doc.state["round_number"])
    return number if status == Status.FINISHED.value else number - 1


def check_stored_game(store: GameStore, game_uuid: str) -> GameDoc:
    """Load a game and assert that it is consistent: the engine accepts its state, at most
    8 players, one secret per human player, a snapshot for every ended round and nothing
    else, and the rounds consistent with one another and with the current one."""
    doc = store.load(game_uuid)
    assert doc is not None, "the game is gone"
    if doc.kind != "blef":  # a table of another game: its rules restore it, checking it
        match = Match.from_dict(doc.state)  # raises on anything impossible
        assert match.table.n_players <= match.table.max_seats
        assert sorted(doc.player_uuids) == sorted(match.table.humans)
        assert len(set(doc.player_uuids.values())) == len(match.table.humans)
        assert store.load_rounds(game_uuid) == []
        return doc
    game = Game.from_dict(doc.state)  # raises InvalidState on anything impossible
    assert game.n_players <= MAX_PLAYERS
    humans = [n for n, ai in zip(game.nicknames, game.ai_agents, strict=True) if ai is None]
    assert sorted(doc.player_uuids) == sorted(humans)
    assert len(set(doc.player_uuids.values())) == len(humans)
    snapshots = store.load_rounds(game_uuid)
    assert [s.round_number for s in snapshots] == list(range(1, ended_rounds(doc) + 1))
    rounds = [s.data for s in snapshots]
    current = None
    if doc.status == Status.RUNNING.value:
        current = {**view_for(game, None), "round_number": game.round_number}
    problems = check_rounds(rounds, current)
    assert not problems, problems
    return doc


def play_to_the_end(
    service: GameService, game: str, players: dict[str, str], rng: random.Random | None = None
) -> int:
    """Play a started game to its end through the service; returns the number of moves."""
    rng = rng or random.Random(0)
    moves = 0
    while True:
        state = service.state(game).body
        if state["status"] == Status.FINISHED.value:
            return moves
        service.play(game, players[state["cp_nickname"]], choose(state, rng))
        moves += 1


def new_game(
    service: GameService, names: Sequence[str], *, start: bool
) -> tuple[str, dict[str, str]]:
    """A game with ``names`` joined (the first is the admin), started if asked."""
    game = service.create_game()["game_uuid"]
    players = {name: service.join(game, name)["player_uuid"] for name in names}
    if start:
        service.start(game, players[names[0]])
    return game, players
