"""A match: a table of any game behind the protocol, as the service stores and plays it.

A :class:`Match` is the game-independent value the service keeps for every kind but Blef
(whose :class:`~engine.game.Game` keeps its established format): the game's kind, its rules
value (the definition's, as JSON), the :class:`~engine.table.Table` (seat range from the
:class:`~engine.protocol.GameDefinition`), and, once started, the protocol's
:class:`~engine.protocol.GameState`, set up at the start for the seats in join order from
the seed source (seeded and auditable: the same seeds and moves replay the same game).

Its stored form (:meth:`Match.to_dict`) names its kind (``"kind"``); a stored game without
``"kind"`` is Blef (:func:`kind_of`). The game's own code is loaded on first use of the kind
(:func:`engine.games.definition`).

Moves come in as JSON and are read by the game (:meth:`GameDefinition.parse_move`); the
events of the last change are kept (:attr:`Match.events`) so every reader sees what just
happened. ``step`` counts the turns: it moves on with every move or passing of time except a
chooser's hidden choice inside a simultaneous turn (the others still choose in the same
step), which is how the service keeps one move deadline per step.

>>> from engine.dealing import seed_sequence
>>> match = Match.new("economancy")
>>> match.join("ann"), match.join("Random_(AI)", ai_agent="random")
(0, 1)
>>> match.start(by="ann", seeds=seed_sequence(1))
>>> match.turn().mode.value, sorted(match.turn().seats)
('simultaneous', [0, 1])
>>> [e.kind for e in match.apply(0, [1])]
['chose']
>>> Match.from_dict(match.to_dict()).to_dict() == match.to_dict()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from engine import errors
from engine.dealing import SeedSource, random_seed
from engine.facts import Status
from engine.games import KINDS, definition
from engine.protocol import (
    Event,
    GameDefinition,
    GameState,
    Json,
    MalformedMove,
    Result,
    Turn,
    TurnMode,
    Viewer,
)
from engine.serialise import StoredGame
from engine.table import Table

BLEF: Final = "blef"
FORMAT: Final = 1


def kind_of(data: Mapping[str, Any]) -> str:
    """The kind of a stored game: its ``"kind"``, and Blef for a game stored without one."""
    kind = data.get("kind", BLEF)
    return kind if isinstance(kind, str) else BLEF


def known_kind(kind: str) -> bool:
    """Whether ``kind`` is a game the engine knows."""
    return kind in KINDS


def agent_nickname_stem(agent: str) -> str:
    """An agent's name as a nickname's stem: ``greedy_points`` is ``GreedyPoints``."""
    return "".join(part[:1].upper() + part[1:] for part in agent.split("_") if part)


class Match:
    """One table of a game (see the module docstring)."""

    __slots__ = ("definition", "events", "kind", "rules", "state", "step", "table")

    def __init__(self, kind: str, rules: Mapping[str, Json] | None = None) -> None:
        self.kind = kind
        self.definition: GameDefinition[Any, Any, Any] = definition(kind)
        game = self.definition
        value = game.default_rules() if rules is None else game.rules_from_dict(rules)
        self.rules: dict[str, Json] = game.rules_to_dict(value)
        self.table = Table(min_seats=game.min_seats, max_seats=game.max_seats)
        self.state: GameState[Any] | None = None
        self.step = 0
        self.events: list[Event] = []
        """What the last change did, in order (public: hidden choices appear as ``chose``)."""

    @classmethod
    def new(cls, kind: str, rules: Mapping[str, Json] | None = None) -> Match:
        """A new table of ``kind`` in the lobby (``KeyError`` for an unknown kind,
        :class:`~engine.protocol.InvalidRules` for bad rules)."""
        return cls(kind, rules)

    # ------------------------------------------------------------------ reading

    @property
    def status(self) -> Status:
        return self.table.status

    @property
    def admin(self) -> str | None:
        return self.table.admin

    @property
    def nicknames(self) -> list[str]:
        return self.table.nicknames

    def turn(self) -> Turn:
        """Who may act now (nobody before the start)."""
        if self.state is None:
            return Turn.nobody()
        return self.state.turn()

    def result(self) -> Result | None:
        return None if self.state is None else self.state.result()

    def view(self, viewer: Viewer) -> dict[str, Json] | None:
        """The game's view for a seat (or a spectator, None); None before the start."""
        if self.state is None:
            return None
        return self.state.view(viewer)

    # ------------------------------------------------------------------ the lobby

    def join(self, nickname: str, ai_agent: str | None = None) -> int:
        return self.table.join(nickname, ai_agent=ai_agent)

    def set_rules(self, rules: Mapping[str, Json]) -> bool:
        """New rules before the start (checked by the game). Returns whether they changed."""
        self.table.check_lobby("Cannot change rules after the game has started")
        value = self.definition.rules_to_dict(self.definition.rules_from_dict(rules))
        if value == self.rules:
            return False
        self.rules = value
        self.table.ready = []
        return True

    def start(self, by: str | None, seeds: SeedSource | None = None, now: float = 0.0) -> None:
        """Start: the game is set up for the seats in join order, dealt from ``seeds``."""
        table = self.table
        if table.status is not Status.NOT_STARTED:
            raise errors.GameAlreadyStarted
        table.check_admin(by)
        game = self.definition
        if table.n_players < game.min_seats:
            raise errors.TooFewPlayers(
                f"At least {game.min_seats} players needed to start a game of {game.title}"
            )
        rules = game.rules_from_dict(self.rules)
        self.state = game.setup(rules, table.n_players, seeds or random_seed, now)
        table.seat_in(range(table.n_players))
        self.step += 1
        self.events = [Event("started", None, {"seats": list(table.nicknames)})]

    # ------------------------------------------------------------------ playing

    def parse(self, data: Json) -> Any:
        """The game's move from its JSON (:class:`MalformedMove` if it is not one)."""
        return self.definition.parse_move(data)

    def apply(self, seat: int, move: Json, now: float = 0.0) -> list[Event]:
        """Make the move ``move`` (JSON) for ``seat``; refused as the game refuses it."""
        state = self._running()
        parsed = self.parse(move)
        before = state.turn()
        events = list(state.apply(seat, parsed, now))
        self._after(before, events)
        return events

    def apply_parsed(self, seat: int, move: Any, now: float = 0.0) -> list[Event]:
        """:meth:`apply` for a move already read (an agent's)."""
        state = self._running()
        before = state.turn()
        events = list(state.apply(seat, move, now))
        self._after(before, events)
        return events

    def advance(self, now: float) -> list[Event]:
        """The passing of time (Figgie's end of trading); nothing when it changes nothing."""
        if self.state is None or self.table.status is not Status.RUNNING:
            return []
        before = self.state.turn()
        events = list(self.state.advance(now))
        if events:
            self._after(before, events)
        return events

    def forfeit(self, seat: int) -> list[Event]:
        """Take ``seat`` out of the game, if the game has a way to (Economancy's); else
        nothing happens and an empty list is returned."""
        state = self._running()
        forfeit = getattr(state, "forfeit", None)
        if forfeit is None:
            return []
        before = state.turn()
        events = list(forfeit(seat))
        self._after(before, events)
        return events

    def safest_move(self, seat: int) -> Any:
        """The move a table plays for a seat that did not choose in time: the game's own
        default when it has one (Economancy: invest 0, no attack, the leftmost usable
        defender, Pass), else its first legal move."""
        state = self._running()
        default = getattr(state, "default_move", None)
        if default is not None:
            return default(seat)
        moves = state.legal_moves(seat)
        if not moves:
            raise MalformedMove(f"seat {seat} has no move to make now")
        return moves[0]

    def _running(self) -> GameState[Any]:
        if self.state is None:
            raise errors.GameNotStarted
        if self.table.status is Status.FINISHED:
            raise errors.GameFinished
        return self.state

    def _after(self, before: Turn, events: list[Event]) -> None:
        assert self.state is not None
        after = self.state.turn()
        same_step = (
            before.mode is TurnMode.SIMULTANEOUS
            and after.mode is TurnMode.SIMULTANEOUS
            and after.seats < before.seats
            and all(e.kind == "chose" for e in events)
        )
        if not same_step:
            self.step += 1
        self.events.extend(events)
        if self.state.result() is not None:
            self.table.finish()

    # ------------------------------------------------------------------ storage

    def to_dict(self) -> dict[str, Json]:
        table = self.table
        return {
            "kind": self.kind,
            "format": FORMAT,
            "status": table.status.value,
            "public": table.public,
            "admin": table.admin,
            "rules": dict(self.rules),
            "players": [
                {"nickname": n, "ai_agent": a}
                for n, a in zip(table.nicknames, table.ai_agents, strict=True)
            ],
            "ready": list(table.ready),
            "auto_start": table.auto_start,
            "step": self.step,
            "state": None if self.state is None else self.state.to_dict(),
            "events": [event.to_dict() for event in self.events],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Json], seeds: SeedSource | None = None) -> Match:
        """The match :meth:`to_dict` wrote, the game's state restored with its checks."""
        if data.get("format") != FORMAT:
            raise ValueError(f"not a stored match of format {FORMAT}")
        match = cls(str(data["kind"]), data["rules"])
        table = match.table
        players = data["players"]
        table.nicknames = [str(p["nickname"]) for p in players]
        table.ai_agents = [p.get("ai_agent") for p in players]
        table.teams = [None] * len(players)
        table.ready = [str(n) for n in data.get("ready", ())]
        table.admin = data.get("admin")
        table.public = bool(data.get("public"))
        table.auto_start = bool(data.get("auto_start"))
        table.status = Status(data["status"])
        match.step = int(data.get("step", 0))
        stored = data.get("state")
        if stored is not None:
            match.state = match.definition.restore(stored, seeds)
            if match.state.n_seats != len(players):
                raise ValueError("the stored state has another number of seats than the table")
        elif table.status is not Status.NOT_STARTED:
            raise ValueError("a started match has a state")
        match.events = [_event(e) for e in data.get("events", ())]
        return match


def _event(data: Mapping[str, Json]) -> Event:
    rest = {k: v for k, v in data.items() if k not in ("kind", "seat")}
    return Event(str(data["kind"]), data.get("seat"), rest)


def facts(data: Mapping[str, Json]) -> StoredGame:
    """The public facts of a stored match as readers outside the engine read every stored
    game (:func:`engine.serialise.summary`'s shape; a match has no rounds or cards)."""
    players = data.get("players") or ()
    n = len(players)
    return StoredGame(
        Status(data["status"]),
        bool(data.get("public")),
        data.get("admin"),
        0,
        0,
        tuple(str(p["nickname"]) for p in players),
        (0,) * n,
        tuple(p.get("ai_agent") for p in players),
        None,
    )
