"""The ``blef`` command: serve the API, list nickname reports, and the bot arena (referee,
tournament).

Command modules are imported when the command line is built, never at package import.
"""

from __future__ import annotations

import typer


def build() -> typer.Typer:
    cli = typer.Typer(
        help="Blef: the bluffing card game service and its bot arena.", no_args_is_help=True
    )

    @cli.callback()
    def blef() -> None:
        """Blef: the bluffing card game service and its bot arena."""

    from app.cli import reports, serve  # noqa: PLC0415

    serve.register(cli)
    reports.register(cli)
    try:
        from app.cli import arena  # noqa: PLC0415
    except ImportError:  # the arena commands are optional while being built
        pass
    else:
        arena.register(cli)
        from app.cli import bridge  # noqa: PLC0415

        bridge.register(cli)
    return cli


def main() -> None:
    build()()
