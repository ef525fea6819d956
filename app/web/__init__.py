"""The browser client's files (plain ES modules and CSS, no build step), served by
app/api/routes/web.py from the same app, so the same origin works locally and on Lambda."""

from __future__ import annotations

from pathlib import Path
from typing import Final

STATIC_DIR: Final = Path(__file__).resolve().parent / "static"
