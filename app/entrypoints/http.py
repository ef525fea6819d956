"""The AWS Lambda entry point of the HTTP API: the same FastAPI app, through Mangum
(lifespan off).

Importing this module loads the libraries the function cannot do without (FastAPI and
Mangum) and builds nothing: the app (its route table, the settings, logging, and the
DynamoDB client when a request first needs it) is built by the first invocation and kept
for the life of the execution environment. ``benchmarks/cold_start.py`` measures both parts.
"""

from __future__ import annotations

from typing import Any

import fastapi  # noqa: F401 (the library is loaded at init; the app is built on first use)
from mangum import Mangum

from app.entrypoints.runtime import Lazy


def _build() -> Mangum:
    from app.api.main import create_app  # noqa: PLC0415 (the route table: built when invoked)

    return Mangum(create_app(), lifespan="off")


_adapter: Lazy[Mangum] = Lazy(_build)
adapter = _adapter.get
"""The execution environment's adapter and app, built on first use."""
use = _adapter.use
"""Make the handler use a replacement (tests; None: build one from the environment again)."""


def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    result: dict[str, Any] = _adapter.get()(event, context)
    return result
