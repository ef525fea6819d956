"""AWS Lambda entry points of the game clock (app/clock/aws.py has the logic):

- :func:`schedule`: fed by the games table's stream; one delayed SQS message per due game
  version.
- :func:`fire`: fed by that SQS queue; advances each game (``batchItemFailures`` for the
  messages that raised).
- :func:`sweep`: an EventBridge schedule, every minute; advances every overdue game, and
  sweeps the ladder (app/clock/ladder.py).

With ``BLEF_LADDER_TABLE_NAME`` set, the clock also runs the ladder: its ``match`` and
``settle`` messages ride the same queue.

Nothing happens at import: the settings, the boto3 clients and the service are built by the
first invocation and kept for the life of the execution environment.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.cloud import clients as aws
from app.entrypoints.metrics import invocation
from app.entrypoints.runtime import Lazy, environment_settings, lambda_ladder, lambda_service

if TYPE_CHECKING:
    from app.clock.queue import Sqs
    from app.config.settings import Settings
    from app.ladder.service import Ladder
    from app.service import GameService

Event = dict[str, Any]


class Runtime:
    """What the handlers use, built once per execution environment (tests build their own
    and pass it to :func:`use`). With a ``ladder``, the clock also matches and settles
    rated games (app/clock/ladder.py)."""

    def __init__(
        self, service: GameService, sqs: Sqs, queue_url: str, ladder: Ladder | None = None
    ) -> None:
        from app.clock.aws import Firer, Scheduler  # noqa: PLC0415
        from app.clock.ladder import LadderClock  # noqa: PLC0415

        self.service = service
        self.ladder = None if ladder is None else LadderClock(ladder, sqs, queue_url)
        self.scheduler = Scheduler(sqs, queue_url, lambda: service.now, ladder=ladder is not None)
        self.firer = Firer(service, sqs, queue_url, lambda: service.now, ladder=self.ladder)

    @classmethod
    def from_settings(cls, settings: Settings) -> Runtime:
        if not settings.clock_queue_url:
            raise RuntimeError("BLEF_CLOCK_QUEUE_URL is not set: the clock has no queue")
        service = lambda_service(settings)
        sqs: Sqs = aws.client("sqs", region_name=settings.aws_region, max_pool_connections=4)
        return cls(service, sqs, settings.clock_queue_url, lambda_ladder(settings, service))


_runtime: Lazy[Runtime] = Lazy(lambda: Runtime.from_settings(environment_settings()))
runtime = _runtime.get
"""The execution environment's runtime, built from the environment on first use."""
use = _runtime.use
"""Make the handlers use a replacement (tests; None: build one from the environment again)."""


def schedule(event: Event, context: Any = None) -> dict[str, list[dict[str, str]]]:
    """The table's stream: a delayed message for each due game version."""
    with invocation("schedule"):
        return runtime().scheduler.schedule(event)


def fire(event: Event, context: Any = None) -> dict[str, list[dict[str, str]]]:
    """The clock queue: advance each message's game; report the messages that raised."""
    with invocation("fire"):
        fired = runtime().firer.fire(event)
    return {"batchItemFailures": [{"itemIdentifier": ident} for ident in fired.failures]}


def sweep(event: Event | None = None, context: Any = None) -> dict[str, int]:
    """Every minute: advance every game that is overdue (a lost message, a crash between a
    write and its stream record's send)."""
    with invocation("sweep"):
        built = runtime()
        acted = built.service.sweep()
        if built.ladder is not None:
            built.ladder.sweep()
        return {"acted": acted}
