"""A clock tests move by hand: the service, the game clock and the stores' notion of "now"
for timing (never for expiry, which stays on real time)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class FakeClock:
    """Starts at the real time (stores expire games on real time), then moves only when
    told to."""

    now: float = field(default_factory=lambda: float(int(time.time())))

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now
