"""The game protocol: what every game the service hosts declares and answers.

A game is two things, after OpenSpiel's ``Game``/``State`` split and boardgame.io's game
definition (setup, moves, turn order, player view, end):

- a :class:`GameDefinition`: its name, its seat range, its rules value (one immutable value,
  with defaults), how a move is read from JSON (format only), how a state is set up from a
  seed and restored from storage;
- a :class:`GameState`: one game in progress. It says who may act now (a :class:`Turn`: one
  seat, several seats choosing at once, or every seat until a deadline), the legal moves of
  a seat, applies a move or the passing of time and says what happened (:class:`Event`),
  gives the view of any viewer (a seat, or ``None`` for a spectator), its outcome as places
  once it is over (:class:`Result`, ties allowed) and its storage form.

Seats are the integers ``0 .. n_seats - 1``. A state knows nothing of names, secrets,
accounts or the lobby: the service seats people and programs, and speaks to the state by
seat. Time is an input: a state never reads a clock; the service passes ``now`` (seconds,
any fixed origin the service keeps, e.g. the Unix epoch) to :meth:`GameState.apply` and
:meth:`GameState.advance`, and reads :attr:`Turn.deadline` to know when to wake the game.

Errors: a state refuses a move by raising a :class:`MoveRefused` subclass whose ``code`` is
stable and machine-readable and whose ``message`` names the rule in words; it changes
nothing when it raises. :meth:`GameDefinition.parse_move` raises :class:`MalformedMove`
for input that is not a move of this game at all.

>>> Turn.one(2)
Turn(seats=frozenset({2}), mode=<TurnMode.ONE: 'one'>, deadline=None)
>>> Result.from_scores([3, 7, 7]).places
(3, 1, 1)
>>> Result.from_scores([10, 20]).winners
(1,)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Literal, Protocol, TypeVar, runtime_checkable

from engine.dealing import SeedSource

Seat = int
"""A seat: 0 .. n_seats - 1, in the order the game uses (Blef: seating order)."""

Viewer = int | None
"""Who looks: a seat, or ``None`` for a spectator (anyone not seated)."""

Json = Any
"""A value of JSON: what moves, views and storage parts are made of."""


class TurnMode(Enum):
    """How the seats of a :class:`Turn` act."""

    ONE = "one"
    """Exactly one seat acts; its move is public at once (Blef's bets)."""
    SIMULTANEOUS = "simultaneous"
    """Each listed seat makes one choice; choices stay hidden from every other viewer until
    the last chooser has chosen, then resolve together (Economancy's investing, defending,
    buying)."""
    OPEN = "open"
    """Every listed seat may act any number of times, in any order, until the deadline
    (Figgie's market). The passing of the deadline, given to :meth:`GameState.advance`,
    ends it."""


@dataclass(frozen=True, slots=True)
class Turn:
    """Who may act now. Empty ``seats`` means nobody: the game is over, or waits only for
    time (then ``deadline`` says until when)."""

    seats: frozenset[Seat]
    mode: TurnMode
    deadline: float | None = None
    """When the passing of time changes the state by the rules themselves (Figgie's end of
    trading), in the service's time; ``None`` when only moves change it. A per-move time
    limit is the table's setting, not the rules': it is not here."""

    @classmethod
    def one(cls, seat: Seat) -> Turn:
        return cls(frozenset((seat,)), TurnMode.ONE)

    @classmethod
    def nobody(cls) -> Turn:
        return cls(frozenset(), TurnMode.ONE)

    def may_act(self, seat: Seat) -> bool:
        return seat in self.seats


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, in order: ``kind`` names it (``"bet"``, ``"round_ended"``,
    ``"trade"``, ...), ``seat`` is whose action it was (None for the game's own: a deal, a
    settlement), ``data`` the public details. Events are public: whatever is in them every
    viewer may see (a hidden choice is an event only once revealed)."""

    kind: str
    seat: Seat | None = None
    data: Mapping[str, Json] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Json]:
        out: dict[str, Json] = {"kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        out.update(self.data)
        return out


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended: ``places[seat]`` is that seat's place, 1 the best; tied
    seats share a place and the next place skips (1, 1, 3). ``scores`` are the figures the
    places come from when the game has them (chips, points), ``reason`` says in a word how
    it ended (``"last_standing"``, ``"points"``, ``"day_limit"``, ``"settled"``, ...)."""

    places: tuple[int, ...]
    reason: str = "finished"
    scores: tuple[float, ...] | None = None

    @classmethod
    def from_scores(cls, scores: Sequence[float], reason: str = "finished") -> Result:
        """Places by score, highest first, ties sharing a place (competition ranking)."""
        values = tuple(scores)
        places = tuple(1 + sum(1 for other in values if other > mine) for mine in values)
        return cls(places, reason, values)

    @property
    def winners(self) -> tuple[Seat, ...]:
        """The seats in first place (several when they tie)."""
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)

    @property
    def is_draw(self) -> bool:
        """Every seat shares first place."""
        return len(self.winners) == len(self.places)

    def to_dict(self) -> dict[str, Json]:
        out: dict[str, Json] = {"places": list(self.places), "reason": self.reason}
        if self.scores is not None:
            out["scores"] = list(self.scores)
        return out


class GameError(Exception):
    """Base of the errors games raise about moves: a stable ``code``, a ``message`` in
    words (naming the rule), and nothing changed."""

    code: ClassVar[str] = "game_error"
    default_message: ClassVar[str] = "That is not allowed in this game"

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default_message
        super().__init__(self.message)


class MalformedMove(GameError):
    """The input is not a move of this game at all (wrong shape or type)."""

    code = "malformed_move"
    default_message = "That is not a move of this game"


class InvalidRules(GameError):
    """A rules value out of its bounds, or a key the game does not have."""

    code = "invalid_rules"
    default_message = "Those rules are not valid for this game"


class MoveRefused(GameError):
    """A well-formed move the rules do not allow now; subclasses name the rule."""

    code = "move_refused"
    default_message = "The rules do not allow that move now"


class NotYourTurn(MoveRefused):
    code = "not_your_turn"
    default_message = "It is not this seat's turn to act"


class GameOver(MoveRefused):
    code = "game_over"
    default_message = "The game is over"


MoveT = TypeVar("MoveT")
RulesT = TypeVar("RulesT")
StateT_co = TypeVar("StateT_co", bound="GameState[Any]", covariant=True)


@runtime_checkable
class GameState(Protocol[MoveT]):
    """One game in progress (see the module docstring). Mutable; apply and advance change
    it in place and return what happened."""

    @property
    def n_seats(self) -> int: ...

    def turn(self) -> Turn:
        """Who may act now."""
        ...

    def legal_moves(self, seat: Seat) -> Sequence[MoveT]:
        """Every move ``seat`` may make now (empty when it may not act). Games with very many
        moves may answer a representative, documented subset and say so."""
        ...

    def apply(self, seat: Seat, move: MoveT, now: float = 0.0) -> Sequence[Event]:
        """Make ``move`` for ``seat``; raises :class:`MoveRefused` (changing nothing) when
        the rules do not allow it. Returns the events it caused, in order."""
        ...

    def advance(self, now: float) -> Sequence[Event]:
        """The passing of time to ``now``: whatever the rules make of it (the end of
        trading past the deadline); nothing (an empty sequence) when time changes nothing."""
        ...

    def view(self, viewer: Viewer) -> dict[str, Json]:
        """What ``viewer`` may see, as JSON. Never anything another seat's rules hide from
        it (hands, unrevealed choices, seeds before their time)."""
        ...

    def result(self) -> Result | None:
        """The outcome once the game is over; None while it goes on."""
        ...

    def to_dict(self) -> dict[str, Json]:
        """The whole state as JSON, hidden parts included: for storage only."""
        ...


RecordStyle = Literal["log", "final_view", "rounds"]
"""How a game's record is kept. ``"log"``: the table keeps the game's public events as it is
played, and the record plays them again through the engine (Economancy). ``"final_view"``:
nothing is kept while it is played, since the finished game's view, shown to everyone, holds
all of it (Figgie: every trade, hand and the deal's seed). ``"rounds"``: the game keeps its
own record (Blef's round snapshots, its established ``/games/{uuid}/record``)."""


class GameDefinition(Protocol[RulesT, MoveT, StateT_co]):
    """What a game declares (see the module docstring)."""

    name: str
    """The game's kind as routes and stores name it: ``"blef"``, ``"economancy"``, ..."""
    title: str
    """Its name for people."""
    min_seats: int
    max_seats: int
    record: RecordStyle
    """How a finished game is told again step by step (its record, for a replay): see
    :data:`RecordStyle`."""

    def default_rules(self) -> RulesT: ...

    def rules_from_dict(self, data: Mapping[str, Json]) -> RulesT:
        """Rules from JSON (missing keys take their defaults); raises :class:`InvalidRules`
        with a sentence naming the bad value."""
        ...

    def rules_to_dict(self, rules: RulesT) -> dict[str, Json]: ...

    def setup(self, rules: RulesT, n_seats: int, seeds: SeedSource, now: float = 0.0) -> StateT_co:
        """A new game for ``n_seats`` seats, dealt from ``seeds`` (seeded and auditable:
        the same seeds and moves replay the same game)."""
        ...

    def parse_move(self, data: Json) -> MoveT:
        """A move from its JSON form (format only: legality is the state's to judge);
        raises :class:`MalformedMove` with the reason."""
        ...

    def move_to_json(self, move: MoveT) -> Json: ...

    def restore(self, data: Mapping[str, Json], seeds: SeedSource | None = None) -> StateT_co:
        """The state :meth:`GameState.to_dict` wrote, every invariant checked."""
        ...
