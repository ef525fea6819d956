"""One value per Lambda execution environment, built on first use and never at import.

>>> made = []
>>> holder = Lazy(lambda: made.append(1) or "runtime")
>>> holder.built, made
(False, [])
>>> holder.get(), holder.get(), made
('runtime', 'runtime', [1])
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Lazy(Generic[T]):
    """``build()`` on the first :meth:`get` (once, even with threads racing), kept after;
    :meth:`use` puts a replacement in its place (tests), or None to build afresh."""

    def __init__(self, build: Callable[[], T]) -> None:
        self._build = build
        self._value: T | None = None
        self._lock = threading.Lock()

    @property
    def built(self) -> bool:
        return self._value is not None

    def get(self) -> T:
        value = self._value
        if value is None:
            with self._lock:
                value = self._value
                if value is None:
                    value = self._value = self._build()
        return value

    def use(self, replacement: T | None) -> None:
        self._value = replacement
