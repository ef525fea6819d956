"""What every Lambda function builds once per execution environment, on first use and never
at import: a :class:`Lazy` holder, and :func:`lambda_service`, the service on DynamoDB.

>>> made = []
>>> holder = Lazy(lambda: made.append(1) or "runtime")
>>> holder.built, made
(False, [])
>>> holder.get(), holder.get(), made
('runtime', 'runtime', [1])
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from app.config.settings import Settings
    from app.ladder.service import Ladder
    from app.service import GameService

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


def environment_settings() -> Settings:
    """The settings from the function's environment (``BLEF_*``), read when first needed."""
    from app.config.settings import Settings  # noqa: PLC0415

    return Settings()


def lambda_service(settings: Settings, *, clock: Callable[[], float] | None = None) -> GameService:
    """The service a Lambda function runs: logging set up for Lambda, the DynamoDB store the
    settings name (built once, app/store/factory.py), the service's clock (the real time
    unless a test gives another), its changes counted for the business metrics."""
    from app.entrypoints.metrics import count_change  # noqa: PLC0415
    from app.observability.logs import configure_logging  # noqa: PLC0415
    from app.service import GameService  # noqa: PLC0415
    from app.store.factory import dynamo_store  # noqa: PLC0415 (boto3 only when invoked)

    configure_logging(settings.log_level)
    now = clock or time.time
    service = GameService(dynamo_store(settings, now), settings, clock=now)
    service.subscribe(count_change)  # the business metrics (app/entrypoints/metrics.py)
    return service


def lambda_ladder(settings: Settings, games: GameService) -> Ladder | None:
    """The ladder a Lambda function runs beside ``games`` (its DynamoDB table the settings
    name), or None when the deployment has no ladder table (``BLEF_LADDER_TABLE_NAME``
    empty)."""
    from app.ladder.factory import ladder_store  # noqa: PLC0415 (boto3 only when invoked)
    from app.ladder.service import Ladder  # noqa: PLC0415

    store = ladder_store(settings)
    return None if store is None else Ladder(store, games, clock=lambda: games.now)
