"""The referee: built-in agents and external programs at one table, and forfeits."""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

import pytest

from arena.protocol import RoundLog
from arena.referee import ForfeitReason, GameReport, _ProgramPlayer, referee_game
from arena.specs import parse_agent
from engine.agents import AGENTS, Agent
from engine.dealing import seed_sequence
from engine.game import Game
from engine.observation import Observation
from tests.arena.helpers import HONEST, NODE_BOT, bot_agent, specs

SLOW_START = 20.0  # generous start-up allowance: these tests are not about start-up time


def _referee(*agents: str, seed: int = 1, **options: float) -> GameReport:
    options.setdefault("time_limit", 5.0)
    options.setdefault("startup_time", SLOW_START)
    return referee_game(specs(*agents), seed=seed, **options)


def _assert_finished_normally(report: GameReport) -> None:
    assert report.rounds
    assert report.rounds[-1].ended_game
    assert report.winner in report.seating
    assert sum(seat.rounds_lost for seat in report.seats) == report.n_rounds


def test_built_in_agents_and_external_programs_play_at_one_table() -> None:
    report = _referee("random", HONEST, bot_agent("lowest"), seed=3)
    _assert_finished_normally(report)
    assert report.forfeits == ()
    programs = [seat for seat in report.seats if seat.agent.startswith("exec:")]
    assert [seat.nickname for seat in programs] == ["honest_bettor_2", "testbot_3"]
    assert sum(seat.moves for seat in programs) > 0
    for seat in report.seats:
        assert seat.rounds_played > 0
        assert seat.timed_moves <= seat.moves


def test_the_example_bot_of_the_protocol_document_beats_random_here() -> None:
    report = _referee("random", HONEST, seed=3)
    _assert_finished_normally(report)
    assert report.winner == "honest_bettor_2"


@pytest.mark.parametrize(
    ("mode", "reason", "detail"),
    [
        ("crash", ForfeitReason.CRASHED, "exited with status 3; stderr: Traceback: something"),
        ("exit", ForfeitReason.CRASHED, "exited with status 0"),
        ("garbage", ForfeitReason.BAD_OUTPUT, "not a JSON line: 'I raise you three aces!'"),
        ("wrong_type", ForfeitReason.BAD_OUTPUT, 'an integer "action_id"'),
        ("illegal", ForfeitReason.ILLEGAL_ACTION, "; legal now: "),
    ],
)
def test_a_misbehaving_program_forfeits_with_the_reason_and_the_game_goes_on(
    mode: str, reason: ForfeitReason, detail: str
) -> None:
    report = _referee(bot_agent(mode), "random", "random", seed=2)
    (forfeit,) = report.forfeits
    assert forfeit.nickname == "testbot_1"
    assert forfeit.reason is reason
    assert detail in forfeit.detail
    bot = report.seats[0]
    assert bot.forfeit == forfeit
    assert bot.eliminated_in_round == forfeit.round_number
    assert report.rounds[forfeit.round_number - 1].forfeited
    # The two others play on to the finish.
    _assert_finished_normally(report)
    assert report.winner in ("random_2", "random_3")
    assert report.n_rounds > forfeit.round_number


def test_a_program_that_wrote_a_line_before_it_was_asked_forfeits_for_bad_output() -> None:
    # Through the referee this depends on timing (the line must arrive before the program's
    # next turn), so the player is driven directly, once the line is surely there.
    game = Game(seed_source=seed_sequence(1))
    game.join("early")
    game.join("other")
    game.start()
    program = _ProgramPlayer([sys.executable, "-c", "print('hello', flush=True)"], 5.0, 20.0)
    program.start()
    try:
        while not program._bot.has_output():
            time.sleep(0.01)
        decision = program.decide(game, "early", RoundLog())
    finally:
        program.close(0.0)
    assert decision.reason is ForfeitReason.BAD_OUTPUT
    assert decision.detail == "wrote 'hello' when it was not its turn"


def test_a_program_that_answers_too_late_forfeits_on_time() -> None:
    report = _referee(bot_agent("sleep"), "random", "random", time_limit=0.3, startup_time=0.2)
    (forfeit,) = report.forfeits
    assert forfeit.reason is ForfeitReason.TIMEOUT
    assert forfeit.detail == "no answer within 0.5 s"  # its first answer: limit + start-up
    _assert_finished_normally(report)


def test_a_program_that_cannot_be_started_forfeits_as_crashed() -> None:
    table = [parse_agent("exec:/no/such/program", check_command=False), *specs("random")]
    report = referee_game(table, seed=1)
    (forfeit,) = report.forfeits
    assert forfeit.reason is ForfeitReason.CRASHED
    assert "could not be started" in forfeit.detail
    assert report.winner == "random_2"


class _Raising(Agent):
    name = "raising"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, obs: Observation) -> int:
        raise ZeroDivisionError("oops")


class _Cheating(Agent):
    name = "cheating"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, obs: Observation) -> int:
        return 88  # a check, even when nothing has been bet


class _Confused(Agent):
    name = "confused"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, obs: Observation) -> int:
        return "88"  # type: ignore[return-value]  # what a buggy agent might do


def test_a_built_in_agent_that_raises_or_cheats_forfeits_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(AGENTS, "raising", _Raising)
    monkeypatch.setitem(AGENTS, "cheating", _Cheating)
    monkeypatch.setitem(AGENTS, "confused", _Confused)
    report = _referee("raising", "cheating", "confused", "random", "random")
    reasons = {f.nickname: (f.reason, f.detail) for f in report.forfeits}
    assert reasons["raising_1"] == (ForfeitReason.CRASHED, "act raised ZeroDivisionError: oops")
    assert reasons["cheating_2"][0] is ForfeitReason.ILLEGAL_ACTION
    assert "played 88 (check); legal now: a bet 0..87" in reasons["cheating_2"][1]
    assert reasons["confused_3"] == (
        ForfeitReason.BAD_OUTPUT,
        "act returned '88', not an action id",
    )
    _assert_finished_normally(report)


def test_every_program_still_in_the_game_hears_every_turn_and_the_end(tmp_path: Path) -> None:
    logs = [tmp_path / "first.jsonl", tmp_path / "second.jsonl"]
    report = _referee(bot_agent("record", logs[0]), "random", bot_agent("record", logs[1]))
    _assert_finished_normally(report)
    for log, nick in zip(logs, ("testbot_1", "testbot_3"), strict=True):
        messages = [json.loads(line) for line in log.read_text().splitlines()]
        *turns, last = messages
        seat = next(s for s in report.seats if s.nickname == nick)
        assert len(turns) == seat.moves
        for sent in turns:
            assert sent["event"] == "your_turn"
            assert sent["you"] == sent["cp_nickname"] == nick
            assert [hand["nickname"] for hand in sent["hands"]] == [nick]
            assert sent["legal_actions"]
            assert len(sent["rounds"]) == sent["round_number"] - 1
        assert last["event"] == "game_over"
        assert last["you"] == nick
        assert last["winner"] == report.winner
        assert last["status"] == "Finished"
        assert len(last["rounds"]) == report.n_rounds
        assert last["rounds"] == [record.to_dict() for record in report.rounds]


def test_the_same_seed_gives_the_same_game() -> None:
    first = _referee("random", HONEST, "random", seed=11)
    again = _referee("random", HONEST, "random", seed=11)
    other = _referee("random", HONEST, "random", seed=12)
    assert first.rounds == again.rounds
    assert first.seating == again.seating
    assert first.rounds != other.rounds


def test_the_report_is_json_with_every_round_and_timed_move() -> None:
    report = _referee("random", HONEST, seed=4)
    data = json.loads(json.dumps(report.to_dict()))
    assert data["winner"] == report.winner
    assert len(data["rounds"]) == report.n_rounds
    moves = [m for r in data["rounds"] for m in r["history"] if m["action_id"] != 89]
    assert [(m["player"], m["action_id"]) for m in data["moves"]] == [
        (m["player"], m["action_id"]) for m in moves
    ]
    assert {seat["nickname"] for seat in data["seats"]} == set(report.seating)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_the_javascript_example_bot_plays_too() -> None:
    report = _referee("random", f"exec:node {NODE_BOT}", seed=5)
    _assert_finished_normally(report)
    assert report.forfeits == ()
    assert report.seats[1].moves > 0


def test_a_game_needs_two_to_eight_players() -> None:
    with pytest.raises(ValueError, match=r"2\.\.8 players"):
        referee_game(specs("random"), seed=1)


def test_two_example_bots_play_a_variant_game_by_its_rules() -> None:
    """32 cards, a joker, two common cards: the honest bot and the Node bot (or a second
    honest bot without Node) play to the end by the rules, without a forfeit."""
    from arena.specs import parse_rules

    rules = parse_rules("deck=32,jokers=1,common=2,max=5,initial=2")
    other = f"exec:node {NODE_BOT}" if shutil.which("node") else HONEST
    report = referee_game(specs(HONEST, other), seed=11, rules=rules, startup_time=20)
    assert report.forfeits == ()
    assert report.rules == rules
    assert report.rounds[-1].ended_game
    assert all(r.rules == rules and len(r.common) == 2 for r in report.rounds)
    assert "--rules deck=32,jokers=1,common=2,max=5,initial=2" in report.replay_command
    assert report.to_dict()["rules"] == rules.to_dict()


def test_a_bots_message_carries_the_rules_and_the_common_hand() -> None:
    from arena.protocol import YOUR_TURN, message
    from engine.rules import Rules

    rules = Rules(deck_size=32, jokers=1, common_cards=2)
    game = Game(seed_sequence(2), rules)
    game.join("ann")
    game.join("ben")
    game.start()
    me = game.current_player
    assert me is not None
    sent = json.loads(message(game, me, YOUR_TURN, RoundLog()))
    assert sent["rules"] == rules.to_dict()
    assert sent["common_hand"] == [rules.card_dict(i) for i in game.common_indices]
    assert len(sent["common_hand"]) == 2
    assert sent["legal_actions"][-1] == 139
