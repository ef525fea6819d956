"""The app's access lines: one per request under ``blef serve``; on Lambda, where the API's
own access log has a line for every request, only the refusals and failures."""

from __future__ import annotations

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from app.api.middleware import RequestLogMiddleware
from app.observability.logs import configure_logging


async def answer(request: Request) -> JSONResponse:
    status = int(request.query_params.get("status", "200"))
    return JSONResponse({"status": status}, status_code=status)


def access_lines(successes: bool, capsys: pytest.CaptureFixture[str]) -> list[str]:
    configure_logging("INFO", json_lines=False)
    app = Starlette(routes=[Route("/games/{game}", answer)])
    app.add_middleware(RequestLogMiddleware, successes=successes)
    game = "0f1e2d3c-4b5a-4978-8a9b-0c1d2e3f4a5b"
    with TestClient(app) as client:
        capsys.readouterr()
        for status in (200, 304, 400, 403, 409, 500):
            reply = client.get(f"/games/{game}", params={"status": status})
            assert reply.status_code == status
            assert reply.headers["x-request-id"]
    out = capsys.readouterr().out
    assert game not in out  # the game by its tag only
    return [line for line in out.splitlines() if " request " in line]


def test_blef_serve_writes_an_access_line_for_every_request(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = access_lines(True, capsys)
    statuses = [line.split("status=")[1].split()[0] for line in lines]
    assert statuses == ["200", "304", "400", "403", "409", "500"]


def test_on_lambda_only_refusals_and_failures_get_an_access_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = access_lines(False, capsys)
    statuses = [line.split("status=")[1].split()[0] for line in lines]
    assert statuses == ["400", "403", "409", "500"]
    assert all("request_id=" in line and "game=" in line for line in lines)
