"""Accounts, quick play, boards and profiles (app/ladder): one service method per route.

The account's secret travels only in ``Authorization: Bearer <secret>``, never in a URL.
The ladder's modules load on the first request that needs them, not when the route table is
built (app/api/deps.py's LadderProvider)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request, Response
from fastapi import Body as JsonBody
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from app.api.blocking import BlockingRoute, run_blocking
from app.api.deps import LadderProvider
from app.api.fairness import client_address
from app.api.routes.common import Body, errors, join_errors
from app.api.schemas import NicknameRefusedBody
from app.service.errors import InvalidParameter

if TYPE_CHECKING:  # the ladder loads on first use
    from app.ladder.passkeys import Passkeys
    from app.ladder.service import Ladder

router = APIRouter(prefix="/ladder", tags=["ladder"], route_class=BlockingRoute)


def get_ladder(request: Request) -> Any:
    """The app's :class:`~app.ladder.service.Ladder` (typed ``Any`` here so that FastAPI
    need not import it to read this signature)."""
    provider: LadderProvider = request.app.state.ladder
    ladder: Ladder = provider.get()
    return ladder


def get_passkeys(request: Request) -> Any:
    """The app's :class:`~app.ladder.passkeys.Passkeys` (loaded on first use)."""
    provider: LadderProvider = request.app.state.ladder
    passkeys: Passkeys = provider.passkeys()
    return passkeys


def account_secret(
    authorization: Annotated[
        str | None, Header(description="`Bearer <account secret>`: the secret told at creation")
    ] = None,
) -> str | None:
    if authorization is None or authorization == "":
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise InvalidParameter(
            "Authorization",
            scheme,
            "Expected 'Bearer <account secret>' in the Authorization header",
        )
    return token.strip()


if TYPE_CHECKING:
    LadderDep = Annotated[Ladder, Depends(get_ladder)]
    PasskeysDep = Annotated[Passkeys, Depends(get_passkeys)]
else:  # FastAPI reads this one: the ladder's modules are not imported to build the routes
    LadderDep = Annotated[Any, Depends(get_ladder)]
    PasskeysDep = Annotated[Any, Depends(get_passkeys)]
SecretDep = Annotated[str | None, Depends(account_secret)]


class AccountRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    handle: Annotated[Any, WithJsonSchema({"type": "string"})] = Field(
        default=None, description="Your public handle: the nickname rules, polite"
    )


class NewAccount(BaseModel):
    account_id: str
    handle: str
    secret: str = Field(description="Told this once; send it as `Authorization: Bearer`")


class Me(BaseModel):
    account_id: str
    handle: str
    bot: bool = Field(description="A bot account (for good): `POST /ladder/me/bot`")


class QueueRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pool: Annotated[Any, WithJsonSchema({"type": "string"})] = Field(
        default=None, description="A pool's name (GET /ladder/pools)"
    )
    fill_after: Annotated[
        Any, WithJsonSchema({"type": "integer", "minimum": 0, "maximum": 300})
    ] = Field(
        default=None,
        description="People only: after waiting this many seconds, computer levels of the"
        " nearest rating may fill your table (GET /ladder/levels). Left out: never.",
    )


DISPLAY_DOC = "The rating people see: round(1500 + 30 (mu - 3 sigma)) (docs/ratings.md)"


class RatingLine(BaseModel):
    rating: float = Field(description="The ordinal mu - 3 sigma, what boards sort by")
    display_rating: int = Field(description=DISPLAY_DOC)
    mu: float
    sigma: float
    games: int
    provisional: bool


class LastResult(BaseModel):
    game_uuid: str
    pool: str
    place: int | None = None
    of: int | None = None
    rating_before: float | None = None
    rating_after: float | None = None
    change: float | None = Field(None, description="rating_after - rating_before, as rounded")
    display_before: int | None = Field(None, description="`rating_before` as people see it")
    display_after: int | None = Field(None, description="`rating_after` as people see it")
    display_change: int | None = Field(None, description="display_after - display_before")
    provisional: bool | None = Field(None, description="Still provisional after this game")
    void: bool | None = None
    called_off: bool | None = Field(
        None,
        description="A void game called off because someone never came to the table (never"
        " asked for their seat in time): nobody's rating changed",
    )
    absent: list[str] | None = Field(None, description="With `called_off`: who never came")


WHERE_KIND = "Seated at a pool of another game than Blef: its game; absent for Blef's pools"
WHERE_PATH = "With `kind`: where the table is read and played, `/{kind}/games/{uuid}`"
SEAT_SECRET = "Your seat's secret in the game (told to you only; never once it moved)"
SEAT_MOVED = "True once your seat moved to another device (POST .../move-seat): no secret is told"


class QueueStatus(BaseModel):
    state: str = Field(description="`idle`, `waiting`, `forming` or `seated`")
    pool: str | None = None
    waited_seconds: float | None = None
    game_uuid: str | None = None
    player_uuid: str | None = Field(None, description=SEAT_SECRET)
    seat_moved: bool | None = Field(None, description=SEAT_MOVED)
    kind: str | None = Field(None, description=WHERE_KIND)
    path: str | None = Field(None, description=WHERE_PATH)
    last_result: LastResult | None = Field(
        None, description="When idle: your last rated game's place and rating change"
    )
    bot: bool | None = Field(None, description="Whether your account is a bot")
    fill_after: float | None = Field(
        None, description="While waiting: the fill wait you asked for, in seconds"
    )
    looking: int | None = Field(
        None, description="While waiting: how many are waiting in this pool, you included"
    )
    absent_after: float | None = Field(
        None,
        description="While waiting: your place is dropped if you do not ask about it"
        " (GET /ladder/queue, or your events) for this many seconds",
    )
    too_late: bool | None = Field(
        None, description="A leave that came after your table formed: you are seated"
    )
    message: str | None = Field(None, description="With `too_late`: what happened, in words")


class BoardRow(RatingLine):
    rank: int
    handle: str
    bot: bool


class You(BaseModel):
    handle: str
    bot: bool
    rank: int | None
    rated: bool | None = None
    rating: float | None = None
    mu: float | None = None
    sigma: float | None = None
    games: int | None = None
    provisional: bool | None = None


class Board(BaseModel):
    pool: str
    title: str
    offset: int = Field(description="The row this page starts at (0 the best)")
    players: list[BoardRow]
    next_offset: int | None = Field(
        None, description="The next page's `offset`, when there are more rows"
    )
    you: You | None = None


class PoolRating(RatingLine):
    pool: str
    rank: int | None


class Opponent(BaseModel):
    handle: str
    place: int


class ProfileGame(LastResult):
    settled_at: float
    players: list[str] = Field(description="The handles, by place")
    opponents: list[Opponent] = Field(description="The others rated in it, by place")


class RecordLine(BaseModel):
    pool: str
    wins: int = Field(description="First places")
    losses: int = Field(description="Any other place")


class Profile(BaseModel):
    handle: str
    bot: bool
    level: str | None = Field(None, description="A computer level's account: its level")
    ratings: list[PoolRating]
    games: list[ProfileGame]
    recent_record: list[RecordLine] = Field(description="By pool, over `games`")


class NewDevice(NewAccount):
    """A passkey sign-in: this device's own new secret for the account."""


class PasskeyAdded(BaseModel):
    credential_id: str = Field(description="The passkey's credential id (base64url)")
    passkeys: int = Field(description="How many passkeys the account has now")


class PasskeyLine(BaseModel):
    credential_id: str
    created_at: float
    last_used_at: float | None


class PasskeyList(BaseModel):
    passkeys: list[PasskeyLine]


WebAuthnOptions = Annotated[
    dict[str, Any],
    WithJsonSchema(
        {
            "type": "object",
            "description": "WebAuthn options as JSON (PublicKeyCredentialCreationOptionsJSON"
            " or PublicKeyCredentialRequestOptionsJSON): the `publicKey` of"
            " navigator.credentials.create/get, after PublicKeyCredential.parse...FromJSON",
        }
    ),
]
CREDENTIAL_DOC = (
    "The credential as the browser gives it, `PublicKeyCredential.toJSON()`: `id`, `rawId`,"
    " `type`, `response` (base64url fields), `clientExtensionResults`"
)


class HandleRefusedBody(NicknameRefusedBody):
    rule: str | None = Field(
        None,
        description="The rule the handle breaks (`invalid_handle`, `reserved_handle`): an id of"
        " GET /ladder/handle-rules's `messages`, whose sentence is `error`",
    )


ACCOUNT_ERRORS = {
    **join_errors(400, 409, 413),
    422: {
        "model": HandleRefusedBody,
        "description": "A handle that breaks a rule (`invalid_handle`, `reserved_handle`, with"
        " its `rule`) or reads as rude (`profane_nickname`, `reason` `profanity`)",
    },
}
READ = errors(400, 401)
CHANGE = errors(400, 401, 409, 413, 422)


class HandleRules(BaseModel):
    """The rules of an account's name, as app/ladder/handle_rules.json holds them."""

    model_config = ConfigDict(extra="allow")
    min_length: int
    max_length: int
    summary: str = Field(description="The rules in one sentence, for a form")
    messages: dict[str, str] = Field(
        description="Each rule's id and its sentence (a refusal's `rule` and `error`)"
    )


@router.get(
    "/handle-rules",
    response_model=HandleRules,
    summary="The rules of an account's name, for a client to check as a person types",
)
def handle_rules() -> Body:
    from app.ladder.handle_rules import rules  # noqa: PLC0415

    return rules()


@router.post(
    "/accounts",
    response_model=NewAccount,
    status_code=201,
    responses=ACCOUNT_ERRORS,
    summary="Make an account: a handle, no e-mail; answers its secret once",
)
def create_account(body: AccountRequest, ladder: LadderDep, request: Request) -> Body:
    return ladder.create_account(body.handle, client_address(request.scope))


@router.get("/me", response_model=Me, responses=READ, summary="The account your secret names")
def me(ladder: LadderDep, secret: SecretDep) -> Body:
    return ladder.me(secret)


@router.post(
    "/queue",
    response_model=QueueStatus,
    response_model_exclude_none=True,
    responses=CHANGE,
    summary="Play now: wait in a pool's queue for a rated table",
)
def join_queue(body: QueueRequest, ladder: LadderDep, secret: SecretDep) -> Body:
    return ladder.join_queue(secret, body.pool, body.fill_after)


@router.delete(
    "/queue",
    response_model=QueueStatus,
    response_model_exclude_none=True,
    responses=READ,
    summary="Leave the queue (if not seated already: the answer says which)",
)
def leave_queue(ladder: LadderDep, secret: SecretDep) -> Body:
    return ladder.leave_queue(secret)


@router.get(
    "/queue",
    response_model=QueueStatus,
    response_model_exclude_none=True,
    responses=READ,
    summary="Your place: waiting, or your game and your player UUID once seated",
    description="Asking is being here: it keeps a waiting place (one not asked about for"
    " `absent_after` seconds is dropped) and, once seated, tells you your seat, which"
    " counts as coming to the table (a seat nobody asks for within 30 seconds calls the"
    " table off, unrated).",
)
def queue_status(ladder: LadderDep, secret: SecretDep) -> Body:
    return ladder.queue_status(secret)


@router.get(
    "/leaderboard/{pool}",
    response_model=Board,
    response_model_exclude_none=True,
    responses=READ,
    summary="A pool's top players (and your rank, with your Bearer secret)",
)
def leaderboard(
    pool: str,
    ladder: LadderDep,
    secret: SecretDep,
    limit: Annotated[int | None, Query(ge=1, le=100, description="How many (20)")] = None,
    offset: Annotated[
        int | None,
        Query(ge=0, le=10_000, description="The row to start at, 0 the best (0)"),
    ] = None,
) -> Body:
    return ladder.leaderboard(pool, limit, secret, offset)


@router.get(
    "/players/{handle}",
    response_model=Profile,
    response_model_exclude_none=True,
    responses=errors(400, 404),
    summary="A player's ratings by pool and recent rated games",
)
def profile(handle: str, ladder: LadderDep) -> Body:
    return ladder.profile(handle)


# ---------------------------------------------------------------------- other devices


@router.post(
    "/passkeys/register/options",
    response_model=WebAuthnOptions,
    responses=errors(400, 401, 503),
    summary="Add a passkey, step 1: the options for navigator.credentials.create",
)
def passkey_register_options(passkeys: PasskeysDep, secret: SecretDep) -> Body:
    return passkeys.register_options(secret)


@router.post(
    "/passkeys/register",
    response_model=PasskeyAdded,
    status_code=201,
    responses=errors(400, 401, 409, 413, 503),
    summary="Add a passkey, step 2: the new credential, kept for this account",
)
def passkey_register(
    passkeys: PasskeysDep,
    secret: SecretDep,
    credential: Annotated[dict[str, Any], JsonBody(description=CREDENTIAL_DOC)],
) -> Body:
    return passkeys.register(secret, credential)


@router.get(
    "/passkeys",
    response_model=PasskeyList,
    responses=READ,
    summary="Your account's passkeys: when each was added and last used",
)
def passkey_list(passkeys: PasskeysDep, secret: SecretDep) -> Body:
    return passkeys.listed(secret)


@router.post(
    "/passkeys/login/options",
    response_model=WebAuthnOptions,
    responses=errors(400, 503),
    summary="Sign in with a passkey, step 1: the options for navigator.credentials.get",
)
def passkey_login_options(passkeys: PasskeysDep) -> Body:
    return passkeys.login_options()


@router.post(
    "/passkeys/login",
    response_model=NewDevice,
    responses=errors(400, 413, 503),
    summary="Sign in with a passkey, step 2: the signed answer; a new secret for this device",
)
def passkey_login(
    passkeys: PasskeysDep,
    credential: Annotated[dict[str, Any], JsonBody(description=CREDENTIAL_DOC)],
) -> Body:
    return passkeys.login(credential)


@router.delete(
    "/me/secret",
    status_code=204,
    responses=errors(400, 401, 409),
    summary="Sign this device out: its secret opens the account no more",
)
def sign_out(passkeys: PasskeysDep, secret: SecretDep) -> Response:
    passkeys.sign_out(secret)
    return Response(status_code=204)


@router.delete(
    "/me",
    status_code=204,
    responses=errors(400, 401, 409),
    summary="Delete your account (not while queued or seated)",
)
def delete_account(ladder: LadderDep, secret: SecretDep) -> Response:
    ladder.delete_account(secret)
    return Response(status_code=204)


# ---------------------------------------------------------------------- bots and levels


class Unrated(BaseModel):
    rated: bool


class Level(BaseModel):
    level: str = Field(description="`beginner`, `easy`, `medium` or `hard`, weakest first")
    title: str
    agent: str = Field(description="The built-in agent that plays it (`agent_name` for a game)")
    handle: str = Field(description="Its bot account's handle (its profile and boards)")
    bot: bool
    ratings: dict[str, RatingLine | Unrated] = Field(
        description="By pool: its rating from the rated games it played, or `rated: false`"
    )


class Event(BaseModel):
    type: str = Field(description="`game_started`, `your_turn` or `game_over`")
    game_uuid: str
    player_uuid: str | None = Field(
        None, description="game_started, your_turn: your seat's secret (told to you only)"
    )
    seat_moved: bool | None = Field(None, description=f"game_started: {SEAT_MOVED}")
    pool: str | None = None
    kind: str | None = Field(None, description=WHERE_KIND)
    path: str | None = Field(None, description=WHERE_PATH)
    version: int | None = Field(None, description="your_turn: the game's version")
    state: dict[str, Any] | None = Field(
        None,
        description="your_turn: your view of the game, as GET /games/{game_uuid} shows it (a"
        " table of another game: as its `path` shows it, with `your_turn` true)",
    )
    place: int | None = None
    of: int | None = None
    rating_before: float | None = None
    rating_after: float | None = None
    change: float | None = None
    display_before: int | None = None
    display_after: int | None = None
    display_change: int | None = None
    provisional: bool | None = None
    void: bool | None = Field(None, description="game_over: not rated for you")


class Events(BaseModel):
    events: list[Event]
    cursor: str = Field(description="Send it back as `after` in your next poll")


@router.post(
    "/me/bot",
    response_model=Me,
    responses=errors(400, 401, 409),
    summary="Make your account a bot, for good (only before its first rated game)",
)
def become_bot(ladder: LadderDep, secret: SecretDep) -> Body:
    return ladder.become_bot(secret)


@router.get(
    "/levels",
    response_model=list[Level],
    summary="The computer levels, weakest first, each with its rating by pool",
)
def levels(ladder: LadderDep) -> list[Body]:
    return ladder.levels()


@router.get(
    "/events",
    response_model=Events,
    response_model_exclude_none=True,
    responses=READ,
    summary="Long-poll: your games started, your turns and your results since `after`",
)
async def events(
    ladder: LadderDep,
    secret: SecretDep,
    after: Annotated[
        str | None,
        Query(max_length=200, description="The `cursor` of your last answer (none at first)"),
    ] = None,
    wait: Annotated[
        int | None,
        Query(ge=0, le=25, description="Seconds to wait for an event if none is ready (20)"),
    ] = None,
) -> Body:
    """Answers at once when there is something to tell, else when something happens, else
    after ``wait`` seconds with no events (and the same cursor). Waiting holds no thread:
    the ladder's bell wakes it, and it looks at the store again every few seconds."""
    from app.ladder.bots import RECHECK_SECONDS, parse_wait  # noqa: PLC0415

    seconds = parse_wait(wait)
    loop = asyncio.get_running_loop()
    woke = asyncio.Event()

    def wake() -> None:
        loop.call_soon_threadsafe(woke.set)

    deadline = ladder.now + seconds
    listening: set[str] = set()
    try:
        while True:
            woke.clear()
            body = await run_blocking(ladder.events, secret, after)
            keys = set(body.pop("wait_on"))
            if keys - listening:  # listen first, then look again: no ring is missed
                ladder.bell.listen(keys - listening, wake)
                listening |= keys
                continue
            left = deadline - ladder.now
            if body["events"] or left <= 0:
                return body
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woke.wait(), min(left, RECHECK_SECONDS))
    finally:
        ladder.bell.forget(listening, wake)
