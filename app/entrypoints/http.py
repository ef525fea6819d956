"""The AWS Lambda entry point of the HTTP API: the same FastAPI app, through Mangum
(lifespan off).

Importing this module loads the libraries the function cannot do without (FastAPI and
Mangum) and builds nothing: the app (its route table, the settings, logging, and the
DynamoDB client when a request first needs it) is built by the first invocation and kept
for the life of the execution environment. ``benchmarks/cold_start.py`` measures both parts.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import fastapi  # noqa: F401 (the library is loaded at init; the app is built on first use)
from mangum import Mangum

from app.entrypoints.metrics import count_change, invocation
from app.entrypoints.runtime import Lazy

if TYPE_CHECKING:
    from app.config.settings import Settings
    from app.service import GameService


def _build() -> Mangum:
    from app.api.deps import (  # noqa: PLC0415 (the route table: built when invoked)
        LadderProvider,
        ServiceProvider,
    )
    from app.api.main import create_app  # noqa: PLC0415

    class Metered(ServiceProvider):
        """The app's service, told once to count its changes (the business metrics,
        app/entrypoints/metrics.py) when the first request that needs it builds it."""

        def __init__(self, settings: Settings) -> None:
            super().__init__(settings)
            self._metered = threading.Lock()
            self._counting = False

        def get(self) -> GameService:
            service = super().get()
            if not self._counting:
                with self._metered:
                    if not self._counting:
                        service.subscribe(count_change)
                        self._counting = True
            return service

        @property
        def built(self) -> GameService | None:
            return super().built if self._counting else None  # counting too, or get()

    from app.api.blocking import InlineBlocking  # noqa: PLC0415

    app = create_app()
    app.state.services = Metered(app.state.services.settings)
    app.state.ladder = LadderProvider(app.state.services)  # on the metered service
    # One request at a time per execution environment: the routes' blocking work runs in
    # the invocation's own thread, not in a worker thread started for each invocation.
    app.add_middleware(InlineBlocking)
    return Mangum(app, lifespan="off")


_adapter: Lazy[Mangum] = Lazy(_build)
adapter = _adapter.get
"""The execution environment's adapter and app, built on first use."""
use = _adapter.use
"""Make the handler use a replacement (tests; None: build one from the environment again)."""


def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    with invocation("http"):
        result: dict[str, Any] = _adapter.get()(event, context)
    return result
