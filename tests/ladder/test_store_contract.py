"""The ladder's store contract (app/ladder/store.py), held by every store: SQLite on a file,
DynamoDB on in-process moto (through a client that refuses Scan), and the in-memory fake the
service tests use. Each test drives the protocol directly, as the service does, and as a
racer would (stale tickets, second settlements, ratings that moved on)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.ladder.sqlite.store import LadderSqlite
from app.ladder.store import (
    IDLE,
    QUEUED,
    SEATED,
    Account,
    Change,
    LadderConflict,
    LadderStore,
    Rating,
    Result,
    Seat,
    Table,
)
from tests.support.ladder_dynamo import (
    NoScanClient,
    Scanned,
    ladder_table,
    moto_ladder,
    moto_ladder_client,
)
from tests.support.ladder_memory import LadderMemory

T0 = 1_700_000_000.0
POOL = "standard-2"
OTHER = "standard-3-8"
STORES = ["sqlite", "dynamo", "memory"]


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LadderStore]:
    if request.param == "sqlite":
        sqlite = LadderSqlite(tmp_path / "ladder.db")
        yield sqlite
        sqlite.close()
    elif request.param == "dynamo":
        with moto_ladder(board_shards=3) as dynamo:
            yield dynamo
    else:
        yield LadderMemory()


def account(n: int, handle: str | None = None) -> Account:
    name = handle or f"Player{n}"
    return Account(f"acct{n:03d}", name, name.casefold(), f"sha256:secret{n}", T0 + n)


def make(store: LadderStore, *numbers: int) -> list[Account]:
    made = [account(n) for n in numbers]
    for each in made:
        store.create_account(each)
    return made


def queue(store: LadderStore, n: int, pool: str = POOL, at: float | None = None) -> str:
    ticket = f"ticket{n}-{pool}"
    store.enqueue(f"acct{n:03d}", pool, ticket, T0 + n if at is None else at, 25.0 + n)
    return ticket


def table_of(table_id: str, *numbers: int, pool: str = POOL) -> Table:
    return Table(
        table_id, pool, tuple(Seat(f"acct{n:03d}", f"Player{n}") for n in numbers), T0 + 100
    )


def played(store: LadderStore, table_id: str, *numbers: int, game: str = "game1") -> Table:
    """A table claimed from the queue and seated at ``game``."""
    tickets = {f"acct{n:03d}": queue(store, n) for n in numbers}
    table = table_of(table_id, *numbers)
    store.claim(table, tickets)
    seated = replace(
        table,
        seats=tuple(replace(s, player_uuid=f"p-{s.account_id}") for s in table.seats),
        game_uuid=game,
        state="playing",
    )
    store.seat(seated)
    return seated


def rate(store: LadderStore, n: int, pool: str, mu: float, sigma: float) -> Change:
    account_id = f"acct{n:03d}"
    before = store.rating(account_id, pool) or Rating(account_id, pool, 25.0, 25 / 3, 0)
    after = Rating(account_id, pool, mu, sigma, before.games + 1)
    return Change(account_id, f"Player{n}", 1, before, after)


def settled(
    store: LadderStore, table: Table, at: float, ratings: dict[int, tuple[float, float]]
) -> Result:
    changes = tuple(rate(store, n, table.pool, mu, sigma) for n, (mu, sigma) in ratings.items())
    changes = tuple(replace(c, place=i) for i, c in enumerate(changes, 1))
    result = Result(table.table_id, table.game_uuid or "", table.pool, at, changes)
    store.settle(result)
    return result


# ---------------------------------------------------------------------------- accounts


def test_an_account_is_found_by_its_secret_its_handle_and_its_id(store: LadderStore) -> None:
    (made,) = make(store, 1)

    assert store.account_by_secret("sha256:secret1") == made
    assert store.account_by_handle("player1") == made
    assert store.account("acct001") == made
    assert made.state == IDLE
    assert store.account_by_secret("sha256:nothing") is None
    assert store.account_by_handle("nobody") is None
    assert store.account("acct999") is None


def test_a_taken_handle_key_refuses_the_whole_account(store: LadderStore) -> None:
    make(store, 1)
    twin = replace(account(2), handle="PLAYER1", handle_key="player1")

    with pytest.raises(LadderConflict):
        store.create_account(twin)

    assert store.account("acct002") is None
    assert store.account_by_secret(twin.secret_hash) is None  # its secret was not kept
    assert store.account_by_handle("player1") == account(1)


# ---------------------------------------------------------------------------- the queue


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


# ---------------------------------------------------------------------------- tables


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


# ---------------------------------------------------------------------------- results


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


# ---------------------------------------------------------------------------- boards


def board_of(store: LadderStore, ordinals: dict[int, float], pool: str = POOL) -> None:
    """Accounts rated so that each one's ordinal is the one given (sigma 1: mu = o + 3)."""
    for i, (n, value) in enumerate(ordinals.items()):
        make(store, n)
        table = played(store, f"b{n}", n, game=f"gb{n}")
        settled(store, table, T0 + 2000 + i, {n: (value + 3.0, 1.0)})


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


# ---------------------------------------------------------------------------- DynamoDB only


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


# ---------------------------------------------------------------------- allowances


def test_an_allowance_counts_up_to_its_limit_per_key_and_window(store: LadderStore) -> None:
    def take(key: str, window: int) -> bool:
        return store.take_allowance(key, window, 3, now=T0, expires_at=T0 + 3600)

    assert [take("accounts/10.0.0.1", 7) for _ in range(5)] == [True, True, True, False, False]
    assert take("accounts/10.0.0.2", 7)  # another address: its own count
    assert take("accounts/10.0.0.1", 8)  # the next window: a new count


def test_racing_takers_never_count_past_the_limit(store: LadderStore) -> None:
    taken: list[bool] = []
    lock = threading.Lock()

    def taker() -> None:
        for _ in range(5):
            got = store.take_allowance("accounts/10.0.0.9", 1, 7, now=T0, expires_at=T0 + 60)
            with lock:
                taken.append(got)

    threads = [threading.Thread(target=taker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert taken.count(True) == 7
    assert len(taken) == 20
