"""The shapes of the tables' routes (app/api/routes/tables.py), one move and one view schema
per game, as the OpenAPI document shows them.

Like the Blef state, the table's body is documented here and sent as the service builds it
(not validated on the way out). A move's body is read as any JSON and judged by the game
(``GameDefinition.parse_move``: ``422 malformed_move`` naming what is wrong), so its schema
below documents the move without letting the framework refuse it in other words.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, WithJsonSchema, create_model

from engine.facts import MAX_NICKNAME_LENGTH

# ---------------------------------------------------------------------- shared


class SeatBody(BaseModel):
    nickname: str
    ai: str | None = Field(description="The built-in agent playing this seat (null: a person)")
    ready: bool


class TurnBody(BaseModel):
    seats: list[int] = Field(description="The seats that may act now")
    mode: Literal["one", "simultaneous", "open"] = Field(
        description="`one`: one seat acts; `simultaneous`: each listed seat makes one hidden"
        " choice, revealed once all have chosen; `open`: every listed seat may act any number"
        " of times until the deadline"
    )
    deadline: float | None = Field(
        description="Unix seconds: the rules' deadline (Figgie's end of trading) or the"
        " table's move time limit; null: none"
    )


class EventBody(BaseModel):
    model_config = ConfigDict(extra="allow")
    kind: str = Field(description="What happened: `chose`, `trade`, `bid`, `settled`, ...")
    seat: int | None = Field(
        default=None, description="Whose action it was (absent: the game's own)"
    )


class ResultBody(BaseModel):
    places: list[int] = Field(description="Each seat's place, 1 the best; ties share a place")
    reason: str
    scores: list[float] | None = None


class CreatedTable(BaseModel):
    game_uuid: str
    room: int
    kind: str


class JoinedSeat(BaseModel):
    player_uuid: str = Field(description="Your seat's secret: send it as a Bearer token")
    seat: int = Field(description="Your seat (join order; fixed at the start)")


class TableEntry(BaseModel):
    game_uuid: str
    room: int
    seats: list[str]
    max_seats: int
    rules: dict[str, Any]


class TableList(BaseModel):
    games: list[TableEntry]


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rules: dict[str, Any] | None = Field(
        default=None, description="Rules to change from the defaults (see `GET /{game}`)"
    )
    public: bool = Field(default=False, description="List the table while it is in the lobby")
    time_limit: int = Field(
        default=0, description="Seconds a person has for each choice; 0: no limit (see the guide)"
    )


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    nickname: str = Field(min_length=1, max_length=MAX_NICKNAME_LENGTH)


class ReadyTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ready: bool = True


class AgentTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    agent: str


class RemoveTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    nickname: str = Field(min_length=1, max_length=MAX_NICKNAME_LENGTH)


class ReactTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reaction: str = Field(
        max_length=8,
        description="One of 👍 👎 👏 😂 😮 😢 🤔 🎉 (`400 unknown_reaction` otherwise)",
    )


class ReportTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    nickname: str = Field(
        min_length=1,
        max_length=MAX_NICKNAME_LENGTH,
        description="Another person's nickname at this table (compared ignoring case)",
    )


class RematchTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    nickname: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_NICKNAME_LENGTH,
        description="The nickname to sit under at the next table (absent: the one you had)",
    )


class RematchSeat(BaseModel):
    game_uuid: str = Field(description="The next table: an ordinary one, never rated")
    player_uuid: str = Field(description="Your seat's secret there: send it as a Bearer token")
    kind: str


class ReactionBody(BaseModel):
    nickname: str
    reaction: str
    at: float = Field(description="Unix seconds")


class RematchAsked(BaseModel):
    asked: list[str] = Field(description="Who of this finished table asked for the rematch")


# ---------------------------------------------------------------------- Blef


class BlefRules(BaseModel):
    deck_size: Literal[24, 32] = Field(default=24, description="24: 9 .. A; 32: 7 .. A")
    jokers: int = Field(default=0, description="Jokers in the deck")
    blanks: int = Field(default=0, description="Blank cards in the deck")
    common_cards: int = Field(default=0, description="Cards dealt face up to everyone")
    max_cards: int = Field(default=0, description="The most cards a player may hold; 0: the deck's")
    initial_cards: int | str | None = Field(
        default=None, description="What each player holds in round 1 (see the guide)"
    )


class BlefCard(BaseModel):
    value: int
    colour: int


class BlefView(BaseModel):
    """Blef's view for one seat, by seat (Blef's seating order, drawn at the start): the
    card counts, the round's bets, your hand (every hand and the seed once finished)."""

    round_number: int
    max_cards: int
    cards: list[int] = Field(description="Each seat's number of cards (0: out)")
    hands: dict[str, list[BlefCard]] = Field(description="The hands you may see, by seat")
    common_hand: list[BlefCard]
    current: int | None = Field(description="The seat to move")
    history: list[list[int]] = Field(description="The round's moves: [seat, action_id]")
    commitment: str | None
    legal_actions: list[int] | None = Field(
        default=None, description="Your legal action ids, when it is your turn"
    )
    seed: str | None = Field(default=None, description="Once finished: the last round's seed")


_BLEF_MOVE: Final = {
    "description": "An action id: 0 .. n_bets - 1 a bet, the check after them (88 with 24"
    ' cards, 140 with 32), as {"action_id": N} (the body of /games/{uuid}/play) or the bare'
    " integer N.",
    "oneOf": [
        {
            "type": "object",
            "properties": {"action_id": {"type": "integer"}},
            "required": ["action_id"],
            "additionalProperties": False,
        },
        {"type": "integer"},
    ],
}


class BlefMove(RootModel[Annotated[Any, WithJsonSchema(_BLEF_MOVE)]]):
    """A Blef move (see the schema's description)."""


# ---------------------------------------------------------------------- Economancy


class EconomancyRules(BaseModel):
    cards: Literal["base", "simple"] = Field(
        default="base", description="`base`: the 13 shop cards; `simple`: the course's first 8"
    )
    bubble_attack: int = Field(
        default=9, description="Bubble's attack (the course's 9, the site's 5)"
    )
    day_limit: int = Field(default=100, description="Days before the game is a draw")
    on_timeout: Literal["default_move", "forfeit"] = Field(
        default="default_move",
        description="What a table does with a seat that does not choose in time",
    )


class EconomancyCard(BaseModel):
    name: str
    uses: int


class EconomancyPlayer(BaseModel):
    coins: int
    buys: int
    cards: list[EconomancyCard]


class EconomancyPhase(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    name: Literal["investing", "attacking", "buy", "end"]
    attacker: int | None = None
    attacker_card: int | bool | None = Field(
        default=None, description="false until the attacker chose"
    )
    attacker_card_dashed: int | bool | None = Field(
        default=None, alias="attacker-card", description="The same, as the assignment spells it"
    )
    winner: int | bool | None = Field(default=None, description="At the end: the winner, or false")


class EconomancyView(BaseModel):
    """The course protocol's state JSON for one seat (``player``: null for a spectator)."""

    day: int
    phase: EconomancyPhase
    shop: dict[str, int]
    players: list[EconomancyPlayer]
    player: int | None


_ECONOMANCY_MOVE: Final = {
    "description": "The protocol's move: a one-element array of a number (coins to invest,"
    " a card's index to attack or defend with, 0 not to attack) or a card's name to buy"
    ' (or "Pass"). The bare value is accepted too.',
    "oneOf": [
        {
            "type": "array",
            "minItems": 1,
            "maxItems": 1,
            "items": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
        },
        {"type": "integer"},
        {"type": "string"},
    ],
}  # No "examples" key: the fuzzing suite draws its own requests (examples are in the docs).


class EconomancyMove(RootModel[Annotated[Any, WithJsonSchema(_ECONOMANCY_MOVE)]]):
    """An Economancy move (see the schema's description)."""


# ---------------------------------------------------------------------- Figgie


class FiggieRules(BaseModel):
    starting_chips: int = 350
    trading_seconds: float = 240.0
    max_price: int = 99


class FiggieQuote(BaseModel):
    seat: int
    price: int


class FiggieBook(BaseModel):
    bids: list[FiggieQuote]
    asks: list[FiggieQuote]
    best_bid: FiggieQuote | None
    best_ask: FiggieQuote | None


class FiggieTrade(BaseModel):
    buyer: int
    seller: int
    suit: str
    price: int


class FiggieView(BaseModel):
    """What one seat sees of a Figgie game: its own hand, every seat's chips and card count,
    the book and the tape; the settlement reveals the deck, the goal suit and every hand."""

    game: Literal["figgie"]
    seat: int | None
    n_seats: int
    chips: list[int]
    card_counts: list[int]
    pot: int
    book: dict[str, FiggieBook]
    tape: list[FiggieTrade]
    deadline: float
    time_left: float
    commitment: str = Field(description="SHA-256 of the deal's seed, revealed at the end")
    max_price: int
    settled: bool
    hand: dict[str, int] | None = Field(
        default=None, description="Your hand (absent for a spectator)"
    )
    settlement: dict[str, Any] | None = Field(default=None, description="Once settled: every hand")


_SUIT: Final = {"enum": ["spades", "clubs", "hearts", "diamonds"]}
_FIGGIE_MOVE: Final = {
    "description": "An order. `type` is bid, ask, cancel_bid, cancel_ask, lift (buy at the"
    " best ask) or hit (sell at the best bid); `suit` spades, clubs, hearts or diamonds;"
    " `price` (whole chips) only for a bid or an ask. Any trade cancels every quote.",
    "oneOf": [
        {
            "type": "object",
            "required": ["type", "suit", "price"],
            "properties": {
                "type": {"enum": ["bid", "ask"]},
                "suit": _SUIT,
                "price": {"type": "integer", "minimum": 1},
            },
            "additionalProperties": False,
        },
        {
            "type": "object",
            "required": ["type", "suit"],
            "properties": {
                "type": {"enum": ["cancel_bid", "cancel_ask", "lift", "hit"]},
                "suit": _SUIT,
            },
            "additionalProperties": False,
        },
    ],
}  # e.g. {"type": "bid", "suit": "hearts", "price": 7}, {"type": "lift", "suit": "clubs"}


class FiggieMove(RootModel[Annotated[Any, WithJsonSchema(_FIGGIE_MOVE)]]):
    """A Figgie order (see the schema's description)."""


# ---------------------------------------------------------------------- one per game


class TableBase(BaseModel):
    game_uuid: str
    kind: str
    status: Literal["Not started", "Running", "Finished"]
    version: int
    rules: dict[str, Any]
    admin: str | None
    seats: list[SeatBody]
    you: int | None = Field(description="Your seat (null: a spectator)")
    turn: TurnBody | None
    your_turn: bool
    events: list[EventBody] = Field(description="What the last change did, in order")
    result: ResultBody | None
    reactions: list[ReactionBody] = Field(description="The last 5 reactions, oldest first")
    rematch: RematchAsked


class RecordSeat(BaseModel):
    nickname: str
    ai: str | None = Field(description="The built-in agent that played this seat (null: a person)")


class RecordStep(BaseModel):
    day_count: int | None = Field(
        description="The day, counted from the game's first (1, 2, 3, 4, ...)"
    )
    events: list[EventBody] = Field(
        description="What this step did: the events its revealed moves made, as shown live"
    )
    view: EconomancyView = Field(description="The spectator's view after this step")


class EconomancyRecord(BaseModel):
    """A finished Economancy table, step by step (app/service/match_record.py)."""

    game_uuid: str
    kind: str
    room: int
    rules: dict[str, Any]
    seats: list[RecordSeat]
    result: ResultBody | None
    steps: list[RecordStep] = Field(
        description="The start, then one step per revealed choice, in the order they were made"
    )


class FiggieRecord(BaseModel):
    """A finished Figgie table (app/service/match_record.py): its settled view as everyone
    sees it, from which the replay steps through the deal and every trade."""

    game_uuid: str
    kind: str
    room: int
    rules: dict[str, Any]
    seats: list[RecordSeat]
    result: ResultBody | None
    view: FiggieView = Field(
        description="The spectator's view of the settled game: the tape, every hand, the seed"
    )


def _table(view: type[BaseModel], title: str) -> type[BaseModel]:
    described = Field(description=f"{title}'s view for your seat (null before the start)")
    optional: Any = view | None
    model: type[BaseModel] = create_model(
        f"{title}Table", __base__=TableBase, view=(optional, described)
    )
    return model


def _info(rules: type[BaseModel], title: str) -> type[BaseModel]:
    model: type[BaseModel] = create_model(
        f"{title}Game",
        name=(str, ...),
        title=(str, ...),
        min_seats=(int, ...),
        max_seats=(int, ...),
        rules=(rules, ...),
        agents=(list[str], Field(description="The built-in computer players (`/ai`)")),
    )
    return model


class GameSchemas(BaseModel):
    """The schemas of one game's routes."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    title: str
    move: type[BaseModel]
    table: type[BaseModel]
    info: type[BaseModel]
    record: type[BaseModel] | None = None
    """A finished game's record (``/{kind}/games/{uuid}/record``), if the game has one."""


SCHEMAS: Final = {
    "blef": GameSchemas(
        title="Blef",
        move=BlefMove,
        table=_table(BlefView, "Blef"),
        info=_info(BlefRules, "Blef"),
    ),
    "economancy": GameSchemas(
        title="Economancy",
        move=EconomancyMove,
        table=_table(EconomancyView, "Economancy"),
        info=_info(EconomancyRules, "Economancy"),
        record=EconomancyRecord,
    ),
    "figgie": GameSchemas(
        title="Figgie",
        move=FiggieMove,
        table=_table(FiggieView, "Figgie"),
        info=_info(FiggieRules, "Figgie"),
        record=FiggieRecord,
    ),
}
"""Every game hosted at the tables' routes, with its schemas."""
