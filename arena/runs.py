"""What every game's tournament does with its games, whatever the game.

- :func:`play_all` plays the games to do in batches, in this process (``jobs`` 1, one game
  a batch) or over ``jobs`` worker processes started with the ``spawn`` method (they share
  nothing with this process: no inherited threads or pipes of running programs), handing
  each finished batch to a callback as it comes; an error cancels the batches not started.
- :func:`batch_size` sizes the batches so that every worker gets several of them.
- :func:`claim_output` and :func:`append_records` keep a resumable output directory: its
  ``config.json`` says what is played there (another tournament is refused), its
  ``games.jsonl`` gets one compact JSON line per finished game, flushed.

Each tournament keeps its own schedule, its records and its statistics.
"""

from __future__ import annotations

import json
import math
import multiprocessing
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import IO, Any, Final, TypeVar

CONFIG_FILE: Final = "config.json"
GAMES_FILE: Final = "games.jsonl"

C = TypeVar("C")
R = TypeVar("R")


def batch_size(games: int, jobs: int, most: int) -> int:
    """About eight batches a worker, of at most ``most`` games (at least one)."""
    return max(1, min(most, math.ceil(games / (jobs * 8))))


def play_all(
    play_batch: Callable[[C, Sequence[int]], list[R]],
    config: C,
    todo: Sequence[int],
    *,
    jobs: int,
    size: int,
    finished: Callable[[list[R]], None],
) -> None:
    """Play the games ``todo`` of ``config`` with ``play_batch`` (a module-level function,
    for the workers), ``size`` games a batch over ``jobs`` processes (1: each game alone,
    in this process); ``finished`` is called with each batch's results as they come."""
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    if jobs == 1:
        for index in todo:
            finished(play_batch(config, [index]))
        return
    if not todo:
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures: list[Future[list[R]]] = [
            pool.submit(play_batch, config, list(todo[i : i + size]))
            for i in range(0, len(todo), size)
        ]
        try:
            for future in as_completed(futures):
                finished(future.result())
        except BaseException:
            for future in futures:
                future.cancel()
            raise


def claim_output(
    out: Path, wanted: dict[str, Any], refuse: Callable[[dict[str, Any]], Exception]
) -> None:
    """Record ``wanted`` as the tournament played in ``out`` (made if need be), or check
    that it is the one recorded there: ``refuse(found)`` is raised if another is."""
    out.mkdir(parents=True, exist_ok=True)
    config_path = out / CONFIG_FILE
    if config_path.exists():
        found = json.loads(config_path.read_text(encoding="utf-8"))
        if found != wanted:
            raise refuse(found)
    else:
        config_path.write_text(json.dumps(wanted, indent=1) + "\n", encoding="utf-8")


def open_games(out: Path | None) -> IO[str] | None:
    """``games.jsonl`` of ``out`` opened for appending (None without an output)."""
    return (out / GAMES_FILE).open("a", encoding="utf-8") if out is not None else None


def append_records(sink: IO[str] | None, records: Iterable[dict[str, Any]]) -> None:
    """Append one compact JSON line per record, then flush (nothing without a sink)."""
    if sink is None:
        return
    for record in records:
        sink.write(json.dumps(record, separators=(",", ":")) + "\n")
    sink.flush()
