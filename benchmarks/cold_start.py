"""Cold-start proxy: how long importing the Lambda handler takes in a fresh interpreter.

    .venv/bin/python benchmarks/cold_start.py [--runs 15] [--no-bytecode-cache]

Each run is a new ``python -X importtime -c "import app.entrypoints.http"`` process, with the
environment the function has on AWS (``BLEF_STORE=dynamodb``, a table name, a region).
``import_ms`` is the handler module's cumulative import time as ``-X importtime`` reports
it; ``process_ms`` is the whole process, interpreter start-up included, and
``interpreter_ms`` is the same for ``python -c pass``, so the difference is what the
handler adds. ``--no-bytecode-cache`` points every run at an empty bytecode cache, so that
every module is compiled from source: what happens on Lambda, whose code folder is
read-only, unless the asset ships compiled bytecode.

Prints one JSON line. Nothing here is Lambda itself: the function's CPU share (memory
size), Python version and disk differ, so compare runs with each other, not with AWS.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parent.parent
MODULE = "app.entrypoints.http"
LAMBDA_ENVIRONMENT = {
    "BLEF_STORE": "dynamodb",
    "BLEF_TABLE_NAME": "blef-cold-start-benchmark",
    "AWS_DEFAULT_REGION": "eu-west-1",
    "AWS_REGION": "eu-west-1",
    "LOG_LEVEL": "INFO",
}


def _environment(no_bytecode_cache: bool, cache_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BLEF_", "PYTHON"))}
    env |= LAMBDA_ENVIRONMENT
    env["PYTHONPATH"] = str(REPO_DIR)
    if no_bytecode_cache:
        env["PYTHONPYCACHEPREFIX"] = str(cache_dir)
    return env


def _run(code: str, env: dict[str, str], importtime: bool) -> tuple[float, str]:
    command = [sys.executable, *(["-X", "importtime"] if importtime else []), "-c", code]
    started = time.perf_counter()
    done = subprocess.run(
        command, check=False, env=env, cwd=REPO_DIR, capture_output=True, text=True
    )
    elapsed_ms = (time.perf_counter() - started) * 1000
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-5:])
        raise SystemExit(f"`python -c {code!r}` failed (exit {done.returncode}):\n{tail}")
    return elapsed_ms, done.stderr


def _import_times(stderr: str) -> dict[str, float]:
    """Cumulative import time in ms per module, from ``-X importtime`` output."""
    times: dict[str, float] = {}
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _self_us, cumulative_us, name = line.removeprefix("import time:").split("|")
        times[name.strip()] = int(cumulative_us) / 1000
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Time importing the Lambda handler.")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument(
        "--no-bytecode-cache",
        action="store_true",
        help="compile every module from source in every run (as on Lambda without .pyc)",
    )
    args = parser.parse_args(argv)

    import_ms: list[float] = []
    process_ms: list[float] = []
    interpreter_ms: list[float] = []
    slowest: dict[str, float] = {}
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="blef-pycache-") as cache:
            env = _environment(args.no_bytecode_cache, Path(cache))
            interpreter_ms.append(_run("pass", env, importtime=False)[0])
            elapsed, stderr = _run(f"import {MODULE}", env, importtime=True)
        times = _import_times(stderr)
        if MODULE not in times:
            raise SystemExit(f"-X importtime reported no time for {MODULE}")
        process_ms.append(elapsed)
        import_ms.append(times[MODULE])
        top_level = {name: ms for name, ms in times.items() if "." not in name}
        for name, ms in top_level.items():
            slowest[name] = max(slowest.get(name, 0.0), ms)

    result = {
        "benchmark": "cold_start",
        "module": MODULE,
        "runs": args.runs,
        "bytecode_cache": not args.no_bytecode_cache,
        "import_ms_median": round(statistics.median(import_ms), 1),
        "import_ms_min": round(min(import_ms), 1),
        "process_ms_median": round(statistics.median(process_ms), 1),
        "process_ms_min": round(min(process_ms), 1),
        "interpreter_ms_median": round(statistics.median(interpreter_ms), 1),
        "slowest_top_level_imports_ms": {
            name: round(ms, 1)
            for name, ms in sorted(slowest.items(), key=lambda item: -item[1])[:8]
        },
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
