"""The ladder store's contract, the queue and placing: the queue in order, joins and leaves,
claims, releases and seats, the fill time, a computer level's seat, the matcher's lease
(app/ladder/store.py ``QueueStore``): held by every store, SQLite on a file, DynamoDB on
in-process moto (through a client that refuses Scan) and the in-memory fake."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from app.ladder.store import (
    IDLE,
    QUEUED,
    SEATED,
    LadderConflict,
    LadderStore,
    Seat,
    Table,
)
from tests.ladder.contract import (
    OTHER,
    POOL,
    T0,
    game,
    level,
    make,
    person,
    played,
    queue,
    table_of,
)


def test_the_queue_lists_the_longest_waiting_first_with_each_rating(store: LadderStore) -> None:
    make(store, 1, 2, 3)
    queue(store, 3, at=T0 + 5)
    queue(store, 1, at=T0 + 9)
    queue(store, 2, at=T0 + 5)
    queue_other = store.waiting(OTHER)

    waiting = store.waiting(POOL)

    assert [(w.account_id, w.queued_at, w.mu) for w in waiting] == [
        ("acct002", T0 + 5, 27.0),
        ("acct003", T0 + 5, 28.0),
        ("acct001", T0 + 9, 26.0),
    ]
    assert [w.handle for w in waiting] == ["Player2", "Player3", "Player1"]
    assert waiting[0].ticket == f"ticket2-{POOL}"
    assert queue_other == []
    queued = store.account("acct001")
    assert queued is not None
    assert (queued.state, queued.pool, queued.ticket, queued.queued_at) == (
        QUEUED,
        POOL,
        f"ticket1-{POOL}",
        T0 + 9,
    )


def test_only_an_idle_account_joins_and_only_a_queued_one_leaves(store: LadderStore) -> None:
    make(store, 1)
    queue(store, 1)

    with pytest.raises(LadderConflict):
        store.enqueue("acct001", OTHER, "again", T0, 25.0)
    with pytest.raises(LadderConflict):
        store.enqueue("acct999", POOL, "ghost", T0, 25.0)
    assert store.dequeue("acct001") is True
    assert store.dequeue("acct001") is False
    assert store.dequeue("acct999") is False

    assert store.waiting(POOL) == []
    left = store.account("acct001")
    assert left is not None and left.state == IDLE and left.ticket is None
    queue(store, 1, pool=OTHER)  # idle again: may join any pool
    assert [w.account_id for w in store.waiting(OTHER)] == ["acct001"]


def test_a_claim_seats_everyone_named_with_their_ticket(store: LadderStore) -> None:
    make(store, 1, 2, 3)
    tickets = {f"acct{n:03d}": queue(store, n) for n in (1, 2)}
    queue(store, 3)
    table = table_of("t1", 1, 2)

    store.claim(table, tickets)

    assert [w.account_id for w in store.waiting(POOL)] == ["acct003"]
    for n in (1, 2):
        seated = store.account(f"acct{n:03d}")
        assert seated is not None and (seated.state, seated.table_id) == (SEATED, "t1")
    stored = store.table("t1")
    assert stored == replace(table, state="forming")
    assert [t.table_id for t in store.open_tables()] == ["t1"]


@pytest.mark.parametrize("stale", ["left", "ticket", "pool", "seated"])
def test_a_claim_with_anyone_gone_or_moved_changes_nothing(store: LadderStore, stale: str) -> None:
    make(store, 1, 2, 3)
    tickets = {f"acct{n:03d}": queue(store, n) for n in (1, 2)}
    if stale == "left":
        store.dequeue("acct002")
    elif stale == "ticket":  # left and joined again: a new ticket
        store.dequeue("acct002")
        queue(store, 2)
        store.dequeue("acct002")
        store.enqueue("acct002", POOL, "newer", T0 + 50, 25.0)
    elif stale == "pool":
        store.dequeue("acct002")
        queue(store, 2, pool=OTHER)
    else:  # another matcher seated them first
        queue(store, 3)
        store.claim(
            table_of("first", 2, 3),
            {"acct002": tickets["acct002"], "acct003": "ticket3-standard-2"},
        )
    before = {n: store.account(f"acct{n:03d}") for n in (1, 2, 3)}
    waiting = store.waiting(POOL)

    with pytest.raises(LadderConflict):
        store.claim(table_of("t1", 1, 2), tickets)

    assert store.table("t1") is None
    assert {n: store.account(f"acct{n:03d}") for n in (1, 2, 3)} == before
    assert store.waiting(POOL) == waiting
    assert "t1" not in [t.table_id for t in store.open_tables()]


def test_a_released_table_puts_everyone_back_as_they_were(store: LadderStore) -> None:
    make(store, 1, 2)
    tickets = {f"acct{n:03d}": queue(store, n) for n in (1, 2)}
    waiting = store.waiting(POOL)
    before = {n: store.account(f"acct{n:03d}") for n in (1, 2)}
    table = table_of("t1", 1, 2)
    store.claim(table, tickets)

    store.release(table)

    assert store.table("t1") is None
    assert store.waiting(POOL) == waiting
    assert {n: store.account(f"acct{n:03d}") for n in (1, 2)} == before
    assert store.open_tables() == []


def test_a_seated_table_plays_its_game_once(store: LadderStore) -> None:
    make(store, 1, 2)
    table = played(store, "t1", 1, 2, game="g1")

    assert store.table("t1") == table
    assert store.table_of_game("g1") == table
    assert store.table_of_game("g2") is None
    assert store.open_tables() == [table]
    with pytest.raises(LadderConflict):
        store.seat(replace(table, game_uuid="g2"))
    assert store.table("t1") == table


def test_a_fill_time_is_kept_while_queued_and_put_back_by_a_release(
    ladder_store: LadderStore,
) -> None:
    ania, robo = person(ladder_store, "Ania"), person(ladder_store, "Robo", bot=True)
    ladder_store.enqueue_filled(ania.account_id, POOL, "t-a", 10.0, 25.0, 40.0)
    ladder_store.enqueue(robo.account_id, POOL, "t-r", 11.0, 26.0)
    with pytest.raises(LadderConflict):
        ladder_store.enqueue_filled(ania.account_id, POOL, "t-again", 12.0, 25.0, 50.0)

    queued = ladder_store.account(ania.account_id)
    assert queued is not None and queued.fill_at == 40.0 and queued.ticket == "t-a"
    first = [(w.account_id, w.fill_at, w.bot) for w in ladder_store.waiting(POOL)]
    assert first == [(ania.account_id, 40.0, False), (robo.account_id, None, True)]

    table = Table("tb", POOL, (Seat(ania.account_id, "Ania"), Seat(robo.account_id, "Robo")), 13)
    ladder_store.claim(table, {ania.account_id: "t-a", robo.account_id: "t-r"})
    assert ladder_store.waiting(POOL) == []
    ladder_store.release(table)
    assert [(w.account_id, w.fill_at, w.bot) for w in ladder_store.waiting(POOL)] == first

    assert ladder_store.dequeue(ania.account_id)
    ladder_store.enqueue(ania.account_id, POOL, "t-b", 14.0, 25.0)
    again = ladder_store.account(ania.account_id)
    assert again is not None and again.fill_at is None, "a plain join allows no filling"


def test_a_computer_levels_seat_is_kept_and_its_account_never_queued_or_seated(
    ladder_store: LadderStore,
) -> None:
    ania, computer = person(ladder_store, "Ania"), level(ladder_store, "Level1")
    result = game(ladder_store, "tb", [ania], [computer], 100.0, rated=[ania, computer])

    table = ladder_store.table("tb")
    assert table is not None and table.state == "settled"
    assert [(s.account_id, s.player_uuid, s.agent) for s in table.seats] == [
        (ania.account_id, f"p-{ania.account_id}", None),
        (computer.account_id, None, "AI Level1"),
    ]
    assert ladder_store.account(computer.account_id) == computer  # untouched: idle, no table
    freed = ladder_store.account(ania.account_id)
    assert freed is not None and freed.state == IDLE
    assert ladder_store.history(computer.account_id, 5) == [result]
    rating = ladder_store.rating(computer.account_id, POOL)
    assert rating is not None and rating.games == 1


def test_the_matchers_next_look_is_reserved_once_until_it_is_due(
    ladder_store: LadderStore,
) -> None:
    assert ladder_store.reserve_look(100.0, 105.0)
    assert not ladder_store.reserve_look(101.0, 106.0)  # one is pending, due at 105
    assert not ladder_store.reserve_look(104.9, 110.0)
    assert ladder_store.reserve_look(105.0, 110.0)  # the look due at 105 is being made
    assert not ladder_store.reserve_look(106.0, 111.0)


def test_racing_reservations_of_the_next_look_give_it_to_one_only(
    ladder_store: LadderStore,
) -> None:
    won: list[bool] = []
    lock = threading.Lock()

    def reserve() -> None:
        got = ladder_store.reserve_look(200.0, 205.0)
        with lock:
            won.append(got)

    threads = [threading.Thread(target=reserve) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(won) == [False] * 7 + [True]


# ---------------------------------------------------------------------- presence


def test_a_renewal_marks_the_place_seen_without_moving_it_and_writes_once_per_interval(
    store: LadderStore,
) -> None:
    make(store, 1, 2)
    ticket = queue(store, 1, at=T0)
    queue(store, 2, at=T0 + 1)
    assert [w.last_seen for w in store.waiting(POOL)] == [T0, T0 + 1], "seen when it joined"

    assert store.renew("acct001", POOL, ticket, T0 + 6, 5.0)
    assert not store.renew("acct001", POOL, ticket, T0 + 8, 5.0), "renewed 2 s ago"
    assert store.renew("acct001", POOL, ticket, T0 + 11, 5.0)

    waiting = store.waiting(POOL)
    assert [(w.account_id, w.queued_at, w.seen_at) for w in waiting] == [
        ("acct001", T0, T0 + 11),
        ("acct002", T0 + 1, None),
    ]


@pytest.mark.parametrize("wrong", ["ticket", "pool", "not queued", "no account"])
def test_a_renewal_of_a_place_not_held_with_that_ticket_changes_nothing(
    store: LadderStore, wrong: str
) -> None:
    make(store, 1)
    ticket = queue(store, 1, at=T0)
    account_id, pool = "acct001", POOL
    if wrong == "ticket":
        ticket = "someone-elses"
    elif wrong == "pool":
        pool = OTHER
    elif wrong == "not queued":
        store.dequeue(account_id)
    else:
        account_id = "acct999"
    before = (store.waiting(POOL), store.waiting(OTHER), store.account("acct001"))

    assert not store.renew(account_id, pool, ticket, T0 + 100, 5.0)

    assert (store.waiting(POOL), store.waiting(OTHER), store.account("acct001")) == before


def test_an_absent_place_is_dropped_but_a_renewed_one_or_a_new_ticket_is_kept(
    store: LadderStore,
) -> None:
    make(store, 1, 2, 3)
    t1, t2 = queue(store, 1, at=T0), queue(store, 2, at=T0)
    queue(store, 3, at=T0)
    assert store.renew("acct002", POOL, t2, T0 + 15, 5.0)

    assert not store.drop_absent("acct002", POOL, t2, T0 + 10), "seen at 15, after the cut"
    assert not store.drop_absent("acct001", POOL, "stale-ticket", T0 + 10)
    assert not store.drop_absent("acct001", POOL, t1, T0), "seen at T0: not before T0"
    assert store.drop_absent("acct001", POOL, t1, T0 + 10)
    assert not store.drop_absent("acct001", POOL, t1, T0 + 10), "dropped once"

    dropped = store.account("acct001")
    assert dropped is not None and (dropped.state, dropped.ticket, dropped.pool) == (
        IDLE,
        None,
        None,
    )
    assert [w.account_id for w in store.waiting(POOL)] == ["acct002", "acct003"]
    queue(store, 1, at=T0 + 20)  # idle again: may join, seen anew
    assert store.waiting(POOL)[-1].last_seen == T0 + 20


def test_a_released_table_forgets_its_peoples_renewals(store: LadderStore) -> None:
    make(store, 1, 2)
    tickets = {f"acct{n:03d}": queue(store, n, at=T0) for n in (1, 2)}
    assert store.renew("acct001", POOL, tickets["acct001"], T0 + 30, 5.0)
    table = table_of("t1", 1, 2)
    store.claim(table, tickets)

    store.release(table)

    assert [(w.account_id, w.last_seen) for w in store.waiting(POOL)] == [
        ("acct001", T0),
        ("acct002", T0),
    ]


def test_a_seat_is_awaited_until_its_account_is_told_it_once(store: LadderStore) -> None:
    make(store, 1, 2)
    tickets = {f"acct{n:03d}": queue(store, n) for n in (1, 2)}
    table = table_of("t1", 1, 2)
    table = replace(table, seats=tuple(replace(s, awaited=True) for s in table.seats))
    store.claim(table, tickets)
    seated = replace(
        table,
        seats=tuple(replace(s, player_uuid=f"p-{s.account_id}") for s in table.seats),
        game_uuid="g1",
        state="playing",
    )
    store.seat(seated)
    assert store.table("t1") == seated

    store.mark_seen("t1", "acct002")
    store.mark_seen("t1", "acct002")  # again: no change
    store.mark_seen("t1", "acct999")  # no such seat: no change
    store.mark_seen("nope", "acct001")  # no such table: no change

    stored = store.table("t1")
    assert stored is not None
    assert [(s.account_id, s.awaited, s.player_uuid) for s in stored.seats] == [
        ("acct001", True, "p-acct001"),
        ("acct002", False, "p-acct002"),
    ]
    assert store.table_of_game("g1") == stored
    assert store.open_tables() == [stored]


def test_racing_seat_marks_each_land(store: LadderStore) -> None:
    numbers = (1, 2, 3, 4)
    make(store, *numbers)
    tickets = {f"acct{n:03d}": queue(store, n) for n in numbers}
    table = table_of("t1", *numbers)
    table = replace(table, seats=tuple(replace(s, awaited=True) for s in table.seats))
    store.claim(table, tickets)
    store.seat(replace(table, game_uuid="g1", state="playing"))

    threads = [
        threading.Thread(target=store.mark_seen, args=("t1", f"acct{n:03d}")) for n in numbers
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    stored = store.table("t1")
    assert stored is not None and not any(s.awaited for s in stored.seats)
