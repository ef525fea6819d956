"""Cost per 1,000 games on AWS, from the figures benchmarks/lambda_cpu.py measured.

    .venv/bin/python benchmarks/lambda_cpu.py --games 8 --out build/lambda_cpu.json
    .venv/bin/python benchmarks/cost_per_game.py build/lambda_cpu.json

For each table (2 and 6 players, all human or one human with AI players) it takes, per game,
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
HTTP_ACTIONS = ("create", "join", "invite", "start", "bet", "check", "state")
CLOCK_ACTIONS = ("schedule", "clock")
"""The game clock's own work: the stream function that schedules a due version, and the SQS
function that fires it (an AI's move or a timeout)."""
FULL_VCPU_MB = 1769
HUMANS = {"2p": 2, "2p_ai": 1, "6p": 6, "6p_ai": 1}
LABELS = {
    "2p": "2 players",
    "2p_ai": "2 players, 1 of them AI",
    "6p": "6 players",
    "6p_ai": "6 players, 5 of them AI",
}


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
    counts = measured["requests_per_game"][table]
    if only is not None:
        counts = {a: n for a, n in counts.items() if a in only}
    scale = FULL_VCPU_MB / memory_mb
    http = sum(counts.get(a, 0) for a in HTTP_ACTIONS)
    invocations = sum(counts.values())
    billed_ms = sum(n * math.ceil(actions[a]["cpu_ms_median"] * scale) for a, n in counts.items())
    gb_s = billed_ms / 1000 * memory_mb / 1024
    wru = sum(n * actions[a]["write_units"] for a, n in counts.items())
    rru = sum(n * actions[a]["read_units"] for a, n in counts.items())
    sqs = sum(n * actions[a]["sqs_messages"] for a, n in counts.items()) * 3
    changes = counts.get("push", 0)
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
