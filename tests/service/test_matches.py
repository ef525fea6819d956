"""Tables of Economancy and Figgie through the service's use cases (app/service/matches.py,
match_due.py) on the in-memory store with a clock the test moves: the lobby, moves, the
clock's computer players, deadlines and time limits, and the refusals."""

from __future__ import annotations

import pytest

from app.service import GameService
from app.service.errors import (
    GameNotFound,
    RefusedByGame,
    SeatSecretRefused,
    TableNotFound,
    TooManyOrders,
    UnknownGameKind,
)
from engine import errors as rules
from tests.support.clock import FakeClock


def _sweep_until_quiet(service: GameService, fake: FakeClock, seconds: float = 1.0) -> None:
    for _ in range(50):
        fake.advance(seconds)
        if not service.sweep():
            return


def test_an_economancy_table_is_created_joined_started_and_played_by_its_seats(
    service: GameService,
) -> None:
    made = service.create_table("economancy", public=True)
    assert made["kind"] == "economancy"
    game = made["game_uuid"]
    ann = service.join_table("economancy", game, "ann")
    bob = service.join_table("economancy", game, "bob")
    assert (ann["seat"], bob["seat"]) == (0, 1)
    assert [e["game_uuid"] for e in service.list_tables("economancy")["games"]] == [game]
    assert service.list_public() == []  # Blef's list holds Blef's games only
    started = service.start_table("economancy", game, ann["player_uuid"])
    assert started["status"] == "Running"
    assert started["turn"]["mode"] == "simultaneous"
    assert started["view"]["phase"] == {"name": "investing"}
    assert started["you"] == 0 and started["your_turn"]
    after = service.move("economancy", game, ann["player_uuid"], [1])
    assert after["events"] == [{"kind": "chose", "seat": 0}]
    assert not after["your_turn"]
    bob_sees = service.table("economancy", game, bob["player_uuid"])
    assert bob_sees["view"]["players"][0]["coins"] == started["view"]["players"][0]["coins"]
    done = service.move("economancy", game, bob["player_uuid"], [0])
    assert done["version"] == after["version"] + 1
    assert service.list_tables("economancy")["games"] == []  # started: not in the lobby


def test_the_clock_moves_computer_players_until_a_person_must_choose(
    service: GameService, fake: FakeClock
) -> None:
    game = service.create_table("economancy")["game_uuid"]
    ann = service.join_table("economancy", game, "ann")["player_uuid"]
    seated = service.seat_agent("economancy", game, ann, "greedy_points")
    computer = {"nickname": "GreedyPoints_(AI)", "ai": "greedy_points", "ready": False}
    assert seated["seats"][1] == computer
    service.start_table("economancy", game, ann)
    _sweep_until_quiet(service, fake)
    body = service.table("economancy", game, ann)
    assert body["turn"]["seats"] == [0]
    assert body["your_turn"]


def test_a_person_past_the_time_limit_gets_the_games_safest_move(
    service: GameService, fake: FakeClock
) -> None:
    game = service.create_table("economancy", time_limit=30)["game_uuid"]
    ann = service.join_table("economancy", game, "ann")["player_uuid"]
    bob = service.join_table("economancy", game, "bob")["player_uuid"]
    begun = service.start_table("economancy", game, ann)
    assert begun["turn"]["deadline"] == fake.now + 30
    service.move("economancy", game, ann, [2])
    fake.advance(29)
    assert service.sweep() == 0
    fake.advance(1)
    assert service.sweep() == 1
    body = service.table("economancy", game, bob)
    assert body["view"]["phase"]["name"] != "investing"  # bob invested nothing for him
    assert body["view"]["players"][1]["coins"] >= 0


def test_figgie_trading_ends_at_its_deadline_by_the_clock_alone(
    service: GameService, fake: FakeClock
) -> None:
    game = service.create_table("figgie", {"trading_seconds": 60})["game_uuid"]
    ann = service.join_table("figgie", game, "ann")["player_uuid"]
    for agent in ("fairvalue", "marketmaker", "ours"):
        service.seat_agent("figgie", game, ann, agent)
    begun = service.start_table("figgie", game, ann)
    assert begun["turn"]["mode"] == "open"
    assert begun["turn"]["deadline"] == fake.now + 60
    for _ in range(70):
        fake.advance(1)
        service.sweep()
    body = service.table("figgie", game, None)
    assert body["status"] == "Finished"
    assert body["result"]["reason"] == "settled"
    assert sum(body["view"]["chips"]) == 4 * 350
    with pytest.raises(RefusedByGame):
        service.move("figgie", game, ann, {"type": "bid", "suit": "spades", "price": 3})


def test_orders_past_a_seats_rate_are_refused_and_change_nothing(
    service: GameService, fake: FakeClock
) -> None:
    game = service.create_table("figgie")["game_uuid"]
    seats = [service.join_table("figgie", game, n)["player_uuid"] for n in ("a", "b", "c", "d")]
    service.start_table("figgie", game, seats[0])
    order = {"type": "bid", "suit": "clubs", "price": 1}
    cancel = {"type": "cancel_bid", "suit": "clubs"}
    for sent in range(30):
        service.move("figgie", game, seats[0], order if sent % 2 == 0 else cancel)
    with pytest.raises(TooManyOrders) as refused:
        service.move("figgie", game, seats[0], cancel)
    assert refused.value.retry_after >= 1
    before = service.table("figgie", game, None)["version"]
    with pytest.raises(TooManyOrders):
        service.move("figgie", game, seats[0], order)
    assert service.table("figgie", game, None)["version"] == before
    service.move("figgie", game, seats[1], order)  # another seat has its own bucket
    fake.advance(1)
    service.move("figgie", game, seats[0], order)


def test_the_adversary_is_refused_at_every_door(service: GameService) -> None:
    game = service.create_table("economancy")["game_uuid"]
    ann = service.join_table("economancy", game, "ann")["player_uuid"]
    bob = service.join_table("economancy", game, "bob")["player_uuid"]
    with pytest.raises(UnknownGameKind):
        service.create_table("chess")
    with pytest.raises(TableNotFound):
        service.table("blef", game, None)  # an Economancy table is no Blef game
    with pytest.raises(TableNotFound):
        service.table("figgie", game, None)  # a table of another kind is not found
    with pytest.raises(SeatSecretRefused):
        service.start_table("economancy", game, "00000000-0000-4000-8000-000000000000")
    with pytest.raises(SeatSecretRefused):
        service.move("economancy", game, None, [0])
    with pytest.raises(rules.NotAdmin):
        service.start_table("economancy", game, bob)
    with pytest.raises(RefusedByGame) as early:
        service.move("economancy", game, ann, [0])
    assert early.value.code == "game_not_started"
    service.start_table("economancy", game, ann)
    service.move("economancy", game, ann, [0])
    with pytest.raises(RefusedByGame) as twice:
        service.move("economancy", game, ann, [0])
    assert twice.value.code == "already_chose"


def test_a_blef_route_never_reads_a_table_of_another_game(service: GameService) -> None:
    game = service.create_table("economancy")["game_uuid"]
    with pytest.raises(GameNotFound) as refused:
        service.state(game)
    assert refused.value.code == "game_not_found"
    assert not isinstance(refused.value, TableNotFound)  # Blef's established 400 stands
