"""Player programs written the ways students write them, under the referee.

Each style is a small program in ``tests/economancy/programs/`` (one file per style; they
share only their choice of move, ``_moves.py``). The accepted styles play whole games
without a fault against a built-in attacker (so they invest, defend and buy); the faulty
styles lose by the fault docs/economancy.md names, with a detail that says what to fix.
"""

from __future__ import annotations

import io
import json
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from arena.economancy.referee import FaultReason, GameReport, referee_game, replay_trace
from arena.economancy.specs import parse_program
from engine.economancy import EconomancyRules

PROGRAMS = Path(__file__).parent / "programs"
RULES = EconomancyRules(day_limit=6)


def program(name: str) -> str:
    path = PROGRAMS / name
    if path.suffix == ".js":
        return shlex.join(["node", str(path)])
    return shlex.join([sys.executable, str(path)])


def play(name: str, opponent: str = "greedy_attack", **kw: float) -> tuple[GameReport, list[dict]]:
    trace = io.StringIO()
    kw.setdefault("startup_time", 20.0)
    specs = [parse_program(program(name)), parse_program(opponent)]
    report = referee_game(specs, rules=RULES, trace=trace, **kw)
    return report, [json.loads(line) for line in trace.getvalue().splitlines()]


def moves_of(trace: list[dict], seat: int = 0) -> list[object]:
    return [rec["move"] for rec in trace if rec["type"] == "move" and rec["seat"] == seat]


def phases_asked(trace: list[dict], seat: int = 0) -> set[str]:
    asked = set()
    for rec in trace:
        if rec["type"] == "state" and rec["seat"] == seat:
            phase = rec["state"]["phase"]
            if phase["name"] == "attacking":
                asked.add("attacking" if phase["attacker"] == seat else "defending")
            else:
                asked.add(phase["name"])
    return asked


ACCEPTED = [
    "line_per_state.py",
    "value_stream.py",
    "value_stream.js",
    "spaced.py",
    "pieces.py",
    "bare_values.py",
    "strings.py",
    "crlf.py",
    "debug_stderr.py",
    "stderr_flood.py",
    "keeps_running.py",
    "exit_nonzero.py",
]


@pytest.mark.parametrize("name", ACCEPTED)
def test_a_program_in_an_accepted_style_plays_a_whole_game_without_fault(name: str) -> None:
    if name.endswith(".js") and shutil.which("node") is None:
        pytest.skip("node is not installed")
    report, trace = play(name)
    assert report.faults == ()
    assert {"investing", "defending", "buy"} <= phases_asked(trace)  # every kind of question
    assert report.seats[0].moves == len(moves_of(trace)) > 6
    assert trace[-1]["type"] == "end"
    assert replay_trace(json.dumps(rec) for rec in trace).moves == report.moves


def test_moves_written_as_bare_values_are_read_as_the_moves_they_name() -> None:
    _, trace = play("bare_values.py")
    moves = moves_of(trace)
    assert 0 in moves
    assert any(isinstance(m, str) and m != "Pass" for m in moves)  # a card bought by name
    assert not any(isinstance(m, list) for m in moves)


def test_moves_written_as_strings_of_digits_or_lower_case_names_are_read_as_moves() -> None:
    _, trace = play("strings.py")
    moves = moves_of(trace)
    assert ["0"] in moves
    assert any(m != ["0"] and m[0].endswith(" ") for m in moves)  # e.g. ["worker "]


def test_megabytes_on_standard_error_never_stall_the_game_and_only_its_end_is_kept() -> None:
    report, _ = play("stderr_flood.py", opponent=program("exit_nonzero.py"))
    assert report.faults == ()
    assert report.seats[0].moves > 6  # each move followed half a megabyte of stderr


def test_a_program_that_keeps_running_after_the_end_is_stopped_without_a_fault() -> None:
    report, trace = play("keeps_running.py", opponent=program("keeps_running.py"))
    assert report.faults == ()
    assert [rec["seat"] for rec in trace if rec["type"] == "state"][-2:] == [0, 1]  # end states


def test_a_program_that_exits_with_an_error_status_after_the_end_state_has_no_fault() -> None:
    report, _ = play("exit_nonzero.py", opponent=program("exit_nonzero.py"))
    assert report.faults == ()
    assert report.reason in ("day_limit", "points", "last_standing")


def test_a_program_that_does_not_flush_times_out_and_is_told_to_flush() -> None:
    report, _ = play("unflushed.py", time_limit=0.5, startup_time=1.0)
    fault = report.seats[0].fault
    assert fault is not None
    assert fault.reason is FaultReason.TIMEOUT
    assert "flush its output" in fault.detail
    assert report.winner == 1


def test_a_program_that_reads_its_input_to_the_end_before_answering_times_out() -> None:
    report, _ = play("read_to_end.py", time_limit=0.5, startup_time=1.0)
    fault = report.seats[0].fault
    assert fault is not None
    assert fault.reason is FaultReason.TIMEOUT


@pytest.mark.parametrize(
    ("name", "written"), [("debug_stdout.py", "thinking..."), ("python_repr.py", "['")]
)
def test_text_on_standard_output_that_is_not_a_json_move_is_a_fault_that_says_why(
    name: str, written: str
) -> None:
    report, trace = play(name)
    fault = report.seats[0].fault
    assert fault is not None
    assert fault.reason is FaultReason.BAD_OUTPUT
    assert written in fault.detail
    assert "debug text belongs on standard error" in fault.detail
    assert "double quotes" in fault.detail
    assert replay_trace(json.dumps(rec) for rec in trace).faults == 1


def test_a_program_flooding_standard_output_loses_by_fault_once_64_kb_make_no_move() -> None:
    report, _ = play("stdout_flood.py")
    fault = report.seats[0].fault
    assert fault is not None
    assert fault.reason is FaultReason.BAD_OUTPUT
    assert "more than 65536 bytes without completing a value" in fault.detail
