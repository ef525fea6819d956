"""Rematch, reactions and reports at the tables of Economancy and Figgie, through the service,
on every store (SQLite, DynamoDB on moto and on moto's server, the in-memory fake): what is
kept of them (the finished table's pointer and askers, the next table's seat bindings, the
reactions and their rate, the reports and the hidden names, the rematch's pinned answer under
its Idempotency-Key) reads back the same from each."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from app.clock.local import LocalClock
from app.config.settings import Settings
from app.service import GameService
from app.service.errors import (
    GameNotFinished,
    IdempotencyKeyReused,
    SeatSecretRefused,
    TooManyReactions,
)
from app.store.base import GameStore
from engine import errors as rules
from tests.support.clock import FakeClock


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


@pytest.fixture
def service(store: GameStore, tmp_path: Path, fake: FakeClock) -> GameService:
    settings = Settings(db_path=tmp_path / "blef.db", ai_think_seconds=0, run_clock=False)
    return GameService(store, settings, clock=fake)


def safe_move(view: dict[str, Any]) -> list[Any]:
    phase = view["phase"]
    if phase["name"] == "investing":
        return [0]
    if phase["name"] == "buy":
        return ["Pass"]
    if phase["name"] == "attacking" and phase["attacker"] == view["player"]:
        return [0]
    return [1]


def finished_economancy(service: GameService, *names: str) -> tuple[str, dict[str, str]]:
    """A one-day Economancy table of ``names`` (and a computer player) played to its end."""
    game = service.create_table("economancy", {"day_limit": 1})["game_uuid"]
    secrets = {n: service.join_table("economancy", game, n)["player_uuid"] for n in names}
    service.seat_agent("economancy", game, secrets[names[0]], "random")
    service.start_table("economancy", game, secrets[names[0]])
    clock = LocalClock(service)
    for _ in range(200):
        clock.run_until_idle()  # the computer player's choices
        if service.table("economancy", game, None)["status"] == "Finished":
            return game, secrets
        for secret in secrets.values():
            table = service.table("economancy", game, secret)
            if table["your_turn"]:
                service.move("economancy", game, secret, safe_move(table["view"]))
    raise AssertionError("the game did not end")


def test_a_rematch_seats_each_asker_once_and_frees_the_seat_of_one_who_leaves(
    service: GameService,
) -> None:
    game, p = finished_economancy(service, "ann", "bob")
    first = service.rematch_table("economancy", game, p["ann"])
    nxt = first["game_uuid"]
    assert nxt != game and first["kind"] == "economancy"
    again = service.rematch_table("economancy", game, p["ann"])
    assert again == first  # the seat bound to ann's old seat
    bob = service.rematch_table("economancy", game, p["bob"])
    assert bob["game_uuid"] == nxt and bob["player_uuid"] != first["player_uuid"]
    table = service.table("economancy", nxt, bob["player_uuid"])
    assert [s["nickname"] for s in table["seats"]] == ["ann", "Random_(AI)", "bob"]
    assert table["admin"] == "ann" and table["rules"]["day_limit"] == 1
    assert service.table("economancy", game, None)["rematch"] == {"asked": ["ann", "bob"]}

    service.leave_table("economancy", nxt, bob["player_uuid"])
    with pytest.raises(SeatSecretRefused):
        service.table("economancy", nxt, bob["player_uuid"])
    fresh = service.rematch_table("economancy", game, p["bob"])
    assert fresh["game_uuid"] == nxt and fresh["player_uuid"] != bob["player_uuid"]


def test_a_rematch_is_refused_before_the_end_and_to_a_secret_that_is_not_the_tables(
    service: GameService,
) -> None:
    game = service.create_table("figgie")["game_uuid"]
    ann = service.join_table("figgie", game, "ann")["player_uuid"]
    with pytest.raises(GameNotFinished):
        service.rematch_table("figgie", game, ann)
    with pytest.raises(SeatSecretRefused):
        service.rematch_table("figgie", game, str(uuid.uuid4()))


def test_a_keyed_rematch_answers_its_first_answer_after_the_seat_was_given_up(
    service: GameService,
) -> None:
    game, p = finished_economancy(service, "ann", "bob")
    key = str(uuid.uuid4())
    first = service.rematch_table("economancy", game, p["ann"], idempotency_key=key)
    service.leave_table("economancy", first["game_uuid"], first["player_uuid"])
    assert service.rematch_table("economancy", game, p["ann"], idempotency_key=key) == first
    with pytest.raises(IdempotencyKeyReused):
        service.rematch_table("economancy", game, p["bob"], idempotency_key=key)
    with pytest.raises(IdempotencyKeyReused):
        service.rematch_table("economancy", game, p["ann"], "Anna", idempotency_key=key)


def test_reactions_are_shown_and_limited_per_player_in_the_table_itself(
    service: GameService, fake: FakeClock
) -> None:
    game = service.create_table("figgie")["game_uuid"]
    ann = service.join_table("figgie", game, "ann")["player_uuid"]
    for sent in ("👍", "🎉", "🤔"):
        body = service.react_table("figgie", game, ann, sent)
    assert [r["reaction"] for r in body["reactions"]] == ["👍", "🎉", "🤔"]
    before = service.table("figgie", game, None)["version"]
    with pytest.raises(TooManyReactions) as refused:
        service.react_table("figgie", game, ann, "👍")
    assert refused.value.retry_after >= 1
    assert service.table("figgie", game, None)["version"] == before
    fake.advance(11)
    assert service.react_table("figgie", game, ann, "👍")["reactions"][-1]["nickname"] == "ann"


def test_a_name_every_other_person_reported_is_hidden_in_every_field(
    service: GameService,
) -> None:
    game = service.create_table("figgie", public=True)["game_uuid"]
    p = {n: service.join_table("figgie", game, n)["player_uuid"] for n in ("Rude", "bob", "cy")}
    service.react_table("figgie", game, p["Rude"], "😂")
    service.ready_table("figgie", game, p["Rude"], True)
    service.report_table("figgie", game, p["bob"], "rude")
    assert "Rude" in str(service.table("figgie", game, None))
    body = service.report_table("figgie", game, p["cy"], "Rude")
    for seen in (
        body,
        service.table("figgie", game, None),
        service.table("figgie", game, p["Rude"]),
    ):
        assert "Rude" not in str(seen)
        assert seen["admin"] == "Player_1" and seen["seats"][0]["nickname"] == "Player_1"
    assert "Rude" not in str(service.list_tables("figgie"))
    reports = [(r.reporter, r.nickname) for r in service.store.list_reports(10)]
    assert sorted(reports) == [("bob", "Rude"), ("cy", "Rude")]
    with pytest.raises(rules.NicknameTaken):
        service.join_table("figgie", game, "rude")
