#!/usr/bin/env python3
"""Load test: many concurrent games over HTTP, then a consistency check of every one of them.

    .venv/bin/python benchmarks/load.py --seconds 20 --concurrency 16 --max-games 400
    .venv/bin/python benchmarks/load.py --url http://127.0.0.1:8000 --seconds 10

Without ``--url`` it starts ``blef serve`` on 127.0.0.1 (a free port, a fresh SQLite file in a
temporary directory) and stops it at the end. ``--concurrency`` threads, each with its own
keep-alive httpx client, play whole games of ``--players`` players: create, join, start,
then moves until the game is finished. Moves mix the POST form (Bearer token and an
``Idempotency-Key``) and the established GET form (query parameters). A few requests are
wrong on purpose and must be refused as the contract says: a move out of turn (400
``not_your_turn``) and a retry of a move with its ``Idempotency-Key`` (200, the first reply
again); they count as ``provoked``, never as errors.

No game starts after ``--seconds`` or once ``--max-games`` have started; games in play go on
to their end, for at most ``--grace`` more seconds (then they count as abandoned). Then every
game is checked over HTTP: a finished game's record and every round snapshot
(``?round=k``), an unfinished one's snapshots and current state (see :func:`check_rounds`).
Every move a client saw acknowledged (HTTP 200) must be in the stored history, in order.

The last line printed is one JSON object: games finished, moves per second, move latency
p50/p95/p99 in ms, errors (a non-2xx or a failed request that the client did not provoke),
and the number of inconsistent games. The exit status is 0 only with no error and no
inconsistent game.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.dealing import deal  # noqa: E402
from engine.facts import CHECK, LOST_ROUND, N_BETS, Card, mask_of, max_cards  # noqa: E402
from engine.game import RoundRecord  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.sets import exists  # noqa: E402

NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal")
PROVOKE_RATE = 0.04
GET_FORM_RATE = 0.25


# ------------------------------------------------------------------ the server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


UNLIMITED: Final = {"BLEF_RATE_LIMIT_BURST": "0", "BLEF_MAX_IN_FLIGHT_PER_ADDRESS": "0"}
"""The environment of a server loaded by one client address on purpose (a benchmark, the
crash test): the per-address limits would otherwise refuse most of its load."""


class Server:
    """``blef serve`` in a subprocess on 127.0.0.1, on a given SQLite file.

    ``start`` waits until it answers; ``kill`` is a SIGKILL (no shutdown of any kind);
    ``stop`` asks it to end, then kills it if it does not. Its output goes to ``log``.
    """

    def __init__(
        self,
        db: Path,
        log: Path,
        *,
        port: int | None = None,
        log_level: str | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.db = db
        self.log = log
        self.port = port or free_port()
        self.log_level = log_level
        self.env = env or {}
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        for _ in range(3):  # the free port may be taken by someone else meanwhile
            if self._launch(timeout):
                return
            self.port = free_port()
        raise RuntimeError(f"blef serve did not start:\n{self.log.read_text()[-2000:]}")

    def _launch(self, timeout: float) -> bool:
        env = {k: v for k, v in os.environ.items() if not k.startswith("BLEF_")}
        env["BLEF_STORE"] = "sqlite"
        env.update(self.env)
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    "from app.cli import main; main()",
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--db",
                    str(self.db),
                    *(["--log-level", self.log_level] if self.log_level else []),
                ],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                # The list reads the store, so it also proves the server has opened our file.
                if (
                    httpx.get(f"{self.url}/games", timeout=2).status_code == 200
                    and self.db.exists()
                ):
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        return False

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


# ------------------------------------------------------------------ playing


@dataclass
class GameLog:
    """What the clients of one game saw acknowledged."""

    game_uuid: str
    players: dict[str, str] = field(default_factory=dict)
    """Nickname to player UUID, for every join that was acknowledged."""
    moves: list[tuple[str, int]] = field(default_factory=list)
    """(nickname, action id) of every move acknowledged with a 200, in order."""
    started: bool = False
    finished: bool = False


@dataclass
class Totals:
    lock: threading.Lock = field(default_factory=threading.Lock)
    move_latencies: list[float] = field(default_factory=list)
    requests: int = 0
    provoked: int = 0
    errors: list[str] = field(default_factory=list)
    games: list[GameLog] = field(default_factory=list)

    def error(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)


class Stopped(Exception):
    """The run was told to stop (or ran out of time) in the middle of a game."""


class Client:
    """One worker's HTTP client: times every request and counts it."""

    def __init__(self, url: str, totals: Totals, stop: threading.Event) -> None:
        self.http = httpx.Client(base_url=url, timeout=15)
        self.totals = totals
        self.stop = stop

    def request(self, method: str, path: str, **kwargs: Any) -> tuple[httpx.Response, float]:
        if self.stop.is_set():
            raise Stopped
        started = time.perf_counter()
        response = self.http.request(method, path, **kwargs)
        took = time.perf_counter() - started
        with self.totals.lock:
            self.totals.requests += 1
        return response, took

    def expect(self, status: int, method: str, path: str, **kwargs: Any) -> httpx.Response:
        response, _ = self.request(method, path, **kwargs)
        if response.status_code != status:
            raise UnexpectedReply(f"{method} {_template(path)}: {response.status_code}")
        return response

    def close(self) -> None:
        self.http.close()


class UnexpectedReply(Exception):
    pass


def _template(path: str) -> str:
    """The route of a path, without the game's UUID (error messages carry no UUID)."""
    parts = path.split("/")
    if len(parts) > 2 and parts[1] == "games" and parts[2] not in ("create", ""):
        parts[2] = "{game_uuid}"
    return "/".join(parts)


def _bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def choose(state: dict[str, Any], rng: random.Random) -> int:
    """A legal move for the current player: a rising bet, or a check once there is a bet."""
    history = [m for m in state["history"] if m["action_id"] < CHECK]
    if not history:
        return rng.randrange(0, 8)
    last = int(history[-1]["action_id"])
    if last >= N_BETS - 1 or rng.random() < 0.4:
        return CHECK
    return min(N_BETS - 1, last + 1 + rng.randrange(0, 4))


def play_game(client: Client, totals: Totals, n_players: int, rng: random.Random) -> None:
    """Create a game, seat ``n_players``, start it and play it to its end."""
    created = client.expect(200, "POST", "/games/create", headers={"Idempotency-Key": _key()})
    log = GameLog(created.json()["game_uuid"])
    with totals.lock:
        totals.games.append(log)
    base = f"/games/{log.game_uuid}"
    for name in NAMES[:n_players]:
        if rng.random() < GET_FORM_RATE:
            joined = client.expect(200, "GET", f"{base}/join", params={"nickname": name})
        else:
            joined = client.expect(200, "POST", f"{base}/join", json={"nickname": name})
        log.players[name] = joined.json()["player_uuid"]
    admin = log.players[NAMES[0]]
    client.expect(202, "POST", f"{base}/start", headers=_bearer(admin))
    log.started = True
    state: dict[str, Any] | None = None
    while True:
        if state is None:  # after the start and after each check: the new round
            state = client.expect(200, "GET", base, headers=_bearer(admin)).json()
        if state["status"] == "Finished":
            log.finished = True
            return
        mover = state["cp_nickname"]
        if rng.random() < PROVOKE_RATE:
            _move_out_of_turn(client, totals, base, log, mover)
        action = choose(state, rng)
        state = _move(client, totals, base, log, mover, action, rng)


def _move(
    client: Client,
    totals: Totals,
    base: str,
    log: GameLog,
    mover: str,
    action: int,
    rng: random.Random,
) -> dict[str, Any] | None:
    """Make one move; returns the state to decide the next move on (None: fetch it)."""
    secret = log.players[mover]
    if rng.random() < GET_FORM_RATE:
        params = {"player_uuid": secret, "action_id": str(action)}
        response, took = client.request("GET", f"{base}/play", params=params)
        key = None
    else:
        key = _key()
        headers = {**_bearer(secret), "Idempotency-Key": key}
        response, took = client.request(
            "POST", f"{base}/play", json={"action_id": action}, headers=headers
        )
    if response.status_code != 200:
        raise UnexpectedReply(f"move: {response.status_code} {response.text[:200]}")
    log.moves.append((mover, action))
    with totals.lock:
        totals.move_latencies.append(took)
    body: dict[str, Any] = response.json()
    if key is not None and rng.random() < PROVOKE_RATE:
        again, _ = client.request(
            "POST",
            f"{base}/play",
            json={"action_id": action},
            headers={**_bearer(secret), "Idempotency-Key": key},
        )
        with totals.lock:
            totals.provoked += 1
        if again.status_code != 200 or again.json() != body:
            totals.error(f"a retried move got {again.status_code}, not the first reply")
    if action == CHECK or body["status"] == "Finished":
        return None if body["status"] != "Finished" else body
    return body


def _move_out_of_turn(client: Client, totals: Totals, base: str, log: GameLog, mover: str) -> None:
    other = next(n for n in log.players if n != mover)
    response, _ = client.request(
        "POST", f"{base}/play", json={"action_id": CHECK}, headers=_bearer(log.players[other])
    )
    with totals.lock:
        totals.provoked += 1
    code = response.json().get("code") if response.status_code == 400 else None
    if code not in ("not_your_turn", "game_finished"):
        totals.error(f"a move out of turn got {response.status_code} {code}")


def _key() -> str:
    return uuid.uuid4().hex


def worker(
    url: str,
    totals: Totals,
    *,
    n_players: int,
    seed: int,
    no_new_game_after: float,
    hard_stop: float,
    claim: Any,
    stop: threading.Event,
) -> None:
    rng = random.Random(seed)
    client = Client(url, totals, stop)
    timer = threading.Timer(max(0.0, hard_stop - time.monotonic()), stop.set)
    timer.daemon = True
    timer.start()
    try:
        while time.monotonic() < no_new_game_after and not stop.is_set() and claim():
            try:
                play_game(client, totals, n_players, rng)
            except Stopped:
                return
            except (httpx.HTTPError, UnexpectedReply, KeyError, ValueError) as exc:
                if stop.is_set():
                    return
                totals.error(f"{type(exc).__name__}: {exc}")
    finally:
        timer.cancel()
        client.close()


@dataclass
class LoadResult:
    totals: Totals
    elapsed: float


def run_load(
    url: str,
    *,
    seconds: float,
    concurrency: int,
    max_games: int,
    n_players: int = 4,
    grace: float = 10.0,
    seed: int = 1,
    stop: threading.Event | None = None,
    totals: Totals | None = None,
) -> LoadResult:
    """Play games from ``concurrency`` threads (see the module docstring). ``stop`` ends the
    run early; ``totals`` can be watched while it runs."""
    totals = totals if totals is not None else Totals()
    stop = stop or threading.Event()
    started = time.monotonic()
    count = 0
    count_lock = threading.Lock()

    def claim() -> bool:
        nonlocal count
        with count_lock:
            if count >= max_games:
                return False
            count += 1
            return True

    threads = [
        threading.Thread(
            target=worker,
            args=(url, totals),
            kwargs={
                "n_players": n_players,
                "seed": seed * 1000 + i,
                "no_new_game_after": started + seconds,
                "hard_stop": started + seconds + grace,
                "claim": claim,
                "stop": stop,
            },
            name=f"load-{i}",
            daemon=True,
        )
        for i in range(concurrency)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return LoadResult(totals, time.monotonic() - started)


# ------------------------------------------------------------------ checking what is stored


def _hand_cards(round_: dict[str, Any]) -> dict[str, list[Card]]:
    return {
        entry["nickname"]: [Card(c["value"], c["colour"]) for c in entry["hand"]]
        for entry in round_["hands"]
    }


def _next_in(nicknames: list[str], cards: list[int], seat: int) -> int:
    n = len(nicknames)
    seat = (seat + 1) % n
    while not cards[seat]:
        seat = (seat + 1) % n
    return seat


def _first_in(nicknames: list[str], cards: list[int], seat: int) -> int | None:
    """``seat`` if it still holds cards, else the next seat that does (None if none does)."""
    if cards[seat]:
        return seat
    return _next_in(nicknames, cards, seat) if any(cards) else None


def check_round(round_: dict[str, Any]) -> list[str]:
    """One finished round, as the API shows it, against the rules (see check_rounds)."""
    where = f"round {round_.get('round_number')}"
    problems: list[str] = []
    try:
        RoundRecord.from_dict(round_)
    except Exception as exc:  # the engine's own validation of a stored round
        problems.append(f"{where}: the engine refuses it: {exc}")
        return problems
    seed = bytes.fromhex(round_["seed"])
    if hashlib.sha256(seed).hexdigest() != round_["commitment"]:
        problems.append(f"{where}: the seed does not match the commitment")
    if not _classic(round_):
        return problems  # the checks below are the classic game's (see check_rounds)
    nicknames = [p["nickname"] for p in round_["players"]]
    counts = [p["n_cards"] for p in round_["players"]]
    hands = _hand_cards(round_)
    dealt = deal(seed, counts)
    if any(tuple(hands.get(n, [])) != tuple(d) for n, d in zip(nicknames, dealt, strict=True)):
        problems.append(f"{where}: the hands are not what the seed deals")
    history = round_["history"]
    actions = [m["action_id"] for m in history]
    if not actions or actions[-1] != LOST_ROUND or round_["loser"] != history[-1]["player"]:
        problems.append(f"{where}: it does not end with its loser's 89 event")
        return problems
    checked = _checked(round_)
    bets = actions[:-2] if checked else actions[:-1]
    if any(b >= N_BETS for b in bets) or any(a >= b for a, b in itertools.pairwise(bets)):
        problems.append(f"{where}: the bets do not strictly rise")
    if checked:
        bettor, checker, loser = (history[i]["player"] for i in (-3, -2, -1))
        pooled = mask_of([card for cards in hands.values() for card in cards])
        expected = checker if exists(bets[-1], pooled) else bettor
        if loser != expected:
            problems.append(f"{where}: {loser} lost, but the revealed hands say {expected}")
    for previous, move in itertools.pairwise(history[:-1]):
        seat = nicknames.index(previous["player"])
        if move["player"] != nicknames[_next_in(nicknames, counts, seat)]:
            problems.append(f"{where}: {move['player']} moved out of turn")
    return problems


def _classic(round_: dict[str, Any]) -> bool:
    """Whether a round was played by the classic rules (24 cards, no jokers, blanks or
    common cards; a round shows ``rules`` only when they are not the classic ones)."""
    return round_.get("rules") is None or Rules.from_dict(round_["rules"]).is_classic


def _checked(round_: dict[str, Any]) -> bool:
    """Whether a round ended with a check; if not, its loser ran out of time or resigned."""
    actions = [m["action_id"] for m in round_["history"]]
    return len(actions) >= 3 and actions[-2:] == [CHECK, LOST_ROUND]


def _begun_by(round_: dict[str, Any]) -> str | None:
    """Who began a round, as its history shows it: the player of its first bet. A round
    whose only entry is its loser's 89 event shows no move: a timeout there was the
    beginner's, but a resignation (or a removal) may come from anyone at the table."""
    history = round_["history"]
    return history[0]["player"] if history and history[0]["action_id"] < CHECK else None


def _outcomes(
    round_: dict[str, Any], began: int | None = None
) -> list[tuple[list[int], int | None]]:
    """The card counts a round may leave, each with the seat that must begin the next
    round (None: the record does not say). ``began``: the seat that began this round, if
    known. After a check or a timeout the loser holds one more card, or is out past the
    maximum, and begins the next round (or the next player still in, if out). A round that
    ended without a check may also be a resignation by its loser (out at once, whatever
    they held): the next round is begun by whoever's turn it was (the next player still in,
    if that was the resigner)."""
    counts = [p["n_cards"] for p in round_["players"]]
    nicknames = [p["nickname"] for p in round_["players"]]
    seat = nicknames.index(round_["loser"])
    lost = list(counts)
    lost[seat] += 1
    if lost[seat] > round_["max_cards"]:
        lost[seat] = 0
    history = round_["history"]
    to_move = began  # whose turn it was when the round ended
    if len(history) >= 2:
        to_move = _next_in(nicknames, counts, nicknames.index(history[-2]["player"]))
    checked = _checked(round_)
    # A round lost without a check was lost by the player to move (a timeout), unless
    # they resigned, which anyone may do at any time.
    outcomes: list[tuple[list[int], int | None]] = []
    if checked or to_move in (None, seat):
        outcomes.append((lost, _first_in(nicknames, lost, seat)))
    if not checked:
        resigned = list(counts)
        resigned[seat] = 0
        first = None if to_move is None else _first_in(nicknames, resigned, to_move)
        outcomes.append((resigned, first))
    return outcomes


def check_rounds(
    rounds: Sequence[dict[str, Any]], current: dict[str, Any] | None = None
) -> list[str]:
    """A game's history: every finished round (``check_round``), and how rounds follow one
    another: numbered 1, 2, ...; the same seating; the loser's card added (or the loser
    out past the maximum), or, after a round ended without a check, the loser out (they
    resigned); who begins each round: the first seat in round 1, then the loser of a check
    or a timeout (or the next player still in), or after a resignation whoever's turn it
    was (or the next player still in), as far as the records tell them apart;
    only the last round of a finished game marked Finished, with one player left. With
    ``current`` (the state of a running game), the current round follows the last one.

    A round's history names who began it by its first bet only: a round whose only entry
    is its loser's 89 event may have been ended by anyone at the table resigning, so who
    was to begin it is known from the round before (or from its own loss, when only a
    timeout explains the counts that follow).

    This oracle knows the classic game only: a game of other rules (another deck, jokers,
    blanks, common cards, teams) has each round checked by the engine's own reading of it
    and against its seed's commitment, no more (the variants' oracle, written apart from
    the engine, is in tests/api/test_newer_service.py)."""
    problems: list[str] = []
    for i, round_ in enumerate(rounds):
        problems += check_round(round_)
        if round_["round_number"] != i + 1:
            problems.append(f"round {i + 1} is numbered {round_['round_number']}")
    first_round = rounds[0] if rounds else current
    if first_round is None or not _classic(first_round):
        return problems
    seating = [p["nickname"] for p in first_round["players"]]
    if not 1 <= first_round["max_cards"] <= max_cards(len(seating)):
        problems.append("max_cards is over the rule's maximum for the number of players")
    if any(p["n_cards"] != 1 for p in first_round["players"]):
        problems.append("round 1 does not deal one card to everyone")
    played = [*rounds, current] if current is not None else list(rounds)
    began: int | None = 0  # the table is turned at the start so that its first seat begins
    for i, round_ in enumerate(played):
        where = f"round {round_['round_number']}"
        if i:
            before = played[i - 1]
            if [p["nickname"] for p in round_["players"]] != seating:
                problems.append(f"{where}: the seating changed")
            outcomes = _outcomes(before, began)
            shown = [p["n_cards"] for p in round_["players"]]
            matches = [o for o in outcomes if o[0] == shown]
            if not matches:
                problems.append(
                    f"{where}: the card counts do not follow round {before['round_number']}"
                )
                matches = outcomes[:1]
            # A loser out at the maximum without a check may have timed out (the next after
            # them begins) or resigned (whoever's turn it was begins): the counts are the
            # same, and so either beginner is right.
            firsts = {first for _, first in matches}
            began = firsts.pop() if len(firsts) == 1 else None
        begun = _begun_by(round_)
        if began is not None and begun is not None and begun != seating[began]:
            problems.append(f"{where}: begun by {begun}, not {seating[began]}")
        to_begin = round_ is current and not round_["history"] and round_["cp_nickname"]
        if began is not None and to_begin and round_["cp_nickname"] != seating[began]:
            problems.append(f"{where}: {round_['cp_nickname']} is to begin, not {seating[began]}")
        if began is None and begun is not None:
            began = seating.index(begun) if begun in seating else None
    for round_ in rounds:
        finished = round_["status"] == "Finished"
        if round_ is rounds[-1]:
            possible = any(
                (sum(1 for c in counts if c) == 1) == finished for counts, _ in _outcomes(round_)
            )
        else:
            possible = not finished
        if not possible:
            problems.append(f"round {round_['round_number']}: wrong status {round_['status']}")
    if current is not None:
        bets = [m["action_id"] for m in current["history"]]
        if any(a >= b for a, b in itertools.pairwise(bets)) or CHECK in bets:
            problems.append("the current round's bets do not strictly rise")
    return problems


def stored_moves(rounds: Sequence[dict[str, Any]], current: dict[str, Any] | None) -> list[Any]:
    """Every move of a game in order, as (nickname, action id): no lost-round events."""
    moves = [
        (m["player"], m["action_id"])
        for r in rounds
        for m in r["history"]
        if m["action_id"] != LOST_ROUND
    ]
    if current is not None:
        moves += [(m["player"], m["action_id"]) for m in current["history"]]
    return moves


def verify_game(http: httpx.Client, log: GameLog, *, unacknowledged: int = 0) -> list[str]:
    """Check one game as stored against the rules and against what its clients saw.

    ``unacknowledged``: how many stored moves (and joins) may have no acknowledgement
    (a change written just before a crash, whose reply never left): 0 in a plain run.
    """
    base = f"/games/{log.game_uuid}"
    state = http.get(base)
    if state.status_code != 200:
        return [f"the game is gone: {state.status_code}"]
    current: dict[str, Any] = state.json()
    problems: list[str] = []
    nicknames = [p["nickname"] for p in current["players"]]
    missing = set(log.players) - set(nicknames)
    if missing or len(nicknames) - len(log.players) > unacknowledged or len(nicknames) > 8:
        problems.append(f"players {sorted(log.players)} acknowledged, {nicknames} stored")
    if current["status"] == "Not started":
        if log.started or log.moves:
            problems.append("a start was acknowledged but the game is not started")
        return problems
    ended = current["round_number"] - (0 if current["status"] == "Finished" else 1)
    rounds = []
    for number in range(1, ended + 1):
        snapshot = http.get(base, params={"round": number})
        if snapshot.status_code != 200:
            return [*problems, f"round {number}: {snapshot.status_code}"]
        rounds.append(snapshot.json())
    if current["status"] == "Finished":
        record = http.get(f"{base}/record").json()
        if len(record["rounds"]) != ended:
            problems.append(f"the record has {len(record['rounds'])} rounds, not {ended}")
        keys = ("round_number", "players", "hands", "history", "seed", "commitment", "loser")
        for snapshot, recorded in zip(rounds, record["rounds"], strict=False):
            if any(snapshot[k] != recorded[k] for k in keys):
                problems.append(f"round {snapshot['round_number']}: snapshot != record")
        winners = [p["nickname"] for p in current["players"] if p["n_cards"]]
        if winners != [record["winner"]]:
            problems.append(f"winner {record['winner']}, players left {winners}")
        problems += check_rounds(rounds)
        stored = stored_moves(rounds, None)
    else:
        problems += check_rounds(rounds, current)
        stored = stored_moves(rounds, current)
    acked = [tuple(m) for m in log.moves]
    if [tuple(m) for m in stored[: len(acked)]] != acked:
        problems.append("the acknowledged moves are not the stored history")
    if not 0 <= len(stored) - len(acked) <= unacknowledged:
        problems.append(f"{len(stored)} moves stored, {len(acked)} acknowledged")
    return problems


def verify_all(
    url: str, games: Sequence[GameLog], *, unacknowledged: int = 0
) -> dict[str, list[str]]:
    """Problems by game UUID (only games with problems)."""
    found: dict[str, list[str]] = {}
    with httpx.Client(base_url=url, timeout=30) as http:
        for log in games:
            problems = verify_game(http, log, unacknowledged=unacknowledged)
            if problems:
                found[log.game_uuid] = problems
    return found


# ------------------------------------------------------------------ figures


def percentile(ordered: Sequence[float], p: float) -> float:
    """Nearest-rank percentile of sorted values (0 when there are none)."""
    if not ordered:
        return 0.0
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def figures(result: LoadResult, inconsistent: dict[str, list[str]]) -> dict[str, Any]:
    totals = result.totals
    ordered = sorted(totals.move_latencies)
    games = totals.games
    finished = sum(1 for g in games if g.finished)
    return {
        "elapsed_s": round(result.elapsed, 2),
        "games_started": len(games),
        "games_finished": finished,
        "games_abandoned": len(games) - finished,
        "moves": len(ordered),
        "moves_per_s": round(len(ordered) / result.elapsed, 1) if result.elapsed else 0.0,
        "requests": totals.requests,
        "requests_per_s": round(totals.requests / result.elapsed, 1) if result.elapsed else 0.0,
        "p50_ms": round(percentile(ordered, 50) * 1000, 2),
        "p95_ms": round(percentile(ordered, 95) * 1000, 2),
        "p99_ms": round(percentile(ordered, 99) * 1000, 2),
        "max_ms": round(ordered[-1] * 1000, 2) if ordered else 0.0,
        "provoked": totals.provoked,
        "errors": len(totals.errors),
        "error_samples": totals.errors[:5],
        "games_checked": len(games),
        "inconsistent_games": len(inconsistent),
        "problem_samples": [p for ps in inconsistent.values() for p in ps][:5],
    }


@contextmanager
def served(url: str | None) -> Iterator[str]:
    """The URL to load: the one given, or a fresh ``blef serve`` stopped afterwards."""
    if url is not None:
        yield url.rstrip("/")
        return
    with tempfile.TemporaryDirectory(prefix="blef-load-") as tmp:
        server = Server(Path(tmp) / "load.db", Path(tmp) / "server.log", env=UNLIMITED)
        with server:
            yield server.url


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running service (default: start blef serve)")
    parser.add_argument("--seconds", type=float, default=20.0, help="start games for this long")
    parser.add_argument("--concurrency", type=int, default=16, help="client threads")
    parser.add_argument("--max-games", type=int, default=10_000, help="start at most this many")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 9), metavar="2..8")
    parser.add_argument("--grace", type=float, default=10.0, help="seconds to finish games")
    parser.add_argument("--seed", type=int, default=1, help="seeds the clients' choices")
    args = parser.parse_args(argv)
    with served(args.url) as url:
        result = run_load(
            url,
            seconds=args.seconds,
            concurrency=args.concurrency,
            max_games=args.max_games,
            n_players=args.players,
            grace=args.grace,
            seed=args.seed,
        )
        inconsistent = verify_all(url, result.totals.games)
    summary = {
        "url": args.url or "blef serve (SQLite, temporary file)",
        "seconds": args.seconds,
        "concurrency": args.concurrency,
        "players_per_game": args.players,
        **figures(result, inconsistent),
    }
    print(json.dumps(summary), flush=True)
    return 0 if not summary["errors"] and not summary["inconsistent_games"] else 1


if __name__ == "__main__":
    sys.exit(main())
