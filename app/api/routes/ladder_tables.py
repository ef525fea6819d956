"""A rated game's table (app/ladder/results.py ``rated_table``): each seat's rating and what
it stands to win or lose while the game is played, each seat's place and change once it is
settled. Public, as the game itself is to anyone who has its link. And the pools, each with
the game its tables play."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.api.blocking import BlockingRoute
from app.api.routes.common import Body, errors
from app.api.routes.ladder import DISPLAY_DOC, LadderDep

router = APIRouter(prefix="/ladder", tags=["ladder"], route_class=BlockingRoute)


class PoolInfo(BaseModel):
    name: str
    title: str
    min_players: int
    max_players: int
    time_limit: int
    kind: str = Field(
        description="The game the pool's tables play: `blef` (at `/games/{uuid}`),"
        " `economancy` or `figgie` (at `/{kind}/games/{uuid}`)"
    )


class RatedSeat(BaseModel):
    """A seat of a rated table: its rating and stakes while playing, its change once settled."""

    handle: str
    bot: bool
    level: str | None = Field(None, description="A computer level's seat: its level")
    agent: str | None = Field(None, description="... and its agent (`ai_agent` in the game)")
    rated: bool | None = Field(None, description="False: this game does not rate this seat")
    rating: float | None = None
    display_rating: int | None = Field(None, description=DISPLAY_DOC)
    mu: float | None = None
    sigma: float | None = None
    games: int | None = None
    provisional: bool | None = None
    if_first: int | None = Field(None, description="Playing: the displayed change if first")
    if_last: int | None = Field(None, description="Playing: the displayed change if last")
    place: int | None = Field(None, description="Settled: the seat's place (1 the winner)")
    of: int | None = None
    rating_before: float | None = None
    rating_after: float | None = None
    change: float | None = None
    display_before: int | None = None
    display_after: int | None = None
    display_change: int | None = None


class RatedTable(BaseModel):
    game_uuid: str
    pool: str
    kind: str | None = Field(
        None, description="A pool of another game than Blef: the game; absent for Blef's"
    )
    path: str | None = Field(None, description="With `kind`: the table, `/{kind}/games/{uuid}`")
    state: str = Field(description="`playing` or `settled`")
    seats: list[RatedSeat] = Field(description="In the order the table was formed")


@router.get(
    "/games/{game_uuid}",
    response_model=RatedTable,
    response_model_exclude_none=True,
    responses=errors(400, 404),
    summary="A rated game's table: each seat's rating and stakes, or its change once over",
)
def rated_table(game_uuid: str, ladder: LadderDep) -> Body:
    return ladder.rated_table(game_uuid)


@router.get("/pools", response_model=list[PoolInfo], summary="The rating pools")
def pools() -> list[Body]:
    from app.ladder.pools import POOLS  # noqa: PLC0415

    return [
        {
            "name": p.name,
            "title": p.title,
            "min_players": p.min_players,
            "max_players": p.max_players,
            "time_limit": p.time_limit,
            "kind": p.kind,
        }
        for p in POOLS
    ]
