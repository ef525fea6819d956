"""Races at the service level, on every store: GameService over SQLite, DynamoDB on moto
in-process and DynamoDB on moto's server (see conftest.py), many threads released at once.

After every race the stored game is loaded and checked (tests/reliability/history.py): the
engine accepts its state, at most 8 players, a snapshot for every ended round, the rounds
consistent, and the version risen by exactly the number of changes that were applied.
"""

from __future__ import annotations

import random
import uuid
from functools import partial

import pytest

from app.service import GameService
from app.store.base import GameStore
from benchmarks.load import choose
from engine.facts import MAX_PLAYERS
from tests.reliability.history import Outcome, call, check_stored_game, new_game, race

JOINERS = 16
TRIALS = 3
RETRIES = 12
MOVES = 12


def test_many_players_joining_one_game_at_once_lose_no_one_and_never_exceed_eight(
    any_service: GameService, any_store: GameStore
) -> None:
    for trial in range(TRIALS):
        game = any_service.create_game()["game_uuid"]
        names = [f"Racer_{trial}_{i}" for i in range(JOINERS)]  # (no leet reading of a rude word)
        outcomes = race([partial(call, partial(any_service.join, game, n)) for n in names])

        joined = {
            n: o.body["player_uuid"]
            for n, o in zip(names, outcomes, strict=True)
            if o.status == 200
        }
        refused = [(o.status, o.code) for o in outcomes if o.status != 200]
        assert set(refused) <= {(403, "room_full"), (409, "conflict")}, refused
        assert 1 <= len(joined) <= MAX_PLAYERS
        if (403, "room_full") in refused:
            assert len(joined) == MAX_PLAYERS
        doc = check_stored_game(any_store, game)
        assert doc.player_uuids == joined  # every 200 is a player, and no one else is
        assert doc.version == 1 + len(joined)


@pytest.mark.parametrize("expected_version", [True, False])
def test_the_same_move_sent_twice_at_once_is_applied_once(
    any_service: GameService, any_store: GameStore, expected_version: bool
) -> None:
    """With ``expected_version`` the loser of the race always gets 409. Without it, the
    loser gets 409 if it read the game before the winner wrote it, and otherwise the refusal
    the new state calls for: 400 not_your_turn after a bet (the turn has passed), 400
    illegal_action after a check (a new round cannot begin with a check)."""
    game, players = new_game(any_service, ["ann", "ben", "cat"], start=True)
    rng = random.Random(5)
    for _ in range(MOVES):
        state = any_service.state(game).body
        if state["status"] == "Finished":
            break
        version, action = state["version"], choose(state, rng)
        move = partial(
            any_service.play,
            game,
            players[state["cp_nickname"]],
            action,
            expected_version=version if expected_version else None,
        )
        outcomes = race([partial(call, move), partial(call, move)])

        assert sorted(o.status for o in outcomes) in ([200, 400], [200, 409])
        [loser] = [o for o in outcomes if o.status != 200]
        allowed = (
            {"conflict"} if expected_version else {"conflict", "not_your_turn", "illegal_action"}
        )
        assert loser.code in allowed
        doc = check_stored_game(any_store, game)
        assert doc.version == version + 1


def test_retries_with_one_idempotency_key_in_parallel_apply_once_and_get_one_reply(
    any_service: GameService, any_store: GameStore
) -> None:
    key = str(uuid.uuid4())  # create and join take only keys as hard to guess as a secret
    created = race([partial(any_service.create_game, key)] * RETRIES)
    assert len({c["game_uuid"] for c in created}) == 1
    game = created[0]["game_uuid"]

    joins = race([partial(any_service.join, game, "ann", str(uuid.uuid4()))] * RETRIES)
    assert len({j["player_uuid"] for j in joins}) == 1
    players = {"ann": joins[0]["player_uuid"], "ben": any_service.join(game, "ben")["player_uuid"]}
    starts = race([partial(any_service.start, game, players["ann"], "start")] * RETRIES)
    assert starts == [{"message": "Game started"}] * RETRIES
    version = check_stored_game(any_store, game).version
    assert version == 1 + 2 + 1

    rng = random.Random(9)
    for i in range(MOVES):
        state = any_service.state(game).body
        if state["status"] == "Finished":
            break
        move = partial(
            any_service.play,
            game,
            players[state["cp_nickname"]],
            choose(state, rng),
            idempotency_key=f"move-{i}",
        )
        replies = race([partial(call, move)] * RETRIES)

        assert {o.status for o in replies} == {200}
        assert all(o.body == replies[0].body for o in replies)
        version += 1
        assert check_stored_game(any_store, game).version == version


def test_a_start_racing_joins_seats_exactly_the_players_who_were_told_they_joined(
    any_service: GameService, any_store: GameStore
) -> None:
    for trial in range(TRIALS):
        game, players = new_game(any_service, ["admin", "first"], start=False)
        names = [f"t{trial}late{i}" for i in range(JOINERS - 4)]
        works = [partial(call, partial(any_service.start, game, players["admin"]))]
        works += [partial(call, partial(any_service.join, game, n)) for n in names]
        start, *joins = race(works)

        assert start.status in (200, 409)
        refused = {(o.status, o.code) for o in joins if o.status != 200}
        assert refused <= {(403, "game_already_started"), (403, "room_full"), (409, "conflict")}
        joined = {
            n: o.body["player_uuid"] for n, o in zip(names, joins, strict=True) if o.status == 200
        }
        if start.status == 409:  # a join won the race: starting again now works
            assert call(partial(any_service.start, game, players["admin"])) == Outcome(
                200, {"message": "Game started"}
            )
        doc = check_stored_game(any_store, game)
        assert doc.status == "Running"
        assert doc.player_uuids == {**players, **joined}
        assert 2 <= len(doc.player_uuids) <= MAX_PLAYERS
        assert doc.version == 1 + 2 + len(joined) + 1
