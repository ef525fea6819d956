"""The ladder store's contract, ratings and boards: settlements (once, from the rating read),
history and results, the boards and ranks, and DynamoDB never scanning (app/ladder/store.py
``RatingStore``): held by every store, SQLite on a file, DynamoDB on in-process moto
(through a client that refuses Scan) and the in-memory fake."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.ladder.sqlite.store import LadderSqlite
from app.ladder.store import (
    IDLE,
    SEATED,
    LadderConflict,
    LadderStore,
    Rating,
    Result,
)
from tests.ladder.contract import (
    OTHER,
    POOL,
    T0,
    account,
    board_of,
    make,
    named,
    played,
    queue,
    rate,
    rated,
    settled,
)
from tests.support.ladder_dynamo import (
    NoScanClient,
    Scanned,
    ladder_table,
    moto_ladder,
    moto_ladder_client,
)


def test_a_settlement_rates_frees_and_records_everyone_once(store: LadderStore) -> None:
    make(store, 1, 2)
    table = played(store, "t1", 1, 2)

    result = settled(store, table, T0 + 500, {1: (30.0, 7.0), 2: (20.0, 7.5)})

    assert store.result("t1") == result
    assert store.table("t1") == replace(table, state="settled")
    assert store.open_tables() == []
    assert store.rating("acct001", POOL) == Rating("acct001", POOL, 30.0, 7.0, 1)
    assert store.ratings("acct002") == [Rating("acct002", POOL, 20.0, 7.5, 1)]
    assert store.history("acct001", 10) == store.history("acct002", 10) == [result]
    assert store.results(POOL) == [result]
    for n in (1, 2):
        freed = store.account(f"acct{n:03d}")
        assert freed is not None and (freed.state, freed.table_id, freed.pool) == (IDLE, None, None)
    with pytest.raises(LadderConflict):
        store.settle(replace(result, settled_at=T0 + 600))
    assert store.results(POOL) == [result]
    assert store.rating("acct001", POOL) == Rating("acct001", POOL, 30.0, 7.0, 1)


def test_a_settlement_from_a_rating_that_moved_on_writes_nothing(store: LadderStore) -> None:
    make(store, 1, 2, 3)
    stale = (rate(store, 1, POOL, 31.0, 7.0), rate(store, 3, POOL, 19.0, 7.0))  # 0 games
    first = played(store, "t1", 1, 2, game="g1")
    settled(store, first, T0 + 300, {1: (28.0, 7.0), 2: (22.0, 7.0)})
    second = played(store, "t2", 1, 3, game="g2")

    with pytest.raises(LadderConflict):
        store.settle(Result("t2", "g2", POOL, T0 + 400, stale))  # acct001 has 1 game now

    assert store.table("t2") == second
    assert store.result("t2") is None
    assert store.rating("acct001", POOL) == Rating("acct001", POOL, 28.0, 7.0, 1)
    assert store.rating("acct003", POOL) is None
    assert store.history("acct003", 5) == []
    assert [r.table_id for r in store.results(POOL)] == ["t1"]
    seated = store.account("acct003")
    assert seated is not None and (seated.state, seated.table_id) == (SEATED, "t2")


def test_a_void_result_frees_the_table_and_rates_nobody(store: LadderStore) -> None:
    make(store, 1, 2)
    table = played(store, "t1", 1, 2)
    void = Result("t1", "game1", POOL, T0 + 700)

    store.settle(void)

    assert store.result("t1") == void
    assert store.rating("acct001", POOL) is None
    assert store.history("acct001", 5) == [void], "a void game is in each seat's history"
    freed = store.account("acct002")
    assert freed is not None and freed.state == IDLE
    assert store.table("t1") == replace(table, state="settled")


def test_history_is_newest_first_and_results_in_settled_order(store: LadderStore) -> None:
    make(store, 1, 2, 3)
    results = []
    for i, (a, b) in enumerate([(1, 2), (1, 3), (2, 3), (1, 2)]):
        table = played(store, f"t{i}", a, b, game=f"g{i}")
        mu = 25.0 + i
        results.append(settled(store, table, T0 + 1000 + 10 * i, {a: (mu, 7.0), b: (mu - 2, 7.0)}))

    assert store.history("acct001", 10) == [results[3], results[1], results[0]]
    assert store.history("acct001", 2) == [results[3], results[1]]
    assert store.history("acct001", 0) == []
    assert store.history("acct003", 10) == [results[2], results[1]]
    assert store.results(POOL) == results
    assert store.results(OTHER) == []
    assert store.rating("acct001", POOL) is not None
    assert store.rating("acct001", POOL).games == 3  # type: ignore[union-attr]


def test_the_board_is_by_ordinal_with_ties_by_handle_and_ranks_count_those_above(
    store: LadderStore,
) -> None:
    ordinals = {1: 10.0, 2: 30.0, 3: 20.0, 4: 30.0, 5: 20.0, 6: -5.0, 7: 20.0}
    board_of(store, ordinals)
    make(store, 8)

    board = store.leaderboard(POOL, 100)

    assert [a.account_id for a, _ in board] == [
        "acct002",
        "acct004",
        "acct003",
        "acct005",
        "acct007",
        "acct001",
        "acct006",
    ]
    assert [a.handle for a, _ in store.leaderboard(POOL, 3)] == ["Player2", "Player4", "Player3"]
    assert [a.account_id for a, _ in store.leaderboard(POOL, 4)][-1] == "acct005"
    assert store.leaderboard(POOL, 0) == []
    assert store.leaderboard(OTHER, 10) == []
    assert board[0][1] == Rating("acct002", POOL, 33.0, 1.0, 1)
    assert board[0][0] == account(2)
    ranks = {n: store.rank(f"acct{n:03d}", POOL) for n in ordinals}
    assert ranks == {1: 6, 2: 1, 3: 3, 4: 1, 5: 3, 6: 7, 7: 3}
    assert store.rank("acct008", POOL) is None
    assert store.rank("acct001", OTHER) is None


@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    ordinals=st.lists(
        st.sampled_from([-3.5, 0.0, 0.1, 7.25, 7.25000001, 12.0]), min_size=1, max_size=9
    ),
    limit=st.integers(min_value=1, max_value=10),
)
def test_any_board_on_dynamodb_matches_sqlite_at_any_page_size(
    ordinals: list[float], limit: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Sharded boards (ties straddling a page's end in one shard or across shards) read the
    same as SQLite's single sorted index."""
    sqlite = LadderSqlite(tmp_path_factory.mktemp("board") / "ladder.db")
    with moto_ladder(board_shards=3) as dynamo:
        for store in (sqlite, dynamo):
            board_of(store, dict(enumerate(ordinals, 1)))
            # page size below the board: the shard query reads several pages
        expected = [(a.account_id, r) for a, r in sqlite.leaderboard(POOL, limit)]
        assert [(a.account_id, r) for a, r in dynamo.leaderboard(POOL, limit)] == expected
        for n in range(1, len(ordinals) + 1):
            assert dynamo.rank(f"acct{n:03d}", POOL) == sqlite.rank(f"acct{n:03d}", POOL)
    sqlite.close()


def test_board_pages_follow_one_order_ties_by_handle_without_repeats_or_gaps(
    ladder_store: LadderStore,
) -> None:
    scores = [5.0, 9.0, 5.0, 1.0, 9.0, 5.0, 7.0]
    for i, mu in enumerate(scores):
        rated(ladder_store, named(ladder_store, f"P{i}"), mu + 3.0, 1.0)
    rated(ladder_store, named(ladder_store, "Other"), 99.0, 1.0, pool="standard-3-8")
    whole = ladder_store.leaderboard_page(POOL, 0, 100)
    assert [a.handle for a, _ in whole] == ["P1", "P4", "P6", "P0", "P2", "P5", "P3"]
    assert [a.handle for a, _ in ladder_store.leaderboard(POOL, 100)] == [
        a.handle for a, _ in whole
    ]
    for size in (1, 2, 3, 7):
        paged = [
            row
            for start in range(0, 8, size)
            for row in ladder_store.leaderboard_page(POOL, start, size)
        ]
        assert paged == whole
    assert ladder_store.leaderboard_page(POOL, 7, 10) == []
    assert ladder_store.leaderboard_page(POOL, 1000, 10) == []


def test_the_dynamodb_store_never_scans() -> None:
    """Every operation above, once more, through a client that counts each call: Query,
    GetItem, BatchGetItem and TransactWriteItems only (and the guard does catch a Scan)."""
    with moto_ladder_client() as client:
        store, guarded = ladder_table(client, board_shards=2)
        make(store, 1, 2, 3)
        queue(store, 3)
        store.waiting(POOL)
        store.dequeue("acct003")
        table = played(store, "t1", 1, 2)
        store.open_tables()
        store.table_of_game("game1")
        settled(store, table, T0 + 10, {1: (30.0, 7.0), 2: (20.0, 7.0)})
        store.leaderboard(POOL, 10)
        store.rank("acct002", POOL)
        store.history("acct001", 5)
        store.results(POOL)
        store.result("t1")
        store.ratings("acct001")
        store.account_by_handle("player1")

        assert set(guarded.calls) <= {
            "get_item",
            "batch_get_item",
            "query",
            "transact_write_items",
        }
        assert guarded.calls["transact_write_items"] >= 6
        with pytest.raises(Scanned):
            NoScanClient(client).scan(TableName=store.table_name)
