"""Economancy referee benchmark: the referee's time per move against a bare pipe round
trip to the same program.

The program is a minimal Python player (written to a temporary file): it reads a state
line, answers the safe move (invest 0, stop attacking, the first usable defender, Pass)
and flushes. Two copies play a whole game to the day limit (``--days``, 50 by default:
200 moves; 4 moves a day).

- **referee**: :func:`arena.economancy.referee.referee_game` plays the game: two program
  processes started, every state built by the engine and sent, every answer read as a
  JSON value, parsed and applied, the end state sent, the programs stopped (no trace
  written: it is optional; a first, untimed game writes one to get the messages);
- **bare**: the same two programs started, and the very messages the referee sent (taken
  from its trace) written to them in the same order, each answer read back with one
  ``readline``; nothing checked. The floor of any referee speaking this protocol.

``--rounds`` rounds, each timing one game per side, back to back in a shuffled order
(wall-clock time: most of it is the two processes' work and the pipes, which the machine's
load stretches); it prints each round's ratio of time per move (referee / bare), their
median, quartiles and range, the ratio of the two sides' total times, this process's own
CPU time per move on each side (the referee's work, the programs' apart), and the
conditions (load average before and after). Many short rounds make the median steady
where a few long ones swing with the load.

    .venv/bin/python benchmarks/economancy_referee.py [--rounds 25] [--days 50]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from conditions import conditions  # noqa: E402 (benchmarks/, the script's own folder)

from arena.economancy.referee import referee_game  # noqa: E402
from arena.economancy.specs import parse_program  # noqa: E402
from engine.economancy import EconomancyRules  # noqa: E402

PLAYER = """
import json, sys
DEFENDS = {"Sorcerer's Stipend": 0, "Wall of Wealth": 2}
for line in sys.stdin:
    state = json.loads(line)
    phase = state["phase"]
    if phase["name"] == "end":
        break
    if phase["name"] == "investing":
        move = 0
    elif phase["name"] == "buy":
        move = "Pass"
    elif phase["attacker"] == state["player"]:
        move = 0
    else:
        cards = state["players"][state["player"]]["cards"]
        move = next(i for i, c in enumerate(cards) if c["uses"] < DEFENDS.get(c["name"], 1))
    sys.stdout.write(json.dumps([move]) + "\\n")
    sys.stdout.flush()
"""


CPU: dict[str, list[float]] = {"referee": [], "bare": []}
"""This process's own CPU time per move, each side (the programs' is not in it)."""


def referee_side(
    command: str, rules: EconomancyRules, traced: bool = False
) -> tuple[float, int, list[dict]]:
    trace = io.StringIO() if traced else None
    spec = parse_program(command)
    start, cpu = time.perf_counter(), time.process_time()
    report = referee_game([spec, spec], rules=rules, trace=trace)
    seconds = time.perf_counter() - start
    CPU["referee"].append((time.process_time() - cpu) / report.moves * 1e6)
    assert not report.faults, report.faults
    records = [json.loads(line) for line in trace.getvalue().splitlines()] if trace else []
    return seconds, report.moves, records


def bare_side(argv: list[str], records: list[dict]) -> tuple[float, int]:
    messages = [
        (rec["seat"], json.dumps(rec["state"], separators=(",", ":")) + "\n")
        for rec in records
        if rec["type"] == "state"
    ]
    start, cpu = time.perf_counter(), time.process_time()
    procs = [  # started as the referee starts them: each in a session of its own (which,
        # with Linux's scheduler autogroups, also gives each its own share of the CPU)
        subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True
        )
        for _ in range(2)
    ]
    moves = 0
    for seat, text in messages:
        proc = procs[seat]
        assert proc.stdin is not None
        assert proc.stdout is not None
        proc.stdin.write(text)
        proc.stdin.flush()
        if '"name":"end"' not in text:
            proc.stdout.readline()
            moves += 1
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    CPU["bare"].append((time.process_time() - cpu) / moves * 1e6)
    return time.perf_counter() - start, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--days", type=int, default=50)
    args = parser.parse_args()
    load = os.getloadavg()
    rules = EconomancyRules(day_limit=args.days)
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "player.py"
        script.write_text(PLAYER)
        argv = [sys.executable, str(script)]
        command = f"{sys.executable} {script}"
        _, _, records = referee_side(command, rules, traced=True)  # the messages; a warm-up
        CPU["referee"].clear()
        order = random.Random(1)
        ratios: list[float] = []
        per_move: dict[str, list[float]] = {"referee": [], "bare": []}
        for _ in range(args.rounds):
            sides = ["referee", "bare"]
            order.shuffle(sides)
            timing = {}
            for side in sides:
                if side == "referee":
                    seconds, moves, _ = referee_side(command, rules)
                else:
                    seconds, moves = bare_side(argv, records)
                timing[side] = seconds / moves
                per_move[side].append(timing[side] * 1e6)
            ratios.append(timing["referee"] / timing["bare"])
            print(
                f"referee {timing['referee'] * 1e6:7.1f} us/move, bare "
                f"{timing['bare'] * 1e6:7.1f} us/move: ratio {ratios[-1]:.2f}"
            )
    quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    summary = {
        "moves_per_game": sum(1 for rec in records if rec["type"] == "move"),
        "rounds": args.rounds,
        "median_referee_us_per_move": round(statistics.median(per_move["referee"]), 1),
        "median_bare_us_per_move": round(statistics.median(per_move["bare"]), 1),
        "median_ratio": round(statistics.median(ratios), 3),
        "quartile_ratios": [round(quartiles[0], 3), round(quartiles[2], 3)],
        "total_time_ratio": round(sum(per_move["referee"]) / sum(per_move["bare"]), 3),
        "median_referee_cpu_us_per_move": round(statistics.median(CPU["referee"]), 1),
        "median_bare_cpu_us_per_move": round(statistics.median(CPU["bare"]), 1),
        "min_ratio": round(min(ratios), 3),
        "max_ratio": round(max(ratios), 3),
        "conditions": conditions(load),
    }
    print(
        f"median ratio referee/bare: {summary['median_ratio']} (goal <= 1.5); quartiles "
        f"{summary['quartile_ratios']}, range {summary['min_ratio']}-{summary['max_ratio']}, "
        f"total time ratio {summary['total_time_ratio']}"
    )
    print(
        f"this process's CPU per move: referee {summary['median_referee_cpu_us_per_move']} us, "
        f"bare {summary['median_bare_cpu_us_per_move']} us"
    )
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
