"""Cold start of each Lambda function, as ratios to the libraries it cannot avoid.

    .venv/bin/python benchmarks/cold_start.py [--runs 15]

Each figure is one fresh interpreter (``python -c``) with the environment the functions have
on AWS, timing with ``time.perf_counter`` inside the process:

- ``import``: importing the function's entry module (``app.entrypoints.http``,
  ``.websocket``, ``.clock``), as a ratio to importing its floor: the libraries it cannot
  do without (``fastapi, mangum, boto3`` for the HTTP function; ``boto3`` for the others,
  which load it on their first invocation).
- ``first_request`` (HTTP only): importing the entry module, then its first invocation (an
  API Gateway v2 ``GET /games/create``; building the app, the settings, logging, the
  DynamoDB client), against importing the floor libraries, then the floor handler's first
  request (benchmarks/lambda_harness.py: one GetItem and one PutItem through Mangum and a
  bare FastAPI app). AWS is answered in memory at the client in both. This is what a cold
  start costs in all, wherever the work is put.

Every round runs every figure once, in a shuffled order (interleaved, so that both sides of
a ratio see the same machine load); the ratio is of the medians. Prints one JSON line.
Nothing here is Lambda itself (CPU share, Python version, disk differ): compare ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_DIR / "benchmarks"))

import lambda_harness as harness  # noqa: E402
from conditions import conditions  # noqa: E402 (benchmarks/, the script's own folder)

FUNCTIONS = {
    "app.entrypoints.http": "fastapi, mangum, boto3",
    "app.entrypoints.websocket": "boto3",
    "app.entrypoints.clock": "boto3",
}
_SETUP = (
    "import sys, time\n"
    f"sys.path.insert(0, {str(REPO_DIR / 'benchmarks')!r})\n"
    "import lambda_harness as h\n"
    "h.set_lambda_environment(); fake = h.FakeAws(); h.install(fake)\n"
    "t = time.perf_counter()\n"
)
FIRST_REQUEST = {
    "handler": _SETUP + "import app.entrypoints.http as m\n"
    "h.call(m.handler, 'GET', '/games/create')\n",
    "floor": _SETUP + "import fastapi, mangum, boto3\n"
    "h.call(h.floor_handler(fake), 'GET', '/floor/x')\n",
}


def _import_code(modules: str) -> str:
    return f"import time\nt = time.perf_counter()\nimport {modules}\n"


def _run(code: str, env: dict[str, str]) -> float:
    code += "print((time.perf_counter() - t) * 1000)\n"
    done = subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        env=env,
        cwd=REPO_DIR,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"failed:\n{code}\n{done.stderr[-2000:]}")
    return float(done.stdout.strip().splitlines()[-1])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Cold start of each Lambda function.")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    env = {k: v for k, v in os.environ.items() if not k.startswith(("BLEF_", "PYTHON"))}
    env |= harness.LAMBDA_ENVIRONMENT
    env["PYTHONPATH"] = str(REPO_DIR)
    figures: dict[str, str] = {}
    for module, floor in FUNCTIONS.items():
        figures[f"import {module}"] = _import_code(module)
        figures[f"import {floor}"] = _import_code(floor)
    figures |= {f"first request: {k}": code for k, code in FIRST_REQUEST.items()}
    times: dict[str, list[float]] = {name: [] for name in figures}
    rng = random.Random(args.seed)
    load_before = os.getloadavg()
    for _ in range(args.runs):
        order = list(figures)
        rng.shuffle(order)
        for name in order:
            times[name].append(_run(figures[name], env))
    median = {name: statistics.median(values) for name, values in times.items()}
    result = {
        "benchmark": "cold_start",
        "runs": args.runs,
        "import_ratio": {
            module: round(median[f"import {module}"] / median[f"import {floor}"], 2)
            for module, floor in FUNCTIONS.items()
        },
        "floor": FUNCTIONS,
        "first_request_ratio": {
            "app.entrypoints.http": round(
                median["first request: handler"] / median["first request: floor"], 2
            )
        },
        "median_ms": {name: round(ms, 1) for name, ms in median.items()},
        **conditions(load_before),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
