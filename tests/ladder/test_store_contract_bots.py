"""The ladder store's contract for bots and computer levels (app/ladder/store.py, "Bots,
events and computer levels"), held on every store (SQLite, DynamoDB on moto through a client
that refuses Scan, the in-memory fake): bot and agent kept, fill times in the queue, seats of
computer levels that are never queued, a history line for every seat, the repeated-pairs
count and becoming a bot."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.ladder.store import (
    DELETED_HANDLE,
    IDLE,
    Account,
    Change,
    LadderConflict,
    LadderStore,
    Rating,
    Result,
    Seat,
    Table,
)

POOL = "standard-2"


def person(store: LadderStore, name: str, *, bot: bool = False) -> Account:
    made = Account(f"id-{name}", name, name.casefold(), f"sha256:{name}", 1.0, bot=bot)
    store.create_account(made)
    return made


def level(store: LadderStore, name: str) -> Account:
    made = Account(
        f"id-{name}", name, name.casefold(), f"none:{name}", 1.0, bot=True, agent="random"
    )
    store.create_account(made)
    return made


def game(
    store: LadderStore,
    table_id: str,
    people: list[Account],
    levels: list[Account],
    at: float,
    rated: list[Account] | None = None,
) -> Result:
    """A table of ``people`` (queued, claimed) and ``levels`` (computer levels' seats, never
    queued), seated and settled at ``at``, rating ``rated`` (default nobody)."""
    tickets = {}
    for who in people:
        tickets[who.account_id] = f"t-{who.account_id}-{table_id}"
        store.enqueue(who.account_id, POOL, tickets[who.account_id], at - 10, 25.0)
    seats = [Seat(p.account_id, p.handle) for p in people]
    seats += [Seat(lv.account_id, lv.handle, None, f"AI {lv.handle}") for lv in levels]
    table = Table(table_id, POOL, tuple(seats), at - 5)
    store.claim(table, tickets)
    playing = replace(
        table,
        state="playing",
        game_uuid=f"g-{table_id}",
        seats=tuple(
            replace(s, player_uuid=f"p-{s.account_id}") if s.ai_nickname is None else s
            for s in table.seats
        ),
    )
    store.seat(playing)
    changes = []
    for place, who in enumerate(rated or [], 1):
        before = store.rating(who.account_id, POOL) or Rating(who.account_id, POOL, 25.0, 8.0, 0)
        after = Rating(who.account_id, POOL, 30.0 - place, 7.0, before.games + 1)
        changes.append(Change(who.account_id, who.handle, place, before, after))
    result = Result(table_id, f"g-{table_id}", POOL, at, tuple(changes))
    store.settle(result)
    return result


def test_bot_and_agent_are_kept_and_told_whichever_way_the_account_is_found(
    ladder_store: LadderStore,
) -> None:
    bot = person(ladder_store, "Robo", bot=True)
    computer = level(ladder_store, "Level1")
    for made in (bot, computer):
        assert ladder_store.account(made.account_id) == made
        assert ladder_store.account_by_handle(made.handle_key) == made
        assert ladder_store.account_by_secret(made.secret_hash) == made


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
    assert [(s.account_id, s.player_uuid, s.ai_nickname) for s in table.seats] == [
        (ania.account_id, f"p-{ania.account_id}", None),
        (computer.account_id, None, "AI Level1"),
    ]
    assert ladder_store.account(computer.account_id) == computer  # untouched: idle, no table
    freed = ladder_store.account(ania.account_id)
    assert freed is not None and freed.state == IDLE
    assert ladder_store.history(computer.account_id, 5) == [result]
    rating = ladder_store.rating(computer.account_id, POOL)
    assert rating is not None and rating.games == 1


def test_every_seat_has_the_game_in_its_history_rated_for_it_or_not(
    ladder_store: LadderStore,
) -> None:
    ania, bolek, cela = (person(ladder_store, n) for n in ("Ania", "Bolek", "Cela"))
    computer = level(ladder_store, "Level1")
    void = game(ladder_store, "t1", [ania, bolek], [], 100.0)
    partly = game(ladder_store, "t2", [ania, bolek, cela], [computer], 200.0, [cela, computer])

    assert ladder_store.history(ania.account_id, 10) == [partly, void]
    assert ladder_store.history(bolek.account_id, 10) == [partly, void]
    assert ladder_store.history(cela.account_id, 10) == [partly]
    assert ladder_store.history(computer.account_id, 10) == [partly]
    assert ladder_store.history(ania.account_id, 1) == [partly]
    assert ladder_store.rating(ania.account_id, POOL) is None
    assert [r.table_id for r in ladder_store.results(POOL)] == ["t1", "t2"]


def test_games_together_counts_the_settled_tables_both_sat_at_since_a_time(
    ladder_store: LadderStore,
) -> None:
    ania, bolek, cela = (person(ladder_store, n) for n in ("Ania", "Bolek", "Cela"))
    computer = level(ladder_store, "Level1")
    game(ladder_store, "t1", [ania, bolek], [], 100.0)
    game(ladder_store, "t2", [ania, bolek], [computer], 200.0, [ania, bolek])
    game(ladder_store, "t3", [ania, cela], [computer], 300.0)
    # An open table counts for nobody yet.
    ladder_store.enqueue(ania.account_id, POOL, "t-open", 390.0, 25.0)
    ladder_store.enqueue(bolek.account_id, POOL, "t-open-b", 390.0, 25.0)
    open_table = Table(
        "t4", POOL, (Seat(ania.account_id, "Ania"), Seat(bolek.account_id, "Bolek")), 395.0
    )
    ladder_store.claim(open_table, {ania.account_id: "t-open", bolek.account_id: "t-open-b"})

    def together(a: Account, b: Account, since: float) -> int:
        return ladder_store.games_together(a.account_id, b.account_id, since)

    assert together(ania, bolek, 0.0) == together(bolek, ania, 0.0) == 2
    assert together(ania, bolek, 100.0) == 2, "settled at `since` counts"
    assert together(ania, bolek, 100.5) == 1
    assert together(ania, bolek, 200.5) == 0
    assert together(ania, computer, 0.0) == together(computer, ania, 0.0) == 2
    assert together(bolek, cela, 0.0) == 0
    assert together(cela, computer, 250.0) == 1
    assert ladder_store.games_together("nobody", ania.account_id, 0.0) == 0


def test_an_idle_account_that_never_played_becomes_a_bot_for_good(
    ladder_store: LadderStore,
) -> None:
    ania = person(ladder_store, "Ania")
    ladder_store.make_bot(ania.account_id)
    made = ladder_store.account(ania.account_id)
    assert made == replace(ania, bot=True)
    assert ladder_store.account_by_secret(ania.secret_hash) == made
    with pytest.raises(LadderConflict):
        ladder_store.make_bot("nobody")


def test_a_queued_seated_or_once_seated_account_does_not_become_a_bot(
    ladder_store: LadderStore,
) -> None:
    ania, bolek = person(ladder_store, "Ania"), person(ladder_store, "Bolek")
    ladder_store.enqueue(ania.account_id, POOL, "t-a", 1.0, 25.0)
    with pytest.raises(LadderConflict):
        ladder_store.make_bot(ania.account_id)
    ladder_store.enqueue(bolek.account_id, POOL, "t-b", 1.0, 25.0)
    table = Table("tb", POOL, (Seat(ania.account_id, "Ania"), Seat(bolek.account_id, "B")), 2)
    ladder_store.claim(table, {ania.account_id: "t-a", bolek.account_id: "t-b"})
    with pytest.raises(LadderConflict):
        ladder_store.make_bot(ania.account_id)
    ladder_store.seat(replace(table, state="playing", game_uuid="g"))
    ladder_store.settle(Result("tb", "g", POOL, 5.0))  # void: rated for nobody, still played
    with pytest.raises(LadderConflict):
        ladder_store.make_bot(ania.account_id)
    for who in (ania, bolek):
        stored = ladder_store.account(who.account_id)
        assert stored is not None and not stored.bot


def test_deleting_an_account_that_played_a_computer_level_keeps_the_levels_seat(
    ladder_store: LadderStore,
) -> None:
    ania, computer = person(ladder_store, "Ania"), level(ladder_store, "Level1")
    game(ladder_store, "tb", [ania], [computer], 100.0, rated=[ania, computer])

    ladder_store.delete_account(ania.account_id)

    table = ladder_store.table("tb")
    assert table is not None
    assert [(s.handle, s.ai_nickname) for s in table.seats] == [
        (DELETED_HANDLE, None),
        ("Level1", "AI Level1"),
    ]
    (kept,) = ladder_store.history(computer.account_id, 5)
    assert [(c.handle, c.place) for c in kept.changes] == [(DELETED_HANDLE, 1), ("Level1", 2)]
    assert ladder_store.history(ania.account_id, 5) == []
