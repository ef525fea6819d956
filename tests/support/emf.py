"""Reading the CloudWatch embedded metric format (EMF) lines a Lambda handler printed."""

from __future__ import annotations

import json
import re
from typing import Any

UUID = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}", re.I)
SERVICE = (("service", "blef"),)
"""The dimensions every business metric has."""

Key = tuple[str, tuple[tuple[str, str], ...]]


def emf_lines(out: str) -> list[dict[str, Any]]:
    """The EMF lines of ``out`` (JSON lines with an ``_aws`` directive)."""
    return [
        line
        for line in (json.loads(text) for text in out.splitlines() if text.startswith("{"))
        if "_aws" in line
    ]


def counted(lines: list[dict[str, Any]]) -> dict[Key, int]:
    """Each metric's value, by (name, its dimensions as sorted pairs), summed over the lines."""
    total: dict[Key, int] = {}
    for line in lines:
        (directive,) = line["_aws"]["CloudWatchMetrics"]
        (dimensions,) = directive["Dimensions"]
        dims = tuple((name, line[name]) for name in sorted(dimensions))
        for metric in directive["Metrics"]:
            assert metric["Unit"] in ("Count", "Seconds")
            value = line[metric["Name"]]
            key = (metric["Name"], dims)
            total[key] = total.get(key, 0) + int(sum(value) if isinstance(value, list) else value)
    return total
