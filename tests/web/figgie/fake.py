"""A stand-in for the service's Figgie routes (CONTRACT-TABLES.md), answered inside the test
through Playwright's request interception, while the shared routes for every game are being
built: `GET /figgie/games/{uuid}` and `POST /figgie/games/{uuid}/move` with the contract's
body, the engine's own game (`FiggieGame`), its refusals with their codes and sentences,
computer players that are the engine's built-in agents, and a fake clock the test moves. As
the service's clock does, the first request at or past the deadline ends trading with
`advance(now)`, whether or not anyone sends an order."""

from __future__ import annotations

import json
import random
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from benchmarks.load import Server
from engine.figgie.agents import make_agent
from engine.figgie.game import FiggieGame, FiggieRules, FiggieState, Order
from engine.figgie.sim import Observation, decode
from engine.protocol import GameError, MalformedMove, MoveRefused
from tests.web.pages import with_axe

GAME = FiggieGame()


@dataclass
class FakeFiggie:
    """One Figgie table: seat 0 a person (``secret``), the others computer players."""

    agents: list[str]
    nickname: str = "ann"
    trading_seconds: float = 60.0
    seed: bytes = b"\x07" * 32
    clock: float = 1_000.0
    game_uuid: str = field(default_factory=lambda: str(uuid.uuid4()))
    secret: str = field(default_factory=lambda: str(uuid.uuid4()))
    version: int = 1
    orders: list[dict[str, Any]] = field(default_factory=list)
    frozen: dict[str, Any] | None = None
    """While set, every read answers this body: the page's view goes stale, as over a slow
    network, while the game moves on."""

    def __post_init__(self) -> None:
        self.rules = FiggieRules(trading_seconds=self.trading_seconds, max_price=30)
        n = 1 + len(self.agents)
        self.state: FiggieState = GAME.setup(self.rules, n, lambda: self.seed, now=self.clock)
        self.bots = []
        for i, name in enumerate(self.agents, start=1):
            bot = make_agent(name)
            bot.reset(i, n, list(self.state.market.hands[i]), random.Random(i))
            self.bots.append((i, bot))
        self.names = [self.nickname, *[f"AI_{a}_{i}" for i, a in enumerate(self.agents, 1)]]
        self.tick = 0

    # ------------------------------------------------------------------ the clock
    def advance(self, seconds: float) -> None:
        """Time passes: each second, every computer player makes one order (as the
        simulator's tick), until the deadline; the deadline itself is left to the next
        request (the service's clock), not done here."""
        for _ in range(int(seconds)):
            if self.clock + 1 >= self.state.deadline:
                self.clock = self.state.deadline - 0.5
                break
            self.clock += 1
            self.tick += 1
            for seat, bot in self.bots:
                kind, suit, price = decode(
                    bot.act(Observation(self.state.market, seat, self.tick, 240))
                )
                if kind is None:
                    continue
                try:
                    self.state.apply(seat, Order(kind, suit, price or None), now=self.clock)
                    self.version += 1
                except MoveRefused:
                    pass

    def freeze_reads(self, on: bool) -> None:
        self.frozen = self.body(0) if on else None

    def pass_deadline(self) -> None:
        self.clock = self.state.deadline + 0.25

    def _clock_ends_trading(self) -> None:
        if self.state.advance(self.clock):
            self.version += 1

    # ------------------------------------------------------------------ the routes
    def body(self, seat: int | None) -> dict[str, Any]:
        st = self.state
        turn = st.turn()
        result = st.result()
        return {
            "game_uuid": self.game_uuid,
            "kind": "figgie",
            "room": "FIG1",
            "max_seats": 5,
            "status": "Finished" if st.settled else "Running",
            "version": self.version,
            "rules": self.rules.to_dict(),
            "admin": self.nickname,
            "seats": [
                {"nickname": name, "ai": None if i == 0 else self.agents[i - 1], "ready": True}
                for i, name in enumerate(self.names)
            ],
            "you": seat,
            "turn": None
            if st.settled
            else {"seats": sorted(turn.seats), "mode": "open", "deadline": st.deadline},
            "your_turn": seat is not None and not st.settled,
            "view": st.view(seat, now=self.clock),
            "events": [],
            "result": None
            if result is None
            else {
                "places": list(result.places),
                "reason": result.reason,
                "scores": list(result.scores or ()),
            },
        }

    def handle(self, route: Any) -> None:
        request = route.request
        auth = request.headers.get("authorization")
        seat: int | None = None
        if auth is not None:
            if auth != f"Bearer {self.secret}":
                self._send(
                    route,
                    403,
                    {"error": "That is not a seat of this game", "code": "unknown_player"},
                )
                return
            seat = 0
        path = request.url.split("?", 1)[0]
        self._clock_ends_trading()
        if request.method == "GET" and path.endswith(f"/figgie/games/{self.game_uuid}"):
            self._send(route, 200, self.frozen if self.frozen is not None else self.body(seat))
            return
        if request.method == "POST" and path.endswith(f"/figgie/games/{self.game_uuid}/move"):
            if seat is None:
                self._send(
                    route,
                    403,
                    {"error": "Only a seat of this game may trade", "code": "unknown_player"},
                )
                return
            order = json.loads(request.post_data or "null")
            self.orders.append(order)
            try:
                move = GAME.parse_move(order)
                self.state.apply(seat, move, now=self.clock)
            except MalformedMove as exc:
                self._send(route, 422, {"error": exc.message, "code": exc.code})
                return
            except GameError as exc:
                self._send(route, 409, {"error": exc.message, "code": exc.code})
                return
            self.version += 1
            self._send(route, 200, self.body(seat))
            return
        self._send(route, 404, {"error": "No such game", "code": "game_not_found"})

    @staticmethod
    def _send(route: Any, status: int, body: dict[str, Any]) -> None:
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))


SIZES = {"phone": (390, 844), "desktop": (1100, 900)}
"""The two screens every Figgie page is judged on."""


def open_table(
    new_page: Any, server: Server, fake: FakeFiggie, size: str, seated: bool = True
) -> Any:
    """A page at the fake's table (its routes answered by ``fake``), axe-core loaded, as the
    table's person (their seat kept as the page keeps one) or as a spectator."""
    page = new_page(*SIZES[size])
    with_axe(page)
    page.route(re.compile(r".*/figgie/games/.*"), fake.handle)
    page.goto(server.url + "/")
    if seated:
        seat = json.dumps({"player_uuid": fake.secret, "nickname": fake.nickname})
        page.evaluate(
            "([k, v]) => localStorage.setItem(k, v)", [f"blef:seat:{fake.game_uuid}", seat]
        )
    page.goto(f"{server.url}/#/figgie/{fake.game_uuid}")
    page.locator("#fig-clock").wait_for()
    return page
