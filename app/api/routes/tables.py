"""Tables of every game, Blef included: ``/{game}`` and ``/{game}/games/...``, one set of
routes per game (app/api/table_schemas.py: its own move, view and rules schemas in the OpenAPI
document), made in a loop over the hosted games. A seat's secret travels as
``Authorization: Bearer <player_uuid>``; every write honours ``Idempotency-Key``.

Blef's tables are its established games (app/service/blef_tables.py): one made here is
the same game at ``/games/{uuid}``. A game that is not hosted answers
``404 unknown_game_kind`` on its ``/games`` routes. See api_docs/tables.md.
"""

# No ``from __future__ import annotations``: each game's move model is a local of the loop
# that makes its routes, and FastAPI reads the annotations as they were evaluated.
from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, HTTPException, Query
from fastapi.responses import JSONResponse, Response

from app.api.blocking import BlockingRoute
from app.api.deps import BearerDep, IdempotencyKeyDep, ServiceDep
from app.api.routes.common import REMATCH_WORDS, errors, finished_reply, join_errors
from app.api.table_schemas import (
    SCHEMAS,
    AgentTable,
    CreatedTable,
    CreateTable,
    GameSchemas,
    JoinedSeat,
    JoinTable,
    ReactTable,
    ReadyTable,
    RematchSeat,
    RematchTable,
    RemoveTable,
    ReportTable,
    TableList,
)
from app.service.errors import UnknownGameKind

router = APIRouter(route_class=BlockingRoute)

AfterVersion = Annotated[
    int | None,
    Query(description="The version you have: the answer says its own (no waiting is done)"),
]


def _routes(kind: str, schemas: GameSchemas) -> None:
    tags: list[str | Any] = [schemas.title]
    table_model: Any = schemas.table
    move_model: Any = schemas.move
    prefix = f"/{kind}"
    table: dict[int | str, dict[str, Any]] = {200: {"model": table_model}}

    @router.get(
        prefix,
        response_model=schemas.info,
        tags=tags,
        summary=f"{schemas.title}: its seats, default rules and computer players",
        operation_id=f"{kind}_game",
    )
    def game_info(service: ServiceDep) -> Any:
        return service.game_info(kind)

    @router.get(
        f"{prefix}/games",
        response_model=TableList,
        tags=tags,
        summary=f"Public {schemas.title} tables still in the lobby",
        operation_id=f"{kind}_list",
    )
    def list_tables(service: ServiceDep) -> Any:
        return service.list_tables(kind)

    @router.post(
        f"{prefix}/games",
        status_code=201,
        response_model=CreatedTable,
        responses=errors(400, 413, 422),
        tags=tags,
        summary=f"Create a {schemas.title} table (nobody seated: the first to join is admin)",
        operation_id=f"{kind}_create",
    )
    def create(service: ServiceDep, key: IdempotencyKeyDep, body: CreateTable | None = None) -> Any:
        body = body or CreateTable()
        return service.create_table(kind, body.rules, body.public, body.time_limit, key)

    @router.get(
        f"{prefix}/games/{{game_uuid}}",
        response_model=None,
        responses={**table, **errors(400, 403, 404)},
        tags=tags,
        summary=f"A {schemas.title} table as your seat sees it (no Bearer: a spectator)",
        operation_id=f"{kind}_table",
    )
    def read(
        game_uuid: str, service: ServiceDep, bearer: BearerDep, after_version: AfterVersion = None
    ) -> JSONResponse:
        body = service.table(kind, game_uuid, bearer)
        return JSONResponse(body, headers={"ETag": f'"v{body["version"]}"'})

    if schemas.record is not None:

        @router.get(
            f"{prefix}/games/{{game_uuid}}/record",
            response_model=None,
            responses={
                200: {"model": schemas.record, "description": "Cached: it never changes"},
                304: {"description": "Not modified since the ETag sent in If-None-Match"},
                **errors(400, 404, 409),
            },
            tags=tags,
            summary=f"A finished {schemas.title} game, to replay (409 until it ends)",
            operation_id=f"{kind}_record",
        )
        def record(
            game_uuid: str,
            service: ServiceDep,
            if_none_match: Annotated[str | None, Header()] = None,
        ) -> Response:
            return finished_reply(service.table_record(kind, game_uuid), if_none_match)

    @router.post(
        f"{prefix}/games/{{game_uuid}}/move",
        response_model=None,
        responses={**table, **errors(400, 403, 404, 409, 413, 422)},
        tags=tags,
        summary=f"Make a {schemas.title} move for your seat (Bearer)",
        operation_id=f"{kind}_move",
    )
    def move(
        game_uuid: str,
        service: ServiceDep,
        bearer: BearerDep,
        key: IdempotencyKeyDep,
        body: Annotated[move_model, Body()],
    ) -> JSONResponse:
        return JSONResponse(service.move(kind, game_uuid, bearer, body.root, key))

    @router.post(
        f"{prefix}/games/{{game_uuid}}/join",
        response_model=JoinedSeat,
        responses=join_errors(400, 403, 404, 409, 413, 422),
        tags=tags,
        summary=f"Take a seat at a {schemas.title} table",
        operation_id=f"{kind}_join",
    )
    def join(game_uuid: str, service: ServiceDep, key: IdempotencyKeyDep, body: JoinTable) -> Any:
        return service.join_table(kind, game_uuid, body.nickname, key)

    @router.post(
        f"{prefix}/games/{{game_uuid}}/leave",
        response_model=None,
        responses={**table, **errors(400, 403, 404, 409)},
        tags=tags,
        summary="Leave the lobby (Bearer)",
        operation_id=f"{kind}_leave",
    )
    def leave(
        game_uuid: str, service: ServiceDep, bearer: BearerDep, key: IdempotencyKeyDep
    ) -> JSONResponse:
        return JSONResponse(service.leave_table(kind, game_uuid, bearer, key))

    @router.post(
        f"{prefix}/games/{{game_uuid}}/ready",
        response_model=None,
        responses={**table, **errors(400, 403, 404, 409, 413)},
        tags=tags,
        summary="Say you are ready, or not (Bearer)",
        operation_id=f"{kind}_ready",
    )
    def ready(
        game_uuid: str,
        service: ServiceDep,
        bearer: BearerDep,
        key: IdempotencyKeyDep,
        body: ReadyTable | None = None,
    ) -> JSONResponse:
        wanted = True if body is None else body.ready
        return JSONResponse(service.ready_table(kind, game_uuid, bearer, wanted, key))

    @router.post(
        f"{prefix}/games/{{game_uuid}}/start",
        response_model=None,
        responses={**table, **errors(400, 403, 404, 409)},
        tags=tags,
        summary="Start the game (the admin; Bearer): seats are fixed in join order",
        operation_id=f"{kind}_start",
    )
    def start(
        game_uuid: str, service: ServiceDep, bearer: BearerDep, key: IdempotencyKeyDep
    ) -> JSONResponse:
        return JSONResponse(service.start_table(kind, game_uuid, bearer, key))

    @router.post(
        f"{prefix}/games/{{game_uuid}}/ai",
        response_model=None,
        responses={**table, **errors(400, 403, 404, 409, 413)},
        tags=tags,
        summary="Seat a built-in computer player (the admin; Bearer)",
        operation_id=f"{kind}_ai",
    )
    def seat_agent(
        game_uuid: str,
        service: ServiceDep,
        bearer: BearerDep,
        key: IdempotencyKeyDep,
        body: AgentTable,
    ) -> JSONResponse:
        return JSONResponse(service.seat_agent(kind, game_uuid, bearer, body.agent, key))

    @router.post(
        f"{prefix}/games/{{game_uuid}}/remove",
        response_model=None,
        responses={**table, **errors(400, 403, 404, 409, 413)},
        tags=tags,
        summary="Remove a player from the lobby (the admin; Bearer)",
        operation_id=f"{kind}_remove",
    )
    def remove(
        game_uuid: str,
        service: ServiceDep,
        bearer: BearerDep,
        key: IdempotencyKeyDep,
        body: RemoveTable,
    ) -> JSONResponse:
        return JSONResponse(service.remove_from_table(kind, game_uuid, bearer, body.nickname, key))

    @router.post(
        f"{prefix}/games/{{game_uuid}}/react",
        response_model=None,
        responses={**table, **errors(400, 403, 404, 413, 429)},
        tags=tags,
        summary="Send a reaction, in any state (a seat; Bearer)",
        operation_id=f"{kind}_react",
    )
    def react(
        game_uuid: str,
        service: ServiceDep,
        bearer: BearerDep,
        key: IdempotencyKeyDep,
        body: ReactTable,
    ) -> JSONResponse:
        return JSONResponse(service.react_table(kind, game_uuid, bearer, body.reaction, key))

    @router.post(
        f"{prefix}/games/{{game_uuid}}/report",
        response_model=None,
        responses={**table, **errors(400, 403, 404, 413)},
        tags=tags,
        summary="Report another person's nickname as offensive (a seat; Bearer)",
        operation_id=f"{kind}_report",
    )
    def report(
        game_uuid: str,
        service: ServiceDep,
        bearer: BearerDep,
        key: IdempotencyKeyDep,
        body: ReportTable,
    ) -> JSONResponse:
        return JSONResponse(service.report_table(kind, game_uuid, bearer, body.nickname, key))

    @router.post(
        f"{prefix}/games/{{game_uuid}}/rematch",
        response_model=RematchSeat,
        responses=join_errors(400, 403, 404, 409, 410, 413, 422),
        tags=tags,
        summary=f"A seat at the next {schemas.title} table of a finished one (a seat; Bearer)",
        description=REMATCH_WORDS,
        operation_id=f"{kind}_rematch",
    )
    def rematch(
        game_uuid: str,
        service: ServiceDep,
        bearer: BearerDep,
        key: IdempotencyKeyDep,
        body: RematchTable | None = None,
    ) -> Any:
        nickname = None if body is None else body.nickname
        return service.rematch_table(kind, game_uuid, bearer, nickname, key)


for _kind, _schemas in SCHEMAS.items():
    _routes(_kind, _schemas)


@router.api_route("/{game}/games", methods=["GET", "POST"], include_in_schema=False)
@router.api_route("/{game}/games/{rest:path}", methods=["GET", "POST"], include_in_schema=False)
def unknown_kind(game: str) -> None:
    """Any other game's tables: not hosted here (a hosted game's path that is no route:
    the usual 404)."""
    if game in SCHEMAS:
        raise HTTPException(404, "Not Found")
    hosted = ", ".join(SCHEMAS)
    raise UnknownGameKind(f"No game called {game[:40]!r} is hosted here; the games: {hosted}")
