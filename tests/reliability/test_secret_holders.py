"""One invariant for every path that hands out a secret (issue 28), as a property test over
random sequences of requests by several actors, on every store (the in-memory fake, SQLite,
DynamoDB on moto in process).

Actors create games (with and without a nickname), join, leave, remove, play a game out
(its admin starts it, every other seat's holder resigns), ask for the rematch (with their
own nickname or someone else's), move their seats to another device, and replay their own
Idempotency-Keys, with the same request or another one. The same at the tables' routes
(app/service/matches.py, match_social.py): Economancy tables are made, joined, left,
emptied by removal, played out by their seats' holders, and rematched through
``/{game}/games/{uuid}/rematch`` (keyed or not, with or without a nickname), and Blef games
are rematched through ``/blef/games/{uuid}/rematch`` too; their rematch keys are replayed.
Figgie tables are made, joined and played out too (the test's clock runs their trading time
out), and any actor reads any game's record, finished or not, of every kind.
Game UUIDs are known to every actor (the worst case: a game's UUID is not a secret of a
seat); each actor's keys and player UUIDs are their own. Throughout:

- no actor ever receives a player UUID it did not cause to be made: each one an answer
  carries is either new (then it is that actor's) or already that same actor's (a replay,
  asking for the same rematch seat again);
- a replay of a create key answers the first answer unchanged; the same key with another
  request is refused (``IdempotencyKeyReused``);
- every live seat's UUID is known to exactly one actor, and a UUID retired by a move is
  refused as moved;
- no game's record (``/games/{uuid}/record``, ``/{kind}/games/{uuid}/record``) holds any
  seat's UUID, and none is given before its game is over.

Quick play's placing (app/ladder) is not driven here: it seats accounts through the same
create and join, without keys.
"""

from __future__ import annotations

import json
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.config.settings import Settings
from app.service import GameService
from app.service.errors import GameNotFinished, IdempotencyKeyReused, SeatMoved
from app.store.base import Store
from app.store.sqlite import SqliteStore
from engine.errors import BlefError
from tests.support.clock import FakeClock
from tests.support.dynamo import moto_dynamo_table
from tests.support.memory_store import MemoryStore

ACTORS = 3
REQUESTS = (
    *("create", "join", "join", "join", "leave", "remove", "finish", "finish"),
    *("rematch", "rematch", "rematch", "move", "replay", "replay"),
    *("table", "table", "rematch_table", "rematch_table"),
    *("figgie_table", "record", "record"),
)
"""What an actor asks, weighted so that games fill, finish and are rematched often."""
NAMES = ("Sam", "Hal", "Cid", "sam")


@contextmanager
def made(kind: str) -> Iterator[Store]:
    if kind == "memory":
        yield MemoryStore()
    elif kind == "sqlite":
        with tempfile.TemporaryDirectory() as where:
            sqlite = SqliteStore(Path(where) / "blef.db")
            yield sqlite
            sqlite.close()
    else:
        with moto_dynamo_table() as table:
            dynamo = table.store()
            yield dynamo
            dynamo.close()


@dataclass
class Key:
    """An Idempotency-Key an actor used, and what it first answered."""

    key: str
    request: tuple[Any, ...]
    answer: dict[str, Any] | None


@dataclass
class World:
    service: GameService
    clock: FakeClock
    owner: dict[str, int] = field(default_factory=dict)
    """Every player UUID ever answered, with the actor it was answered to."""
    held: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    """Each actor's (game, player UUID) pairs, as they were answered."""
    retired: set[str] = field(default_factory=set)
    games: list[str] = field(default_factory=list)
    keys: dict[int, list[Key]] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)
    """The kind of each game that is not Blef (an Economancy or a Figgie table)."""

    def receive(self, actor: int, answer: dict[str, Any], game: str | None = None) -> None:
        secret = answer.get("player_uuid")
        where = answer.get("game_uuid", game)
        if where is not None and where not in self.games:
            self.games.append(where)
        if where is not None and answer.get("kind", "blef") != "blef":
            self.kinds[where] = answer["kind"]
        if secret is None:
            return
        first = self.owner.setdefault(secret, actor)
        assert first == actor, f"actor {actor} was handed actor {first}'s secret"
        assert where is not None
        if (where, secret) not in self.held.setdefault(actor, []):
            self.held[actor].append((where, secret))

    def check_seats(self) -> None:
        for game in self.games:
            doc = self.service.store.load(game)
            if doc is None:
                continue
            for secret in doc.player_uuids.values():
                assert secret in self.owner  # known to the one actor it was answered to
                assert secret not in self.retired
        for secret in list(self.retired)[:3]:
            game = next(g for held in self.held.values() for g, s in held if s == secret)
            with pytest.raises(SeatMoved):
                self.service.state(game, secret)


def _attempt(call: Callable[[], dict[str, Any]]) -> dict[str, Any] | None:
    try:
        return call()
    except IdempotencyKeyReused:
        raise
    except BlefError:
        return None


def _step(world: World, data: st.DataObject) -> None:
    service = world.service
    actor = data.draw(st.integers(0, ACTORS - 1), label="actor")
    mine = world.held.get(actor, [])
    kind = data.draw(
        st.sampled_from(REQUESTS),
        label="request",
    )
    name = data.draw(st.sampled_from(NAMES), label="nickname")
    if kind == "create":
        nickname = data.draw(st.sampled_from((None, name)), label="creates with")
        key = str(uuid.uuid4())
        answer = _attempt(lambda: service.create_game(idempotency_key=key, nickname=nickname))
        world.keys.setdefault(actor, []).append(Key(key, ("create", nickname), answer))
        if answer is not None:
            world.receive(actor, answer)
    elif kind == "table":
        answer = _attempt(lambda: service.create_table(ECONOMANCY, {"day_limit": 1}))
        if answer is not None:
            world.receive(actor, answer)
    elif kind == "figgie_table":
        answer = _attempt(lambda: service.create_table(FIGGIE, {"trading_seconds": 5}))
        if answer is not None:
            world.receive(actor, answer)
    elif kind == "record" and world.games:
        _record_step(world, data.draw(st.sampled_from(world.games), label="record of"))
    elif kind == "join" and world.games:
        game = data.draw(st.sampled_from(world.games[-2:]), label="game")
        key = str(uuid.uuid4())
        if game in world.kinds:
            answer = _attempt(
                lambda: service.join_table(world.kinds[game], game, name, idempotency_key=key)
            )
        else:
            answer = _attempt(lambda: service.join(game, name, idempotency_key=key))
        world.keys.setdefault(actor, []).append(Key(key, ("join", game, name), answer))
        if answer is not None:
            world.receive(actor, answer, game)
    elif kind == "replay" and world.keys.get(actor):
        used = data.draw(st.sampled_from(world.keys[actor]), label="key")
        other = data.draw(st.sampled_from((None, *NAMES)), label="replayed with")
        request = (*used.request[:-1], other if used.request[0] != "join" else other or "Zed")
        same = request == used.request
        if request[0] == "rematch":  # (rematch, game, secret, nickname): a table's rematch
            _, game, secret, nickname = request
            call = partial(_rematch, world, game, secret, nickname, used.key)
        elif request[0] == "create":
            call: Callable[[], dict[str, Any]] = lambda: service.create_game(  # noqa: E731
                idempotency_key=used.key, nickname=request[1]
            )
            game = None
        elif request[1] in world.kinds:
            game = request[1]
            call = partial(
                service.join_table, world.kinds[game], game, request[2], idempotency_key=used.key
            )
        else:
            game = request[1]
            call = lambda: service.join(game, request[2], idempotency_key=used.key)  # noqa: E731
        try:
            answer = _attempt(call)
        except IdempotencyKeyReused:
            assert not same or used.answer is None
            return
        if request[0] in ("create", "rematch") and used.answer is not None:
            assert same and answer == used.answer  # the first answer, unchanged
        if answer is not None:
            world.receive(actor, answer, game)
    elif mine:
        game, secret = data.draw(st.sampled_from(mine), label="seat")
        if game in world.kinds:
            _table_step(world, data, actor, kind, game, secret, name)
        elif kind == "rematch_table":  # Blef's rematch at /blef/games
            _rematch_step(world, data, actor, game, secret, name)
        elif kind == "leave":
            _attempt(lambda: service.leave(game, secret))
        elif kind == "remove":
            _attempt(lambda: service.remove_player(game, secret, name))
        elif kind == "finish":  # every holder of a seat there plays their part, as themselves
            seats = [(a, s) for a, held in world.held.items() for g, s in held if g == game]
            for _, each in seats:
                _attempt(partial(service.start, game, each))  # the admin's start works
            for _, each in seats[1:]:
                _attempt(partial(service.resign, game, each))
            _record_step(world, game)  # read as soon as it may be over
        elif kind == "rematch":
            nickname = data.draw(st.sampled_from((None, name)), label="rematch as")
            answer = _attempt(lambda: service.rematch(game, secret, nickname))
            if answer is not None:
                world.receive(actor, answer)
        elif kind == "move":
            answer = _attempt(lambda: service.move_seat(game, secret))
            if answer is not None:
                world.retired.add(secret)
                world.receive(actor, answer)


ECONOMANCY = "economancy"
FIGGIE = "figgie"


def _record_step(world: World, game: str) -> None:
    """Anyone reads the record of ``game``: never before it is over, and never a secret."""
    kind = world.kinds.get(game, "blef")
    doc = world.service.store.load(game)
    try:
        if kind == "blef":
            record = world.service.record(game)
        else:
            record = world.service.table_record(kind, game)
    except GameNotFinished:
        assert doc is None or doc.status != "Finished"
        return
    except BlefError:
        return
    assert doc is not None and doc.status == "Finished"
    text = json.dumps(record)
    assert all(secret not in text for secret in world.owner), "a secret in a game's record"


def _rematch(
    world: World, game: str, secret: str, nickname: str | None, key: str | None
) -> dict[str, Any]:
    kind = world.kinds.get(game, "blef")
    return world.service.rematch_table(kind, game, secret, nickname, idempotency_key=key)


def _rematch_step(
    world: World, data: st.DataObject, actor: int, game: str, secret: str, name: str
) -> None:
    """The actor asks the tables' rematch of ``game`` with its secret there, keyed or not."""
    nickname = data.draw(st.sampled_from((None, name)), label="rematch as")
    key = data.draw(st.sampled_from((None, str(uuid.uuid4()))), label="rematch key")
    answer = _attempt(partial(_rematch, world, game, secret, nickname, key))
    if key is not None:
        world.keys.setdefault(actor, []).append(
            Key(key, ("rematch", game, secret, nickname), answer)
        )
    if answer is not None:
        world.receive(actor, answer)


def _table_step(
    world: World, data: st.DataObject, actor: int, kind: str, game: str, secret: str, name: str
) -> None:
    """What the actor does at the Economancy or Figgie table ``game`` with its seat
    ``secret``."""
    service = world.service
    game_kind = world.kinds[game]
    if kind == "leave":
        _attempt(partial(service.leave_table, game_kind, game, secret))
    elif kind == "remove":
        _attempt(partial(service.remove_from_table, game_kind, game, secret, name))
    elif kind == "finish" and game_kind == FIGGIE:
        # Filled by computer players and started; then its trading time runs out.
        seats = [s for held in world.held.values() for g, s in held if g == game]
        for _ in range(4):
            _attempt(partial(service.seat_agent, FIGGIE, game, secret, "random"))
        for each in seats:
            _attempt(partial(service.start_table, FIGGIE, game, each))
        world.clock.advance(10)
        service.sweep()
        _record_step(world, game)
    elif kind == "finish":  # every holder of a seat there plays it, as themselves
        seats = [s for held in world.held.values() for g, s in held if g == game]
        for each in seats:
            _attempt(partial(service.start_table, ECONOMANCY, game, each))
        for _ in range(60):
            for each in seats:
                table = _attempt(partial(service.table, ECONOMANCY, game, each))
                if table is not None and table["your_turn"]:
                    move = _safe_move(table["view"])
                    _attempt(partial(service.move, ECONOMANCY, game, each, move))
        _record_step(world, game)
    elif kind in ("rematch", "rematch_table"):
        _rematch_step(world, data, actor, game, secret, name)


def _safe_move(view: dict[str, Any]) -> list[Any]:
    phase = view["phase"]
    if phase["name"] == "investing":
        return [0]
    if phase["name"] == "buy":
        return ["Pass"]
    if phase["name"] == "attacking" and phase["attacker"] == view["player"]:
        return [0]
    return [1]


def _run(kind: str, data: st.DataObject) -> None:
    with made(kind) as store:
        clock = FakeClock()
        settings = Settings(run_clock=False, ai_think_seconds=0)
        world = World(GameService(store, settings, clock=clock), clock)
        for _ in range(data.draw(st.integers(4, 40), label="steps")):
            _step(world, data)
            world.check_seats()


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_no_actor_receives_anothers_secret_on_the_memory_store(data: st.DataObject) -> None:
    _run("memory", data)


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_no_actor_receives_anothers_secret_on_sqlite(data: st.DataObject) -> None:
    _run("sqlite", data)


@pytest.mark.slow
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_no_actor_receives_anothers_secret_on_dynamodb(data: st.DataObject) -> None:
    _run("dynamo", data)
