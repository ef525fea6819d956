"""A player's secret goes to that player alone (issue 28): idempotent replays answer the
first answer unchanged and refuse another request under the same key; a rematch seat is
bound to the old seat, never to a name; a seat moved to another device retires its old
secret."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest

from app.service import GameService, writes
from app.service.errors import GameGone, IdempotencyKeyReused, NotAPlayer, SeatMoved
from app.store.base import GameDoc
from engine import errors as rules
from tests.service.conftest import Table, seat, started
from tests.support.memory_store import MemoryStore


def key() -> str:
    return str(uuid.uuid4())


def finished(service: GameService, *names: str) -> Table:
    """A game of ``names`` that has ended: all but the first resigned."""
    table = started(service, *names)
    for name in names[1:]:
        service.resign(table.game, table[name])
    return table


# ------------------------------------------------------------------ create's replays


def test_a_create_replay_answers_the_first_answer_after_the_creator_left_and_the_name_was_taken(
    service: GameService,
) -> None:
    k = key()
    first = service.create_game(idempotency_key=k, nickname="Sam")
    game = first["game_uuid"]
    hal = service.join(game, "Hal")["player_uuid"]
    service.leave(game, first["player_uuid"])
    newcomer = service.join(game, "Sam")["player_uuid"]
    replay = service.create_game(idempotency_key=k, nickname="Sam")
    assert replay == first
    assert replay["player_uuid"] not in (hal, newcomer)


def test_a_create_key_sent_with_another_nickname_or_team_is_refused_in_words(
    service: GameService,
) -> None:
    k = key()
    first = service.create_game(idempotency_key=k, nickname="Sam")
    service.join(first["game_uuid"], "Hal")
    for other in ({"nickname": "Hal"}, {"nickname": "sam"}, {"nickname": "Sam", "team": 2}, {}):
        with pytest.raises(IdempotencyKeyReused) as refused:
            service.create_game(idempotency_key=k, **other)  # type: ignore[arg-type]
        assert "different request" in refused.value.message


def test_a_create_replay_outlives_the_eviction_of_the_other_kept_replies(
    service: GameService,
) -> None:
    k = key()
    first = service.create_game(idempotency_key=k, nickname="Sam")
    game, sam = first["game_uuid"], first["player_uuid"]
    for i in range(writes.KEEP_REPLIES + 4):
        service.set_ready(game, sam, i % 2 == 0, idempotency_key=key())
    assert service.create_game(idempotency_key=k, nickname="Sam") == first


def test_a_game_made_before_creates_kept_their_answer_never_answers_a_secret_by_name(
    service: GameService, store: MemoryStore
) -> None:
    k = key()
    first = service.create_game(idempotency_key=k, nickname="Sam")
    doc = store.load(first["game_uuid"])
    assert doc is not None
    doc.replies.clear()  # as stored before the first answer was kept
    doc.version += 1
    store.save(doc, doc.version - 1)
    with pytest.raises(GameGone):
        service.create_game(idempotency_key=k, nickname="Sam")
    assert service.create_game(idempotency_key=k) == {"game_uuid": first["game_uuid"]}


# ------------------------------------------------------------------ every keyed path

Keyed = Callable[[GameService, Table, str], object]

KEYED_PATHS: dict[str, tuple[Keyed, Keyed]] = {
    "join": (
        lambda s, t, k: s.join(t.game, "dan", idempotency_key=k),
        lambda s, t, k: s.join(t.game, "eve", idempotency_key=k),
    ),
    "invite": (
        lambda s, t, k: s.invite_ai(t.game, t["ann"], "Dazhbog", idempotency_key=k),
        lambda s, t, k: s.invite_ai(t.game, t["ann"], "Porevit", idempotency_key=k),
    ),
    "ready": (
        lambda s, t, k: s.set_ready(t.game, t["bob"], True, idempotency_key=k),
        lambda s, t, k: s.set_ready(t.game, t["ann"], True, idempotency_key=k),
    ),
    "team": (
        lambda s, t, k: s.set_team(t.game, t["bob"], 2, idempotency_key=k),
        lambda s, t, k: s.set_team(t.game, t["bob"], 3, idempotency_key=k),
    ),
    "remove": (
        lambda s, t, k: s.remove_player(t.game, t["ann"], "bob", idempotency_key=k),
        lambda s, t, k: s.remove_player(t.game, t["ann"], "cid", idempotency_key=k),
    ),
    "move-seat": (
        lambda s, t, k: s.move_seat(t.game, t["bob"], idempotency_key=k),
        lambda s, t, k: s.move_seat(t.game, t["cid"], idempotency_key=k),
    ),
}


@pytest.mark.parametrize("path", sorted(KEYED_PATHS))
def test_every_keyed_path_replays_its_first_answer_and_refuses_another_request(
    service: GameService, path: str
) -> None:
    table = seat(service, "ann", "bob", "cid")
    first_request, other_request = KEYED_PATHS[path]
    k = key()
    first = first_request(service, table, k)
    assert first_request(service, table, k) == first
    with pytest.raises(IdempotencyKeyReused):
        other_request(service, table, k)


def test_a_join_replay_after_the_player_left_answers_their_own_dead_secret_not_the_newcomers(
    service: GameService,
) -> None:
    table = seat(service, "ann")
    k = key()
    first = service.join(table.game, "Sam", idempotency_key=k)
    service.leave(table.game, first["player_uuid"])
    newcomer = service.join(table.game, "Sam")["player_uuid"]
    replay = service.join(table.game, "Sam", idempotency_key=k)
    assert replay == first != {"player_uuid": newcomer}
    with pytest.raises(NotAPlayer):
        service.state(table.game, replay["player_uuid"])


# ------------------------------------------------------------------ rematch seats


def test_a_rematch_seat_is_never_handed_to_the_player_of_another_old_seat(
    service: GameService,
) -> None:
    """The reproduction of the issue: Sam leaves game 2, Cid asks as "Sam", Sam asks again."""
    old = finished(service, "Sam", "Bob", "Cid")
    made = service.rematch(old.game, old["Bob"])
    sam = service.rematch(old.game, old["Sam"])
    assert sam["game_uuid"] == made["game_uuid"]
    service.leave(sam["game_uuid"], sam["player_uuid"])
    cid = service.rematch(old.game, old["Cid"], nickname="Sam")
    with pytest.raises(rules.NicknameTaken, match="Nickname already taken"):
        service.rematch(old.game, old["Sam"])  # their name is taken: refused, in words
    again = service.rematch(old.game, old["Sam"], nickname="Samuel")
    assert again["player_uuid"] not in (cid["player_uuid"], sam["player_uuid"])
    assert service.rematch(old.game, old["Cid"], nickname="Sam") == cid


def test_asking_for_the_rematch_again_answers_the_same_seat_until_its_player_is_removed(
    service: GameService,
) -> None:
    old = finished(service, "ann", "bob")
    ann = service.rematch(old.game, old["ann"])
    bob = service.rematch(old.game, old["bob"])
    assert service.rematch(old.game, old["bob"]) == bob
    service.remove_player(ann["game_uuid"], ann["player_uuid"], "bob")
    again = service.rematch(old.game, old["bob"])
    assert again["game_uuid"] == bob["game_uuid"]
    assert again["player_uuid"] != bob["player_uuid"]


def test_a_rematch_seat_follows_moves_of_the_old_seat_and_of_the_new(
    service: GameService,
) -> None:
    old = finished(service, "ann", "bob")
    bob = service.rematch(old.game, old["bob"])
    moved_new = service.move_seat(bob["game_uuid"], bob["player_uuid"])
    moved_old = service.move_seat(old.game, old["bob"])
    again = service.rematch(old.game, moved_old["player_uuid"])
    assert again == {"game_uuid": bob["game_uuid"], "player_uuid": moved_new["player_uuid"]}


def test_rematch_seats_are_bound_to_seat_keys_never_to_names(
    service: GameService, store: MemoryStore
) -> None:
    old = finished(service, "ann", "bob")
    made = service.rematch(old.game, old["ann"])
    doc = store.load(made["game_uuid"])
    assert doc is not None
    bound = doc.social["rematch_seats"]
    assert set(bound.values()).isdisjoint(doc.player_uuids) and "ann" not in str(bound)


# ------------------------------------------------------------------ moving a seat


def test_a_moved_seat_answers_a_fresh_secret_and_the_old_one_is_refused_as_moved(
    service: GameService,
) -> None:
    table = started(service, "ann", "bob")
    moved = service.move_seat(table.game, table["bob"])
    assert moved["nickname"] == "bob" and moved["player_uuid"] != table["bob"]
    assert service.state(table.game, moved["player_uuid"]).body["you"] == "bob"
    with pytest.raises(SeatMoved) as refused:
        service.state(table.game, table["bob"])
    assert "moved to another device" in refused.value.message
    with pytest.raises(SeatMoved):
        service.move_seat(table.game, table["bob"])
    with pytest.raises(SeatMoved):
        service.react(table.game, table["bob"], "👍")


def test_an_admin_who_moved_is_refused_as_moved_and_admins_from_the_new_device(
    service: GameService,
) -> None:
    table = seat(service, "ann", "bob")
    moved = service.move_seat(table.game, table["ann"])
    for admin_only in (
        lambda who: service.set_public(table.game, who, True),
        lambda who: service.set_max_cards(table.game, who, 3),
        lambda who: service.start(table.game, who),
    ):
        with pytest.raises(SeatMoved):
            admin_only(table["ann"])
    assert service.start(table.game, moved["player_uuid"]) == {"message": "Game started"}


def test_a_move_retried_with_its_key_gets_the_same_fresh_secret(service: GameService) -> None:
    table = seat(service, "ann", "bob")
    k = key()
    first = service.move_seat(table.game, table["bob"], idempotency_key=k)
    assert service.move_seat(table.game, table["bob"], idempotency_key=k) == first


def test_a_hidden_player_stays_hidden_after_moving_their_seat(
    service: GameService, store: MemoryStore
) -> None:
    table = seat(service, "ann", "bob", "cid")
    for reporter in ("ann", "cid"):
        service.report(table.game, table[reporter], "bob")
    moved = service.move_seat(table.game, table["bob"])
    assert moved["nickname"] == "Player_2"
    doc: GameDoc | None = store.load(table.game)
    assert doc is not None
    assert service.state(table.game, moved["player_uuid"]).body["you"] == "Player_2"
    service.report(table.game, table["ann"], "Player_2")  # a report files under the old name
    assert "bob" not in doc.player_uuids


def test_a_retired_secret_is_still_told_its_seat_moved_after_the_game_emptied(
    service: GameService,
) -> None:
    made = service.create_game(nickname="ann")
    moved = service.move_seat(made["game_uuid"], made["player_uuid"])
    service.leave(made["game_uuid"], moved["player_uuid"])
    with pytest.raises(SeatMoved):
        service.state(made["game_uuid"], made["player_uuid"])
    with pytest.raises(NotAPlayer) as gone:
        service.state(made["game_uuid"], moved["player_uuid"])
    assert not isinstance(gone.value, SeatMoved)


def test_a_keyed_rematch_replays_its_first_answer_and_refuses_another_request(
    service: GameService,
) -> None:
    old = finished(service, "Sam", "Bob")
    k = key()
    first = service.rematch(old.game, old["Sam"], idempotency_key=k)
    service.leave(first["game_uuid"], first["player_uuid"])
    assert service.rematch(old.game, old["Sam"], idempotency_key=k) == first
    for other in (
        lambda: service.rematch(old.game, old["Bob"], idempotency_key=k),
        lambda: service.rematch(old.game, old["Sam"], nickname="Samuel", idempotency_key=k),
        lambda: service.create_game(idempotency_key=k, nickname="Sam"),
    ):
        with pytest.raises(IdempotencyKeyReused):
            other()
    made = service.create_game(idempotency_key=(created := key()), nickname="Sam")
    with pytest.raises(IdempotencyKeyReused):
        service.rematch(old.game, old["Sam"], idempotency_key=created)
    assert service.create_game(idempotency_key=created, nickname="Sam") == made
