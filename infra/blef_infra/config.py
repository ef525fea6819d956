"""Per-environment settings: the only place where ``dev`` and ``prod`` differ.

Sizing, and why:

- **Memory 512 MB, both environments.** A request loads one game item (a few KB of JSON),
  runs the pure-Python engine for microseconds, and writes it back: the warm path needs
  well under 128 MB. Memory is chosen for CPU, which Lambda allots in proportion to memory:
  the cold start is dominated by importing FastAPI, pydantic and Powertools, which is
  CPU-bound, and 512 MB keeps it (and the p99) short for about a third of the price of
  1,769 MB (one full vCPU). Both environments use the same size so that dev measurements
  predict prod. Revisit with ``benchmarks/cold_start.py`` and the p99 duration alarm.
- **Timeout 10 s.** A normal request is one or two DynamoDB round trips (tens of ms); the
  SDK's own retries on a throttled or failing DynamoDB call fit in a few seconds. 10 s stops
  a stuck invocation long before API Gateway's 30 s integration limit, so a client sees a
  clean error instead of a hang, and caps what a runaway request can cost.
- **Reserved concurrency** caps both cost and the load this service can put on DynamoDB,
  and guarantees capacity in a shared account. Warm requests take ~30-50 ms, so one
  execution environment serves ~20-30 requests/s: prod's 50 covers its 500 requests/s stage
  limit with room for cold starts and slow calls. It needs an account concurrency quota
  above 100 (AWS keeps 100 unreserved); new accounts often start at 10, where any
  reservation fails: deploy with ``-c reserved_concurrency=none`` until the quota is raised.
- **Throttling** on the API stage rejects floods with 429 before they reach Lambda. Clients
  poll about once a second per player, so prod's 500 requests/s is several hundred
  simultaneous players; dev is for one developer, the smoke test and small load tests.
- **Removal**: prod keeps its table (RETAIN plus deletion protection) and its logs; dev is
  destroyable so ``cdk destroy`` leaves nothing behind.

Any of ``reserved_concurrency``, ``throttle_rate_limit``, ``throttle_burst_limit`` and
``tracing`` can be overridden at synth time with CDK context (``-c throttle_rate_limit=100``): see
:func:`settings_for`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from aws_cdk import RemovalPolicy
from aws_cdk import aws_logs as logs


@dataclass(frozen=True, slots=True)
class EnvironmentSettings:
    """Everything that may differ between two deployments of the same stack."""

    name: str
    memory_mb: int
    timeout_seconds: int
    reserved_concurrency: int | None
    """``None``: no reservation (the function shares the account's unreserved pool)."""
    throttle_rate_limit: float
    """Steady-state requests per second the API stage accepts."""
    throttle_burst_limit: int
    """Requests the API stage accepts at once above the steady rate."""
    removal_policy: RemovalPolicy
    """What happens to the table and log groups when the stack is deleted."""
    deletion_protection: bool
    log_retention: logs.RetentionDays
    p99_duration_alarm_ms: int
    """The Lambda p99 duration above which the latency alarm fires."""
    ai_think_seconds: float = 1.0
    """How long an AI player waits before it moves (``BLEF_AI_THINK_SECONDS``): every function
    that writes games stamps it on the game (``due_at``), so they are all told the same."""
    tracing: bool = False
    """X-Ray active tracing on every function (``BLEF_TRACING``), off unless asked for
    (``-c tracing=true``): it costs per trace and adds to every invocation."""

    @property
    def metrics_namespace(self) -> str:
        """The CloudWatch namespace of the business metrics (app/observability/metrics.py), one per
        environment, so that dev's games never count in prod's alarms."""
        return f"Blef/{self.name}"


ENVIRONMENTS: Mapping[str, EnvironmentSettings] = {
    "dev": EnvironmentSettings(
        name="dev",
        memory_mb=512,
        timeout_seconds=10,
        reserved_concurrency=5,
        throttle_rate_limit=25,
        throttle_burst_limit=50,
        removal_policy=RemovalPolicy.DESTROY,
        deletion_protection=False,
        log_retention=logs.RetentionDays.ONE_WEEK,
        p99_duration_alarm_ms=3_000,
    ),
    "prod": EnvironmentSettings(
        name="prod",
        memory_mb=512,
        timeout_seconds=10,
        reserved_concurrency=50,
        throttle_rate_limit=500,
        throttle_burst_limit=1_000,
        removal_policy=RemovalPolicy.RETAIN,
        deletion_protection=True,
        log_retention=logs.RetentionDays.THREE_MONTHS,
        p99_duration_alarm_ms=3_000,
    ),
}

DEFAULT_ENVIRONMENT = "dev"


def settings_for(env_name: str, context: Mapping[str, Any] | None = None) -> EnvironmentSettings:
    """The settings of ``env_name``, with any overrides given as CDK context values.

    Context values arrive as strings from the command line (``-c reserved_concurrency=none``)
    and as JSON values from ``cdk.json``; both are accepted.

    >>> settings_for("dev", {"throttle_rate_limit": "100"}).throttle_rate_limit
    100.0
    >>> settings_for("prod", {"reserved_concurrency": "none"}).reserved_concurrency is None
    True
    """
    try:
        settings = ENVIRONMENTS[env_name]
    except KeyError:
        known = ", ".join(sorted(ENVIRONMENTS))
        raise ValueError(f"unknown environment {env_name!r}: expected one of {known}") from None
    context = context or {}
    overrides: dict[str, Any] = {}
    if (value := context.get("reserved_concurrency")) is not None:
        text = str(value).strip().lower()
        overrides["reserved_concurrency"] = None if text in {"none", ""} else _positive_int(text)
    if (value := context.get("throttle_rate_limit")) is not None:
        overrides["throttle_rate_limit"] = float(_positive_int(str(value)))
    if (value := context.get("throttle_burst_limit")) is not None:
        overrides["throttle_burst_limit"] = _positive_int(str(value))
    if (value := context.get("tracing")) is not None:
        overrides["tracing"] = str(value).strip().lower() in {"1", "true", "yes", "on"}
    return replace(settings, **overrides)


def _positive_int(text: str) -> int:
    number = int(text)
    if number < 1:
        raise ValueError(f"expected a positive integer, got {text!r}")
    return number
