"""Reading the CDK context the app is synthesised with (``-c key=value``)."""

from __future__ import annotations

from collections.abc import Sequence

from aws_cdk import App

CONTEXT_KEYS = (
    "env",
    "lambda_asset",
    "alarm_email",
    "reserved_concurrency",
    "throttle_rate_limit",
    "throttle_burst_limit",
)
"""Every context value the app reads; see infra/app.py."""


def context_flags(argv: Sequence[str]) -> dict[str, str]:
    """The ``-c key=value`` pairs of a command line, for running ``app.py`` directly (under
    the CDK CLI, the CLI passes its own ``-c`` values through the environment)."""
    flags: dict[str, str] = {}
    args = iter(argv)
    for arg in args:
        if arg in {"-c", "--context"}:
            key, sep, value = next(args, "").partition("=")
            if not sep:
                raise SystemExit(f"expected -c key=value, got {key!r}")
            flags[key] = value
    return flags


def read_context(app: App) -> dict[str, str]:
    """The app's context values among :data:`CONTEXT_KEYS`, as strings."""
    values = {key: app.node.try_get_context(key) for key in CONTEXT_KEYS}
    return {key: str(value) for key, value in values.items() if value is not None}
