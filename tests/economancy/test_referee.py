"""The referee drives real player programs: the protocol, faults with their reasons, the
trace and its replay."""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path

import pytest

from arena.economancy.referee import (
    FaultReason,
    GameReport,
    ReplayMismatch,
    referee_game,
    replay_trace,
)
from arena.economancy.specs import ProgramSpecError, parse_program
from engine.economancy import EconomancyRules

BOT = Path(__file__).parent / "bots" / "bot.py"
ROOT = Path(__file__).parents[2]
SHORT = EconomancyRules(day_limit=3)


def bot(mode: str, *args: str | Path) -> str:
    return shlex.join([sys.executable, str(BOT), mode, *map(str, args)])


def play(
    *programs: str, rules: EconomancyRules = SHORT, **kw: float
) -> tuple[GameReport, list[dict]]:
    trace = io.StringIO()
    specs = [parse_program(p) for p in programs]
    kw.setdefault("startup_time", 20.0)
    report = referee_game(specs, rules=rules, trace=trace, **kw)
    return report, [json.loads(line) for line in trace.getvalue().splitlines()]


def test_a_well_behaved_program_plays_to_the_day_limit_and_receives_the_end_state(
    tmp_path: Path,
) -> None:
    log = tmp_path / "states.jsonl"
    report, trace = play(bot("record", log), "greedy_points")
    assert report.faults == ()
    assert report.reason in ("day_limit", "points", "last_standing")
    received = [json.loads(line) for line in log.read_text().splitlines()]
    assert received[0]["phase"] == {"name": "investing"}
    assert set(received[0]) == {"day", "phase", "shop", "players", "player"}
    assert received[-1]["phase"]["name"] == "end"
    sent = [rec["state"] for rec in trace if rec["type"] == "state" and rec["seat"] == 0]
    assert received == sent
    assert replay_trace(json.dumps(rec) for rec in trace).reason == report.reason


@pytest.mark.parametrize("mode", ["nonewline", "bare"])
def test_a_move_without_a_trailing_newline_is_read_as_a_json_value(mode: str) -> None:
    report, _ = play(bot(mode), bot("good"))
    assert report.faults == ()
    assert report.seats[0].moves > 3


@pytest.mark.parametrize("mode", ["hyphen", "underscore"])
def test_the_attacking_phase_carries_both_spellings_of_the_attackers_card(mode: str) -> None:
    report, trace = play(bot(mode), "greedy_attack", rules=EconomancyRules(day_limit=6))
    asked = [
        rec["state"]["phase"]
        for rec in trace
        if rec["type"] == "state" and rec["state"]["phase"]["name"] == "attacking"
    ]
    assert asked  # the greedy attacker attacked, and the bot defended
    assert all(p["attacker-card"] == p["attacker_card"] for p in asked)
    assert report.seats[0].fault is None


def test_a_program_that_writes_garbage_loses_by_fault_with_the_reason() -> None:
    report, trace = play(bot("garbage"), "random")
    fault = report.seats[0].fault
    assert fault is not None
    assert fault.reason is FaultReason.BAD_OUTPUT
    assert "not JSON" in fault.detail
    assert report.winner == 1
    assert any(rec["type"] == "fault" for rec in trace)


def test_a_program_that_crashes_loses_by_fault_with_its_exit_status_and_stderr() -> None:
    report, _ = play("random", bot("crash"))
    fault = report.seats[1].fault
    assert fault is not None
    assert fault.reason is FaultReason.CRASHED
    assert "status 3" in fault.detail
    assert "something went wrong" in fault.detail
    assert report.winner == 0


def test_a_program_that_never_answers_loses_by_timeout() -> None:
    report, _ = play(bot("sleep"), "random", time_limit=0.3, startup_time=0.0)
    fault = report.seats[0].fault
    assert fault is not None
    assert fault.reason is FaultReason.TIMEOUT


def test_an_illegal_move_is_a_fault_naming_the_rule_and_the_trace_marks_it_refused() -> None:
    report, trace = play(bot("illegal"), bot("good"))
    fault = report.seats[0].fault
    assert fault is not None
    assert fault.reason is FaultReason.ILLEGAL_MOVE
    assert "you may invest 0 to 3" in fault.detail
    assert {"type": "refused", "code": "bad_investment"} in trace
    assert replay_trace(json.dumps(rec) for rec in trace).faults == 1


def test_writing_before_being_asked_is_a_fault() -> None:
    report, _ = play(bot("early"), bot("good"))
    fault = report.seats[0].fault
    assert fault is not None
    assert fault.reason is FaultReason.BAD_OUTPUT
    assert "before it was asked" in fault.detail


def test_at_three_players_a_faulting_seat_is_out_and_the_others_play_on() -> None:
    report, trace = play(bot("garbage"), bot("good"), bot("good"))
    assert report.seats[0].fault is not None
    assert report.places[0] == 3
    later = [rec for rec in trace if rec["type"] == "state"][-1]
    assert later["state"]["players"][0]["cards"] == []
    assert report.moves > 6  # the two others went on


def test_a_program_that_cannot_be_started_is_a_fault_not_a_crash_of_the_referee(
    tmp_path: Path,
) -> None:
    script = tmp_path / "player"
    script.write_text("not a program")
    report, _ = play(str(script), "random")
    fault = report.seats[0].fault
    assert fault is not None
    assert fault.reason is FaultReason.CRASHED


def test_the_javascript_example_plays_under_the_referee() -> None:
    report, trace = play(f"node {ROOT / 'examples' / 'economancy' / 'careful.js'}", "random")
    assert report.faults == ()
    assert replay_trace(json.dumps(rec) for rec in trace).moves == report.moves


def test_the_python_example_plays_under_the_referee() -> None:
    program = shlex.join([sys.executable, str(ROOT / "examples" / "economancy" / "planner.py")])
    report, _ = play(program, "greedy_points")
    assert report.faults == ()


def test_a_replay_detects_a_state_that_differs_from_the_engines() -> None:
    _, trace = play("random", "random")
    for rec in trace:
        if rec["type"] == "state":
            rec["state"]["players"][0]["coins"] += 1
            break
    with pytest.raises(ReplayMismatch, match="differs"):
        replay_trace(json.dumps(rec) for rec in trace)


def test_a_replay_detects_a_trace_cut_short() -> None:
    _, trace = play("random", "random")
    with pytest.raises(ReplayMismatch, match="before the game's end"):
        replay_trace(json.dumps(rec) for rec in trace[:-8])


def test_an_unknown_program_is_refused_by_name() -> None:
    with pytest.raises(ProgramSpecError, match="not a built-in agent"):
        parse_program("no_such_program_anywhere")
