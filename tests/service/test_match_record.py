"""A finished Economancy table's record (app/service/match_record.py): the log of public
events the write path keeps, played again into every step of the game; and, as the
adversary reads it, that nothing a seat chose in secret is in the log or in any view before
it is revealed.

The games here are stored and read back at every write as the write path does (the match
rebuilt from its stored form, its events of the change alone, :func:`logged_state`), with
random legal moves, random forfeits and several moves per write (a clock's write plays
every computer player at once)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.service.errors import GameNotFinished, RecordNotKept
from app.service.match_record import LOG, RecordUnreadable, logged_state, record_body
from engine.dealing import seed_sequence
from engine.match import Match
from engine.protocol import TurnMode

Stored = dict[str, Any]


def _lobby(n: int, rules: dict[str, Any] | None = None) -> Stored:
    match = Match.new("economancy", rules)
    for i in range(n):
        match.join(f"p{i}")
    return match.to_dict()


def _write(stored: Stored, change: Any) -> Stored:
    """One write as the write path makes it: read, change, store with the log."""
    match = Match.from_dict(stored)
    match.events = []
    change(match)
    return logged_state(stored, match)


def _start(stored: Stored) -> Stored:
    return _write(stored, lambda m: m.start(by="p0", seeds=seed_sequence(1)))


def _random_move(match: Match, seat: int, rng: random.Random) -> Any:
    assert match.state is not None
    return rng.choice(list(match.state.legal_moves(seat)))


def _play_one_write(match: Match, rng: random.Random, forfeits: bool) -> None:
    """A few moves of the seats to act (a forfeit now and then)."""
    for _ in range(rng.randint(1, 4)):
        if match.result() is not None:
            return
        seats = sorted(match.turn().seats)
        seat = rng.choice(seats)
        if forfeits and rng.random() < 0.03:
            match.forfeit(seat)
        else:
            match.apply_parsed(seat, _random_move(match, seat, rng))


def _random_game(seed: int, n: int, forfeits: bool, day_limit: int = 12) -> Stored:
    rng = random.Random(seed)
    stored = _start(_lobby(n, {"day_limit": day_limit}))
    for _ in range(5000):
        if Match.from_dict(stored).result() is not None:
            return stored
        stored = _write(stored, lambda m: _play_one_write(m, rng, forfeits))
    raise AssertionError("the game did not end")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 4), forfeits=st.booleans())
def test_a_finished_game_replays_from_its_log_into_the_state_it_ended_in(
    seed: int, n: int, forfeits: bool
) -> None:
    stored = _random_game(seed, n, forfeits)
    final = Match.from_dict(stored)
    record = record_body("g", 7, stored)
    steps = record["steps"]
    assert steps[0]["events"][0]["kind"] == "started"
    assert steps[0]["day_count"] == 1
    assert steps[-1]["view"] == final.view(None)
    assert record["result"] == final.result().to_dict()  # type: ignore[union-attr]
    assert [e for step in steps for e in step["events"]] == stored[LOG]
    days = [step["day_count"] for step in steps]
    assert days == sorted(days)
    assert all(step["view"]["player"] is None for step in steps)


def test_a_choice_enters_the_log_when_it_is_revealed_and_not_before() -> None:
    stored = _start(_lobby(2))
    stored = _write(stored, lambda m: m.apply(0, [1]))
    assert [e["kind"] for e in stored[LOG]] == ["started"]  # p0 chose: nothing revealed
    stored = _write(stored, lambda m: m.apply(1, [0]))
    assert [e["kind"] for e in stored[LOG]] == ["started", "invested"]
    assert stored[LOG][1]["amounts"] == [1, 0]


def test_the_record_of_a_game_in_play_or_in_the_lobby_is_refused() -> None:
    lobby = _lobby(2)
    with pytest.raises(GameNotFinished):
        record_body("g", 1, lobby)
    running = _start(lobby)
    with pytest.raises(GameNotFinished):
        record_body("g", 1, running)


def test_a_game_started_before_logs_were_kept_has_no_record() -> None:
    stored = _random_game(3, 2, forfeits=False)
    without = {k: v for k, v in stored.items() if k != LOG}
    with pytest.raises(RecordNotKept):
        record_body("g", 1, without)
    # and its writes after the start keep no partial log
    lobby_less = _start(_lobby(2))
    del lobby_less[LOG]
    later = _write(lobby_less, lambda m: m.apply(0, [0]))
    assert LOG not in later


def test_a_log_that_is_not_this_game_is_refused_as_unreadable() -> None:
    stored = _random_game(5, 3, forfeits=False)
    for index in (1, len(stored[LOG]) // 2, len(stored[LOG]) - 1):
        broken = dict(stored)
        broken[LOG] = [dict(e) for e in stored[LOG]]
        event = broken[LOG][index]
        if event["kind"] == "invested":
            event["amounts"] = [None if a is None else a + 100 for a in event["amounts"]]
        else:
            event["kind"] = "bought" if event["kind"] != "bought" else "invested"
        with pytest.raises(RecordUnreadable):
            record_body("g", 1, broken)
    cut = dict(stored)
    cut[LOG] = stored[LOG][:-2]
    with pytest.raises(RecordUnreadable):
        record_body("g", 1, cut)


def test_figgie_tables_keep_no_log() -> None:
    match = Match.new("figgie")
    for name in ("a", "b", "c", "d"):
        match.join(name)
    stored = match.to_dict()
    started = _write(stored, lambda m: m.start(by="a", seeds=seed_sequence(2)))
    assert LOG not in started


def _outputs(match: Match, stored_before: Stored) -> list[Any]:
    """Everything any reader of the table is given, and the log as stored."""
    n = len(match.nicknames)
    seen: list[Any] = [match.view(v) for v in [None, *range(n)]]
    seen.append([e.to_dict() for e in match.events])
    seen.append(logged_state(stored_before, match).get(LOG))
    return seen


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 4))
def test_a_secret_choice_is_in_no_view_no_event_and_no_log_until_it_is_revealed(
    seed: int, n: int
) -> None:
    """Two games that differ only in one seat's hidden choice look the same to every
    viewer, in the events and in the stored log, until the choice is revealed."""
    rng = random.Random(seed)
    stored = _start(_lobby(n, {"day_limit": 6}))
    compared = 0
    for _ in range(400):
        match = Match.from_dict(stored)
        if match.result() is not None:
            break
        match.events = []
        turn = match.turn()
        seat = rng.choice(sorted(turn.seats))
        assert match.state is not None
        legal = list(match.state.legal_moves(seat))
        if turn.mode is TurnMode.SIMULTANEOUS and len(turn.seats) > 1 and len(legal) > 1:
            one, other = rng.sample(legal, 2)
            twin = Match.from_dict(stored)
            twin.events = []
            match.apply_parsed(seat, one)
            twin.apply_parsed(seat, other)
            assert _outputs(match, stored) == _outputs(twin, stored)
            compared += 1
        else:
            match.apply_parsed(seat, rng.choice(legal))
        stored = logged_state(stored, match)
    if compared == 0:
        pytest.skip("no simultaneous step with a choice in this game")
