"""``blef reports``: the nickname reports players made, newest first, for the operator.

A report names a game (its UUID: rooms are reused, so they identify nothing later), who
reported and which nickname. Reports outlive their game, so this is where the operator
finds them after the game itself is gone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def reports(
    limit: Annotated[int, typer.Option(min=1, help="Show at most this many")] = 50,
    db: Annotated[
        Path | None, typer.Option(help="SQLite file (default ./blef.db, or BLEF_DB_PATH)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON array")] = False,
) -> None:
    """List nickname reports, newest first. Set BLEF_STORE=dynamodb (with BLEF_TABLE_NAME
    and optionally BLEF_DYNAMODB_ENDPOINT) to read them from DynamoDB."""
    import json  # noqa: PLC0415
    from datetime import UTC, datetime  # noqa: PLC0415

    from app.config.settings import Settings  # noqa: PLC0415
    from app.store.factory import build_store  # noqa: PLC0415

    settings = Settings() if db is None else Settings(db_path=db)
    store = build_store(settings)
    try:
        found = store.list_reports(limit)
    finally:
        store.close()
    rows = [
        {
            "reported_at": datetime.fromtimestamp(r.reported_at, UTC).isoformat(timespec="seconds"),
            "game_uuid": r.game_uuid,
            "reporter": r.reporter,
            "nickname": r.nickname,
        }
        for r in found
    ]
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False))
        return
    if not rows:
        typer.echo("No reports.")
        return
    for row in rows:
        typer.echo(
            f"{row['reported_at']}  {row['game_uuid']}  {row['reporter']} reported"
            f" {row['nickname']}"
        )


def register(cli: typer.Typer) -> None:
    cli.command("reports")(reports)
