"""Crash safety: ``blef serve`` is killed with SIGKILL in the middle of a load, restarted on
the same SQLite file, and every game is checked.

Every move (and join, and start) that a client saw acknowledged with a 2xx must be stored, in
order; at most one more change per game may be stored without its reply having left (it was
committed just before the kill). Every game must be consistent (history.check_stored_game
on the file, benchmarks/load.verify_game over HTTP), including games no client knows of (a
create whose reply was lost). Then every unfinished game is played to its end on the
restarted server, and checked again.
"""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from app.store.sqlite import SqliteStore
from benchmarks.load import (
    UNLIMITED,
    GameLog,
    Server,
    Totals,
    choose,
    run_load,
    stored_moves,
    verify_all,
)
from tests.reliability.history import check_stored_game

MOVES_BEFORE_THE_KILL = 700
CONCURRENCY = 6


def _stored(http: httpx.Client, log: GameLog) -> tuple[dict[str, Any], list[tuple[str, int]]]:
    base = f"/games/{log.game_uuid}"
    state = http.get(base).json()
    ended = state["round_number"] - (0 if state["status"] == "Finished" else 1)
    if state["status"] == "Not started":
        return state, []
    rounds = [http.get(base, params={"round": k}).json() for k in range(1, ended + 1)]
    current = None if state["status"] == "Finished" else state
    return state, [tuple(m) for m in stored_moves(rounds, current)]


def _finish(http: httpx.Client, log: GameLog, rng: random.Random) -> int:
    """Play a game on to its end, acknowledging each move in its log; returns how many
    moves were stored without their acknowledgement reaching the client (0 or 1)."""
    base = f"/games/{log.game_uuid}"
    state, moves = _stored(http, log)
    unacknowledged = len(moves) - len(log.moves)
    log.moves = list(moves)  # the unacknowledged move is part of the game now
    if state["status"] == "Not started":
        admin = log.players["ann"]
        if len(state["players"]) < 2:
            name = "late"
            log.players[name] = http.get(f"{base}/join", params={"nickname": name}).json()[
                "player_uuid"
            ]
        assert (
            http.post(f"{base}/start", headers={"Authorization": f"Bearer {admin}"}).status_code
            == 202
        )
    while (state := http.get(base).json())["status"] != "Finished":
        mover = state["cp_nickname"]
        action = choose(state, rng)
        reply = http.get(
            f"{base}/play", params={"player_uuid": log.players[mover], "action_id": action}
        )
        assert reply.status_code == 200, reply.text
        log.moves.append((mover, action))
    return unacknowledged


def test_a_killed_server_loses_no_acknowledged_change_and_every_game_stays_consistent(
    tmp_path: Path,
) -> None:
    db = tmp_path / "blef.db"
    first = Server(db, tmp_path / "first.log", env=UNLIMITED)
    first.start()
    totals = Totals()
    stop = threading.Event()
    load = threading.Thread(
        target=run_load,
        args=(first.url,),
        kwargs={
            "seconds": 120,
            "concurrency": CONCURRENCY,
            "max_games": 500,
            "grace": 5,
            "seed": 7,
            "stop": stop,
            "totals": totals,
        },
    )
    try:
        load.start()
        deadline = time.monotonic() + 60  # a bound for a very slow machine, never reached here
        while len(totals.move_latencies) < MOVES_BEFORE_THE_KILL and time.monotonic() < deadline:
            time.sleep(0.05)
        first.kill()  # SIGKILL while the clients are mid-request
    finally:
        first.kill()
        stop.set()
        load.join(timeout=60)
    assert not load.is_alive()
    acknowledged = len(totals.move_latencies)
    assert acknowledged > 0
    games = list(totals.games)
    in_play = [g for g in games if not g.finished]
    assert in_play, "the kill should have come in the middle of games"
    finished_before = len(games) - len(in_play)

    second = Server(db, tmp_path / "second.log", env=UNLIMITED)
    second.start()
    try:
        assert verify_all(second.url, games, unacknowledged=1) == {}
        store = SqliteStore(db)
        with sqlite3.connect(db) as raw:
            every_game = [row[0] for row in raw.execute("SELECT game_uuid FROM games")]
        assert {g.game_uuid for g in games} <= set(every_game)
        for game_uuid in every_game:  # games no client heard of included
            check_stored_game(store, game_uuid)

        rng = random.Random(8)
        unacknowledged = 0
        with httpx.Client(base_url=second.url, timeout=30) as http:
            for log in in_play:
                if log.players:
                    unacknowledged += _finish(http, log, rng)
                    log.finished = True
        assert verify_all(second.url, [g for g in games if g.players]) == {}
        for game_uuid in every_game:
            check_stored_game(store, game_uuid)
        store.close()
    finally:
        second.stop()
    print(
        f"crash test: {acknowledged} moves acknowledged before the kill; {len(games)} games"
        f" ({finished_before} finished, {len(in_play)} in play); {len(every_game)} games"
        f" stored; {unacknowledged} moves stored whose reply was lost; all consistent, and"
        " every game in play finished after the restart"
    )
