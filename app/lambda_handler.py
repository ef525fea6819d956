"""The AWS Lambda entry point: the same FastAPI app, through Mangum (lifespan off).

Importing this module only imports code; the app, the settings and the DynamoDB client are
built on the first invocation and kept for the life of the execution environment.
"""

from __future__ import annotations

from typing import Any

from mangum import Mangum

from app.api.main import create_app

_adapter: Mangum | None = None


def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    global _adapter  # noqa: PLW0603 (one adapter per execution environment)
    if _adapter is None:
        _adapter = Mangum(create_app(), lifespan="off")
    result: dict[str, Any] = _adapter(event, context)
    return result
