"""Watching games over a websocket: an API Gateway WebSocket API, and the table's stream
pushing every change to the watchers.

::

    client ──wss──> WebSocket API (stage "live")
                      $connect ─┐
                      $disconnect ├─> Routes function (app.entrypoints.websocket.route)
                      $default ──┘        checks the viewer, adds/removes connection items
    games table ── stream (NEW_AND_OLD_IMAGES) ── filter: game STATE items inserted or
                                         modified, ROUND items and watcher items inserted
                      └─> Pusher function (app.entrypoints.websocket.push)
                            posts {"statusCode": 200, "body": "<state>"} to each watcher,
                            every version and ended round in order, and each change of a
                            listed game to the public-games watchers, through the stage's
                            management API (@connections)

Both functions run the same code asset as the HTTP API's, each with a role of its own that
may use exactly the table operations and the stream it needs (``grant`` / ``grant_stream``
rather than ``DynamoEventSource``, whose grant adds ``dynamodb:ListStreams`` on ``*``), and
the pusher may manage this stage's connections only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from aws_cdk import Duration
from aws_cdk import aws_apigatewayv2 as apigw
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from aws_cdk.aws_apigatewayv2_integrations import WebSocketLambdaIntegration
from constructs import Construct

from .config import EnvironmentSettings
from .functions import code_asset, function_maker, read_table_stream

ROUTES_HANDLER: Final = "app.entrypoints.websocket.route"
PUSH_HANDLER: Final = "app.entrypoints.websocket.push"
STAGE_NAME: Final = "live"
"""The stage, hence the last part of the websocket URL (``wss://.../live``)."""

PUSH_TIMEOUT: Final = Duration.seconds(30)
"""A batch posts to a few connections per game, a few at a time; 30 s leaves room for a
slow management API without letting a stuck invocation hold the shard for long."""
STREAM_BATCH_SIZE: Final = 25
STREAM_PARALLELISM: Final = 4
"""Batches of one shard processed at once; records of one game (one partition key) stay in
order, so a watcher never gets an older state after a newer one."""
STREAM_RETRIES: Final = 2
STREAM_MAX_RECORD_AGE: Final = Duration.minutes(10)
"""A failing batch is retried twice (halved each time, to isolate a bad record), then
skipped: the game's next change pushes its whole state anyway."""


def stream_filters() -> list[dict[str, Any]]:
    """What the pusher is invoked for: a game's live item inserted or modified, a round item
    inserted (an ended round, pushed as its snapshot), and a watcher item of a game inserted
    (a new connection, sent its first state). The room counter, reverse connection items,
    public-games watcher items and every deletion (TTL's too) never invoke it."""
    return [
        lambda_.FilterCriteria.filter(
            {
                "eventName": lambda_.FilterRule.or_("INSERT", "MODIFY"),
                "dynamodb": {"Keys": {"sk": {"S": lambda_.FilterRule.is_equal("STATE")}}},
            }
        ),
        lambda_.FilterCriteria.filter(
            {
                "eventName": lambda_.FilterRule.is_equal("INSERT"),
                "dynamodb": {
                    "Keys": {
                        "pk": {"S": lambda_.FilterRule.begins_with("GAME#")},
                        "sk": {"S": lambda_.FilterRule.begins_with("ROUND#")},
                    }
                },
            }
        ),
        lambda_.FilterCriteria.filter(
            {
                "eventName": lambda_.FilterRule.is_equal("INSERT"),
                "dynamodb": {
                    "Keys": {
                        "pk": {"S": lambda_.FilterRule.begins_with("GAME#")},
                        "sk": {"S": lambda_.FilterRule.begins_with("CONN#")},
                    }
                },
            }
        ),
    ]


class Watch(Construct):
    """The WebSocket API (stage :data:`STAGE_NAME`), its routes' function, and the pusher fed
    by ``table``'s stream (the table must have a ``NEW_AND_OLD_IMAGES`` stream: the old image
    tells whether a game just stopped being public)."""

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
        if table.table_stream_arn is None:
            raise ValueError("the games table needs a stream (NEW_AND_OLD_IMAGES) to push changes")
        self._settings = settings
        self._code = code_asset(self, asset_dir)
        self._function = function_maker(self, settings, self._code)
        environment = {"BLEF_STORE": "dynamodb", "BLEF_TABLE_NAME": table.table_name}

        self.routes_function = self._function(
            "Routes",
            handler=ROUTES_HANDLER,
            description=f"Blef websocket routes: $connect, $disconnect, $default ({settings.name})",
            timeout=Duration.seconds(settings.timeout_seconds),
            environment=environment,
        )
        # $connect reads the game and writes the connection items; $disconnect deletes them.
        table.grant(
            self.routes_function, "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:DeleteItem"
        )

        integration = WebSocketLambdaIntegration("Routes", self.routes_function)
        self.api = apigw.WebSocketApi(
            self,
            "WebSocketApi",
            api_name=f"blef-watch-{settings.name}",
            description=f"Blef: watch a game over a websocket ({settings.name})",
            connect_route_options=apigw.WebSocketRouteOptions(integration=integration),
            disconnect_route_options=apigw.WebSocketRouteOptions(integration=integration),
            default_route_options=apigw.WebSocketRouteOptions(integration=integration),
        )
        self.stage = apigw.WebSocketStage(
            self,
            "LiveStage",
            web_socket_api=self.api,
            stage_name=STAGE_NAME,
            auto_deploy=True,
            throttle=apigw.ThrottleSettings(
                rate_limit=settings.throttle_rate_limit,
                burst_limit=settings.throttle_burst_limit,
            ),
        )

        self.pusher = self._function(
            "Pusher",
            handler=PUSH_HANDLER,
            description=f"Blef websocket pusher: game changes to watchers ({settings.name})",
            timeout=PUSH_TIMEOUT,
            environment={**environment, "BLEF_WEBSOCKET_ENDPOINT": self.stage.callback_url},
        )
        # Reads a new watcher's game, finds a game's watchers, deletes gone connections.
        table.grant(self.pusher, "dynamodb:GetItem", "dynamodb:Query", "dynamodb:DeleteItem")
        self.stage.grant_management_api_access(self.pusher)
        self.stream_mapping = read_table_stream(
            self,
            self.pusher,
            table,
            batch_size=STREAM_BATCH_SIZE,
            parallelization_factor=STREAM_PARALLELISM,
            retry_attempts=STREAM_RETRIES,
            bisect_batch_on_error=True,
            max_record_age=STREAM_MAX_RECORD_AGE,
            filters=stream_filters(),
        )

    @property
    def url(self) -> str:
        """The URL clients open (``wss://<id>.execute-api.<region>.amazonaws.com/live``)."""
        return self.stage.url
