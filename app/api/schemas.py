"""The shapes of requests and responses, as the OpenAPI document shows them.

Responses are built by app/service/responses.py and sent as they are; these models describe
them (and schemathesis checks that every response matches). Request bodies accept loosely
typed values so that the service can answer a wrong type with the established message.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from app.service.social import REACTIONS
from engine.facts import CHECK, MIN_PLAYERS, max_cards
from engine.rules import Rules as Rules_

LOST_ROUND_32: Final = Rules_(deck_size=32).lost_round

MAX_CARDS_EVER = max_cards(MIN_PLAYERS)


class ErrorBody(BaseModel):
    error: str = Field(description="What went wrong, in the established service's words.")
    code: str = Field(description="A stable machine-readable code, e.g. `not_your_turn`.")


class NicknameRefusedBody(ErrorBody):
    reason: str | None = Field(
        None,
        description="`profanity` when a nickname is refused as profane (code"
        " `profane_nickname`); absent for the other 422s.",
    )


class CreatedGame(BaseModel):
    game_uuid: str
    player_uuid: str | None = Field(
        default=None,
        description="Your secret, when you created the game with a nickname (you joined it)",
    )


class JoinedPlayer(BaseModel):
    player_uuid: str = Field(description="The player's secret: keep it, send it to act.")


class MovedSeat(BaseModel):
    game_uuid: str
    player_uuid: str = Field(
        description="The seat's new secret, for this device only: the one sent is retired"
    )
    nickname: str = Field(description="Whose seat it is, as the game shows them now")


class Message(BaseModel):
    message: str


class Card(BaseModel):
    value: int = Field(
        ge=-2,
        le=7,
        description="24 cards: 9 10 J Q K A as 0..5; 32 cards: 7 8 9 10 J Q K A as 0..7;"
        " -1 a joker, -2 a blank",
    )
    colour: int = Field(
        ge=-2, le=3, description="clubs diamonds hearts spades as 0..3; -1 joker, -2 blank"
    )


class PlayerRow(BaseModel):
    nickname: str
    n_cards: int = Field(ge=0, description="0 once eliminated (and before the start)")
    ai_agent: str | None = Field(default=None, description="The built-in agent, for AI players")
    team: int | None = Field(default=None, description="The player's team; null: on their own")
    ready: bool | None = Field(default=None, description="Whether a human said they are ready")


class Rules(BaseModel):
    deck_size: Literal[24, 32] = 24
    jokers: int = Field(default=0, ge=0, le=12)
    blanks: int = Field(default=0, ge=0, le=12)
    common_cards: int = Field(
        default=0, ge=-2, le=12, description="0..12, or -1 increasing, -2 slowly increasing"
    )
    max_cards: int = Field(default=0, ge=0, le=11, description="0: no preference")
    initial_cards: int | str | None = Field(
        default=None, description="null, a number, `random`, or `nick:count,...`"
    )
    time_limit: int = Field(default=0, ge=0, le=300)


class HandEntry(BaseModel):
    nickname: str
    hand: list[Card]


class HistoryEntry(BaseModel):
    player: str
    action_id: int = Field(
        ge=0,
        le=LOST_ROUND_32,
        description="24 cards: 0..87 bets, 88 check, 89 lost; 32 cards: 0..139, 140, 141",
    )


class Reaction(BaseModel):
    nickname: str
    reaction: str = Field(description="One of the fixed reactions")
    at: float = Field(description="Epoch seconds")


class RematchAsked(BaseModel):
    asked: list[str] = Field(description="The players (as they were called) who asked")


class GameState(BaseModel):
    """The established state object, with this service's additions (all optional for
    the established clients): version, commitment, seed, legal_actions, winner, loser."""

    game_uuid: str
    admin_nickname: str | None
    public: Literal["true", "false"] = Field(description="A string, as the iOS client requires")
    status: Literal["Not started", "Running", "Finished"]
    round_number: int = Field(ge=0)
    max_cards: int = Field(ge=0)
    room: int
    players: list[PlayerRow]
    hands: list[HandEntry]
    cp_nickname: str | None
    history: list[HistoryEntry]
    last_modified: float = Field(description="Epoch seconds; rises with every change")
    version: int = Field(ge=1, description="Rises by one with every change; also the ETag")
    commitment: str | None = Field(description="SHA-256 (hex) of this round's deal seed")
    legal_actions: list[int] | None = Field(
        default=None, description="Only in the view of the player whose turn it is"
    )
    seed: str | None = Field(default=None, description="The round's seed, once it is over")
    winner: str | None = None
    loser: str | None = Field(default=None, description="In a finished round's snapshot")
    time_limit: int = Field(
        default=0, ge=0, le=300, description="Seconds each move may take; 0: no limit"
    )
    move_deadline: float | None = Field(
        default=None,
        description="Epoch seconds when the player to move loses the round (time limit only)",
    )
    ready: list[str] = Field(
        default_factory=list, description="Humans who said they are ready (lobby only)"
    )
    auto_start: bool = Field(
        default=False, description="The game starts by itself once every human is ready"
    )
    chosen_max_cards: int | None = Field(
        default=None,
        ge=1,
        description="The admin's maximum of cards (null: the rule's); capped again at start",
    )
    reactions: list[Reaction] = Field(
        default_factory=list, description="The last few reactions, oldest first"
    )
    you: str | None = Field(
        default=None,
        description="Your nickname as now shown (only in a player's own view; it changes if"
        " reports hide it)",
    )
    rules: Rules | None = Field(default=None, description="The rules the game is played by")
    rematch: RematchAsked | None = Field(
        default=None, description="Once the game is over: who asked for the next game"
    )
    common_hand: list[Card] = Field(
        default_factory=list, description="This round's common cards, face up for everyone"
    )
    winners: list[str] | None = Field(
        default=None, description="Everyone left at the end (the winning team, with teams)"
    )


class PublicGameEntry(BaseModel):
    game_uuid: str
    room: int
    players: list[str]
    last_modified: float


class RoundPlayer(BaseModel):
    nickname: str
    n_cards: int
    ai_agent: str | None = None
    team: int | None = None


class RoundSnapshot(BaseModel):
    status: Literal["Running", "Finished"]
    round_number: int
    max_cards: int
    players: list[RoundPlayer]
    hands: list[HandEntry]
    cp_nickname: None
    history: list[HistoryEntry]
    commitment: str
    seed: str
    loser: str
    common_hand: list[Card] = Field(default_factory=list)
    rules: Rules | None = None


class RecordPlayer(BaseModel):
    nickname: str
    ai_agent: str | None = None


class GameRecord(BaseModel):
    game_uuid: str
    room: int
    status: Literal["Finished"]
    max_cards: int
    players: list[RecordPlayer]
    winner: str | None
    rounds: list[RoundSnapshot]


_ActionId = Annotated[
    Any, WithJsonSchema({"type": "integer", "minimum": 0, "maximum": CHECK, "title": "Action Id"})
]
_Text = Annotated[Any, WithJsonSchema({"type": "string"})]
_Version = Annotated[Any, WithJsonSchema({"type": "integer", "minimum": 1})]


def _int_schema(low: int, high: int) -> WithJsonSchema:
    """A JSON integer in ``low..high``, as the document says (the service refuses others)."""
    return WithJsonSchema({"type": "integer", "minimum": low, "maximum": high})


_Team = Annotated[
    Any,
    WithJsonSchema({"anyOf": [{"type": "integer", "minimum": 0, "maximum": 8}, {"type": "null"}]}),
]
"""A team, 1 to 8; 0 or null: on one's own (as the service reads them)."""
_NullableText = Annotated[Any, WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "null"}]})]
"""A string, or null for the same as leaving it out (create reads a null as absent)."""


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    nickname: _Text = None
    team: _Team = Field(default=None, description="Your team, 1..8; absent, 0 or null: on your own")


class CreateRequest(BaseModel):
    """All optional: a nickname creates and joins; the previous game's pair asks for the
    rematch (the next game of that table)."""

    model_config = ConfigDict(extra="forbid")
    nickname: _NullableText = None
    team: _Team = None
    previous_game_uuid: _NullableText = None
    previous_player_uuid: _NullableText = None


class TeamRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    team: _Team = Field(default=None, description="1..8; 0 or null: on their own")
    nickname: _Text = Field(default=None, description="Whom to move (the admin); absent: you")


class RulesRequest(BaseModel):
    """Any of the rules, each an integer (``initial_cards`` also a string)."""

    model_config = ConfigDict(extra="forbid")
    deck_size: Annotated[Any, _int_schema(24, 32)] = None
    jokers: Annotated[Any, _int_schema(0, 12)] = None
    blanks: Annotated[Any, _int_schema(0, 12)] = None
    common_cards: Annotated[Any, _int_schema(-2, 12)] = None
    max_cards: Annotated[Any, _int_schema(0, 11)] = None
    initial_cards: Annotated[
        Any,
        WithJsonSchema({"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]}),
    ] = None
    time_limit: Annotated[Any, _int_schema(0, 300)] = None


class PlayRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action_id: _ActionId = None
    expected_version: _Version = Field(
        default=None, description="Refuse the move (409) unless the game is at this version"
    )


class InviteRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    agent_name: _Text = None


class TimeLimitRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    time_limit: Annotated[
        Any, WithJsonSchema({"type": "integer", "minimum": 0, "maximum": 300})
    ] = Field(default=None, description="Seconds each move may take: 0 for none, or 1..300")


class StandingBet(BaseModel):
    action_id: int
    player: str
    probability: float | None = Field(description="The chance it exists, as its bettor bet it")


class Odds(BaseModel):
    """A classic game answers the first four keys only; a game with other rules or teams
    also ``rules``, ``common_hand``, ``teammate_hands`` and ``standing_bet``."""

    round_number: int
    hand: list[Card]
    unknown_cards: int = Field(description="Cards the players you cannot see hold in total")
    probabilities: list[float] = Field(
        min_length=88,
        max_length=140,
        description="By action id (0..87, or 0..139 with 32 cards): the chance the set exists"
        " if you bet it",
    )
    rules: Rules | None = None
    common_hand: list[Card] | None = None
    teammate_hands: list[HandEntry] | None = None
    standing_bet: StandingBet | None = None


_Flag = Annotated[Any, WithJsonSchema({"type": "boolean"})]


class NicknameRequest(BaseModel):
    """Names a player of the game (to remove, or to report)."""

    model_config = ConfigDict(extra="forbid")
    nickname: _Text = None


class ReadyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ready: _Flag = Field(default=None, description="true: ready; false: not ready")


class AutoStartRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    auto_start: _Flag = Field(
        default=None, description="Start by itself once every human is ready (2+ players)"
    )


class MaxCardsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    max_cards: Annotated[
        Any, WithJsonSchema({"type": "integer", "minimum": 1, "maximum": MAX_CARDS_EVER})
    ] = Field(
        default=None,
        description="1 to the rule's maximum for the players seated (at least two counted)",
    )


class ReactRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reaction: Annotated[Any, WithJsonSchema({"type": "string", "enum": list(REACTIONS)})] = None
