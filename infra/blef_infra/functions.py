"""What every Blef Lambda function shares: the code asset (or a placeholder that cannot be
deployed), and a function with its own log group and a role that may write to it."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aws_cdk import Annotations, Duration
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from .config import EnvironmentSettings

PLACEHOLDER_CODE = (
    "def handler(event, context):\n"
    "    raise RuntimeError('placeholder code: build the Lambda asset and synthesise again')\n"
)


def code_asset(scope: Construct, asset_dir: Path) -> lambda_.Code:
    """The folder built by ``deployment/build_lambda_asset.py``.

    When it does not exist the functions get a placeholder and ``scope`` an *error*
    annotation: templates can still be synthesised and inspected (``python app.py``, the
    tests), but the CDK CLI refuses to deploy a stack with an error, so the placeholder can
    never replace working code.
    """
    if asset_dir.is_dir():
        return lambda_.Code.from_asset(str(asset_dir))
    Annotations.of(scope).add_error(
        f"Lambda asset folder {asset_dir} does not exist: the functions have placeholder "
        "code. Build it with `python deployment/build_lambda_asset.py` (or pass "
        "-c lambda_asset=<folder>) before deploying."
    )
    return lambda_.Code.from_inline(PLACEHOLDER_CODE)


def blef_function(
    scope: Construct,
    construct_id: str,
    *,
    settings: EnvironmentSettings,
    code: lambda_.Code,
    handler: str,
    description: str,
    environment: dict[str, str],
    timeout: Duration | None = None,
    reserved_concurrency: int | None = None,
) -> lambda_.Function:
    """An arm64 Python function of ``code``, with its own log group and its own role.

    Every function prints its business metrics in its log (CloudWatch EMF) under the
    environment's namespace; with ``settings.tracing``, X-Ray traces it.

    The role replaces the default one with AWSLambdaBasicExecutionRole, whose statements
    allow creating and writing any log group (Resource "*"): this function may write to its
    own log group and nothing else, until granted more.
    """
    log_group = logs.LogGroup(
        scope,
        f"{construct_id}Logs",
        retention=settings.log_retention,
        removal_policy=settings.removal_policy,
    )
    role = iam.Role(
        scope,
        f"{construct_id}Role",
        assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
        description=description,
    )
    log_group.grant_write(role)
    return lambda_.Function(
        scope,
        construct_id,
        description=description,
        runtime=lambda_.Runtime.PYTHON_3_13,
        architecture=lambda_.Architecture.ARM_64,
        handler=handler,
        code=code,
        memory_size=settings.memory_mb,
        timeout=timeout or Duration.seconds(settings.timeout_seconds),
        reserved_concurrent_executions=reserved_concurrency,
        log_group=log_group,
        role=role,
        tracing=lambda_.Tracing.ACTIVE if settings.tracing else None,
        environment={
            **environment,
            "LOG_LEVEL": "INFO",
            # The business metrics (EMF lines in the function's log, app/observability/metrics.py).
            "POWERTOOLS_SERVICE_NAME": "blef",
            "POWERTOOLS_METRICS_NAMESPACE": settings.metrics_namespace,
            **({"BLEF_TRACING": "1"} if settings.tracing else {}),
        },
    )


def function_maker(
    scope: Construct, settings: EnvironmentSettings, code: lambda_.Code
) -> Callable[..., lambda_.Function]:
    """:func:`blef_function` bound to one construct, its settings and its code asset: what
    each construct that makes several functions calls as ``self._function(id, ...)``."""
    return functools.partial(blef_function, scope, settings=settings, code=code)


def read_table_stream(
    scope: Construct,
    function: lambda_.Function,
    table: dynamodb.ITable,
    **options: Any,
) -> lambda_.EventSourceMapping:
    """Feed ``table``'s stream to ``function`` (from the newest record), as the mapping
    ``TableStream`` of ``scope`` with ``options`` (batch size, retries, filters, ...): grants
    the four stream reads, and makes the mapping wait for the function's role, since the
    mapping checks that access when it is created."""
    table.grant_stream(
        function,
        "dynamodb:DescribeStream",
        "dynamodb:GetRecords",
        "dynamodb:GetShardIterator",
        "dynamodb:ListStreams",
    )
    assert table.table_stream_arn is not None
    mapping = lambda_.EventSourceMapping(
        scope,
        "TableStream",
        target=function,
        event_source_arn=table.table_stream_arn,
        starting_position=lambda_.StartingPosition.LATEST,
        **options,
    )
    assert function.role is not None
    mapping.node.add_dependency(function.role)
    return mapping
