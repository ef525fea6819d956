"""Secrecy, as property tests over random games: what every kind of reader gets.

Readers: an observer (no credentials), each player of the game, and a player of another game.
Over random games (2..8 players, some of them AI players, random bets and checks), after every
move and for every reader:

- a view holds exactly what the rules allow: no hand in the current round for an observer,
  the reader's own hand only for a player (as the round's seed dealt it), every hand of the
  final round once the game is over; the legal actions only for the player to move; the
  round's seed only once it is over, and always matching the commitment shown while it was
  played; a player of another game is refused and learns nothing;
- no response, stored snapshot, game record, list entry or log line holds a player's UUID
  (except the join reply, to that player) nor a card its reader may not see.

Logs are captured from the ``blef`` loggers through the service's own JSON formatter, i.e.
exactly the lines ``blef serve`` prints; and a real ``blef serve`` at debug level is played
against through the established GET forms (secrets in the query string) and its whole output
searched.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from app.api.main import create_app
from app.clock.local import LocalClock
from app.config.settings import Settings
from app.observability.logs import ContextFilter, lambda_formatter
from app.service import GameService
from app.service.errors import NotAPlayer
from app.store.sqlite import SqliteStore
from benchmarks.load import Server, check_rounds, choose
from engine.dealing import deal
from engine.facts import DECK, MAX_PLAYERS
from engine.game import Game

STATE_KEYS = {
    "game_uuid",
    "admin_nickname",
    "public",
    "status",
    "round_number",
    "max_cards",
    "room",
    "players",
    "hands",
    "cp_nickname",
    "history",
    "last_modified",
    "version",
    "commitment",
    "legal_actions",
    "seed",
    "winner",
    "winners",
    "rematch",
    "rules",
    "common_hand",
    "loser",
    "time_limit",
    "move_deadline",
    "ready",
    "auto_start",
    "chosen_max_cards",
    "reactions",
    "you",
}
LOG_KEYS = {
    "timestamp",
    "level",
    "location",
    "service",
    "message",
    "game",
    "exception_name",
    "request_id",
    "method",
    "route",
    "status",
    "duration_ms",
    "attempt",
    "agent",
    "code",
    "error_type",
}
"""Every key a log line may have; every value is a plain scalar (no list, no object)."""


def forms(secret: str) -> list[str]:
    """The spellings of a UUID that could turn up in text, lower-cased."""
    return [secret.lower(), secret.replace("-", "").lower()]


def secrets_in(text: str, secrets: set[str]) -> set[str]:
    lowered = text.lower()
    return {s for s in secrets if any(f in lowered for f in forms(s))}


class LogLines(logging.Handler):
    """Collects the lines the service logs, formatted exactly as a Lambda function prints
    them (Powertools' JSON)."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(lambda_formatter())
        self.addFilter(ContextFilter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@dataclass
class World:
    """One store, service and app for a whole test module; games are independent."""

    store: SqliteStore
    service: GameService
    http: TestClient
    logs: LogLines
    outsider: str
    """A player of another game."""
    clock: LocalClock
    """The game clock, run by the test: AI players move when it runs."""
    secrets: set[str] = field(default_factory=set)
    """Every player UUID handed out so far, in any game."""


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    settings_ = Settings(
        db_path=tmp_path_factory.mktemp("secrecy") / "blef.db", ai_think_seconds=0, run_clock=False
    )
    store = SqliteStore(settings_.db_path)
    service = GameService(store, settings_)
    clock = LocalClock(service)
    logs = LogLines()
    with TestClient(create_app(settings_, service), raise_server_exceptions=False) as http:
        logger = logging.getLogger("blef")
        logger.addHandler(logs)
        try:
            other = service.create_game()["game_uuid"]
            outsider = service.join(other, "outsider")["player_uuid"]
            service.join(other, "friend")
            yield World(store, service, http, logs, outsider, clock, {outsider})
        finally:
            logger.removeHandler(logs)
    store.close()


def truth(world: World, game_uuid: str) -> Game:
    doc = world.store.load(game_uuid)
    assert doc is not None
    return Game.from_dict(doc.state)


def cards(game: Game, nickname: str) -> list[dict[str, int]]:
    return [card.to_dict() for card in game.hand(nickname)]


def assert_view(view: dict[str, Any], game: Game, reader: str | None, world: World) -> None:
    """A view of the current round holds exactly what ``reader`` may see."""
    assert set(view) <= STATE_KEYS
    assert view.get("you") == reader  # only a player is told a nickname: their own
    rows = [{k: v for k, v in p.items() if k not in ("team", "ready")} for p in view["players"]]
    assert rows == [row.to_dict() for row in game.players]
    assert all(p["ready"] in (True, False, None) for p in view["players"])
    assert view["status"] == game.status.value
    assert view["round_number"] == game.round_number
    finished = game.status.value == "Finished"
    if finished:
        shown = [n for n in game.nicknames if game.hand(n)]
    elif reader is not None and game.hand(reader):
        shown = [reader]
    else:
        shown = []
    assert view["hands"] == [{"nickname": n, "hand": cards(game, n)} for n in shown]
    assert ("legal_actions" in view) == (reader is not None and reader == game.current_player)
    assert ("seed" in view) == finished
    if game.commitment is not None:
        assert view["commitment"] == game.commitment
    if finished:
        assert hashlib.sha256(bytes.fromhex(view["seed"])).hexdigest() == view["commitment"]
    assert not secrets_in(json.dumps(view), world.secrets)


def assert_round_shows_its_own_deal(snapshot: dict[str, Any], commitment_seen: str) -> None:
    """A finished round reveals its seed: the commitment shown during the round, and the
    hands that seed deals (so no reader was ever shown a card that was not in play)."""
    seed = bytes.fromhex(snapshot["seed"])
    assert snapshot["commitment"] == commitment_seen == hashlib.sha256(seed).hexdigest()
    counts = [p["n_cards"] for p in snapshot["players"]]
    dealt = deal(seed, counts)
    shown = {h["nickname"]: h["hand"] for h in snapshot["hands"]}
    for player, hand in zip(snapshot["players"], dealt, strict=True):
        assert shown.get(player["nickname"], []) == [c.to_dict() for c in hand]


def every_reader_once(
    world: World, game_uuid: str, players: dict[str, str], round_param: str | None = None
) -> list[dict[str, Any]]:
    """The state as the observer and as each player, and the refusal of an outsider."""
    views = [world.service.state(game_uuid, None, round_param).body]
    views += [world.service.state(game_uuid, p, round_param).body for p in players.values()]
    with pytest.raises(NotAPlayer) as refused:
        world.service.state(game_uuid, world.outsider, round_param)
    assert not secrets_in(str(refused.value), world.secrets)
    return views


games = st.tuples(
    st.integers(2, MAX_PLAYERS),  # seats
    st.integers(0, 2),  # of which AI players
    st.integers(0, 2**32),  # the clients' choices
    st.booleans(),  # listed in public before the start
)


@settings(max_examples=30)
@given(games)
def test_every_reader_sees_exactly_what_the_rules_allow_in_every_round_of_random_games(
    world: World, setup: tuple[int, int, int, bool]
) -> None:
    seats, ais, seed, public = setup
    rng = random.Random(seed)
    service = world.service
    game_uuid = service.create_game()["game_uuid"]
    names = [f"h{i}" for i in range(seats - min(ais, seats - 2))]
    players = {n: service.join(game_uuid, n)["player_uuid"] for n in names}
    world.secrets |= set(players.values())
    admin = players[names[0]]
    for _ in range(seats - len(names)):
        service.invite_ai(game_uuid, admin, "random")
    if public:
        service.set_public(game_uuid, admin, public=True)
        [entry] = [e for e in service.list_public() if e["game_uuid"] == game_uuid]
        assert set(entry) == {"game_uuid", "room", "players", "last_modified"}
        assert not secrets_in(json.dumps(entry), world.secrets)
    for view in every_reader_once(world, game_uuid, players):  # the lobby: nothing dealt
        assert view["hands"] == [] and "seed" not in view
    service.start(game_uuid, admin)

    commitments: dict[int, str] = {}
    while True:
        game = truth(world, game_uuid)
        if game.commitment is not None and game.status.value == "Running":
            commitments[game.round_number] = game.commitment
        views = every_reader_once(world, game_uuid, players)
        for reader, view in zip([None, *players], views, strict=True):
            assert_view(view, game, reader, world)
        if game.status.value == "Finished":
            break
        mover = game.current_player
        assert mover is not None
        if mover not in players:  # an AI player: its move is the clock's own change
            before = service.state(game_uuid).body["version"]
            world.clock.run_due()
            assert service.state(game_uuid).body["version"] > before
            continue
        reply = service.play(game_uuid, players[mover], choose(views[0], rng))
        assert not secrets_in(json.dumps(reply), world.secrets)
        after = truth(world, game_uuid)
        if "loser" in reply:  # a check: the round that just ended, every hand shown
            assert reply["round_number"] == game.round_number and reply["seed"]
        else:  # a bet: the mover's own view of the state right after it
            assert_view(reply, after, mover, world)

    snapshots = [s.data for s in world.store.load_rounds(game_uuid)]
    assert check_rounds(snapshots) == []
    for snapshot in snapshots:
        number = snapshot["round_number"]
        if number in commitments:  # rounds ended by AI players included
            assert_round_shows_its_own_deal(snapshot, commitments[number])
        assert not secrets_in(json.dumps(snapshot), world.secrets)
        for view in every_reader_once(world, game_uuid, players, str(number)):
            assert view["hands"] == snapshot["hands"] and view["seed"] == snapshot["seed"]
    record = service.record(game_uuid)
    assert [r["seed"] for r in record["rounds"]] == [s["seed"] for s in snapshots]
    assert not secrets_in(json.dumps(record), world.secrets)


# ------------------------------------------------------------------ over HTTP, with the logs


@dataclass
class Reply:
    reader: str | None
    """The UUID of the player who sent the request (None: no credentials)."""
    path: str
    params: dict[str, Any]
    status: int
    text: str


def _send(
    world: World, rng: random.Random, path: str, secret: str | None, **params: Any
) -> httpx.Response:
    """A request in either form: the established GET with the secret in the query, or POST
    with a Bearer token and a JSON body (for the routes that change something)."""
    change = path.rsplit("/", 1)[-1] in ("join", "start", "play", "make-public")
    if change and rng.random() < 0.5:
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        body = {k: v for k, v in params.items() if k in ("nickname", "action_id")}
        posted: httpx.Response = world.http.post(path, json=body, headers=headers)
        return posted
    query = dict(params)
    if secret is not None:
        query["admin_uuid" if path.endswith(("start", "make-public")) else "player_uuid"] = secret
    got: httpx.Response = world.http.get(path, params=query)
    return got


@settings(max_examples=10)
@given(st.integers(2, MAX_PLAYERS), st.integers(0, 2**32))
def test_no_response_or_log_line_holds_a_secret_or_a_hidden_card_over_http(
    world: World, seats: int, seed: int
) -> None:
    rng = random.Random(seed)
    replies: list[Reply] = []

    def send(path: str, secret: str | None, **params: Any) -> httpx.Response:
        response = _send(world, rng, path, secret, **params)
        replies.append(Reply(secret, path, params, response.status_code, response.text))
        return response

    start_of_logs = len(world.logs.lines)
    game_uuid = world.http.get("/games/create").json()["game_uuid"]
    base = f"/games/{game_uuid}"
    players: dict[str, str] = {}
    for i in range(seats):
        players[f"p{i}"] = send(f"{base}/join", None, nickname=f"p{i}").json()["player_uuid"]
    world.secrets |= set(players.values())
    admin = players["p0"]
    send(f"{base}/make-public", admin)
    send("/games", None)
    send(f"{base}/start", players["p1"])  # refused: not the admin
    send(f"{base}/start", admin)
    while True:
        state = send(base, None).json()
        if state["status"] == "Finished":
            break
        for secret in rng.sample(sorted(players.values()), k=min(3, seats)):
            send(base, secret)
        send(base, world.outsider)  # refused: a player of another game
        mover = players[state["cp_nickname"]]
        if rng.random() < 0.2:
            other = next(s for s in players.values() if s != mover)
            send(f"{base}/play", other, action_id=88)  # refused: not their turn
        send(f"{base}/play", mover, action_id=choose(state, rng))
    for number in range(1, state["round_number"] + 1):
        send(base, rng.choice(sorted(players.values())), round=number)
    send(f"{base}/record", None)

    nickname_of = {secret: name for name, secret in players.items()}
    for reply in replies:
        allowed: set[str] = set()
        if reply.path.endswith("/join") and reply.status == 200:
            allowed = {json.loads(reply.text)["player_uuid"]}  # to the player who joined
        assert secrets_in(reply.text, world.secrets) <= allowed, reply.path
        assert reply.status < 500
        if reply.path == base and reply.status == 200 and "round" not in reply.params:
            body = json.loads(reply.text)
            if body["status"] == "Running":  # the current round: the reader's hand at most
                own = {nickname_of.get(reply.reader or "")}
                assert {h["nickname"] for h in body["hands"]} <= own
                assert "seed" not in body
    assert {r.status for r in replies} >= {200, 202, 400}

    lines = world.logs.lines[start_of_logs:]
    assert len(lines) >= len(replies)  # one access line per request at least
    for line in lines:
        entry = json.loads(line)
        assert set(entry) <= LOG_KEYS, entry
        assert all(v is None or isinstance(v, str | int | float) for v in entry.values())
        assert not secrets_in(line, world.secrets | {game_uuid}), line
        assert '"hand' not in line and "Card(" not in line


def test_blef_serve_at_debug_level_logs_no_secret_even_from_query_strings(
    tmp_path: Path,
) -> None:
    """The established clients put player and admin UUIDs in query strings; uvicorn's own
    access log would print them. Everything the process prints is searched."""
    server = Server(tmp_path / "blef.db", tmp_path / "server.log", log_level="debug")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            game_uuid = http.get("/games/create").json()["game_uuid"]
            base = f"/games/{game_uuid}"
            secrets = {game_uuid}
            players = {}
            for name in ("ann", "ben"):
                players[name] = http.get(f"{base}/join", params={"nickname": name}).json()[
                    "player_uuid"
                ]
            secrets |= set(players.values())
            http.get(f"{base}/start", params={"admin_uuid": players["ann"]})
            http.get(f"{base}/start", params={"admin_uuid": players["ann"]})  # 403
            http.get(f"{base}/play", params={"player_uuid": "not-a-uuid", "action_id": 1})
            rng = random.Random(1)
            while (state := http.get(base).json())["status"] != "Finished":
                mover = players[state["cp_nickname"]]
                http.get(base, params={"player_uuid": mover})
                action = choose(state, rng)
                http.get(f"{base}/play", params={"player_uuid": mover, "action_id": action})
    finally:
        server.stop()
    output = server.log.read_text()
    assert "route=/games/{game_uuid}/play" in output  # the service did log the moves (text)
    assert not secrets_in(output, secrets)
    hands = [json.dumps(c.to_dict()) for c in DECK]
    assert not any(h in output for h in hands)
