"""Write the OpenAPI document of the app: ``python -m app.cli.openapi api_docs/openapi.json``.

The checked-in document is compared with a fresh one by the tests, so it cannot go stale.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from app.api.main import create_app
from app.config.settings import Settings


def openapi_document() -> dict[str, Any]:
    return create_app(Settings()).openapi()


def render() -> str:
    return json.dumps(openapi_document(), indent=2, sort_keys=True) + "\n"


def main(argv: list[str]) -> None:
    target = Path(argv[0] if argv else "api_docs/openapi.json")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render(), encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main(sys.argv[1:])
