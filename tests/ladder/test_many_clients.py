"""Many clients at once against a served ``blef serve`` app (its clock thread running the
matcher and the computer levels' moves): people and bots from several loopback addresses
queue in both pools, leave and queue again, some people allow computer levels to fill
their table, and each plays what it is seated at (a few random moves, then it resigns).
Afterwards: nobody sat at two tables at once, no account twice at a table, every table
settled once, nobody left waiting who could be seated, and the ratings recomputed apart
from the project from the stored results are the stored ones."""

from __future__ import annotations

import itertools
import random
import threading
import time
from typing import Any

import httpx

from app.ladder.pools import BY_NAME
from app.ladder.service import Ladder, pick_table
from tests.ladder.recompute import assert_ratings_recomputed

ADDRESSES = ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5")
PER_ADDRESS = 4
SESSIONS = 3
BLEF_POOLS = [name for name, pool in BY_NAME.items() if pool.blef]
"""The pools these clients play: Blef's (they bet and resign; other games' pools have tests
of their own, tests/ladder/test_kind_pools_http.py)."""


def client(base: str, address: str, index: int, errors: list[str]) -> None:
    rng = random.Random(hash((address, index)))
    http = httpx.Client(
        base_url=base, transport=httpx.HTTPTransport(local_address=address), timeout=40
    )
    try:
        handle = f"C{address.rsplit('.', 1)[1]}x{index}"
        made = http.post("/ladder/accounts", json={"handle": handle})
        assert made.status_code == 201, made.text
        me = {"Authorization": f"Bearer {made.json()['secret']}"}
        bot = index % 2 == 1
        if bot:
            assert http.post("/ladder/me/bot", headers=me).json()["bot"] is True
        cursor = http.get("/ladder/events?wait=0", headers=me).json()["cursor"]
        for _ in range(SESSIONS):
            body: dict[str, Any] = {"pool": rng.choice(BLEF_POOLS)}
            if not bot and rng.random() < 0.5:
                body["fill_after"] = rng.choice([0, 1, 2])
            joined = http.post("/ladder/queue", json=body, headers=me)
            assert joined.status_code in (200, 409), joined.text
            if rng.random() < 0.3:  # changes its mind, maybe too late
                left = http.delete("/ladder/queue", headers=me).json()
                if left["state"] == "idle":
                    continue
            moves = rng.randrange(0, 4)
            over = False
            while not over:
                answer = http.get(
                    "/ladder/events", params={"after": cursor, "wait": 3}, headers=me
                ).json()
                cursor = answer["cursor"]
                for event in answer["events"]:
                    if event["type"] == "your_turn":
                        seat = {"Authorization": f"Bearer {event['player_uuid']}"}
                        game = event["game_uuid"]
                        if moves > 0:
                            moves -= 1
                            action = rng.choice(event["state"]["legal_actions"])
                            http.post(
                                f"/games/{game}/play", json={"action_id": action}, headers=seat
                            )
                        else:
                            http.post(f"/games/{game}/resign", headers=seat)
                    elif event["type"] == "game_over":
                        over = True
                if not answer["events"]:  # nobody to play with: go
                    status = http.delete("/ladder/queue", headers=me).json()
                    over = status["state"] == "idle"
    except Exception as error:
        errors.append(f"{address}#{index}: {error!r}")
    finally:
        http.close()


def alone_with_computers(base: str) -> str:
    """A person from another address queues alone in the many-player pool, letting
    computer levels fill the table at once, and resigns when first to move; the game."""
    with httpx.Client(
        base_url=base, transport=httpx.HTTPTransport(local_address="127.0.0.9"), timeout=40
    ) as http:
        made = http.post("/ladder/accounts", json={"handle": "Samotna"}).json()
        me = {"Authorization": f"Bearer {made['secret']}"}
        cursor = http.get("/ladder/events?wait=0", headers=me).json()["cursor"]
        joined = http.post(
            "/ladder/queue", json={"pool": "standard-3-8", "fill_after": 0}, headers=me
        )
        assert joined.status_code == 200, joined.text
        game = None
        for _ in range(40):
            answer = http.get(
                "/ladder/events", params={"after": cursor, "wait": 3}, headers=me
            ).json()
            cursor = answer["cursor"]
            for event in answer["events"]:
                if event["type"] == "game_started":
                    game = event["game_uuid"]
                elif event["type"] == "your_turn":
                    seat = {"Authorization": f"Bearer {event['player_uuid']}"}
                    http.post(f"/games/{event['game_uuid']}/resign", headers=seat)
                elif event["type"] == "game_over":
                    assert game is not None
                    return game
        raise AssertionError("the person alone was never seated with computers, or never told")


def test_many_people_and_bots_from_several_addresses_are_seated_once_and_rated_once(
    server: tuple[str, Ladder],
) -> None:
    base, ladder = server
    errors: list[str] = []
    threads = [
        threading.Thread(target=client, args=(base, address, i, errors))
        for address in ADDRESSES
        for i in range(PER_ADDRESS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert errors == []
    assert not any(t.is_alive() for t in threads)
    # Whatever the race gave, a person left alone who lets computers fill at once is seated
    # with them, plays it out, and is rated with them.
    filled = alone_with_computers(base)
    deadline = time.monotonic() + 60
    while ladder.store.open_tables() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ladder.store.open_tables() == []

    store = ladder.store
    spans: dict[str, list[tuple[float, float]]] = {}
    tables = 0
    for pool in BY_NAME:
        results = store.results(pool)
        assert len({r.table_id for r in results}) == len(results)  # each settled once
        for result in results:
            table = store.table(result.table_id)
            assert table is not None and table.state == "settled"
            ids = [s.account_id for s in table.seats]
            assert len(ids) == len(set(ids)), "an account twice at one table"
            assert BY_NAME[pool].min_players <= len(ids) <= BY_NAME[pool].max_players
            tables += 1
            for seat in table.seats:
                if seat.agent is None:  # a computer level sits at many tables at once
                    spans.setdefault(seat.account_id, []).append(
                        (table.formed_at, result.settled_at)
                    )
        assert_ratings_recomputed(store, pool)
        assert pick_table(store.waiting(pool), BY_NAME[pool], ladder.now) is None
    assert tables >= 4
    (last,) = [r for r in store.results("standard-3-8") if r.game_uuid == filled]
    table = store.table(last.table_id)
    assert table is not None
    assert sum(seat.agent is not None for seat in table.seats) == 2
    assert len(last.changes) == 3  # the person and both levels, rated
    for account_id, seen in spans.items():
        seen.sort()
        for (_, ended), (started, _) in itertools.pairwise(seen):
            assert ended <= started, f"{account_id} sat at two tables at once"
