"""One deployment of the Blef service: database, API, websocket, game clock and monitoring,
and their outputs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aws_cdk import CfnOutput, Stack, Tags
from constructs import Construct

from .api import Api
from .clock import Clock
from .config import EnvironmentSettings
from .database import Database
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

        CfnOutput(self, "ApiUrl", value=self.api.url, description="The base URL for clients")
        CfnOutput(
            self,
            "WebSocketUrl",
            value=self.watch.url,
            description="The websocket URL for watching games (the iOS client's websocket setting)",
        )
        CfnOutput(self, "TableName", value=self.database.table.table_name)
        CfnOutput(self, "AlarmTopicArn", value=self.monitoring.topic.topic_arn)
