"""Schemathesis against the service's own OpenAPI document, in process, on a temp SQLite store.

Every route and method of api_docs/openapi.json (checked elsewhere to be exactly what the app
serves) is called with generated requests (schemathesis's positive and negative modes, its
fuzzing and coverage phases, and every method a route does not have). Every response must be
no 5xx, carry a status the document lists for that route, with the declared content type,
headers and a body matching the declared schema.

To reach past "game does not exist", a store is seeded first (a public lobby, a full lobby, a
running game and a finished one, see :func:`seed`; the lobby and the running game are
replaced when used up), and two thirds of the requests are aimed at them (:func:`aim`): a
seeded game, the credentials of one of its players or of the player to move (in the query or
as a Bearer token), plausible action ids, rounds, nicknames and AI agent names, the rest of
the request as generated.

Every error's ``code`` must be one api_docs/guide.md documents, and when the module ends
every game in the store (seeded or made by the fuzzing) must still be consistent.

The number of requests per operation is ``BLEF_FUZZ_EXAMPLES`` (default 100); a longer run,
with the requests counted by operation, status and code:

    BLEF_FUZZ_EXAMPLES=1000 BLEF_FUZZ_REPORT=/tmp/fuzz.json \\
        .venv/bin/pytest tests/reliability/test_fuzzing.py -p no:cacheprovider
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import seed as fixed_seed
from hypothesis import settings
from hypothesis import strategies as st

from app.api.main import create_app
from app.config.settings import Settings
from app.service import GameService
from app.store.sqlite import SqliteStore
from engine.agents import AGENTS, ALIASES
from engine.dealing import seed_sequence
from engine.game import Game
from tests.reliability.history import check_stored_game, play_to_the_end

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("BLEF_FUZZ_EXAMPLES", "100"))
GUIDE = (ROOT / "api_docs" / "guide.md").read_text("utf-8")
DOCUMENTED_CODES = set(re.findall(r"^\| `([a-z_]+)` \| \d{3} \|", GUIDE, flags=re.MULTILINE))
SEED = 20261123
REFUSALS = [400, 403, 404, 409, 410, 422]
"""The documented statuses of a request the schema allows but the rules refuse, which no
schema can rule out: a well-formed UUID of no game or of no player in it, not the player's
turn, an action the rules forbid now, a weak Idempotency-Key, an account secret of no account,
a passkey answer that does not verify (400); the game already started or full (403); a
well-formed handle no account has (404, the profile); a lost race, a stale version, an
unfinished game's record, a busy account (409); a keyed game gone (410); a key reused for a
different request (422). Never 405, 413, 429 or 5xx."""

CONFIG = schemathesis.Config.from_dict(
    {
        "seed": SEED,
        "checks": {  # every check, as configured by default, except this expectation
            "positive_data_acceptance": {"expected-statuses": ["2XX", "304", *REFUSALS]},
        },
    }
)
schema = schemathesis.openapi.from_path(ROOT / "api_docs" / "openapi.json", config=CONFIG)

FORM_REFUSALS = (
    ("missing_parameter", ""),
    ("invalid_request", ""),
    ("invalid_parameter", "Invalid game UUID"),
    ("invalid_parameter", "Invalid player UUID"),
    ("invalid_parameter", "Invalid admin UUID"),
    ("invalid_parameter", "Must be an integer between 1 and"),  # limit
)
"""400s that refuse a request's form, not the game's rules: a request the document calls
valid must never get one (that is what keeps positive_data_acceptance strict although 400
is also the established refusal of the rules)."""

CALLS: Counter[str] = Counter()
"""Requests made, by operation and status (written to BLEF_FUZZ_REPORT if set)."""
NICKNAMES = ["zoe", "Yan", "x_1", "W" * 32, "alice", "ALICE", "W" * 33, "9lives"]
AGENT_NAMES = [*sorted([*AGENTS, *ALIASES]), "nobody"]


def _lobby(service: GameService, join: Any = None) -> str:
    """A public game in the lobby with two players, alice (the admin) and bob."""
    game = service.create_game()["game_uuid"]
    if join is not None:
        admin = join(game, ["alice", "bob"])[0]
    else:
        admin = service.join(game, "alice")["player_uuid"]
        service.join(game, "bob")
    service.set_public(game, admin, public=True)
    return str(game)


def _running_game(service: GameService, join: Any = None) -> str:
    game = service.create_game()["game_uuid"]
    names = ["ann", "ben", "cat"]
    if join is not None:
        admin = join(game, names)[0]
    else:
        admin = service.join(game, names[0])["player_uuid"]
        for name in names[1:]:
            service.join(game, name)
    service.start(game, admin)
    return str(game)


def seed(service: GameService) -> dict[str, list[str]]:
    """Games in every state: a public lobby, a full lobby, a running game and a finished
    one. Returns the game UUIDs, in that order, and the players' UUIDs."""
    players: list[str] = []

    def join_all(game: str, names: list[str]) -> list[str]:
        joined = [service.join(game, name)["player_uuid"] for name in names]
        players.extend(joined)
        return joined

    lobby = _lobby(service, join_all)

    full = service.create_game()["game_uuid"]
    join_all(full, [f"p{i}" for i in range(8)])

    running = _running_game(service, join_all)

    finished = service.create_game()["game_uuid"]
    uuids = join_all(finished, ["dan", "eve"])
    service.start(finished, uuids[0])
    play_to_the_end(service, finished, dict(zip(["dan", "eve"], uuids, strict=True)))
    return {"games": [lobby, full, running, finished], "players": players}


@dataclass
class Fuzzed:
    app: FastAPI
    service: GameService
    games: list[str]


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzzed]:
    settings_ = Settings(  # one client address fuzzing on purpose: no per-address limits
        db_path=tmp_path_factory.mktemp("fuzz") / "blef.db",
        rate_limit_burst=0,
        max_in_flight_per_address=0,
        reaction_burst=1_000_000,  # the one seeded player reacts far past any real rate
        public_origin="https://blef.test",  # the passkey routes answer (else 503)
    )
    store = SqliteStore(settings_.db_path)
    service = GameService(store, settings_, seed_source=seed_sequence(20261121))
    games = seed(service)["games"]
    yield Fuzzed(create_app(settings_, service), service, games)
    with sqlite3.connect(settings_.db_path) as db:  # every game the fuzzing made or changed
        for (game_uuid,) in db.execute("SELECT game_uuid FROM games"):
            check_stored_game(store, game_uuid)
    store.close()
    report = os.environ.get("BLEF_FUZZ_REPORT")
    if report:  # calls by operation and status, for docs/reliability.md
        Path(report).write_text(json.dumps(dict(sorted(CALLS.items())), indent=1) + "\n")


def _declares(case: Any, location: str, name: str) -> bool:
    return any(p.name.lower() == name for p in getattr(case.operation, location))


@dataclass(frozen=True)
class Aim:
    """Every choice :func:`aim` makes, drawn up front and never from the store's state, so
    that Hypothesis can replay a request exactly (the state only decides what they mean)."""

    game: int
    reader: int
    to_move: bool
    bearer: bool
    key: int
    legal: bool
    action: int
    round: str
    nickname: str
    agent: str


_KEYS = [str(uuid.UUID(int=n, version=4)) for n in (1, 2, 3)]
"""Idempotency-Keys strong enough for create and join (weak ones are refused there)."""

aims = st.builds(
    Aim,
    game=st.sampled_from([0, 1, 2, 2, 2, 3]),  # lobby, full lobby, running (often), finished
    reader=st.integers(0, 7),
    to_move=st.booleans(),
    bearer=st.booleans(),
    key=st.integers(0, 3),  # 0: no Idempotency-Key
    legal=st.booleans(),
    action=st.sampled_from([0, 1, 5, 12, 30, 66, 87, 88]),
    round=st.sampled_from(["1", "2", "3", "-1", "", "999"]),
    nickname=st.sampled_from(NICKNAMES),
    agent=st.sampled_from(AGENT_NAMES),
)


def aim(case: Any, choice: Aim, fuzzed: Fuzzed) -> None:
    """Point a generated request at a seeded game, with the credentials of one of its
    players or of the player to move (in the query or as a Bearer token) and a plausible
    action, round, nickname or agent name, keeping every other generated part."""
    action = choice.action
    if "game_uuid" in (case.path_parameters or {}):
        lobby = fuzzed.service.state(fuzzed.games[0]).body
        if lobby["status"] != "Not started" or len(lobby["players"]) >= 6:  # used up
            fuzzed.games[0] = _lobby(fuzzed.service)
        if fuzzed.service.state(fuzzed.games[2]).body["status"] == "Finished":  # played out
            fuzzed.games[2] = _running_game(fuzzed.service)
        game = fuzzed.games[choice.game]
        case.path_parameters["game_uuid"] = game
        doc = fuzzed.service.store.load(game)
        assert doc is not None
        if isinstance(case.body, dict) and "expected_version" in case.body:
            case.body = {**case.body, "expected_version": doc.version}
        if isinstance(case.query, dict) and "expected_version" in case.query:
            case.query = {**case.query, "expected_version": str(doc.version)}
        secrets = sorted(doc.player_uuids.values())
        current = doc.state.get("current")
        to_move = None if current is None else doc.state["players"][current]["nickname"]
        if to_move in doc.player_uuids and choice.to_move:  # a person to move (not an AI)
            secrets = [doc.player_uuids[to_move]]
            legal = Game.from_dict(doc.state).legal_actions()
            if choice.legal and legal:
                action = legal[choice.reader % min(3, len(legal))]
        headers = {
            k: v
            for k, v in (case.headers or {}).items()
            if k.lower() not in ("authorization", "idempotency-key")
        }
        if choice.key:
            headers["Idempotency-Key"] = _KEYS[choice.key - 1]
        names = [n for n in ("player_uuid", "admin_uuid") if _declares(case, "query", n)]
        if secrets:
            secret = secrets[choice.reader % len(secrets)]
            if _declares(case, "headers", "authorization") and (choice.bearer or not names):
                headers["Authorization"] = f"Bearer {secret}"
            elif names:
                case.query = {**(case.query or {}), names[0]: secret}
        case.headers = headers
    if _declares(case, "query", "action_id"):
        case.query = {**(case.query or {}), "action_id": str(action)}
    if isinstance(case.body, dict) and case.path.endswith("/play"):
        case.body = {**case.body, "action_id": action}
    if _declares(case, "query", "round"):
        case.query = {**(case.query or {}), "round": choice.round}
    if _declares(case, "query", "nickname"):
        case.query = {**(case.query or {}), "nickname": choice.nickname}
    if isinstance(case.body, dict) and case.path.endswith("/join"):
        case.body = {"nickname": choice.nickname}
    if _declares(case, "query", "agent_name"):
        case.query = {**(case.query or {}), "agent_name": choice.agent}
    if isinstance(case.body, dict) and case.path.endswith("/invite-aiagent"):
        case.body = {"agent_name": choice.agent}


# ------------------------------------------------------------------ the tests


def call_and_check(case: Any, fuzzed: Fuzzed) -> None:
    response = case.call_and_validate(app=fuzzed.app)  # every check schemathesis has
    code = ""
    if response.status_code >= 400:
        code = response.json()["code"]
        assert code in DOCUMENTED_CODES, f"{code!r} is not in api_docs/guide.md"
        if case.meta is not None and case.meta.generation.mode.is_positive:
            error = response.json()["error"]
            refused = [(c, m) for c, m in FORM_REFUSALS if c == code and m in error]
            assert not refused, f"a schema-valid request refused for its form: {error!r}"
    CALLS[f"{case.method} {case.path} {response.status_code} {code}".rstrip()] += 1


@schema.parametrize()
@fixed_seed(SEED)
@settings(max_examples=max(1, EXAMPLES // 4))
def test_generated_requests_boundary_values_and_wrong_methods_get_no_5xx_and_fit_the_schema(
    case: Any, fuzzed: Fuzzed
) -> None:
    """Requests as schemathesis makes them, with its coverage phase (boundary and invalid
    values of every parameter, every method a route does not have)."""
    call_and_check(case, fuzzed)


@schema.parametrize()
@schema.given(choice=st.one_of(st.none(), aims, aims))
@fixed_seed(SEED)
@settings(max_examples=EXAMPLES)
def test_requests_aimed_at_seeded_games_get_no_5xx_and_fit_the_schema(
    case: Any, choice: Aim | None, fuzzed: Fuzzed
) -> None:
    """A third of the requests go out as generated; the rest are aimed at seeded games.
    Only schema-valid requests are aimed: aiming replaces the game, the credentials and the
    values it picks, which would turn a schema-violating request into a valid one and fail
    the negative-data check for the aiming's sake. (Schemathesis runs no coverage phase
    with ``given``: the test above does that.)"""
    if choice is not None and case.meta is not None and case.meta.generation.mode.is_positive:
        aim(case, choice, fuzzed)
    call_and_check(case, fuzzed)


def test_the_seeding_makes_games_in_every_state(tmp_path: Path) -> None:
    """A guard on the seeding the fuzzing starts from."""
    store = SqliteStore(tmp_path / "blef.db")
    service = GameService(store, Settings(), seed_source=seed_sequence(1))
    seeded = seed(service)
    statuses = [service.state(g).body["status"] for g in seeded["games"]]
    assert statuses == ["Not started", "Not started", "Running", "Finished"]
    assert len(service.state(seeded["games"][1]).body["players"]) == 8
    assert len(seeded["players"]) == 2 + 8 + 3 + 2
    store.close()
