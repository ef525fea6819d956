"""The ladder on AWS, end to end on moto (DynamoDB and SQS, in process): people from several
127.x addresses make accounts and queue through the HTTP Lambda handler (API Gateway
events), a join matches at once or leaves one delayed look on the clock's queue, the games
are played to the end through the handler, the games table's stream record of each finish
goes to the scheduler, and its settle message to the fire function: twice, as SQS may
deliver it. Every game is rated once, and the ratings recomputed here with OpenSkill from
the stored results (not with the project's rating code) are the stored ones."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import boto3
import pytest
from moto import mock_aws

from app.clock.ladder import LOOK_SECONDS
from app.cloud import clients as aws_clients
from app.config.settings import get_settings
from app.entrypoints import clock as clock_handler
from app.entrypoints import http as http_handler
from app.ladder.dynamo.store import LadderDynamo
from app.ladder.pools import BY_NAME
from app.ladder.service import pick_table
from app.service import GameService
from app.store.dynamo.ladder_keys import create_ladder_table
from app.store.dynamo.store import create_table
from tests.aws_clock.conftest import sqs_event
from tests.support.api import next_action
from tests.support.apigw import LambdaContext, http_api_event
from tests.support.clock import FakeClock
from tests.support.dynamo import REGION, fake_aws_env, serialised_moto_dynamodb
from tests.support.emf import SERVICE, counted, emf_lines
from tests.support.ladder_dynamo import NoScanClient
from tests.watch.events import stream_event, stream_record

GAMES = "blef-games-ladder-test"
LADDER = "blef-ladder-test"
TWO = "standard-2"
MANY = "standard-3-8"


@dataclass
class Recorded:
    """The moto SQS client, every entry sent recorded (to deliver as the event source
    mapping would, without waiting out the delay)."""

    client: Any
    sent: list[dict[str, Any]] = field(default_factory=list)

    def send_message_batch(self, *, QueueUrl: str, Entries: list[dict[str, Any]]) -> Any:  # noqa: N803
        self.sent.extend(Entries)
        return self.client.send_message_batch(QueueUrl=QueueUrl, Entries=Entries)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)

    def ladder(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.sent if json.loads(e["MessageBody"]).get("ladder") == kind]


@dataclass
class Deployment:
    dynamodb: Any
    sqs: Recorded
    fake: FakeClock

    def look_until_seated(
        self, store: LadderDynamo, asking: Callable[[], object] | None = None
    ) -> int:
        """Deliver the clock's pending look when it is due, as SQS would, until nobody
        waits; returns how many looks it took. ``asking``: what the waiting pages do
        before each look (ask about their places, which keeps them: a place not asked
        about for 20 s is dropped)."""
        looks = 0
        while any(store.waiting(pool) for pool in BY_NAME):
            if asking is not None:
                asking()
            pending = self.sqs.ladder("match")[-1]
            due = json.loads(pending["MessageBody"])["due_at"]
            self.fake.now = max(self.fake.now, due)
            assert clock_handler.fire(sqs_event(pending)) == {"batchItemFailures": []}
            looks += 1
            assert looks < 200, "the queue never emptied"
        return looks

    def call(
        self, method: str, path: str, address: str, secret: str | None = None, **kwargs: Any
    ) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        event = http_api_event(method, path, headers=headers, **kwargs)
        event["requestContext"]["http"]["sourceIp"] = address
        result = http_handler.handler(event, LambdaContext())
        text = result.get("body") or ""
        return int(result["statusCode"]), json.loads(text) if text else None

    def store(self) -> LadderDynamo:
        return LadderDynamo(LADDER, client=NoScanClient(self.dynamodb))

    def finished(self, game: str) -> dict[str, Any]:
        """The stream event of the game's finishing change (its old image still running)."""
        item = self.dynamodb.get_item(
            TableName=GAMES, Key={"pk": {"S": f"GAME#{game}"}, "sk": {"S": "STATE"}}
        )["Item"]
        assert item["status"]["S"] == "Finished"
        return stream_event([stream_record(item, old={**item, "status": {"S": "Running"}})])


@pytest.fixture
def deployment(monkeypatch: pytest.MonkeyPatch) -> Iterator[Deployment]:
    with fake_aws_env(), serialised_moto_dynamodb(), mock_aws():
        dynamodb = boto3.session.Session().client("dynamodb", region_name=REGION)
        create_table(dynamodb, GAMES)
        create_ladder_table(dynamodb, LADDER)
        sqs = Recorded(boto3.session.Session().client("sqs", region_name=REGION))
        queue_url = sqs.client.create_queue(QueueName="blef-clock")["QueueUrl"]
        made = aws_clients.client

        def client(service: str, **kwargs: Any) -> Any:
            return sqs if service == "sqs" else made(service, **kwargs)

        monkeypatch.setattr(aws_clients, "client", client)
        fake = FakeClock()  # every service's "now" (moves, deadlines, the ladder's waits)
        monkeypatch.setattr(GameService, "now", property(lambda self: fake.now))
        for name, value in {
            "BLEF_STORE": "dynamodb",
            "BLEF_TABLE_NAME": GAMES,
            "BLEF_LADDER_TABLE_NAME": LADDER,
            "BLEF_CLOCK_QUEUE_URL": queue_url,
            "BLEF_AI_THINK_SECONDS": "0",
            "BLEF_RATE_LIMIT_BURST": "5",
        }.items():
            monkeypatch.setenv(name, value)
        get_settings.cache_clear()
        http_handler.use(None)
        clock_handler.use(None)
        try:
            yield Deployment(dynamodb, sqs, fake)
        finally:
            http_handler.use(None)
            clock_handler.use(None)
            get_settings.cache_clear()


def play_out(deployment: Deployment, game: str, players: dict[str, tuple[str, str]]) -> None:
    """Play ``game`` to its end through the handler (``players``: handle -> its player UUID
    and address), each move by the player whose turn it is."""
    rng = random.Random(game)
    for _ in range(3000):
        status, state = deployment.call("GET", f"/games/{game}", "127.0.9.9")
        assert status == 200
        if state["status"] == "Finished":
            return
        uuid, address = players[state["cp_nickname"]]
        deployment.fake.advance(1.0)  # a move takes time (and a settled game has its own)
        status, _ = deployment.call(
            "GET",
            f"/games/{game}/play",
            address,
            query={"player_uuid": uuid, "action_id": next_action(state, rng)},
        )
        assert status in (200, 202), state
    raise AssertionError("the game did not finish")


def replayed(results: list[Any], pool: str) -> dict[str, tuple[float, float, int]]:
    """Each account's rating after the results, computed with OpenSkill directly."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    games: dict[str, int] = {}
    for result in results:
        ids = [c.account_id for c in result.changes]
        teams = [[ratings.get(i) or model.rating()] for i in ids]
        rated = model.rate(teams, ranks=[float(c.place) for c in result.changes])
        for i, team in zip(ids, rated, strict=True):
            ratings[i] = team[0]
            games[i] = games.get(i, 0) + 1
    return {i: (float(r.mu), float(r.sigma), games[i]) for i, r in ratings.items()}


def test_people_queue_play_and_are_rated_once_through_the_lambda_functions(
    deployment: Deployment,
) -> None:
    handles = [f"Racer{i}" for i in range(7)]
    address = {h: f"127.0.{i // 2}.{i + 1}" for i, h in enumerate(handles)}
    secrets = {}
    for h in handles:
        status, made = deployment.call("POST", "/ladder/accounts", address[h], body={"handle": h})
        assert status == 201, made
        secrets[h] = made["secret"]
    store = deployment.store()
    settled: set[str] = set()
    rng = random.Random(3)

    for round_ in range(2):
        order = handles[:]
        rng.shuffle(order)
        pools = {h: (TWO if i < 4 else MANY) for i, h in enumerate(order)}
        looks_before = len(deployment.sqs.ladder("match"))
        for h in order:  # each join matches at once what can be matched
            status, _ = deployment.call(
                "POST", "/ladder/queue", address[h], secrets[h], body={"pool": pools[h]}
            )
            assert status == 200
        # at once when the ratings are close (the first round); else by the clock's looks
        looks = deployment.look_until_seated(
            store,
            lambda: [
                deployment.call("GET", "/ladder/queue", address[h], secrets[h]) for h in handles
            ],
        )
        assert looks == 0 or round_ == 1  # the first round: everyone at 25, matched at once
        statuses = {
            h: deployment.call("GET", "/ladder/queue", address[h], secrets[h])[1] for h in handles
        }
        assert {s["state"] for s in statuses.values()} == {"seated"}, statuses
        assert len(deployment.sqs.ladder("match")) - looks_before <= looks + 2
        for name, pool in BY_NAME.items():
            assert pick_table(store.waiting(name), pool, 0.0) is None
        tables: dict[str, dict[str, tuple[str, str]]] = {}
        for h, s in statuses.items():
            tables.setdefault(s["game_uuid"], {})[h] = (s["player_uuid"], address[h])
        assert sorted(len(t) for t in tables.values()) == [2, 2, 3]
        seats = [h for t in tables.values() for h in t]
        assert len(seats) == len(set(seats)) == len(handles)  # nobody at two tables

        for game, players in tables.items():
            play_out(deployment, game, players)
            assert clock_handler.schedule(deployment.finished(game)) == {"batchItemFailures": []}
            (settle,) = [
                e
                for e in deployment.sqs.ladder("settle")
                if json.loads(e["MessageBody"])["game_uuid"] == game
            ]
            for _ in range(2):  # delivered twice: settled once
                assert clock_handler.fire(sqs_event(settle)) == {"batchItemFailures": []}
            table = store.table_of_game(game)
            assert table is not None and table.state == "settled"
            settled.add(table.table_id)

        for h in handles:  # everyone idle again, with their last result
            status, body = deployment.call("GET", "/ladder/queue", address[h], secrets[h])
            assert body["state"] == "idle" and body["last_result"]["place"] >= 1
    for pool in (TWO, MANY):
        results = store.results(pool)
        assert len({r.table_id for r in results}) == len(results)
        expected = replayed(results, pool)
        for account_id, (mu, sigma, games) in expected.items():
            rating = store.rating(account_id, pool)
            assert rating is not None
            assert (rating.mu, rating.sigma, rating.games) == pytest.approx((mu, sigma, games))
    assert {r.table_id for p in (TWO, MANY) for r in store.results(p)} == settled
    assert len(settled) == 6
    assert store.open_tables() == []
    status, board = deployment.call("GET", f"/ladder/leaderboard/{TWO}", "127.0.5.5")
    rated = {c.handle for r in store.results(TWO) for c in r.changes}
    assert status == 200 and {row["handle"] for row in board["players"]} == rated
    assert "account_id" not in json.dumps(board) and "player_uuid" not in json.dumps(board)


def test_someone_left_waiting_is_looked_at_again_by_the_clock_until_seated(
    deployment: Deployment,
) -> None:
    secrets = {}
    for i, h in enumerate(("Ania", "Bolek", "Cezary")):
        status, made = deployment.call(
            "POST", "/ladder/accounts", f"127.1.0.{i}", body={"handle": h}
        )
        assert status == 201
        secrets[h] = made["secret"]
    store = deployment.store()
    # Ania waits in the many-player pool: one look is asked for, and only one
    deployment.call("POST", "/ladder/queue", "127.1.0.0", secrets["Ania"], body={"pool": MANY})
    deployment.call("POST", "/ladder/queue", "127.1.0.1", secrets["Bolek"], body={"pool": MANY})
    (look,) = deployment.sqs.ladder("match")
    assert look["DelaySeconds"] == LOOK_SECONDS

    # the look, when due: nobody can be seated yet, so it asks for the next one (one only,
    # even when SQS delivers it twice)
    deployment.fake.now = json.loads(look["MessageBody"])["due_at"]
    assert clock_handler.fire(sqs_event(look)) == {"batchItemFailures": []}
    assert clock_handler.fire(sqs_event(look)) == {"batchItemFailures": []}  # again: no more
    assert len(deployment.sqs.ladder("match")) == 2
    assert [w.account_id for w in store.waiting(MANY)] != []

    # Cezary joins: a table of three forms at his join; the next look finds nobody waiting,
    # but a table waiting for its people to come (to call it off if one never does): it
    # asks for one more look, and once everyone was told their seat, none
    deployment.call("POST", "/ladder/queue", "127.1.0.2", secrets["Cezary"], body={"pool": MANY})
    assert store.waiting(MANY) == []
    deployment.fake.now += LOOK_SECONDS
    clock_handler.fire(sqs_event(deployment.sqs.ladder("match")[-1]))
    assert len(deployment.sqs.ladder("match")) == 3
    (table,) = store.open_tables()
    assert table.state == "playing" and len(table.seats) == 3
    for i, h in enumerate(("Ania", "Bolek", "Cezary")):
        told = deployment.call("GET", "/ladder/queue", f"127.1.0.{i}", secrets[h])[1]
        assert told["state"] == "seated"
    deployment.fake.now += LOOK_SECONDS
    clock_handler.fire(sqs_event(deployment.sqs.ladder("match")[-1]))
    assert len(deployment.sqs.ladder("match")) == 3


def test_the_sweeper_settles_a_finished_game_whose_message_was_lost(
    deployment: Deployment, capsys: pytest.CaptureFixture[str]
) -> None:
    secrets = {}
    for i, h in enumerate(("Ania", "Bolek")):
        secrets[h] = deployment.call(
            "POST", "/ladder/accounts", f"127.2.0.{i}", body={"handle": h}
        )[1]["secret"]
        deployment.call("POST", "/ladder/queue", f"127.2.0.{i}", secrets[h], body={"pool": TWO})
    statuses = {
        h: deployment.call("GET", "/ladder/queue", f"127.2.0.{i}", s)[1]
        for i, (h, s) in enumerate(secrets.items())
    }
    game = statuses["Ania"]["game_uuid"]
    play_out(
        deployment,
        game,
        {h: (s["player_uuid"], f"127.2.0.{i}") for i, (h, s) in enumerate(statuses.items())},
    )
    store = deployment.store()
    assert store.results(TWO) == []  # no stream record delivered: nothing settled yet
    formed = counted(emf_lines(capsys.readouterr().out))
    assert formed[("LadderTablesFormed", SERVICE)] == 1
    assert ("LadderQueueWait", SERVICE) in formed

    assert clock_handler.sweep() == {"acted": 0}

    (result,) = store.results(TWO)
    assert result.game_uuid == game and len(result.changes) == 2
    clock_handler.sweep()
    assert len(store.results(TWO)) == 1
    swept = counted(emf_lines(capsys.readouterr().out))
    assert swept[("LadderGamesSettled", SERVICE)] == 1  # in the EMF the sweeper printed


def test_a_ladder_message_that_is_malformed_is_dropped(deployment: Deployment) -> None:
    for body in ({"ladder": "settle"}, {"ladder": "match"}, {"ladder": "settle", "game_uuid": 7}):
        entry = {"MessageBody": json.dumps(body)}
        assert clock_handler.fire(sqs_event(entry)) == {"batchItemFailures": []}
    assert clock_handler.runtime().firer is not None
