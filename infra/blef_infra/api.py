"""The Lambda function running the FastAPI app, and the HTTP API in front of it."""

from __future__ import annotations

import json
from pathlib import Path

import jsii
from aws_cdk import Duration
from aws_cdk import aws_apigateway as apigw_v1
from aws_cdk import aws_apigatewayv2 as apigw
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_logs as logs
from aws_cdk.aws_apigatewayv2_integrations import HttpLambdaIntegration
from constructs import Construct

from .config import EnvironmentSettings
from .functions import blef_function, code_asset

HANDLER = "app.entrypoints.http.handler"

CORS_ALLOWED_HEADERS = ("Authorization", "Content-Type", "Idempotency-Key", "If-None-Match")
CORS_EXPOSED_HEADERS = ("ETag", "X-Request-ID")
"""So that the web client can read a state's ETag (to send back as If-None-Match) and the
request id (to quote in a bug report)."""

ACCESS_LOG_FORMAT = {
    "requestId": "$context.requestId",
    "time": "$context.requestTime",
    "ip": "$context.identity.sourceIp",
    "httpMethod": "$context.httpMethod",
    "routeKey": "$context.routeKey",
    "path": "$context.path",
    "protocol": "$context.protocol",
    "status": "$context.status",
    "responseLength": "$context.responseLength",
    "responseLatency": "$context.responseLatency",
    "integrationLatency": "$context.integrationLatency",
    "integrationRequestId": "$context.integration.requestId",
}
"""One JSON object per request, and nothing secret in it.

The established clients send player and admin UUIDs in the query string, so the log must
never contain it. For HTTP APIs ``$context.path`` is the path alone (``/games/<uuid>/play``:
a game UUID is not a secret); none of the documented HTTP API variables holds the query
string or the raw request line (``$context.resourcePath`` exists only for REST APIs).
Headers, which carry ``Authorization: Bearer <player uuid>`` in the POST forms, are not
logged, nor are error messages (``$context.integrationErrorMessage``): what a failing
function says is not under this stack's control. Every value is quoted, so that a ``-`` for
a missing number still leaves valid JSON.

``integrationRequestId`` is the function invocation's request id, which every line the
function logs carries as ``request_id``: the join between a request and what the app said
of it. The app writes no access line of its own for a request that succeeded on Lambda
(app/api/middleware.py): this line is that request's record.
"""


class Api(Construct):
    """The function (``app.entrypoints.http.handler``) behind an HTTP API's ``$default`` stage.

    ``asset_dir`` is the folder built by ``deployment/build_lambda_asset.py`` (see
    :func:`blef_infra.functions.code_asset` for what happens when it is missing).
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        settings: EnvironmentSettings,
        table: dynamodb.Table,
        asset_dir: Path,
    ):
        super().__init__(scope, construct_id)

        self.function = blef_function(
            self,
            "Function",
            settings=settings,
            code=code_asset(self, asset_dir),
            handler=HANDLER,
            description=f"Blef HTTP API ({settings.name})",
            reserved_concurrency=settings.reserved_concurrency,
            environment={
                "BLEF_STORE": "dynamodb",
                "BLEF_TABLE_NAME": table.table_name,
                "BLEF_AI_THINK_SECONDS": str(settings.ai_think_seconds),
            },
        )
        # Read and write on this table and its indexes, nothing else.
        table.grant_read_write_data(self.function)

        self.http_api = apigw.HttpApi(
            self,
            "HttpApi",
            api_name=f"blef-{settings.name}",
            description=f"Blef HTTP API ({settings.name})",
            default_integration=HttpLambdaIntegration("Lambda", self.function),
            create_default_stage=False,
            cors_preflight=apigw.CorsPreflightOptions(
                allow_origins=["*"],
                allow_methods=[
                    apigw.CorsHttpMethod.GET,
                    apigw.CorsHttpMethod.POST,
                    apigw.CorsHttpMethod.DELETE,  # DELETE /ladder/queue: leave the queue
                    apigw.CorsHttpMethod.OPTIONS,
                ],
                allow_headers=list(CORS_ALLOWED_HEADERS),
                expose_headers=list(CORS_EXPOSED_HEADERS),
                max_age=Duration.hours(1),
            ),
        )
        access_logs = logs.LogGroup(
            self,
            "AccessLogs",
            retention=settings.log_retention,
            removal_policy=settings.removal_policy,
        )
        self.stage = apigw.HttpStage(
            self,
            "DefaultStage",
            http_api=self.http_api,
            stage_name="$default",
            auto_deploy=True,
            throttle=apigw.ThrottleSettings(
                rate_limit=settings.throttle_rate_limit,
                burst_limit=settings.throttle_burst_limit,
            ),
            access_log_settings=_AccessLogSettings(access_logs),
        )

    @property
    def url(self) -> str:
        """The base URL clients use (``https://<id>.execute-api.<region>.amazonaws.com/``)."""
        url = self.stage.url
        assert url is not None  # a stage of an HTTP API always has a URL
        return url


@jsii.implements(apigw.IAccessLogSettings)
class _AccessLogSettings:
    """Where and how the stage writes access logs (``IAccessLogSettings`` is an interface)."""

    def __init__(self, log_group: logs.ILogGroup):
        self._destination = apigw.LogGroupLogDestination(log_group)

    @property
    def destination(self) -> apigw.IAccessLogDestination:
        return self._destination

    @property
    def format(self) -> apigw_v1.AccessLogFormat:
        return apigw_v1.AccessLogFormat.custom(json.dumps(ACCESS_LOG_FORMAT))
