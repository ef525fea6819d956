"""One deployment of the Blef service: database, API, websocket, game clock, the ladder and
monitoring, and their outputs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aws_cdk import CfnOutput, Stack, Tags
from constructs import Construct

from .api import Api
from .clock import Clock
from .config import EnvironmentSettings
from .database import Database
from .ladder import Ladder
from .monitoring import Monitoring
from .watch import Watch


class BlefStack(Stack):
    """The whole service for one environment (``settings.name``).

    Composes the constructs and wires them together; each construct owns its resources.
    """

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        settings: EnvironmentSettings,
        asset_dir: Path,
        alarm_email: str | None = None,
        **kwargs: Any,
    ):
        super().__init__(scope, construct_id, **kwargs)
        Tags.of(self).add("project", "blef")
        Tags.of(self).add("environment", settings.name)

        self.database = Database(self, "Database", settings=settings)
        self.api = Api(
            self, "Api", settings=settings, table=self.database.table, asset_dir=asset_dir
        )
        self.watch = Watch(
            self, "Watch", settings=settings, table=self.database.table, asset_dir=asset_dir
        )
        self.monitoring = Monitoring(
            self,
            "Monitoring",
            settings=settings,
            http_api=self.api.http_api,
            function=self.api.function,
            table=self.database.table,
            watch_functions=[self.watch.routes_function, self.watch.pusher],
            pusher=self.watch.pusher,
            alarm_email=alarm_email,
        )

        self.clock = Clock(
            self,
            "Clock",
            settings=settings,
            table=self.database.table,
            asset_dir=asset_dir,
            alarm_topic=self.monitoring.topic,
        )

        # The ladder: its table, read and written by the HTTP function (joins match at once
        # and ask the clock queue for a later look) and by the clock (looks, settlements).
        self.ladder = Ladder(self, "Ladder", settings=settings, alarm_topic=self.monitoring.topic)
        ladder_table = self.ladder.table
        for function in (
            self.api.function,
            self.clock.scheduler,
            self.clock.fire,
            self.clock.sweeper,
        ):
            function.add_environment("BLEF_LADDER_TABLE_NAME", ladder_table.table_name)
        for function in (self.api.function, self.clock.fire, self.clock.sweeper):
            self.ladder.grant_use(function)
        self.api.function.add_environment("BLEF_CLOCK_QUEUE_URL", self.clock.queue.queue_url)
        # Passkeys are bound to the origin people open the browser client at: the API's own
        # (it serves the client at its root), never one read from a request.
        self.api.function.add_environment(
            "BLEF_PUBLIC_ORIGIN",
            f"https://{self.api.http_api.api_id}.execute-api.{self.region}.{self.url_suffix}",
        )
        self.clock.queue.grant_send_messages(self.api.function)
        self.clock.queue.grant_send_messages(self.clock.sweeper)

        CfnOutput(self, "ApiUrl", value=self.api.url, description="The base URL for clients")
        CfnOutput(
            self,
            "WebSocketUrl",
            value=self.watch.url,
            description="The websocket URL for watching games (the iOS client's websocket setting)",
        )
        CfnOutput(self, "TableName", value=self.database.table.table_name)
        CfnOutput(self, "LadderTableName", value=ladder_table.table_name)
        CfnOutput(self, "AlarmTopicArn", value=self.monitoring.topic.topic_arn)
