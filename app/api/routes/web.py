"""The browser client: ``GET /`` is its page, ``GET /app/<file>`` its modules and styles.

The files are served from the package itself (app/web/static), by the same app as the API,
so the page, the API and the websocket share one origin: no CORS, and the page's
Content-Security-Policy can allow only ``'self'``. Only the client's own files, by name, are
served: a name is a plain file name with a known suffix, so no path leaves the folder.
"""

from __future__ import annotations

import re
from typing import Final

from fastapi import APIRouter
from fastapi.responses import FileResponse
from starlette.exceptions import HTTPException

from app.api.blocking import BlockingRoute
from app.web import STATIC_DIR

router = APIRouter(tags=["web"], include_in_schema=False, route_class=BlockingRoute)

CONTENT_TYPES: Final = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".md": "text/markdown; charset=utf-8",
}
FILE_NAME: Final = re.compile(r"^[a-z][a-z0-9_-]{0,40}\.(html|js|css|svg|md)$")

CSP: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; font-src 'none'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""Everything from this origin only: no inline script or style, no third party at all."""

SECURITY_HEADERS: Final = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def _file(name: str) -> FileResponse:
    path = STATIC_DIR / name
    if not FILE_NAME.match(name) or not path.is_file():
        raise HTTPException(404, "Not Found")
    return FileResponse(path, media_type=CONTENT_TYPES[path.suffix], headers=dict(SECURITY_HEADERS))


@router.get("/")
def index() -> FileResponse:
    return _file("index.html")


@router.get("/app/{name}")
def static_file(name: str) -> FileResponse:
    return _file(name)
