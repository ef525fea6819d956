"""The AWS game clock on moto (DynamoDB and SQS, in process): a games table, the clock
queue, the service on a fake clock, and the handlers' runtime using them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import boto3
import pytest

from app.config.settings import Settings
from app.entrypoints import clock as clock_handler
from app.service import GameService
from tests.support.clock import FakeClock
from tests.support.dynamo import REGION, DynamoTable, moto_dynamo_table
from tests.watch.events import stream_event, stream_record

THINK = 1.0


@dataclass
class RecordingSqs:
    """The real (moto) SQS client, with every SendMessageBatch entry recorded, so that a
    test can read a message's DelaySeconds and deliver it to the fire handler as the event
    source mapping would, without waiting for the delay."""

    client: Any
    sent: list[dict[str, Any]] = field(default_factory=list)

    def send_message_batch(self, *, QueueUrl: str, Entries: list[dict[str, Any]]) -> Any:  # noqa: N803
        reply = self.client.send_message_batch(QueueUrl=QueueUrl, Entries=Entries)
        self.sent.extend(Entries)
        return reply


@dataclass
class Aws:
    table: DynamoTable
    service: GameService
    sqs: RecordingSqs
    queue_url: str
    fake: FakeClock
    runtime: clock_handler.Runtime

    def stream_of(self, game_uuid: str) -> dict[str, Any]:
        """The stream event of the game's live item as it is now."""
        item = self.table.item(f"GAME#{game_uuid}", "STATE")
        assert item is not None
        return stream_event([stream_record(item)])

    def queued(self) -> int:
        """Messages in the queue, visible or delayed."""
        names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesDelayed"]
        attributes = self.sqs.client.get_queue_attributes(
            QueueUrl=self.queue_url, AttributeNames=names
        )["Attributes"]
        return sum(int(attributes[name]) for name in names)

    def delayed(self) -> int:
        attributes = self.sqs.client.get_queue_attributes(
            QueueUrl=self.queue_url, AttributeNames=["ApproximateNumberOfMessagesDelayed"]
        )["Attributes"]
        return int(attributes["ApproximateNumberOfMessagesDelayed"])


def sqs_event(*entries: dict[str, Any]) -> dict[str, Any]:
    """SQS messages as the event source mapping hands them to the fire function."""
    return {
        "Records": [
            {
                "messageId": f"message-{index}",
                "receiptHandle": f"handle-{index}",
                "body": entry["MessageBody"],
                "attributes": {"ApproximateReceiveCount": "1"},
                "messageAttributes": {},
                "eventSource": "aws:sqs",
                "eventSourceARN": "arn:aws:sqs:eu-west-1:123456789012:clock",
                "awsRegion": REGION,
            }
            for index, entry in enumerate(entries)
        ]
    }


@pytest.fixture
def aws() -> Iterator[Aws]:
    with moto_dynamo_table() as table:
        client = boto3.session.Session().client("sqs", region_name=REGION)
        queue_url = client.create_queue(QueueName="blef-clock")["QueueUrl"]
        sqs = RecordingSqs(client)
        fake = FakeClock()
        store = table.store()
        settings = Settings(
            store="dynamodb",
            table_name=table.table_name,
            aws_region=REGION,
            ai_think_seconds=THINK,
            run_clock=False,
            clock_queue_url=queue_url,
        )
        service = GameService(store, settings, clock=fake)
        runtime = clock_handler.Runtime(service, sqs, queue_url)
        clock_handler.use(runtime)
        try:
            yield Aws(table, service, sqs, queue_url, fake, runtime)
        finally:
            clock_handler.use(None)
            store.close()
