"""What the ladder store's contract suites (tests/ladder/test_store_<section>.py) share: the
stores they run on and the helpers that drive the protocol as the service does."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from app.ladder.store import (
    Account,
    Change,
    LadderStore,
    Rating,
    Result,
    Seat,
    Table,
)

if TYPE_CHECKING:
    from app.ladder.service import Ladder
    from tests.support.clock import FakeClock

T0 = 1_700_000_000.0
POOL = "standard-2"
OTHER = "standard-3-8"
STORES = ["sqlite", "dynamo", "memory"]


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


def board_of(store: LadderStore, ordinals: dict[int, float], pool: str = POOL) -> None:
    """Accounts rated so that each one's ordinal is the one given (sigma 1: mu = o + 3)."""
    for i, (n, value) in enumerate(ordinals.items()):
        make(store, n)
        table = played(store, f"b{n}", n, game=f"gb{n}")
        settled(store, table, T0 + 2000 + i, {n: (value + 3.0, 1.0)})


def named(store: LadderStore, name: str) -> Account:
    made = Account(f"id-{name}", name, name.casefold(), f"sha256:{name}", 1.0)
    store.create_account(made)
    return made


def rated(store: LadderStore, who: Account, mu: float, sigma: float, pool: str = POOL) -> None:
    """Give ``who`` a rating in ``pool`` the way the ladder does: queued, seated at a table
    of one, settled."""
    ticket = f"t-{who.account_id}-{pool}"
    store.enqueue(who.account_id, pool, ticket, 1.0, 25.0)
    table = Table(f"tb-{who.account_id}-{pool}", pool, (Seat(who.account_id, who.handle),), 1.0)
    store.claim(table, {who.account_id: ticket})
    store.seat(replace(table, state="playing", game_uuid=f"g-{who.account_id}"))
    before = store.rating(who.account_id, pool) or Rating(who.account_id, pool, 25.0, 8.0, 0)
    after = Rating(who.account_id, pool, mu, sigma, before.games + 1)
    store.settle(
        Result(
            table.table_id,
            f"g-{who.account_id}",
            pool,
            2.0,
            (Change(who.account_id, who.handle, 1, before, after),),
        )
    )


def shared_game(store: LadderStore, a: Account, b: Account) -> Result:
    for who in (a, b):
        store.enqueue(who.account_id, POOL, f"t-{who.account_id}", 1.0, 25.0)
    table = Table("shared", POOL, (Seat(a.account_id, a.handle), Seat(b.account_id, b.handle)), 1)
    store.claim(table, {a.account_id: f"t-{a.account_id}", b.account_id: f"t-{b.account_id}"})
    store.seat(replace(table, state="playing", game_uuid="g-shared"))
    result = Result(
        "shared",
        "g-shared",
        POOL,
        2.0,
        tuple(
            Change(
                w.account_id,
                w.handle,
                place,
                Rating(w.account_id, POOL, 25.0, 8.0, 0),
                Rating(w.account_id, POOL, 25.0 + 3 - place, 7.0, 1),
            )
            for place, w in ((1, a), (2, b))
        ),
    )
    store.settle(result)
    return result


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
            replace(s, player_uuid=f"p-{s.account_id}") if s.agent is None else s
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


def waited(ladder: Ladder, clock: FakeClock, seconds: float, *secrets: str) -> None:
    """``seconds`` pass while the accounts of ``secrets`` are there: each asks about its
    place every few seconds, as a waiting page (every second) or a bot's events poll does
    (a place not renewed in time is dropped: app/ladder/base.py ``ABSENT_SECONDS``)."""
    step = 19.0  # within the 20 s grace
    left = seconds
    while left > 0:
        clock.advance(min(step, left))
        left -= step
        for secret in secrets:
            ladder.queue_status(secret)
