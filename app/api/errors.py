"""Every error's HTTP status, decided here and nowhere else, and the handlers that send
``{"error": <message>, "code": <code>}`` for each of them (and ``"reason"`` for a profane
nickname, ``{"reason": "profanity", ...}``, as the newer established service answers it;
``"rule"`` for a refused handle, the id of the rule of app/ladder/handle_rules.json)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match
from starlette.types import Scope

from app.ladder import errors as ladder
from app.observability import metrics
from app.service import errors as service
from engine import errors as rules

log = logging.getLogger("blef.api")

STATUS: Final[dict[type[rules.BlefError], int]] = {
    rules.GameAlreadyStarted: 403,
    rules.RoomFull: 403,
    rules.TooFewPlayers: 403,
    rules.OneTeam: 403,
    rules.NoPermission: 403,
    service.SeatMoved: 403,
    service.CredentialsMissing: 401,
    ladder.HandleTaken: 409,
    ladder.AlreadyAtTable: 409,
    ladder.CannotBecomeBot: 409,
    ladder.BotsCannotFill: 403,
    ladder.LadderUnavailable: 503,
    ladder.UnknownHandle: 404,
    ladder.NotRatedGame: 404,
    ladder.PasskeysUnavailable: 503,
    ladder.PasskeyExists: 409,
    ladder.LastWayIn: 409,
    ladder.AccountBusy: 409,
    rules.AlreadyOut: 409,
    service.TooManyReactions: 429,
    service.TooManyOrders: 429,
    service.UnknownGameKind: 404,
    service.TableNotFound: 404,
    service.SeatSecretRefused: 403,
    service.MalformedByGame: 422,
    service.RefusedByGame: 409,
    ladder.TooManyAccounts: 429,
    service.ConflictError: 409,
    service.GameNotFinished: 409,
    service.RecordNotKept: 404,
    service.GameGone: 410,
    service.IdempotencyKeyReused: 422,
    service.ProfaneNickname: 422,
    ladder.NameRefused: 422,
    rules.InvalidState: 500,
}
"""Statuses other than 400, the established answer to every other refusal."""


def status_of(error: rules.BlefError) -> int:
    for cls in type(error).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 400


def error_response(status: int, message: str, code: str) -> JSONResponse:
    metrics.refusal(code)  # counted on Lambda only (app/observability/metrics.py)
    return JSONResponse({"error": message, "code": code}, status_code=status)


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        if tuple(err.get("loc", ())) == ("body",):
            return "Bad request: expected a JSON object body (Content-Type: application/json)"
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "Bad request: " + "; ".join(parts)


def _methods(routes: Iterable[BaseRoute], scope: Scope, catch_all: bool = False) -> set[str]:
    """The methods of the routes matching ``scope``: the documented ones, or when
    ``catch_all`` those left out of the document (the tables' route for unknown games)."""
    methods: set[str] = set()
    for route in routes:
        inner = getattr(route, "original_router", None)  # an included router (no prefix here)
        if inner is not None:
            methods |= _methods(inner.routes, scope, catch_all)
        elif getattr(route, "include_in_schema", True) is catch_all:
            continue
        elif route.matches(scope)[0] is not Match.NONE:
            methods.update(getattr(route, "methods", None) or ())
    return methods


def allowed_methods(request: Request) -> str:
    """Every method the requested path answers, for a 405's ``Allow`` header. Starlette
    lists only the first matching route's methods, but the GET and POST forms of a route
    are two routes on one path."""
    routes = request.app.router.routes
    methods = _methods(routes, request.scope) or _methods(routes, request.scope, catch_all=True)
    return ", ".join(sorted(methods))


def install(app: FastAPI) -> None:
    @app.exception_handler(rules.BlefError)
    async def blef_error(_: Request, exc: rules.BlefError) -> JSONResponse:
        status = status_of(exc)
        if status >= 500:
            log.error("stored game failed validation", extra={"code": exc.code})
        response = error_response(status, exc.message, exc.code)
        if isinstance(exc, service.ProfaneNickname):
            response = JSONResponse(
                {"reason": exc.reason, "error": exc.message, "code": exc.code}, status_code=status
            )
        if isinstance(exc, ladder.NameRefused):
            response = JSONResponse(
                {"error": exc.message, "code": exc.code, "rule": exc.rule}, status_code=status
            )
        if status == 401:
            response.headers["WWW-Authenticate"] = "Bearer"
        if isinstance(exc, service.TooManyReactions | service.TooManyOrders):
            response.headers["Retry-After"] = str(exc.retry_after)
        if isinstance(exc, ladder.TooManyAccounts):
            response.headers["Retry-After"] = str(exc.retry_after)
        if isinstance(exc, service.GameNotFinished):  # a record asked too soon: ask again later
            response.headers["Cache-Control"] = "no-store"
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(400, _validation_message(exc), "invalid_request")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {
            400: "invalid_request",  # e.g. a body that is not UTF-8 ("error parsing the body")
            404: "not_found",
            405: "method_not_allowed",
            413: "body_too_large",
        }
        response = error_response(
            exc.status_code, str(exc.detail), codes.get(exc.status_code, "http_error")
        )
        if exc.headers:
            response.headers.update(exc.headers)
        if exc.status_code == 405:
            response.headers["Allow"] = allowed_methods(request)
        return response

    @app.exception_handler(Exception)
    async def unexpected(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", extra={"error_type": type(exc).__name__})
        return error_response(500, "Internal error", "internal")
