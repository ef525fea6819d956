"""The clock functions' business metrics: each invocation prints what it did as CloudWatch
EMF lines (AI moves, timeouts, moves, finished games), counted from the saved changes, with
no UUID in them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.entrypoints import clock as clock_handler
from app.entrypoints.metrics import count_change
from app.observability import metrics
from tests.aws_clock.conftest import THINK, Aws, sqs_event
from tests.aws_clock.test_aws_clock import human_game
from tests.support.clock import ai_game
from tests.support.emf import SERVICE, UUID, counted, emf_lines


@pytest.fixture
def metered(aws: Aws, monkeypatch: pytest.MonkeyPatch) -> Iterator[Aws]:
    """The clock's service counting its changes, as app/entrypoints/runtime.py sets it up."""
    monkeypatch.setenv("POWERTOOLS_METRICS_NAMESPACE", "Blef/test")
    aws.service.subscribe(count_change)
    yield aws
    assert not metrics.tally.enabled


def test_an_ai_move_fired_from_the_queue_is_flushed_as_emf_by_that_invocation(
    metered: Aws, capsys: pytest.CaptureFixture[str]
) -> None:
    game, _ = ai_game(metered.service)
    clock_handler.schedule(metered.stream_of(game))
    capsys.readouterr()  # the moves of the set-up were made outside any invocation
    (message,) = metered.sqs.sent
    metered.fake.advance(THINK)

    clock_handler.fire(sqs_event(message))

    out = capsys.readouterr().out
    lines = emf_lines(out)
    assert counted(lines) == {
        ("Moves", SERVICE): 1,
        ("AIMoves", SERVICE): 1,
        ("ClockLateness", SERVICE): 0,  # fired at its due time on the fake clock
    }
    (line,) = lines
    assert line["_aws"]["CloudWatchMetrics"][0]["Namespace"] == "Blef/test"
    assert game not in out and not UUID.search(out)


def test_a_deadline_passed_is_a_timeout_and_no_move(
    metered: Aws, capsys: pytest.CaptureFixture[str]
) -> None:
    game, players = human_game(metered.service, limit=5)
    clock_handler.schedule(metered.stream_of(game))
    (message,) = metered.sqs.sent
    metered.fake.advance(5 + 2)  # two seconds late
    capsys.readouterr()

    clock_handler.fire(sqs_event(message))

    out = capsys.readouterr().out
    lines = emf_lines(out)
    assert counted(lines) == {("Timeouts", SERVICE): 1, ("ClockLateness", SERVICE): 2}
    (line,) = lines
    assert line["ClockLateness"] == [2.0]
    units = {m["Name"]: m["Unit"] for m in line["_aws"]["CloudWatchMetrics"][0]["Metrics"]}
    assert units == {"Timeouts": "Count", "ClockLateness": "Seconds"}
    assert not UUID.search(out)
    for secret in (game, *players.values()):
        assert secret not in out


def test_an_invocation_that_changes_nothing_prints_no_metrics(
    metered: Aws, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert clock_handler.sweep({}) == {"acted": 0}
    assert emf_lines(capsys.readouterr().out) == []


@pytest.mark.parametrize(("late", "timeouts"), [(0, 0), (31, 1)])
def test_a_round_lost_without_a_check_is_a_timeout_only_past_the_movers_deadline(
    metered: Aws, capsys: pytest.CaptureFixture[str], late: int, timeouts: int
) -> None:
    """A lost round with no check is a timeout only once the mover's deadline has passed."""
    game, players = human_game(metered.service, limit=30)
    mover = metered.service.state(game).body["cp_nickname"]
    metered.fake.advance(late)
    capsys.readouterr()

    with metrics.flushed():
        metered.service.resign(game, players[mover])

    counts = counted(emf_lines(capsys.readouterr().out))
    assert counts.get(("Timeouts", SERVICE), 0) == timeouts
    assert counts[("GamesFinished", SERVICE)] == 1  # two players: the other one won
    assert ("Moves", SERVICE) not in counts
