"""The FastAPI application. :func:`create_app` builds it; nothing happens at import."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from app.api import document, errors
from app.api.deps import LadderProvider, ServiceProvider
from app.api.dispatch import dispatch_first
from app.api.fairness import FairnessMiddleware
from app.api.middleware import BodyLimitMiddleware, RequestLogMiddleware
from app.api.routes import (
    ladder,
    ladder_tables,
    listing,
    lobby,
    odds,
    play,
    seating,
    table,
    tables,
    watch,
    web,
)
from app.api.table_schemas import SCHEMAS
from app.config.settings import Settings, get_settings
from app.observability.logs import configure_logging, on_lambda
from app.service import GameService

DESCRIPTION = """\
The Blef card game as a service: create and join games, start them, bet and check, poll the
state, read finished rounds, list public games. Drop-in compatible with the established Blef
API (every route as GET with query parameters), plus POST forms with JSON bodies, Bearer
credentials, `Idempotency-Key` retries, versions with ETag/304 and 409 on lost races.
See api_docs/guide.md.
"""


def create_app(settings: Settings | None = None, service: GameService | None = None) -> FastAPI:
    """Build the app. The store is opened on the first request that needs it."""
    settings = settings or get_settings()
    provider = ServiceProvider(settings, service)
    ladders = LadderProvider(provider)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        clock = None
        if settings.run_clock:  # blef serve; never on Lambda, where lifespan is off
            from app.clock.local import LocalClock  # noqa: PLC0415

            clock = LocalClock(
                provider.get(),
                purge_interval=settings.purge_interval_seconds,
                ladder=ladders.get()
                if settings.store == "sqlite" or settings.ladder_table_name
                else None,
            )
            clock.start()
            app.state.clock = clock
        yield
        if clock is not None:
            clock.stop()
        ladders.close()
        provider.close()

    app = FastAPI(
        title="Blef",
        version="1.0.0",
        description=DESCRIPTION,
        lifespan=lifespan,
    )
    app.state.services = provider
    app.state.ladder = ladders
    configure_logging(settings.log_level)
    errors.install(app)
    document.install(app, settings)
    app.include_router(lobby.router)
    app.include_router(play.router)
    app.include_router(listing.router)
    app.include_router(odds.router)
    app.include_router(table.router)
    app.include_router(seating.router)
    app.include_router(ladder.router)  # /ladder: accounts, quick play, boards (app/ladder)
    app.include_router(ladder_tables.router)  # /ladder/games: a rated game's seats
    # After every fixed path: its catch-all answers /{game}/games/... for games not hosted.
    app.include_router(tables.router)  # /{game}/games/...: Economancy, Figgie (app/service)
    app.include_router(web.router)  # / and /app/*: the browser client (no OpenAPI entry)
    app.include_router(watch.router)  # /ws: the websocket watchers (no OpenAPI entry)
    # A hosted game's request is matched by the tables' router first (app/api/dispatch.py).
    dispatch_first(app.router.routes, tables.router, [f"/{kind}" for kind in SCHEMAS])
    app.add_middleware(
        BodyLimitMiddleware,
        limit=settings.max_body_bytes,
        timeout=settings.request_timeout_seconds,
    )
    app.add_middleware(
        CORSMiddleware,
        allow_origins=["*"],
        allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
        allow_headers=["*"],
        expose_headers=["ETag", "X-Request-ID", "X-Next-Cursor"],
    )
    app.add_middleware(
        FairnessMiddleware,
        rate_burst=settings.rate_limit_burst,
        rate_per_second=settings.rate_limit_per_second,
        max_in_flight=settings.max_in_flight_per_address,
    )
    # On Lambda the API's access log has every request: the app's lines are the refusals.
    app.add_middleware(RequestLogMiddleware, successes=not on_lambda())
    return app
