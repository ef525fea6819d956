"""The AWS clock sends one message per due time, not per version: a Figgie market that trades
many times before its deadline schedules one message, and that message still ends the round
at the deadline with no request arriving. On moto (DynamoDB and SQS), the table's stream as
the scheduler receives it (``NEW_AND_OLD_IMAGES``: each change with the item before it), a
fake clock; never a real wait."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.clock.aws import Scheduler
from app.entrypoints import clock as clock_handler
from app.service import GameService
from tests.aws_clock.conftest import Aws, sqs_event
from tests.support.stream import TableStream
from tests.watch.events import stream_event, stream_record

SUITS = ("spades", "clubs", "hearts", "diamonds")
SEATS = ("ann", "ben", "cat", "dan")


def body(entry: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(entry["MessageBody"])
    return data


def schedule_what_changed(stream: TableStream) -> None:
    """Hand the records of every write since the last capture to the scheduler."""
    answer = clock_handler.schedule(stream_event(stream.capture()))
    assert answer == {"batchItemFailures": []}


def market(aws: Aws, trading_seconds: int) -> tuple[str, list[str], TableStream]:
    service = aws.service
    game = service.create_table("figgie", {"trading_seconds": trading_seconds})["game_uuid"]
    seats = [service.join_table("figgie", game, name)["player_uuid"] for name in SEATS]
    stream = TableStream(aws.table)
    service.start_table("figgie", game, seats[0])
    schedule_what_changed(stream)
    return game, seats, stream


def trade(service: GameService, game: str, seller: str, buyer: str) -> bool:
    """``seller`` asks 5 for a card of a suit it holds and ``buyer`` lifts it: one trade
    (False if the seller holds nothing)."""
    hand = service.table("figgie", game, seller)["view"]["hand"]
    held = [suit for suit in SUITS if hand[suit] > 0]
    if not held:
        return False
    service.move("figgie", game, seller, {"type": "ask", "suit": held[0], "price": 5})
    service.move("figgie", game, buyer, {"type": "lift", "suit": held[0]})
    return True


def test_a_market_of_many_trades_sends_one_message_that_ends_it_at_the_deadline(
    aws: Aws,
) -> None:
    game, seats, stream = market(aws, trading_seconds=60)
    (message,) = aws.sqs.sent
    started = body(message)
    assert message["DelaySeconds"] == 60
    trades = 0
    for n in range(40):
        aws.fake.advance(1)
        trades += trade(aws.service, game, seats[n % 4], seats[(n + 1) % 4])
        schedule_what_changed(stream)
    table = aws.service.table("figgie", game, None)
    assert trades == len(table["view"]["tape"]) >= 30
    assert table["version"] > started["version"] + 60  # an ask and a lift a trade

    assert aws.sqs.sent == [message]  # one message for the deadline, none per order

    aws.fake.advance(20)  # the deadline: no order, no read, only the message
    answer = clock_handler.fire(sqs_event(message))

    assert answer == {"batchItemFailures": []}
    ended = aws.service.table("figgie", game, None)
    assert ended["status"] == "Finished"
    assert ended["result"]["reason"] == "settled"
    assert sum(ended["view"]["chips"]) == 4 * 350
    schedule_what_changed(stream)
    assert aws.sqs.sent == [message]  # nothing is due once it is over


def test_a_message_delivered_before_a_far_deadline_is_sent_again_for_the_game_as_it_is(
    aws: Aws,
) -> None:
    game, seats, stream = market(aws, trading_seconds=1200)
    (message,) = aws.sqs.sent
    assert message["DelaySeconds"] == 900  # SQS's longest delay
    for n in range(6):
        aws.fake.advance(1)
        trade(aws.service, game, seats[n % 4], seats[(n + 1) % 4])
        schedule_what_changed(stream)
    assert aws.sqs.sent == [message]
    version = aws.service.table("figgie", game, None)["version"]

    aws.fake.advance(900 - 6)
    clock_handler.fire(sqs_event(message))

    again = aws.sqs.sent[-1]
    assert len(aws.sqs.sent) == 2
    assert again["DelaySeconds"] == 300
    assert body(again) == {**body(message), "version": version}
    assert aws.service.table("figgie", game, None)["status"] == "Running"
    aws.fake.advance(300)
    clock_handler.fire(sqs_event(again))
    assert aws.service.table("figgie", game, None)["status"] == "Finished"


def test_an_order_that_races_the_deadline_message_does_not_lose_the_deadline(
    aws: Aws, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deadline's message comes, and an order decided just before the deadline (due at
    the same time, so its version sent no message) is saved between the clock's read and
    its write: the clock's write loses the race, and it tries again on the order's version,
    so the round still ends at its deadline."""
    game, seats, stream = market(aws, trading_seconds=30)
    (message,) = aws.sqs.sent
    store = aws.service.store
    real_load = store.load
    raced: list[int] = []

    def load(game_uuid: str) -> Any:
        doc = real_load(game_uuid)
        if firing and not raced and doc is not None:
            raced.append(doc.version)
            aws.fake.advance(-0.5)
            assert trade(aws.service, game, seats[0], seats[1])
            aws.fake.advance(0.5)
        return doc

    firing = False
    monkeypatch.setattr(store, "load", load)
    aws.fake.advance(30)
    firing = True
    clock_handler.fire(sqs_event(message))
    firing = False
    schedule_what_changed(stream)

    assert raced == [body(message)["version"]]
    ended = aws.service.table("figgie", game, None)
    assert ended["status"] == "Finished"
    assert len(ended["view"]["tape"]) == 1
    assert aws.sqs.sent == [message]


def _state(version: int, due_at: float | None, last_modified: float) -> dict[str, Any]:
    item: dict[str, Any] = {
        "pk": {"S": "GAME#" + "a" * 32},
        "sk": {"S": "STATE"},
        "game_uuid": {"S": "a" * 32},
        "version": {"N": str(version)},
        "last_modified": {"N": repr(last_modified)},
    }
    if due_at is not None:
        item["due_at"] = {"N": repr(due_at)}
    return item


class Sent:
    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []

    def send_message_batch(self, *, QueueUrl: str, Entries: list[dict[str, Any]]) -> Any:  # noqa: N803
        self.entries.extend(Entries)
        return {"Successful": [], "Failed": []}


def test_a_version_sends_a_message_unless_the_one_before_was_due_at_the_same_time_to_come() -> None:
    sqs = Sent()
    records = [
        stream_record(_state(3, 160.0, 100.0), "INSERT"),  # no image before: sends
        stream_record(_state(4, 160.0, 101.0), old=_state(3, 160.0, 100.0)),  # same: none
        stream_record(_state(5, 170.0, 102.0), old=_state(4, 160.0, 101.0)),  # moved: sends
        stream_record(_state(6, 170.0, 103.0)),  # no old image: sends
        stream_record(_state(7, 103.5, 103.5), old=_state(6, 103.5, 103.0)),  # came: sends
        stream_record(_state(8, 180.0, 104.0), old=_state(7, None, 103.5)),  # none before
        stream_record(  # another game's image as the old one is not trusted
            _state(9, 180.0, 105.0), old={**_state(8, 180.0, 104.0), "game_uuid": {"S": "b"}}
        ),
    ]

    Scheduler(sqs, "url", lambda: 100.0).schedule(stream_event(records))

    assert [body(entry)["version"] for entry in sqs.entries] == [3, 5, 6, 7, 8, 9]
