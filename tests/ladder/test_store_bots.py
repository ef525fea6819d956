"""The ladder store's contract, bots and events: bot and agent kept, every seat's history,
games two accounts shared, turning bot (app/ladder/store.py ``BotStore``): held by every
store, SQLite on a file, DynamoDB on in-process moto (through a client that refuses Scan)
and the in-memory fake."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.ladder.store import (
    DELETED_HANDLE,
    Account,
    LadderConflict,
    LadderStore,
    Result,
    Seat,
    Table,
)
from tests.ladder.contract import (
    POOL,
    game,
    level,
    person,
)


def test_bot_and_agent_are_kept_and_told_whichever_way_the_account_is_found(
    ladder_store: LadderStore,
) -> None:
    bot = person(ladder_store, "Robo", bot=True)
    computer = level(ladder_store, "Level1")
    for made in (bot, computer):
        assert ladder_store.account(made.account_id) == made
        assert ladder_store.account_by_handle(made.handle_key) == made
        assert ladder_store.account_by_secret(made.secret_hash) == made


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
    assert [(s.handle, s.agent) for s in table.seats] == [
        (DELETED_HANDLE, None),
        ("Level1", "AI Level1"),
    ]
    (kept,) = ladder_store.history(computer.account_id, 5)
    assert [(c.handle, c.place) for c in kept.changes] == [(DELETED_HANDLE, 1), ("Level1", 2)]
    assert ladder_store.history(ania.account_id, 5) == []
