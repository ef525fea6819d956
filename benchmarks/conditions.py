"""The conditions every benchmark prints beside its figures: the load before and after the
run, the interpreter, the machine and the date (the figures are ratios; these say what the
machine was doing while they were measured)."""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Sequence
from typing import Any


def conditions(load_before: Sequence[float]) -> dict[str, Any]:
    return {
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "date": time.strftime("%Y-%m-%d"),
    }
