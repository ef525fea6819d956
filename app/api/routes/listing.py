"""The public game list, and a health check."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from app.api.deps import ServiceDep
from app.api.routes.common import errors, reply
from app.api.schemas import PublicGameEntry

router = APIRouter()


@router.get(
    "/games",
    response_model=None,
    responses={200: {"model": list[PublicGameEntry]}, **errors(400)},
    tags=["lobby"],
    summary="Public games waiting for players, changed in the last 30 minutes",
)
def list_games(
    service: ServiceDep,
    limit: Annotated[
        int | None,
        Query(
            ge=1,
            le=1000,
            description="At most this many: 1 to the configured maximum (100 by default);"
            " above it, 400",
        ),
    ] = None,
) -> JSONResponse:
    return reply(service.list_public(limit))


@router.get("/health", tags=["service"], summary="Liveness check")
def health() -> dict[str, str]:
    return {"status": "ok"}
