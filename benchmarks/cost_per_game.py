"""Cost per 1,000 games on AWS, from the figures benchmarks/lambda_cpu.py measured.

    .venv/bin/python benchmarks/lambda_cpu.py --games 8 --out build/lambda_cpu.json
    .venv/bin/python benchmarks/cost_per_game.py build/lambda_cpu.json

For each table (Blef: 2 and 6 players, all human or one human with AI players; with
``--games-of all``, Economancy and Figgie too) it takes, per game,
the requests of each kind that lambda_cpu.py counted while playing whole games, and per
request its median CPU time and the DynamoDB read and write units from the real item sizes.

- **Lambda duration** is the measured CPU time scaled to the deployed memory size (read from
  infra/blef_infra/config.py): Lambda gives 1,769 MB one vCPU, so 512 MB a share of
  512/1,769, and a request's CPU takes 1,769/512 as long; each invocation is billed
  rounded up to the millisecond. **Not included**: the wait for DynamoDB and SQS round
  trips (network time, not measured here), so this is the compute floor, not the bill.
- **Stream functions**: one invocation of the clock's ``schedule`` and one of the pusher per
  change (batch size 1: the most invocations; batching lowers it).
- **Clients poll**: every human reads each new version of the game once (``state``).
- **SQS**: each clock message is sent, received and deleted (3 requests).
- **Economancy** (``--games-of all``): whole games as measured, one human seat and 1 or 3
  built-in agents moved by the clock.
- **Figgie** (``--games-of all``): a table traded fewer orders than a game has; a game is
  the built-in agents' orders per game on the research simulator (240 one-second ticks),
  each an accepted order, a change (``schedule`` and ``push``, with the SQS messages the
  measured ``schedule`` sent per record: an upper bound once the clock sends one message per
  due time, since those do not grow with the orders), one read of the new version by every
  seat (as the clients poll), and, from a tree that sent one clock message per version, that
  message coming at the deadline to find the game moved on (``clock_stale``); the lobby, the
  end of trading and the settlement as measured. Refused orders are left out.
- **Websocket** messages are the alternative to polling (one per change per human
  watching), priced in their own column, not added to the total.

Prints a Markdown table (and the JSON it came from with ``--json``).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO_DIR = Path(__file__).resolve().parent.parent
PRICES = {  # us-east-1, per unit
    "http_request": 1.00 / 1e6,
    "lambda_request": 0.20 / 1e6,
    "lambda_gb_s": 0.0000133334,  # arm64
    "wru": 0.625 / 1e6,
    "rru": 0.125 / 1e6,
    "sqs_request": 0.40 / 1e6,
    "websocket_message": 1.00 / 1e6,
}
HTTP_ACTIONS = ("create", "join", "invite", "ai", "start", "bet", "check", "move", "order", "state")
CLOCK_ACTIONS = ("schedule", "clock", "clock_stale")
"""The game clock's own work: the stream function that schedules a due version, and the SQS
function that fires it (an AI's move, a timeout, the end of Figgie's trading; ``stale``: a
message whose version the game has left, which does nothing)."""
FULL_VCPU_MB = 1769
HUMANS = {
    "2p": 2,
    "2p_ai": 1,
    "6p": 6,
    "6p_ai": 1,
    "economancy_2p_ai": 1,
    "economancy_4p_ai": 1,
    "figgie_4p": 4,
    "figgie_5p": 5,
}
LABELS = {
    "2p": "Blef, 2 players",
    "2p_ai": "Blef, 2 players, 1 of them AI",
    "6p": "Blef, 6 players",
    "6p_ai": "Blef, 6 players, 5 of them AI",
    "economancy_2p_ai": "Economancy, 2 players, 1 of them AI",
    "economancy_4p_ai": "Economancy, 4 players, 3 of them AI",
    "figgie_4p": "Figgie, 4 bots",
    "figgie_5p": "Figgie, 5 bots",
}
PER_ORDER = ("order", "clock_stale")
"""Figgie's requests that come once per accepted order: scaled to the simulator's orders."""


def base(action: str) -> str:
    """An action's kind without its game (``figgie:order`` -> ``order``)."""
    return action.rsplit(":", 1)[-1]


def figgie_per_game(measured: dict[str, Any], table: str) -> dict[str, float]:
    """The requests of a whole Figgie game of ``table``, from a measured table that traded
    fewer orders: the built-in agents' orders per game on the simulator
    (``figgie_sim_per_game``) replace the measured accepted orders; each brings its stale
    clock message (scaled like the orders), one change (``schedule`` and ``push``: the
    measured lobby changes kept), and one read of the new version by every seat. Refused
    orders are left out (the agents send orders the rules allow)."""
    counts = measured["requests_per_game"][table]
    game = next(a.split(":")[0] for a in counts)
    orders = measured["figgie_sim_per_game"][table]["orders"]
    seats = HUMANS[table]
    measured_orders = counts[f"{game}:order"]
    result: dict[str, float] = {}
    for action, n in counts.items():
        kind = base(action)
        if kind == "order_refused":
            continue
        if kind in PER_ORDER:
            result[action] = n * orders / measured_orders
        elif kind in ("schedule", "push"):
            result[action] = n - measured_orders + orders
        elif kind == "state":
            result[action] = orders * seats
        else:
            result[action] = n
    return result


def requests_of_game(measured: dict[str, Any], table: str) -> dict[str, float]:
    """Requests of each kind in one game of ``table``."""
    if table in measured.get("figgie_sim_per_game", {}):
        return figgie_per_game(measured, table)
    return dict(measured["requests_per_game"][table])


def deployed_memory_mb() -> int:
    text = (REPO_DIR / "infra" / "blef_infra" / "config.py").read_text()
    sizes = {int(m) for m in re.findall(r"memory_mb=(\d+)", text)}
    if len(sizes) != 1:
        raise SystemExit(f"expected one memory size in infra config, found {sorted(sizes)}")
    return sizes.pop()


def cost(
    measured: dict[str, Any], table: str, memory_mb: int, only: Sequence[str] | None = None
) -> dict[str, float]:
    """Dollars per 1,000 games of ``table`` (and the counts behind them); with ``only``, the
    share of those actions alone (the HTTP API is then what they were asked through)."""
    actions = measured["actions"]
    counts = requests_of_game(measured, table)
    if only is not None:
        counts = {a: n for a, n in counts.items() if base(a) in only}
    scale = FULL_VCPU_MB / memory_mb
    http = sum(n for a, n in counts.items() if base(a) in HTTP_ACTIONS)
    invocations = sum(counts.values())
    billed_ms = sum(n * math.ceil(actions[a]["cpu_ms_median"] * scale) for a, n in counts.items())
    gb_s = billed_ms / 1000 * memory_mb / 1024
    wru = sum(n * actions[a]["write_units"] for a, n in counts.items())
    rru = sum(n * actions[a]["read_units"] for a, n in counts.items())
    sqs = sum(n * actions[a]["sqs_messages"] for a, n in counts.items()) * 3
    changes = sum(n for a, n in counts.items() if base(a) == "push")
    per_game = {
        "http_api": http * PRICES["http_request"],
        "lambda": invocations * PRICES["lambda_request"] + gb_s * PRICES["lambda_gb_s"],
        "dynamodb": wru * PRICES["wru"] + rru * PRICES["rru"],
        "sqs": sqs * PRICES["sqs_request"],
    }
    result = {key: value * 1000 for key, value in per_game.items()}
    result["total"] = sum(result.values())
    result["websocket_instead_of_polling"] = (
        changes * HUMANS[table] * PRICES["websocket_message"] * 1000
    )
    result |= {
        "http_requests": http,
        "invocations": invocations,
        "billed_ms": billed_ms,
        "wru": wru,
        "rru": rru,
    }
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Cost per 1,000 games from measured figures.")
    parser.add_argument("measured", type=Path, help="the JSON line of benchmarks/lambda_cpu.py")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    measured = json.loads(args.measured.read_text())
    memory = deployed_memory_mb()
    rows = {table: cost(measured, table, memory) for table in measured["requests_per_game"]}
    for table, row in rows.items():
        row["clock"] = cost(measured, table, memory, CLOCK_ACTIONS)["total"]
    print(
        f"Lambda {memory} MB arm64; measured {measured['date']}, "
        f"{measured['games_per_table']} games per table, Python {measured['python']}\n"
    )
    print(
        "| per 1,000 games | HTTP requests / game | Lambda invocations / game | WRU / game "
        "| RRU / game | HTTP API $ | Lambda $ | DynamoDB $ | SQS $ | **total $** "
        "| of which the clock $ | websocket instead of polling $ |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for table, row in rows.items():
        print(
            f"| {LABELS.get(table, table)} | {row['http_requests']:.0f} | "
            f"{row['invocations']:.0f} | {row['wru']:.0f} | {row['rru']:.0f} | "
            f"{row['http_api']:.3f} | {row['lambda']:.3f} | {row['dynamodb']:.3f} | "
            f"{row['sqs']:.4f} | **{row['total']:.3f}** | {row['clock']:.3f} | "
            f"{row['websocket_instead_of_polling']:.3f} |"
        )
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
