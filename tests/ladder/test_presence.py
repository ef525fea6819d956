"""Presence in the quick-play queue and at a rated table, as a person and as an adversary
would use it, on each ladder store with a clock the test moves: a place lives while its
account asks about it; a table whose person never comes is called off, unrated; a Cancel
that comes after the table formed says so in words."""

from __future__ import annotations

import threading

import pytest

from app.ladder.base import ABSENT_SECONDS, ARRIVE_SECONDS, RENEW_SECONDS, secret_hash
from app.ladder.errors import UnknownAccount
from app.ladder.service import Ladder
from app.ladder.store import IDLE, QUEUED, LadderStore
from app.service import GameService
from tests.support.clock import FakeClock

TWO = "standard-2"
MANY = "standard-3-8"


def accounts(ladder: Ladder, *handles: str) -> dict[str, str]:
    return {h: ladder.create_account(h)["secret"] for h in handles}


def wait(ladder: Ladder, fake: FakeClock, seconds: float, *present: str, step: float = 1.0) -> None:
    """``seconds`` pass; the pages of ``present`` (secrets) ask about their place every
    ``step`` seconds, as the waiting page does."""
    left = seconds
    while left > 0:
        fake.advance(min(step, left))
        left -= step
        for secret in present:
            ladder.queue_status(secret)


def state_of(ladder: Ladder, secret: str) -> str:
    account = ladder.store.account_by_secret(secret_hash(secret))
    assert account is not None
    return account.state


class CountingStore:
    """A ladder store that counts the renewals that wrote (everything else passes)."""

    def __init__(self, inner: LadderStore) -> None:
        self.inner = inner
        self.written = 0

    def renew(self, account_id: str, pool: str, ticket: str, at: float, every: float) -> bool:
        wrote = self.inner.renew(account_id, pool, ticket, at, every)
        self.written += wrote
        return wrote

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


# ---------------------------------------------------------------------- the queue


def test_a_person_whose_page_keeps_asking_keeps_their_place_however_long_they_wait(
    ladder: Ladder, fake: FakeClock
) -> None:
    s = accounts(ladder, "Ania")
    ladder.join_queue(s["Ania"], TWO)

    wait(ladder, fake, 300, s["Ania"], step=2.0)
    ladder.match()

    status = ladder.queue_status(s["Ania"])
    assert status["state"] == "waiting" and status["waited_seconds"] == 300.0


def test_a_page_closed_while_waiting_leaves_the_queue_and_is_never_seated(
    ladder: Ladder, fake: FakeClock
) -> None:
    s = accounts(ladder, "Celina", "Bartek")
    ladder.join_queue(s["Celina"], TWO)
    fake.advance(2)  # Celina closes the tab: her page asks no more

    wait(ladder, fake, ABSENT_SECONDS, step=1.0)
    ladder.join_queue(s["Bartek"], TWO)
    assert ladder.match() == []

    assert state_of(ladder, s["Celina"]) == IDLE
    assert ladder.queue_status(s["Bartek"])["state"] == "waiting"
    celina = ladder.queue_status(s["Celina"])  # she comes back: the truth, not "Looking…"
    assert celina["state"] == "idle"


def test_a_place_is_kept_just_within_the_grace_and_dropped_just_after(
    ladder: Ladder, fake: FakeClock
) -> None:
    s = accounts(ladder, "Ania")
    ladder.join_queue(s["Ania"], TWO)
    fake.advance(ABSENT_SECONDS)
    ladder.match()
    assert state_of(ladder, s["Ania"]) == QUEUED, "not renewed for exactly the grace: kept"
    fake.advance(0.1)
    ladder.match()
    assert state_of(ladder, s["Ania"]) == IDLE


def test_two_present_people_are_seated_and_an_absent_third_is_not_in_the_big_pool(
    ladder: Ladder, fake: FakeClock
) -> None:
    s = accounts(ladder, "Ania", "Bolek", "Cezary", "Dorota")
    for handle in s:
        ladder.join_queue(s[handle], MANY)
    wait(ladder, fake, ABSENT_SECONDS + 1, s["Ania"], s["Bolek"], s["Cezary"])

    (table,) = ladder.match()

    assert sorted(seat.handle for seat in table.seats) == ["Ania", "Bolek", "Cezary"]
    assert state_of(ladder, s["Dorota"]) == IDLE


def test_a_bot_polling_its_events_keeps_its_place(ladder: Ladder, fake: FakeClock) -> None:
    s = accounts(ladder, "Robo")
    ladder.become_bot(s["Robo"])
    ladder.join_queue(s["Robo"], TWO)
    cursor = None
    for _ in range(12):  # a long-poll's recheck every 5 s
        fake.advance(5)
        cursor = ladder.events(s["Robo"], cursor)["cursor"]
        ladder.match()
    assert state_of(ladder, s["Robo"]) == QUEUED


def test_asking_again_does_not_move_you_ahead_and_a_flood_writes_once_per_interval(
    ladder_store: LadderStore, games: GameService, fake: FakeClock
) -> None:
    counting = CountingStore(ladder_store)
    ladder = Ladder(counting, games, clock=fake)  # type: ignore[arg-type]
    s = accounts(ladder, "Ania", "Flooder")
    ladder.join_queue(s["Ania"], TWO)
    fake.advance(1)
    ladder.join_queue(s["Flooder"], TWO)

    for _ in range(200):  # two hundred asks within one second
        fake.advance(0.005)
        ladder.queue_status(s["Flooder"])

    assert counting.written == 0, "joined 1 s ago: nothing to renew yet"
    wait(ladder, fake, 30, s["Flooder"], step=0.1)  # 300 asks in 30 s
    assert counting.written == pytest.approx(30 / RENEW_SECONDS, abs=1)
    assert [w.handle for w in ladder_store.waiting(TWO)] == ["Ania", "Flooder"], "not ahead"
    ladder.match()
    assert [w.handle for w in ladder_store.waiting(TWO)] == ["Flooder"], "Ania was away"
    assert ladder.queue_status(s["Flooder"])["waited_seconds"] == pytest.approx(31, abs=0.2)


def test_nobody_renews_a_place_that_is_not_theirs(ladder: Ladder, fake: FakeClock) -> None:
    s = accounts(ladder, "Ania", "Mallory")
    ladder.join_queue(s["Ania"], TWO)
    with pytest.raises(UnknownAccount):
        ladder.queue_status("made-up-secret")
    for _ in range(30):  # Mallory asks about her own place (she has none) every second
        fake.advance(1)
        ladder.queue_status(s["Mallory"])
        ladder.events(s["Mallory"], None)

    ladder.match()

    assert state_of(ladder, s["Ania"]) == IDLE
    assert state_of(ladder, s["Mallory"]) == IDLE, "asking never puts anyone in the queue"


def test_changing_the_fill_wait_while_waiting_keeps_the_place_and_counts_from_the_join(
    ladder: Ladder, fake: FakeClock
) -> None:
    s = accounts(ladder, "Ania", "Bolek")
    ladder.join_queue(s["Ania"], TWO)
    fake.advance(1)
    ladder.join_queue(s["Bolek"], TWO, 60)
    wait(ladder, fake, 10, s["Ania"], s["Bolek"])

    status = ladder.join_queue(s["Ania"], TWO, 30)

    assert status["fill_after"] == 30 and status["waited_seconds"] == 11.0
    assert [w.handle for w in ladder.store.waiting(TWO)] == ["Ania", "Bolek"]


def test_the_waiting_answer_says_how_many_look_in_the_pool(ladder: Ladder) -> None:
    s = accounts(ladder, "Ania", "Bolek", "Cezary")
    ladder.join_queue(s["Ania"], MANY)
    ladder.join_queue(s["Bolek"], MANY)
    ladder.join_queue(s["Cezary"], TWO)

    assert ladder.queue_status(s["Ania"])["looking"] == 2
    assert ladder.queue_status(s["Cezary"])["looking"] == 1


# ---------------------------------------------------------------------- at the table


def _matched(ladder: Ladder, s: dict[str, str], pool: str = TWO) -> None:
    for secret in s.values():
        ladder.join_queue(secret, pool)
    assert len(ladder.match()) == 1


def test_a_person_who_never_comes_to_the_table_has_it_called_off_unrated_for_everyone(
    ladder: Ladder, fake: FakeClock, games: GameService
) -> None:
    s = accounts(ladder, "Bartek", "Celina")
    _matched(ladder, s)
    bartek = ladder.queue_status(s["Bartek"])  # Bartek's page is told his seat; Celina's is gone
    assert bartek["state"] == "seated"

    fake.advance(ARRIVE_SECONDS - 1)
    ladder.match()
    assert ladder.queue_status(s["Bartek"])["state"] == "seated", "not yet"
    fake.advance(1)
    ladder.match()

    told = ladder.queue_status(s["Bartek"])
    assert told["state"] == "idle"
    assert told["last_result"] == {
        "game_uuid": bartek["game_uuid"],
        "pool": TWO,
        "void": True,
        "called_off": True,
        "absent": ["Celina"],
    }
    for handle in s:
        assert ladder.store.rating(ladder.me(s[handle])["account_id"], TWO) is None
    assert games.state(bartek["game_uuid"], bartek["player_uuid"]).body["status"] == "Finished"
    celina = ladder.queue_status(s["Celina"])  # she comes back: told, and free to look again
    assert celina["last_result"]["absent"] == ["Celina"]
    assert ladder.join_queue(s["Celina"], TWO)["state"] == "waiting"


def test_a_table_everyone_came_to_plays_on_and_is_rated(
    ladder: Ladder, fake: FakeClock, games: GameService
) -> None:
    s = accounts(ladder, "Ania", "Bolek")
    _matched(ladder, s)
    seats = {h: ladder.queue_status(secret) for h, secret in s.items()}

    fake.advance(ARRIVE_SECONDS * 4)
    ladder.match()

    for secret in s.values():
        assert ladder.queue_status(secret)["state"] == "seated"
    games.resign(seats["Ania"]["game_uuid"], seats["Ania"]["player_uuid"])
    ladder.settle_finished(everything=True)
    assert ladder.queue_status(s["Bolek"])["last_result"]["place"] == 1


def test_a_bot_told_its_seat_by_its_events_has_come(ladder: Ladder, fake: FakeClock) -> None:
    s = accounts(ladder, "Robo", "Ania")
    ladder.become_bot(s["Robo"])
    _matched(ladder, s)
    assert "game_started" in [e["type"] for e in ladder.events(s["Robo"], None)["events"]]
    ladder.queue_status(s["Ania"])

    fake.advance(ARRIVE_SECONDS + 1)
    ladder.match()

    assert ladder.queue_status(s["Robo"])["state"] == "seated"


def test_a_bot_that_never_polls_has_its_table_called_off_and_hears_it_in_its_events(
    ladder: Ladder, fake: FakeClock
) -> None:
    s = accounts(ladder, "Robo", "Ania")
    ladder.become_bot(s["Robo"])
    cursor = ladder.events(s["Robo"], None)["cursor"]
    _matched(ladder, s)
    ladder.queue_status(s["Ania"])

    fake.advance(ARRIVE_SECONDS + 1)
    ladder.match()

    events = ladder.events(s["Robo"], cursor)["events"]
    assert [(e["type"], e.get("called_off"), e.get("absent")) for e in events] == [
        ("game_over", True, ["Robo"])
    ]


def test_a_late_cancel_says_in_words_the_table_was_formed_and_leaves_the_seat_awaited(
    ladder: Ladder, fake: FakeClock
) -> None:
    s = accounts(ladder, "Ania", "Bolek")
    _matched(ladder, s)

    answer = ladder.leave_queue(s["Ania"])

    assert answer["state"] == "seated" and answer["too_late"] is True
    assert answer["message"].startswith("Too late to cancel: your table was formed")
    table = ladder.store.table_of_game(answer["game_uuid"])
    assert table is not None
    assert [s.awaited for s in table.seats if s.handle == "Ania"] == [True]


def test_a_cancel_before_the_match_leaves_and_says_nothing_of_a_table(ladder: Ladder) -> None:
    s = accounts(ladder, "Ania", "Bolek")
    ladder.join_queue(s["Ania"], TWO)

    answer = ladder.leave_queue(s["Ania"])
    ladder.join_queue(s["Bolek"], TWO)

    assert answer == {"state": "idle", "bot": False}
    assert ladder.match() == []


def test_a_late_canceller_who_then_opens_the_table_plays_it(
    ladder: Ladder, fake: FakeClock
) -> None:
    s = accounts(ladder, "Ania", "Bolek")
    _matched(ladder, s)
    ladder.leave_queue(s["Ania"])
    for secret in s.values():  # both pages are told their seats ("Go to your table")
        ladder.queue_status(secret)

    fake.advance(ARRIVE_SECONDS + 1)
    ladder.match()

    assert ladder.queue_status(s["Ania"])["state"] == "seated"


def test_a_table_settled_first_is_not_called_off_and_a_call_off_is_made_once(
    ladder: Ladder, fake: FakeClock, games: GameService
) -> None:
    s = accounts(ladder, "Ania", "Bolek")
    _matched(ladder, s)
    ania = ladder.queue_status(s["Ania"])
    fake.advance(ARRIVE_SECONDS + 1)

    assert ladder.call_off_absent() == 1
    assert ladder.call_off_absent() == 0
    assert ladder.settle_finished(everything=True) == 0
    history = ladder.store.history(ladder.me(s["Ania"])["account_id"], 5)
    assert len(history) == 1 and history[0].changes == ()
    assert games.state(ania["game_uuid"], ania["player_uuid"]).body["status"] == "Finished"


@pytest.mark.parametrize("round_", range(4))
def test_a_cancel_racing_the_matcher_either_leaves_or_is_told_too_late_never_both(
    ladder: Ladder, round_: int
) -> None:
    s = accounts(ladder, "Ania", "Bolek")
    for secret in s.values():
        ladder.join_queue(secret, TWO)
    answers: list[dict[str, object]] = []
    start = threading.Barrier(2)

    def cancel() -> None:
        start.wait()
        answers.append(ladder.leave_queue(s["Ania"]))

    def match() -> None:
        start.wait()
        ladder.match()

    threads = [threading.Thread(target=cancel), threading.Thread(target=match)]
    for thread in threads if round_ % 2 else threads[::-1]:
        thread.start()
    for thread in threads:
        thread.join()

    (answer,) = answers
    tables = ladder.store.open_tables()
    if answer["state"] == "idle":
        assert "too_late" not in answer and tables == []
        assert ladder.queue_status(s["Bolek"])["state"] == "waiting"
    else:
        assert answer["too_late"] is True and answer["state"] in ("seated", "forming")
        assert len(tables) == 1
