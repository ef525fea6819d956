"""The game clock on AWS, driven as Lambda drives it: the table's stream record of a change
goes to the scheduler, its delayed SQS message to the fire function, and the sweeper runs on
a schedule. On moto (DynamoDB and SQS) and a fake clock; never a real wait."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.clock.aws import Due, Scheduler
from app.clock.queue import MAX_DELAY_SECONDS, delay_seconds
from app.entrypoints import clock as clock_handler
from app.service import GameService
from tests.aws_clock.conftest import THINK, Aws, sqs_event
from tests.support.clock import ai_game
from tests.watch.events import stream_event, stream_record


def human_game(service: GameService, limit: int) -> tuple[str, dict[str, str]]:
    game = service.create_game()["game_uuid"]
    players = {name: service.join(game, name)["player_uuid"] for name in ("alice", "bob")}
    service.set_time_limit(game, players["alice"], limit)
    service.start(game, players["alice"])
    return game, players


def version_of(aws: Aws, game: str) -> int:
    doc = aws.service.store.load(game)
    assert doc is not None
    return doc.version


def body(entry: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(entry["MessageBody"])
    return data


# ---------------------------------------------------------------------------- scheduling


def test_a_game_with_an_ai_to_move_gets_one_message_delayed_by_the_think_time(aws: Aws) -> None:
    game, _ = ai_game(aws.service)
    version = version_of(aws, game)

    answer = clock_handler.schedule(aws.stream_of(game))

    assert answer == {"batchItemFailures": []}
    (entry,) = aws.sqs.sent
    assert entry["DelaySeconds"] == THINK
    assert body(entry) == {"game_uuid": game, "version": version, "due_at": aws.fake.now + THINK}
    assert aws.delayed() == 1


def test_a_human_with_a_time_limit_gets_a_message_delayed_to_their_deadline(aws: Aws) -> None:
    game, _ = human_game(aws.service, limit=37)

    clock_handler.schedule(aws.stream_of(game))

    (entry,) = aws.sqs.sent
    assert entry["DelaySeconds"] == 37
    assert aws.service.state(game).body["move_deadline"] == body(entry)["due_at"]


def test_a_game_with_nothing_due_and_other_items_schedule_nothing(aws: Aws) -> None:
    lobby = aws.service.create_game()["game_uuid"]
    game, _ = human_game(aws.service, limit=0)
    item = aws.table.item(f"GAME#{game}", "STATE")
    assert item is not None and "due_at" not in item
    round_item = {**item, "sk": {"S": "ROUND#0001"}, "due_at": {"N": "1"}}
    removed = stream_record(item, event_name="REMOVE")

    clock_handler.schedule(
        stream_event(
            [
                stream_record(item),
                stream_record(round_item),
                removed,
                *aws.stream_of(lobby)["Records"],
            ]
        )
    )

    assert aws.sqs.sent == []


# ---------------------------------------------------------------------------- firing


def test_the_ai_moves_exactly_once_when_its_message_is_delivered_twice(aws: Aws) -> None:
    game, _ = ai_game(aws.service)
    version = version_of(aws, game)
    clock_handler.schedule(aws.stream_of(game))
    (message,) = aws.sqs.sent
    aws.fake.advance(THINK)

    first = clock_handler.fire(sqs_event(message))
    after_first = aws.service.state(game).body
    second = clock_handler.fire(sqs_event(message))

    assert first == second == {"batchItemFailures": []}
    assert version_of(aws, game) == version + 1
    assert aws.service.state(game).body == after_first
    assert len(after_first["history"]) == 1
    assert len(aws.sqs.sent) == 1  # a stale message is not sent again


def test_a_late_message_after_the_human_moved_changes_nothing(aws: Aws) -> None:
    game, alice = ai_game(aws.service)
    clock_handler.schedule(aws.stream_of(game))
    (message,) = aws.sqs.sent
    aws.fake.advance(THINK)
    clock_handler.fire(sqs_event(message))
    # Play the AIs until alice is to move, then alice moves: the game is versions ahead.
    while aws.service.state(game).body["cp_nickname"] != "alice":
        aws.fake.advance(THINK)
        assert aws.runtime.service.sweep() == 1
    history = aws.service.state(game).body["history"]
    aws.service.play(game, alice, 88 if history else 0)  # a check once there is a bet
    moved = aws.service.state(game).body
    version = version_of(aws, game)

    answer = clock_handler.fire(sqs_event(message))

    assert answer == {"batchItemFailures": []}
    assert version_of(aws, game) == version
    assert aws.service.state(game).body == moved


def test_an_early_message_is_sent_again_with_the_delay_left(aws: Aws) -> None:
    game, _ = human_game(aws.service, limit=10)
    version = version_of(aws, game)
    clock_handler.schedule(aws.stream_of(game))
    (message,) = aws.sqs.sent
    aws.fake.advance(6.5)  # SQS delivered 3.5 s early

    answer = clock_handler.fire(sqs_event(message))

    assert answer == {"batchItemFailures": []}
    assert version_of(aws, game) == version
    again = aws.sqs.sent[-1]
    assert len(aws.sqs.sent) == 2
    assert again["DelaySeconds"] == 4
    assert body(again) == body(message)
    aws.fake.advance(3.5)
    clock_handler.fire(sqs_event(again))
    assert version_of(aws, game) == version + 1


def test_a_player_who_lets_the_deadline_pass_loses_the_round_through_the_fire_function(
    aws: Aws,
) -> None:
    game, _ = human_game(aws.service, limit=5)
    slow = aws.service.state(game).body["cp_nickname"]
    clock_handler.schedule(aws.stream_of(game))
    (message,) = aws.sqs.sent
    aws.fake.advance(5)

    clock_handler.fire(sqs_event(message))

    ended = aws.service.state(game, round_param="1").body
    assert ended["history"] == [{"player": slow, "action_id": 89}]
    state = aws.service.state(game).body
    assert state["round_number"] == 2
    assert state["move_deadline"] == aws.fake.now + 5
    # The new version's stream record schedules the next deadline.
    clock_handler.schedule(aws.stream_of(game))
    assert aws.sqs.sent[-1]["DelaySeconds"] == 5


def test_the_sweeper_moves_an_overdue_game_whose_message_was_lost(aws: Aws) -> None:
    game, _ = ai_game(aws.service)
    version = version_of(aws, game)
    aws.fake.advance(THINK - 0.5)
    assert clock_handler.sweep({}) == {"acted": 0}

    aws.fake.advance(0.5)

    assert clock_handler.sweep({}) == {"acted": 1}
    assert version_of(aws, game) == version + 1
    assert aws.sqs.sent == []


# ---------------------------------------------------------------------------- attackers


def test_a_forged_message_for_a_guessed_game_or_version_changes_nothing(aws: Aws) -> None:
    game, _ = human_game(aws.service, limit=30)
    version = version_of(aws, game)
    aws.fake.advance(1000)
    forged = [
        {"MessageBody": Due("0" * 32, 1, 0).body()},
        {"MessageBody": Due(game, version + 1, 0).body()},
        {"MessageBody": Due(game, version - 1, 0).body()},
    ]

    answer = clock_handler.fire(sqs_event(*forged))

    assert answer == {"batchItemFailures": []}
    assert version_of(aws, game) == version
    assert aws.sqs.sent == []


@given(
    text=st.one_of(
        st.text(max_size=200),
        st.builds(
            json.dumps,
            st.dictionaries(
                st.sampled_from(["game_uuid", "version", "due_at", "x"]),
                st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text()),
            ),
        ),
    )
)
@settings(max_examples=200, deadline=None)
def test_a_malformed_message_is_dropped_and_never_fails_the_batch(text: str) -> None:
    class NoClock:
        def advance(self, game_uuid: str, version: int) -> Any:
            raise AssertionError("a malformed message reached the clock")

    class NoSqs:
        def send_message_batch(self, **_: Any) -> Any:
            raise AssertionError("a malformed message was sent")

    from app.clock.aws import Firer

    try:
        Due.from_body(text)
    except ValueError:
        firer = Firer(NoClock(), NoSqs(), "url", lambda: 0.0)  # type: ignore[arg-type]
        fired = firer.fire(sqs_event({"MessageBody": text}))
        assert fired.dropped == 1
        assert fired.failures == ()


def test_a_message_whose_advance_raises_is_reported_and_the_others_go_on(
    aws: Aws, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, _ = ai_game(aws.service)
    version = version_of(aws, game)
    clock_handler.schedule(aws.stream_of(game))
    (message,) = aws.sqs.sent
    broken = {"MessageBody": Due("f" * 32, 3, 0).body()}
    real = aws.runtime.service.advance

    def advance(game_uuid: str, at: int) -> Any:
        if game_uuid == "f" * 32:
            raise RuntimeError("the table is unwell")
        return real(game_uuid, at)

    monkeypatch.setattr(aws.runtime.service, "advance", advance)
    aws.fake.advance(THINK)

    answer = clock_handler.fire(sqs_event(broken, message))

    assert answer == {"batchItemFailures": [{"itemIdentifier": "message-0"}]}
    assert version_of(aws, game) == version + 1


class FlakySqs:
    """Refuses the entries at chosen positions of each call, or every call after ``fail_from``."""

    def __init__(self, refuse: set[str] | None = None, fail_from: int | None = None) -> None:
        self.refuse = refuse or set()
        self.fail_from = fail_from
        self.calls: list[list[dict[str, Any]]] = []

    def send_message_batch(self, *, QueueUrl: str, Entries: list[dict[str, Any]]) -> Any:  # noqa: N803
        self.calls.append(Entries)
        if self.fail_from is not None and len(self.calls) > self.fail_from:
            raise ConnectionError("SQS is unreachable")
        failed = [{"Id": e["Id"], "Code": "x"} for e in Entries if e["Id"] in self.refuse]
        return {"Successful": [], "Failed": failed}


def due_records(count: int) -> list[dict[str, Any]]:
    return [
        stream_record(
            {
                "pk": {"S": f"GAME#{index:032x}"},
                "sk": {"S": "STATE"},
                "game_uuid": {"S": f"{index:032x}"},
                "version": {"N": "3"},
                "due_at": {"N": "101.5"},
            }
        )
        for index in range(count)
    ]


def test_a_flood_of_due_games_is_sent_ten_per_call(aws: Aws) -> None:
    sqs = FlakySqs()
    records = due_records(25)

    answer = Scheduler(sqs, "url", lambda: 100.0).schedule(stream_event(records))

    assert answer == {"batchItemFailures": []}
    assert [len(call) for call in sqs.calls] == [10, 10, 5]
    assert {e["DelaySeconds"] for call in sqs.calls for e in call} == {2}


def test_records_whose_messages_sqs_refused_or_could_not_take_are_reported_for_retry() -> None:
    sqs = FlakySqs(refuse={"3"}, fail_from=2)
    records = due_records(25)
    sequence = [r["dynamodb"]["SequenceNumber"] for r in records]

    answer = Scheduler(sqs, "url", lambda: 100.0).schedule(stream_event(records))

    failed = [f["itemIdentifier"] for f in answer["batchItemFailures"]]
    assert failed == [sequence[3], sequence[13], *sequence[20:]]


@given(due_at=st.floats(allow_nan=True, allow_infinity=True), now=st.floats(0, 4e9))
def test_a_delay_is_whole_seconds_within_what_sqs_allows_and_never_early(
    due_at: float, now: float
) -> None:
    delay = delay_seconds(due_at, now)
    wait = due_at - now
    assert isinstance(delay, int)
    if wait > MAX_DELAY_SECONDS:
        assert delay == MAX_DELAY_SECONDS
    elif wait > 0:
        assert wait <= delay and delay - 1 < wait
    else:
        assert delay == 0


def test_importing_the_handler_module_builds_nothing_and_loads_no_boto3() -> None:
    import subprocess
    import sys

    code = (
        "import sys, app.entrypoints.clock as handler\n"
        "heavy = ('fastapi', 'mangum', 'boto3', 'botocore', 'pydantic_settings')\n"
        "print(sorted(m for m in heavy if m in sys.modules), handler._runtime.built)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[] False"


def test_the_handlers_build_their_runtime_from_the_stacks_environment_on_first_use(
    aws: Aws,
) -> None:
    import os
    from unittest.mock import patch

    game, _ = ai_game(aws.service)
    variables = {
        "BLEF_STORE": "dynamodb",
        "BLEF_TABLE_NAME": aws.table.table_name,
        "BLEF_CLOCK_QUEUE_URL": aws.queue_url,
        "BLEF_AI_THINK_SECONDS": "1.0",
        "LOG_LEVEL": "INFO",
    }
    clock_handler.use(None)
    with patch.dict(os.environ, variables):
        answer = clock_handler.schedule(aws.stream_of(game))
        built = clock_handler.runtime()
    assert answer == {"batchItemFailures": []}
    assert built is not aws.runtime
    assert built.service.store.table_name == aws.table.table_name  # type: ignore[attr-defined]
    assert aws.queued() == 1  # delayed or not: this runtime reads the real clock
    assert aws.sqs.sent == []  # sent by the runtime's own boto3 client


def test_without_a_queue_url_the_handlers_refuse_to_start(aws: Aws) -> None:
    import os
    from unittest.mock import patch

    clock_handler.use(None)
    with patch.dict(os.environ, {"BLEF_STORE": "dynamodb"}):
        os.environ.pop("BLEF_CLOCK_QUEUE_URL", None)
        with pytest.raises(RuntimeError, match="BLEF_CLOCK_QUEUE_URL"):
            clock_handler.sweep({})


def test_the_same_message_fired_by_racing_invocations_moves_the_ai_once(aws: Aws) -> None:
    import threading

    game, _ = ai_game(aws.service)
    version = version_of(aws, game)
    clock_handler.schedule(aws.stream_of(game))
    (message,) = aws.sqs.sent
    aws.fake.advance(THINK)
    start = threading.Barrier(8)
    answers: list[dict[str, Any]] = []

    def deliver() -> None:
        start.wait()
        answers.append(clock_handler.fire(sqs_event(message)))

    threads = [threading.Thread(target=deliver) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert answers == [{"batchItemFailures": []}] * 8
    assert version_of(aws, game) == version + 1
    assert len(aws.service.state(game).body["history"]) == 1
