"""AWS Lambda entry points of the game clock (app/clock/aws.py has the logic):

- :func:`schedule`: fed by the games table's stream; one delayed SQS message per due game
  version.
- :func:`fire`: fed by that SQS queue; advances each game (``batchItemFailures`` for the
  messages that raised).
- :func:`sweep`: an EventBridge schedule, every minute; advances every overdue game.

Nothing happens at import: the settings, the boto3 clients and the service are built by the
first invocation and kept for the life of the execution environment.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from app import aws
from app.lazy import Lazy

if TYPE_CHECKING:
    from app.clock.aws import Sqs
    from app.service import GameService
    from app.settings import Settings

Event = dict[str, Any]


class Runtime:
    """What the handlers use, built once per execution environment (tests build their own
    and pass it to :func:`use`)."""

    def __init__(self, service: GameService, sqs: Sqs, queue_url: str) -> None:
        from app.clock.aws import Firer, Scheduler  # noqa: PLC0415

        self.service = service
        self.scheduler = Scheduler(sqs, queue_url, lambda: service.now)
        self.firer = Firer(service, sqs, queue_url, lambda: service.now)

    @classmethod
    def from_settings(cls, settings: Settings) -> Runtime:
        from app.logs import configure_logging  # noqa: PLC0415
        from app.service import GameService  # noqa: PLC0415
        from app.store.dynamo import DynamoStore  # noqa: PLC0415 (boto3 only when invoked)

        if not settings.clock_queue_url:
            raise RuntimeError("BLEF_CLOCK_QUEUE_URL is not set: the clock has no queue")
        configure_logging(settings.log_level)
        store = DynamoStore(
            settings.table_name,
            endpoint_url=settings.dynamodb_endpoint,
            region_name=settings.aws_region,
        )
        sqs: Sqs = aws.client("sqs", region_name=settings.aws_region, max_pool_connections=4)
        return cls(GameService(store, settings, clock=time.time), sqs, settings.clock_queue_url)


def _build_runtime() -> Runtime:
    from app.settings import Settings  # noqa: PLC0415

    return Runtime.from_settings(Settings())


_runtime: Lazy[Runtime] = Lazy(_build_runtime)


def runtime() -> Runtime:
    """The execution environment's runtime, built from the environment on first use."""
    return _runtime.get()


def use(replacement: Runtime | None) -> None:
    """Make the handlers use ``replacement`` (None: build one from the environment again)."""
    _runtime.use(replacement)


def schedule(event: Event, context: Any = None) -> dict[str, list[dict[str, str]]]:
    """The table's stream: a delayed message for each due game version."""
    return runtime().scheduler.schedule(event)


def fire(event: Event, context: Any = None) -> dict[str, list[dict[str, str]]]:
    """The clock queue: advance each message's game; report the messages that raised."""
    fired = runtime().firer.fire(event)
    return {"batchItemFailures": [{"itemIdentifier": ident} for ident in fired.failures]}


def sweep(event: Event | None = None, context: Any = None) -> dict[str, int]:
    """Every minute: advance every game that is overdue (a lost message, a crash between a
    write and its stream record's send)."""
    return {"acted": runtime().service.sweep()}
