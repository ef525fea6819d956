"""The shapes of requests and responses, as the OpenAPI document shows them.

Responses are built by app/service/responses.py and sent as they are; these models describe
them (and schemathesis checks that every response matches). Request bodies accept loosely
typed values so that the service can answer a wrong type with the established message.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from app.service.social import REACTIONS
from engine.facts import CHECK, LOST_ROUND, MIN_PLAYERS, max_cards

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


class JoinedPlayer(BaseModel):
    player_uuid: str = Field(description="The player's secret: keep it, send it to act.")


class Message(BaseModel):
    message: str


class Card(BaseModel):
    value: int = Field(ge=0, le=5, description="9 10 J Q K A as 0..5")
    colour: int = Field(ge=0, le=3, description="clubs diamonds hearts spades as 0..3")


class PlayerRow(BaseModel):
    nickname: str
    n_cards: int = Field(ge=0, description="0 once eliminated (and before the start)")
    ai_agent: str | None = Field(default=None, description="The built-in agent, for AI players")


class HandEntry(BaseModel):
    nickname: str
    hand: list[Card]


class HistoryEntry(BaseModel):
    player: str
    action_id: int = Field(ge=0, le=LOST_ROUND, description="0..87 bets, 88 check, 89 lost")


class Reaction(BaseModel):
    nickname: str
    reaction: str = Field(description="One of the fixed reactions")
    at: float = Field(description="Epoch seconds")


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


class PublicGameEntry(BaseModel):
    game_uuid: str
    room: int
    players: list[str]
    last_modified: float


class RoundPlayer(BaseModel):
    nickname: str
    n_cards: int
    ai_agent: str | None = None


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


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    nickname: _Text = None


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


class Odds(BaseModel):
    round_number: int
    hand: list[Card]
    unknown_cards: int = Field(description="Cards the other players hold in total")
    probabilities: list[float] = Field(
        min_length=88, max_length=88, description="By action id 0..87: the chance the set exists"
    )


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
