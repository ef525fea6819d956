"""The AWS Lambda entry point of the HTTP API: the same FastAPI app, through Mangum
(lifespan off).

Importing this module only imports code; the app, the settings and the DynamoDB client are
built on the first invocation and kept for the life of the execution environment.
"""

from __future__ import annotations

from typing import Any

from mangum import Mangum

from app.api.main import create_app
from app.entrypoints.runtime import Lazy

_adapter: Lazy[Mangum] = Lazy(lambda: Mangum(create_app(), lifespan="off"))
adapter = _adapter.get
"""The execution environment's adapter and app, built on first use."""
use = _adapter.use
"""Make the handler use a replacement (tests; None: build one from the environment again)."""


def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    result: dict[str, Any] = _adapter.get()(event, context)
    return result
