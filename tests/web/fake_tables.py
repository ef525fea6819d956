"""A stand-in for the tables' contract routes (`/{kind}/games/...`, /work's CONTRACT-TABLES) for
Economancy, answered inside the browser tests through Playwright's request routing, while the
service's own routes are being built on another branch. It plays the real engine
(engine.economancy) and the real built-in agents; it keeps the contract's shapes (the body of
`GET /{kind}/games/{uuid}`, the Bearer secret, the error body and statuses) and its one
time-driven habit that matters to a client: computer players move in writes of their own,
one each `think` seconds, so a body carries the events of its last write only.

It is a test double: nothing in the service uses it, and the browser tests that use it say so.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

from engine.economancy import GAME
from engine.economancy.agents import AGENTS, EconomancyAgent, make_agent
from engine.economancy.state import EconomancyState
from engine.protocol import MalformedMove, MoveRefused


@dataclass
class _Seat:
    nickname: str
    token: str
    ai: str | None = None
    ready: bool = False
    agent: EconomancyAgent | None = None


@dataclass
class _Table:
    game_uuid: str
    room: int
    rules: dict[str, Any]
    public: bool
    seats: list[_Seat] = field(default_factory=list)
    admin: str | None = None
    status: str = "Not started"
    version: int = 0
    state: EconomancyState | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    ai_at: float = 0.0


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class FakeTables:
    """The contract's Economancy routes, in memory (see the module docstring)."""

    kind = "economancy"

    def __init__(self, think: float = 0.2) -> None:
        self.think = think
        self.tables: dict[str, _Table] = {}
        self.lock = threading.Lock()
        self.requests: list[tuple[str, str]] = []

    # ------------------------------------------------------------------ routing

    def matches(self, url: str) -> bool:
        path = urlparse(url).path
        return path == f"/{self.kind}" or path.startswith(f"/{self.kind}/")

    def handle(self, route: Any) -> None:
        request = route.request
        path = urlparse(request.url).path
        auth = request.headers.get("authorization", "")
        token = auth[7:] if auth.startswith("Bearer ") else None
        try:
            payload = json.loads(request.post_data) if request.post_data else None
        except json.JSONDecodeError:
            payload = None
        with self.lock:
            self.requests.append((request.method, path))
            try:
                status, body = self.answer(request.method, path, token, payload)
            except _Refused as e:
                status, body = e.status, {"error": e.message, "code": e.code}
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    def answer(self, method: str, path: str, token: str | None, payload: Any) -> tuple[int, Any]:
        parts = path.strip("/").split("/")[1:]
        if not parts and method == "GET":
            return 200, {
                "name": self.kind,
                "title": "Economancy",
                "min_seats": 2,
                "max_seats": 4,
                "rules": GAME.rules_to_dict(GAME.default_rules()),
                "agents": sorted(AGENTS),
            }
        if parts == ["games"] and method == "GET":
            listed = [t for t in self.tables.values() if t.public and t.status == "Not started"]
            return 200, {
                "games": [
                    {
                        "game_uuid": t.game_uuid,
                        "room": t.room,
                        "seats": [s.nickname for s in t.seats],
                        "max_seats": 4,
                        "rules": t.rules,
                    }
                    for t in listed
                ]
            }
        if parts == ["games"] and method == "POST":
            rules = (payload or {}).get("rules") or {}
            try:
                parsed = GAME.rules_from_dict(rules)
            except Exception as e:  # the engine's InvalidRules
                raise _Refused(422, "invalid_rules", str(e)) from e
            table = _Table(
                str(uuid.uuid4()),
                1000 + len(self.tables),
                GAME.rules_to_dict(parsed),
                bool((payload or {}).get("public", False)),
            )
            self.tables[table.game_uuid] = table
            return 201, {"game_uuid": table.game_uuid, "room": table.room, "kind": self.kind}
        if len(parts) < 2 or parts[0] != "games" or parts[1] not in self.tables:
            raise _Refused(404, "game_not_found", "No such game.")
        table = self.tables[parts[1]]
        self._advance(table)
        you = next((i for i, s in enumerate(table.seats) if s.token == token), None)
        if token is not None and you is None:
            raise _Refused(403, "unknown_player", "That secret opens no seat of this game.")
        action = parts[2] if len(parts) > 2 else None
        if method == "GET" and action is None:
            return 200, self._body(table, you)
        if method != "POST" or action is None:
            raise _Refused(405, "method_not_allowed", "Not here.")
        if action == "join":
            return 200, self._join(table, (payload or {}).get("nickname", ""))
        if you is None:
            raise _Refused(403, "unknown_player", "This needs a seat's secret.")
        me = table.seats[you]
        if action == "move":
            return 200, self._move(table, you, payload)
        if action == "ready":
            me.ready = bool((payload or {}).get("ready"))
        elif action == "leave":
            if table.status != "Not started":
                raise _Refused(409, "game_already_started", "The game has started.")
            table.seats.pop(you)
        elif action in ("ai", "start", "remove"):
            if me.nickname != table.admin:
                raise _Refused(403, "not_admin", "Only the host may do that.")
            if table.status != "Not started":
                raise _Refused(409, "game_already_started", "The game has started.")
            if action == "ai":
                agent = (payload or {}).get("agent")
                if agent not in AGENTS:
                    raise _Refused(422, "unknown_agent", f"No agent called {agent!r}.")
                self._seat(table, f"AI_{agent}_{len(table.seats) + 1}", agent)
            elif action == "remove":
                table.seats = [
                    s for s in table.seats if s.nickname != (payload or {}).get("nickname")
                ]
            else:
                if len(table.seats) < 2:
                    raise _Refused(409, "too_few_players", "Two players at least.")
                table.state = GAME.setup(GAME.rules_from_dict(table.rules), len(table.seats))
                table.status = "Running"
                table.events = []
                table.ai_at = time.monotonic() + self.think
        else:
            raise _Refused(404, "not_found", "No such route.")
        table.version += 1
        return 200, self._body(table, you if action != "leave" else None)

    # ------------------------------------------------------------------ the table

    def _seat(self, table: _Table, nickname: str, agent: str | None = None) -> _Seat:
        if len(table.seats) >= 4:
            raise _Refused(409, "room_full", "Four players at most.")
        seat = _Seat(nickname, str(uuid.uuid4()), agent, agent is not None)
        if agent is not None:
            seat.agent = make_agent(
                agent, seed=len(table.seats), rules=GAME.rules_from_dict(table.rules)
            )
        table.seats.append(seat)
        if table.admin is None:
            table.admin = nickname
        return seat

    def _join(self, table: _Table, nickname: str) -> dict[str, Any]:
        if table.status != "Not started":
            raise _Refused(409, "game_already_started", "The game has started.")
        if not nickname or not nickname[0].isalpha():
            raise _Refused(400, "invalid_nickname", "A name starts with a letter.")
        if any(s.nickname == nickname for s in table.seats):
            raise _Refused(409, "nickname_taken", "That name is taken here.")
        seat = self._seat(table, nickname)
        table.version += 1
        return {"player_uuid": seat.token, "seat": len(table.seats) - 1}

    def _write(self, table: _Table, seat: int, move: Any) -> None:
        assert table.state is not None
        events = table.state.apply(seat, move)
        table.version += 1
        table.events = [e.to_dict() for e in events]
        if table.state.over:
            table.status = "Finished"

    def _move(self, table: _Table, you: int, payload: Any) -> dict[str, Any]:
        if table.state is None or table.status != "Running":
            raise _Refused(409, "game_not_started", "The game is not running.")
        try:
            move = GAME.parse_move(payload)
            self._write(table, you, move)
        except MalformedMove as e:
            raise _Refused(422, "malformed_move", str(e)) from e
        except MoveRefused as e:
            raise _Refused(409, e.code, str(e)) from e
        table.ai_at = max(table.ai_at, time.monotonic() + self.think)
        return self._body(table, you)

    def _advance(self, table: _Table) -> None:
        """The computer players' moves due by now, one write each `think` seconds."""
        now = time.monotonic()
        while table.status == "Running" and table.state is not None and table.ai_at <= now:
            due = [s for s in table.state.to_act() if table.seats[s].agent is not None]
            if not due:
                table.ai_at = now + self.think
                return
            seat = due[0]
            agent = table.seats[seat].agent
            assert agent is not None
            self._write(table, seat, agent.decide(table.state, seat, table.state.view(seat)))
            table.ai_at += self.think

    def _body(self, table: _Table, you: int | None) -> dict[str, Any]:
        state = table.state
        turn: dict[str, Any] | None = None
        asked: list[int] = []
        if state is not None and not state.over:
            t = state.turn()
            asked = sorted(t.seats)
            turn = {"seats": asked, "mode": t.mode.value, "deadline": None}
        result = state.result() if state is not None else None
        return {
            "game_uuid": table.game_uuid,
            "kind": self.kind,
            "status": table.status,
            "version": table.version,
            "rules": table.rules,
            "admin": table.admin,
            "seats": [{"nickname": s.nickname, "ai": s.ai, "ready": s.ready} for s in table.seats],
            "you": you,
            "turn": turn,
            "your_turn": you is not None and you in asked,
            "view": state.view(you) if state is not None else None,
            "events": table.events,
            "result": None
            if result is None
            else {
                "places": list(result.places),
                "reason": result.reason,
                "scores": list(result.scores or ()),
            },
        }
