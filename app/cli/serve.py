"""``blef serve``: the API on the embedded store (or DynamoDB), with uvicorn."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from app.config.settings import Settings

KEEP_ALIVE_SECONDS = 5
"""An idle keep-alive connection is closed this long after its last response."""


def serve_settings(db: Path | None, port: int) -> Settings:
    """The settings (from the environment) ``blef serve`` runs with: the SQLite file given,
    and, unless ``BLEF_PUBLIC_ORIGIN`` says otherwise, ``http://localhost:<port>`` as the
    passkeys' origin (a browser on this machine opens it as a secure context, and an RP ID
    must be a domain name, never an address); behind TLS or a proxy, set the variable."""
    from app.config.settings import Settings  # noqa: PLC0415

    settings = Settings() if db is None else Settings(db_path=db)
    if settings.public_origin is None:
        settings = settings.model_copy(update={"public_origin": f"http://localhost:{port}"})
    return settings


def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on")] = 8000,
    db: Annotated[
        Path | None, typer.Option(help="SQLite file (default ./blef.db, or BLEF_DB_PATH)")
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "warning",
) -> None:
    """Serve the Blef API. Set BLEF_STORE=dynamodb (with BLEF_TABLE_NAME and optionally
    BLEF_DYNAMODB_ENDPOINT) to use DynamoDB instead of the SQLite file."""
    import uvicorn  # noqa: PLC0415

    from app.api.main import create_app  # noqa: PLC0415
    from app.cli.http_protocol import HeadTimeoutH11Protocol  # noqa: PLC0415

    settings = serve_settings(db, port)
    where = settings.db_path if settings.store == "sqlite" else f"DynamoDB {settings.table_name}"
    typer.echo(f"Blef API on http://{host}:{port} (store: {where}); docs at /docs")
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        log_level=log_level,
        # uvicorn's access log prints the query string, where the established clients put
        # their secret UUIDs; the app logs every request itself, with the route template.
        access_log=False,
        http=HeadTimeoutH11Protocol.with_timeout(
            settings.request_timeout_seconds,
            settings.max_connections_per_address,
            settings.trusted_proxy_networks(),
        ),
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        limit_concurrency=1000,
        **forwarding(settings),
    )


def forwarding(settings: Settings) -> dict[str, Any]:
    """uvicorn's options for ``X-Forwarded-For``: believed only from the proxies the operator
    names (``BLEF_TRUSTED_PROXIES``), from nobody by default. uvicorn's own default believes
    127.0.0.1 (or ``FORWARDED_ALLOW_IPS``), which would let any client behind a proxy on the
    same host choose the address every per-address limit counts; that variable is ignored."""
    if not settings.trusted_proxies:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": settings.trusted_proxies.split(",")}


def register(cli: typer.Typer) -> None:
    cli.command("serve")(serve)
