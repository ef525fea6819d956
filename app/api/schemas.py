"""The shapes of requests and responses, as the OpenAPI document shows them.

Responses are built by app/service/responses.py and sent as they are; these models describe
them (and schemathesis checks that every response matches). Request bodies accept loosely
typed values so that the service can answer a wrong type with the established message.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from engine.facts import CHECK, LOST_ROUND


class ErrorBody(BaseModel):
    error: str = Field(description="What went wrong, in the established service's words.")
    code: str = Field(description="A stable machine-readable code, e.g. `not_your_turn`.")


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
