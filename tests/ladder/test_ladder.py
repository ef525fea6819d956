"""Accounts, the queue and its matcher, rated results, boards and profiles, as a player and
as an adversary would use them (the use cases, on each ladder store)."""

from __future__ import annotations

import json
import random
import tempfile
from contextlib import ExitStack
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.config.settings import Settings
from app.ladder import rating as model
from app.ladder.errors import (
    AlreadyAtTable,
    HandleTaken,
    InvalidHandle,
    TooManyAccounts,
    UnknownAccount,
    UnknownPool,
)
from app.ladder.service import Ladder, secret_hash
from app.ladder.sqlite.store import LadderSqlite
from app.ladder.store import LadderStore, Rating
from app.service import GameService
from app.service.errors import CredentialsMissing, InvalidParameter, ProfaneNickname
from engine.dealing import seed_sequence
from tests.ladder.contract import waited
from tests.reliability.history import play_to_the_end
from tests.support.clock import FakeClock
from tests.support.ladder_dynamo import moto_ladder
from tests.support.ladder_memory import LadderMemory
from tests.support.memory_store import MemoryStore

TWO = "standard-2"
MANY = "standard-3-8"


def accounts(ladder: Ladder, *handles: str) -> dict[str, str]:
    return {h: ladder.create_account(h)["secret"] for h in handles}


def seated(
    ladder: Ladder, secrets: dict[str, str], pool: str, fake: FakeClock | None = None
) -> tuple[str, dict[str, str]]:
    """Queue every account in ``pool``, match (after waiting long enough for any rating
    gap, with ``fake``), and return the game and its players' UUIDs."""
    for secret in secrets.values():
        ladder.join_queue(secret, pool)
    if fake is not None:
        waited(ladder, fake, 600, *secrets.values())
    ladder.match()
    statuses = {h: ladder.queue_status(s) for h, s in secrets.items()}
    games = {s.get("game_uuid") for s in statuses.values()}
    assert len(games) == 1, statuses
    return games.pop(), {h: s["player_uuid"] for h, s in statuses.items()}


# ------------------------------------------------------------------ accounts


def test_an_account_is_made_with_a_handle_and_its_secret_is_told_once_and_stored_hashed(
    ladder: Ladder,
) -> None:
    made = ladder.create_account("Ania")
    assert set(made) == {"account_id", "handle", "secret"} and made["handle"] == "Ania"
    assert len(made["secret"]) >= 40
    stored = ladder.store.account(made["account_id"])
    assert stored is not None and made["secret"] not in repr(stored)
    assert stored.secret_hash == secret_hash(made["secret"])
    assert ladder.me(made["secret"]) == {
        "account_id": made["account_id"],
        "handle": "Ania",
        "bot": False,
    }


def test_a_handle_is_taken_in_any_case_and_refused_with_a_clear_error(ladder: Ladder) -> None:
    ladder.create_account("Bartek")
    with pytest.raises(HandleTaken):
        ladder.create_account("bARTEK")


@pytest.mark.parametrize(
    ("taken", "look_alike"),
    [
        ("Kasia", "K\u0430sia"),  # a Cyrillic a
        ("Kasia", "\uff2basia"),  # a full-width K
        ("Kasia", "KASlA"),  # upper case, a small L for the I
        ("Bolek", "B\u043el\u0435k"),  # Cyrillic o and e
    ],
)
def test_a_handle_that_looks_like_a_taken_one_is_refused(
    ladder: Ladder, taken: str, look_alike: str
) -> None:
    ladder.create_account(taken)
    with pytest.raises(HandleTaken):
        ladder.create_account(look_alike)


def test_handles_that_only_differ_by_look_alike_free_letters_stay_free(ladder: Ladder) -> None:
    for handle in ("Kasia", "Kasja", "Basia", "Lolek", "Bolek"):
        assert ladder.create_account(handle)["handle"] == handle


@pytest.mark.parametrize("handle", [None, 7])
def test_a_handle_that_is_not_text_is_refused_naming_handle(ladder: Ladder, handle: object) -> None:
    with pytest.raises(InvalidParameter) as refused:
        ladder.create_account(handle)
    assert "'handle'" in refused.value.message


@pytest.mark.parametrize(
    ("handle", "rule"),
    [
        ("", "empty"),
        ("9lives", "first_letter"),
        ("a b", "space"),
        ("y" * 99, "too_long"),
        ("__y", "first_letter"),
        ("y__y", "double_underscore"),
    ],
)
def test_a_handle_that_breaks_a_rule_is_refused_naming_the_rule(
    ladder: Ladder, handle: str, rule: str
) -> None:
    with pytest.raises(InvalidHandle) as refused:
        ladder.create_account(handle)
    assert refused.value.rule == rule


def test_a_rude_handle_is_refused_as_a_rude_nickname_is(ladder: Ladder) -> None:
    with pytest.raises(ProfaneNickname):
        ladder.create_account("fuck")


@pytest.mark.parametrize("secret", [None, "", "nope", "x" * 43])
def test_a_missing_or_unknown_secret_authenticates_nobody(
    ladder: Ladder, secret: str | None
) -> None:
    ladder.create_account("Celina")
    with pytest.raises((CredentialsMissing, UnknownAccount)):
        ladder.queue_status(secret)


# ------------------------------------------------------------------ the queue


def test_two_accounts_in_the_two_player_pool_are_seated_at_one_started_game_by_their_handles(
    ladder: Ladder, games: GameService
) -> None:
    secrets = accounts(ladder, "Ania", "Bolek")
    game, players = seated(ladder, secrets, TWO)
    state = games.state(game, players["Ania"]).body
    assert state["status"] == "Running"
    assert sorted(p["nickname"] for p in state["players"]) == ["Ania", "Bolek"]
    assert players["Ania"] != players["Bolek"]
    assert games.store.load(game).time_limit == 60  # type: ignore[union-attr]


def test_one_account_waiting_alone_waits_and_can_leave(ladder: Ladder) -> None:
    secret = accounts(ladder, "Ania")["Ania"]
    assert ladder.join_queue(secret, TWO)["state"] == "waiting"
    assert ladder.join_queue(secret, TWO)["state"] == "waiting"  # again: no change
    assert ladder.match() == []
    assert ladder.leave_queue(secret)["state"] == "idle"
    assert ladder.store.waiting(TWO) == []


def test_an_account_that_left_the_queue_is_never_seated(ladder: Ladder) -> None:
    secrets = accounts(ladder, "Ania", "Bolek")
    ladder.join_queue(secrets["Ania"], TWO)
    ladder.leave_queue(secrets["Ania"])
    ladder.join_queue(secrets["Bolek"], TWO)
    assert ladder.match() == []
    assert ladder.queue_status(secrets["Ania"])["state"] == "idle"


def test_a_leave_that_comes_after_the_seating_says_you_are_seated(ladder: Ladder) -> None:
    secrets = accounts(ladder, "Ania", "Bolek")
    seated(ladder, secrets, TWO)
    assert ladder.leave_queue(secrets["Ania"])["state"] == "seated"


def test_a_seated_account_cannot_queue_again_until_its_game_is_over(
    ladder: Ladder, games: GameService
) -> None:
    secrets = accounts(ladder, "Ania", "Bolek")
    game, players = seated(ladder, secrets, TWO)
    with pytest.raises(AlreadyAtTable):
        ladder.join_queue(secrets["Ania"], MANY)
    games.resign(game, players["Bolek"])
    assert ladder.join_queue(secrets["Ania"], MANY)["state"] == "waiting"


def test_an_unknown_pool_is_refused_with_the_list_of_pools(ladder: Ladder) -> None:
    secret = accounts(ladder, "Ania")["Ania"]
    with pytest.raises(UnknownPool) as refused:
        ladder.join_queue(secret, "blitz")
    assert "standard-2" in refused.value.message


def test_far_apart_ratings_wait_then_meet_as_the_window_widens(
    ladder: Ladder, fake: FakeClock
) -> None:
    secrets = accounts(ladder, "Ania", "Bolek")
    ladder.join_queue(secrets["Ania"], TWO)
    ladder.join_queue(secrets["Bolek"], TWO)
    waiting = ladder.store.waiting(TWO)
    # Bolek's rating is 20 mu above Ania's: put it so in the queue's copy.
    ladder.store.dequeue(waiting[1].account_id)
    ladder.store.enqueue(waiting[1].account_id, TWO, "t", fake.now, model.MU + 20)
    assert ladder.match() == []
    waited(ladder, fake, 100, *secrets.values())  # windows of 13: not yet
    assert ladder.match() == []
    waited(ladder, fake, 80, *secrets.values())  # windows of 21
    assert len(ladder.match()) == 1


def test_a_long_wait_is_not_starved_by_newcomers_who_match_each_other(
    ladder: Ladder, fake: FakeClock
) -> None:
    """Someone far from everyone's rating waits until their window covers a newcomer; from
    then on the newcomers who keep requeueing near each other do not jump ahead of them."""
    secrets = accounts(ladder, "Ania", "Bolek", "Cezary")
    ladder.join_queue(secrets["Ania"], TWO)
    (far,) = ladder.store.waiting(TWO)
    ladder.store.dequeue(far.account_id)
    ladder.store.enqueue(far.account_id, TWO, "t", fake.now, model.MU + 20)
    waited(ladder, fake, 180, secrets["Ania"])  # Ania's window: 21
    ladder.join_queue(secrets["Bolek"], TWO)
    fake.advance(1)
    ladder.join_queue(secrets["Cezary"], TWO)

    (table,) = ladder.match()

    assert far.account_id in {seat.account_id for seat in table.seats}
    (left,) = ladder.store.waiting(TWO)
    assert left.handle == "Cezary"


def test_the_many_player_pool_seats_everyone_compatible_up_to_eight(ladder: Ladder) -> None:
    secrets = accounts(ladder, *[f"p{c}" for c in "abcdefghij"])
    for secret in secrets.values():
        ladder.join_queue(secret, MANY)
    tables = ladder.match()
    assert [len(t.seats) for t in tables] == [8]  # the two left cannot make a table of 3
    assert len(ladder.store.waiting(MANY)) == 2


# ------------------------------------------------------------------ rated results


def test_a_finished_rated_game_is_rated_once_whatever_repeats_it(
    ladder: Ladder, games: GameService
) -> None:
    secrets = accounts(ladder, "Ania", "Bolek")
    game, players = seated(ladder, secrets, TWO)
    play_to_the_end(games, game, players)
    ladder.tick()  # heard of the game over: settled
    winner = games.record(game)["winner"]
    loser = "Bolek" if winner == "Ania" else "Ania"
    table_id = (
        ladder.store.open_tables() == []
        and ladder.store.history(ladder.me(secrets[winner])["account_id"], 5)[0].table_id
    )
    assert table_id
    again = ladder.settle(table_id)
    ladder.settle_finished(everything=True)
    assert again is not None and len(ladder.store.results(TWO)) == 1
    won = ladder.queue_status(secrets[winner])["last_result"]
    lost = ladder.queue_status(secrets[loser])["last_result"]
    assert (won["place"], lost["place"]) == (1, 2)
    assert won["change"] > 0 > lost["change"]
    assert won["game_uuid"] == game
    rating = ladder.store.rating(ladder.me(secrets[winner])["account_id"], TWO)
    assert rating is not None and rating.games == 1


def test_resigning_is_going_out_at_that_moment(ladder: Ladder, games: GameService) -> None:
    secrets = accounts(ladder, "Ania", "Bolek", "Cezary")
    game, players = seated(ladder, secrets, MANY)
    games.resign(game, players["Cezary"])  # out first: third
    games.resign(game, players["Bolek"])  # then second; Ania wins
    ladder.tick()
    assert [ladder.queue_status(secrets[h])["last_result"]["place"] for h in secrets] == [1, 2, 3]


def test_a_player_whose_seat_moved_to_another_device_is_still_rated_by_their_place(
    ladder: Ladder, games: GameService
) -> None:
    secrets = accounts(ladder, "Ania", "Bolek", "Cezary")
    game, players = seated(ladder, secrets, MANY)
    moved = games.move_seat(game, players["Bolek"])["player_uuid"]  # Bolek's phone
    moved_again = games.move_seat(game, moved)["player_uuid"]  # and back to a laptop
    games.resign(game, players["Cezary"])  # out first: third
    games.resign(game, moved_again)  # then Bolek, from the seat's third secret: second
    ladder.tick()
    places = [ladder.queue_status(secrets[h])["last_result"]["place"] for h in secrets]
    assert places == [1, 2, 3]


def test_an_account_whose_seat_moved_still_reads_its_events_without_the_retired_secret(
    ladder: Ladder, games: GameService
) -> None:
    secrets = accounts(ladder, "Ania", "Bolek")
    game, players = seated(ladder, secrets, TWO)
    first = ladder.events(secrets["Bolek"], None)
    started = [e for e in first["events"] if e["type"] == "game_started"]
    assert [e["player_uuid"] for e in started] == [players["Bolek"]]
    moved = games.move_seat(game, players["Bolek"])["player_uuid"]  # Bolek's phone
    again = ladder.events(secrets["Bolek"], None)  # from the start: told its seat again
    told = [e.get("player_uuid") for e in again["events"]]
    assert players["Bolek"] not in told  # the retired secret is never handed out again
    assert moved not in told  # nor the new one: only the phone that took the seat holds it
    assert again["events"][0]["type"] == "game_started"
    assert again["events"][0]["seat_moved"] is True


def test_the_queue_never_tells_a_seat_s_retired_secret_once_the_seat_moved_to_another_device(
    ladder: Ladder, games: GameService
) -> None:
    secrets = accounts(ladder, "Ania", "Bolek")
    game, players = seated(ladder, secrets, TWO)
    phone = games.move_seat(game, players["Bolek"])["player_uuid"]  # Bolek's phone
    laptop = games.move_seat(game, phone)["player_uuid"]  # and on to a laptop
    for status in (ladder.queue_status(secrets["Bolek"]), ladder.leave_queue(secrets["Bolek"])):
        assert status["state"] == "seated" and status["game_uuid"] == game
        assert status["seat_moved"] is True and "player_uuid" not in status
        told = json.dumps(status)
        assert players["Bolek"] not in told and phone not in told and laptop not in told
    # The seat is played from the laptop: the retired secrets open nothing there.
    assert games.state(game, laptop).body["you"] == "Bolek"
    # Another account at the table is told its own seat, never one of Bolek's secrets.
    ania = ladder.queue_status(secrets["Ania"])
    assert ania["player_uuid"] == players["Ania"] and "seat_moved" not in ania
    assert not {players["Bolek"], phone, laptop} & set(json.dumps(ania).split('"'))


def test_a_seat_never_moved_is_told_its_secret_by_the_queue(ladder: Ladder) -> None:
    secrets = accounts(ladder, "Ania", "Bolek")
    _game, players = seated(ladder, secrets, TWO)
    for handle, secret in secrets.items():
        status = ladder.queue_status(secret)
        assert status["player_uuid"] == players[handle] and "seat_moved" not in status


def test_a_game_not_over_is_not_settled(ladder: Ladder) -> None:
    secrets = accounts(ladder, "Ania", "Bolek")
    seated(ladder, secrets, TWO)
    (table,) = ladder.store.open_tables()
    assert ladder.settle(table.table_id) is None
    assert ladder.store.results(TWO) == []


@pytest.mark.parametrize("kind", ["sqlite", "dynamo", "memory"])
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**16), rounds=st.integers(2, 6))
def test_the_ratings_recomputed_from_the_stored_results_equal_the_stored_ones(
    kind: str, seed: int, rounds: int
) -> None:
    rng = random.Random(seed)
    fake = FakeClock()
    games = GameService(
        MemoryStore(clock=fake),
        Settings(ai_think_seconds=0, run_clock=False),
        clock=fake,
        seed_source=seed_sequence(seed),
    )
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        store: LadderStore = (
            LadderSqlite(Path(folder) / "l.db")
            if kind == "sqlite"
            else stack.enter_context(moto_ladder())
            if kind == "dynamo"
            else LadderMemory()
        )
        ladder = Ladder(store, games, clock=fake)
        games.subscribe(ladder.notice)
        secrets = accounts(ladder, *[f"p{i}" for i in range(4)])
        for _ in range(rounds):
            pool = rng.choice([TWO, MANY])
            size = 2 if pool == TWO else rng.randint(3, 4)
            chosen = dict(rng.sample(sorted(secrets.items()), size))
            game, players = seated(ladder, chosen, pool, fake)
            play_to_the_end(games, game, players, rng)
            ladder.tick()
        for pool in (TWO, MANY):
            replayed: dict[str, Rating] = {}
            for result in store.results(pool):
                before = [
                    replayed.get(c.account_id) or model.initial(c.account_id, pool)
                    for c in result.changes
                ]
                for rating in model.rate(before, [c.place for c in result.changes]):
                    replayed[rating.account_id] = rating
            for account_id, rating in replayed.items():
                assert store.rating(account_id, pool) == rating
            assert sum(r.games for r in replayed.values()) == sum(
                len(r.changes) for r in store.results(pool)
            )
        store.close()


# ------------------------------------------------------------------ boards and profiles


def test_the_board_and_a_profile_show_handles_ratings_and_games_but_no_secret(
    ladder: Ladder, games: GameService
) -> None:
    secrets = accounts(ladder, "Ania", "Bolek", "Celina")
    game, players = seated(ladder, {h: secrets[h] for h in ("Ania", "Bolek")}, TWO)
    play_to_the_end(games, game, players)
    ladder.tick()
    board = ladder.leaderboard(TWO, None, secrets["Celina"])
    assert [row["rank"] for row in board["players"]] == [1, 2]
    assert board["you"] == {"handle": "Celina", "bot": False, "rank": None, "rated": False}
    winner = games.record(game)["winner"]
    assert board["players"][0]["handle"] == winner
    profile = ladder.profile(winner.upper())
    assert profile["games"][0]["game_uuid"] == game and profile["games"][0]["place"] == 1
    assert profile["ratings"][0]["rank"] == 1 and profile["ratings"][0]["provisional"]
    shown = json.dumps([board, profile, ladder.leaderboard(TWO, 5, secrets["Ania"])])
    for secret in [*secrets.values(), *players.values()]:
        assert secret not in shown
    for account in ("Ania", "Bolek"):
        assert ladder.me(secrets[account])["account_id"] not in shown


@pytest.mark.parametrize("limit", [0, 101, -1, "10", True, 2.5])
def test_a_board_limit_out_of_bounds_is_refused(ladder: Ladder, limit: object) -> None:
    with pytest.raises(InvalidParameter):
        ladder.leaderboard(TWO, limit, None)


def test_an_address_makes_twenty_accounts_an_hour_and_is_told_when_it_may_again(
    ladder: Ladder, fake: FakeClock
) -> None:
    fake.advance(3600 - fake.now % 3600 + 600)  # ten minutes into an hour
    for i in range(20):
        ladder.create_account(f"Batch{i}", address="192.0.2.1")
    with pytest.raises(TooManyAccounts) as refused:
        ladder.create_account("Batch20", address="192.0.2.1")
    assert refused.value.retry_after == 3000
    assert ladder.store.account_by_handle("batch20") is None
    ladder.create_account("Elsewhere", address="192.0.2.2")
    fake.advance(3000)
    ladder.create_account("Batch20", address="192.0.2.1")
