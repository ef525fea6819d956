"""Seeded games give exactly the traces recorded in ``golden/games.json``.

The fixture was written by this module (``python -m tests.economancy.test_golden --write``)
from the engine before its hot path was optimised; every later change to the engine or the
built-in agents must reproduce it byte for byte, or say in its commit why the rules changed.

Each game's trace holds, at every step: who is asked (``to_act`` and ``turn``), the legal
moves of every seat, the move played, the events returned, every viewer's view, the stored
form; and at the end the result. Random games cover 2-4 players, both card sets, both Bubble
attacks, short and long day limits, a forfeit in some games, refused moves at every step of
some games; agent games cover the built-in agents (the planner's look-ahead clones and
applies states) under the referee. The fixture keeps a digest of each trace (and the
outcome in clear, to read a failure).
"""

from __future__ import annotations

import hashlib
import io
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.economancy.referee import referee_game
from arena.economancy.specs import parse_program
from engine.economancy import GAME, EconomancyRules, EconomancyState
from engine.economancy.cards import CARDS, PASS
from engine.economancy.state import _event
from engine.protocol import Event, MoveRefused

FIXTURE = Path(__file__).parent / "golden" / "games.json"
_PROBES: list[int | str] = [-1, 0, 1, 2, 5, 40, PASS, "Golem", "Dragon", *(c.name for c in CARDS)]

RANDOM_GAMES = [
    (seed, n, cards, bubble, days, forfeit, probe)
    for seed in range(4)
    for n in (2, 3, 4)
    for cards, bubble in (("base", 9), ("simple", 5))
    for days, forfeit, probe in ((100, None, False), (12, seed * 7 + n, seed == 0))
]
AGENT_GAMES = [
    (("planner", "random"), 1),
    (("greedy_attack", "planner"), 2),
    (("planner", "greedy_points", "greedy_attack"), 3),
    (("random", "planner", "greedy_points", "greedy_attack"), 4),
    (("greedy_attack", "greedy_points"), 5),
]


def _legal(state: EconomancyState, seat: int) -> list[Any]:
    moves = state.legal_moves(seat)
    if isinstance(moves, range):
        return ["range", moves.start, moves.stop]
    return list(moves)


def _random_trace(
    seed: int, n: int, cards: str, bubble: int, days: int, forfeit: int | None, probe: bool
) -> Iterator[Any]:
    rng = random.Random(seed)
    rules = EconomancyRules(cards=cards, bubble_attack=bubble, day_limit=days)
    state = GAME.setup(rules, n)
    step = 0
    yield state.to_dict()
    while not state.over:
        to_act = state.to_act()
        turn = state.turn()
        yield [list(to_act), sorted(turn.seats), turn.mode.value]
        yield [_legal(state, s) for s in range(n)]
        if probe:
            seat = rng.randrange(n)
            for move in _PROBES:
                try:
                    state.clone().apply(seat, move)
                except MoveRefused as exc:
                    yield [seat, move, exc.code, exc.message]
                else:
                    yield [seat, move, "legal"]
        if forfeit is not None and step == forfeit:
            events = state.forfeit(rng.choice(to_act))
        else:
            seat = rng.choice(to_act)
            yield state.default_move(seat)
            moves = state.legal_moves(seat)
            quiet = state.phase == "investing" or state.asking_attacker()
            move = 0 if quiet and rng.random() < 0.3 else moves[rng.randrange(len(moves))]
            yield [seat, move]
            events = state.apply(seat, move)
        yield [e.to_dict() for e in events]
        yield [state.view(v) for v in (*range(n), None)]
        yield state.to_dict()
        step += 1
    result = state.result()
    assert result is not None
    yield result.to_dict()


def _agent_trace(names: tuple[str, ...], seed: int) -> Iterator[Any]:
    trace = io.StringIO()
    report = referee_game([parse_program(p) for p in names], seed=seed, trace=trace)
    yield from trace.getvalue().splitlines()
    yield [s.moves for s in report.seats]


def _digest(records: Iterator[Any]) -> tuple[str, Any]:
    digest = hashlib.sha256()
    last: Any = None
    for record in records:
        digest.update(json.dumps(record, sort_keys=True).encode())
        digest.update(b"\n")
        last = record
    return digest.hexdigest(), last


def _random_key(params: tuple[Any, ...]) -> str:
    return "random " + " ".join(map(str, params))


def _agent_key(names: tuple[str, ...], seed: int) -> str:
    return f"agents {' '.join(names)} seed {seed}"


def _compute() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for params in RANDOM_GAMES:
        digest, last = _digest(_random_trace(*params))
        out[_random_key(params)] = {"sha256": digest, "result": last}
    for names, seed in AGENT_GAMES:
        digest, last = _digest(_agent_trace(names, seed))
        out[_agent_key(names, seed)] = {"sha256": digest, "moves": last}
    return out


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


@pytest.mark.parametrize("params", RANDOM_GAMES, ids=_random_key)
def test_a_seeded_random_game_gives_the_recorded_trace(
    golden: dict[str, Any], params: tuple[Any, ...]
) -> None:
    expected = golden[_random_key(params)]
    digest, last = _digest(_random_trace(*params))
    assert last == expected["result"]
    assert digest == expected["sha256"]


@pytest.mark.parametrize(("names", "seed"), AGENT_GAMES)
def test_a_seeded_game_of_built_in_agents_gives_the_recorded_trace(
    golden: dict[str, Any], names: tuple[str, ...], seed: int
) -> None:
    expected = golden[_agent_key(names, seed)]
    digest, last = _digest(_agent_trace(names, seed))
    assert last == expected["moves"]
    assert digest == expected["sha256"]


def test_an_event_built_on_the_engines_fast_path_equals_the_dataclasss_own() -> None:
    fast = _event("fight", 1, {"card": 2})
    assert fast == Event("fight", 1, {"card": 2})
    assert (fast.kind, fast.seat, fast.data) == ("fight", 1, {"card": 2})
    with pytest.raises(AttributeError):
        fast.kind = "other"  # type: ignore[misc]


def test_the_fixture_covers_every_game_of_this_module(golden: dict[str, Any]) -> None:
    keys = {_random_key(p) for p in RANDOM_GAMES} | {_agent_key(*g) for g in AGENT_GAMES}
    assert set(golden) == keys
    reasons = {g["result"]["reason"] for g in golden.values() if "result" in g}
    assert reasons == {"points", "last_standing", "day_limit"}


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps(_compute(), indent=1, sort_keys=True) + "\n")
