"""Bot accounts, the events a bot plays from, computer levels filling tables and the rule on
repeated pairs: as a bot and a person use them, and as an adversary would (the use cases,
on each ladder store, with the fake clock)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.clock.local import LocalClock
from app.ladder import bots
from app.ladder.errors import (
    BotsCannotFill,
    CannotBecomeBot,
    InvalidCursor,
    ReservedHandle,
)
from app.ladder.service import Ladder
from app.service import GameService
from app.service.errors import InvalidParameter
from tests.ladder.contract import waited
from tests.reliability.history import choose
from tests.support.clock import FakeClock

TWO = "standard-2"
MANY = "standard-3-8"


def accounts(ladder: Ladder, *handles: str) -> dict[str, str]:
    return {h: ladder.create_account(h)["secret"] for h in handles}


def bolek_resigns(
    ladder: Ladder, games: GameService, fake: FakeClock, secrets: dict[str, str]
) -> None:
    """Every account in ``secrets`` joins the two-player pool and waits past any gap in
    ratings; the table is made, Bolek resigns, and the ladder settles the game."""
    for secret in secrets.values():
        ladder.join_queue(secret, TWO)
    waited(ladder, fake, 600, *secrets.values())
    ladder.match()
    status = ladder.queue_status(secrets["Bolek"])
    games.resign(status["game_uuid"], status["player_uuid"])
    ladder.tick()


def play_from_events(ladder: Ladder, games: GameService, secrets: dict[str, str]) -> dict:
    """Every account plays its moves from its events alone (the AI moves by the clock)
    until each has heard its game over; returns each one's game_over event."""
    rng = random.Random(3)
    clock = LocalClock(games)
    cursors: dict[str, str | None] = dict.fromkeys(secrets)  # the first poll: the present
    overs: dict[str, dict] = {}
    for _ in range(5000):
        clock.run_until_idle()
        ladder.tick()
        for handle, secret in secrets.items():
            answer = ladder.events(secret, cursors[handle])
            cursors[handle] = answer["cursor"]
            for event in answer["events"]:
                if event["type"] == "your_turn":
                    games.play(
                        event["game_uuid"], event["player_uuid"], choose(event["state"], rng)
                    )
                elif event["type"] == "game_over":
                    overs[handle] = event
        if len(overs) == len(secrets):
            return overs
    raise AssertionError(f"no game over for {set(secrets) - set(overs)}")


# ------------------------------------------------------------------ bot accounts


def test_an_account_becomes_a_bot_for_good_and_again_changes_nothing(ladder: Ladder) -> None:
    secret = ladder.create_account("Robo")["secret"]
    assert ladder.me(secret)["bot"] is False
    assert ladder.become_bot(secret)["bot"] is True
    assert ladder.become_bot(secret)["bot"] is True
    assert ladder.queue_status(secret)["bot"] is True
    assert ladder.join_queue(secret, TWO)["bot"] is True


def test_an_account_that_has_sat_at_a_rated_table_cannot_become_a_bot(ladder: Ladder) -> None:
    secrets = accounts(ladder, "Ania", "Bolek")
    for secret in secrets.values():
        ladder.join_queue(secret, TWO)
    ladder.match()
    status = ladder.queue_status(secrets["Ania"])
    with pytest.raises(CannotBecomeBot):
        ladder.become_bot(secrets["Ania"])  # seated
    ladder.games.resign(status["game_uuid"], status["player_uuid"])
    ladder.tick()
    with pytest.raises(CannotBecomeBot):
        ladder.become_bot(secrets["Bolek"])  # has played
    assert ladder.me(secrets["Bolek"])["bot"] is False


def test_a_queued_account_cannot_become_a_bot(ladder: Ladder) -> None:
    secret = ladder.create_account("Ania")["secret"]
    ladder.join_queue(secret, TWO)
    with pytest.raises(CannotBecomeBot):
        ladder.become_bot(secret)


@pytest.mark.parametrize("handle", ["AI_Hard", "ai_beginner", "Ai_Mine", "AI_"[:2] + "_x"])
def test_the_computer_levels_handles_are_reserved(ladder: Ladder, handle: str) -> None:
    with pytest.raises(ReservedHandle):
        ladder.create_account(handle)


@pytest.mark.parametrize(
    "handle",
    [
        "\uff21\uff29_Easy",  # full-width A and I
        "\u0410I_Beginner",  # a Cyrillic A
        "Al_Medium",  # a small L for the I
        "A\u04c0_Hard",  # a Cyrillic palochka for the I
        "\u0410\u04c0_\u041dard",  # Cyrillic A, palochka and En
    ],
)
def test_a_look_alike_of_a_computer_levels_handle_is_reserved(ladder: Ladder, handle: str) -> None:
    with pytest.raises(ReservedHandle) as refused:
        ladder.create_account(handle)
    assert refused.value.code == "reserved_handle"


@pytest.mark.parametrize("handle", ["Al_Capone", "Alice", "Aida", "Kai_Easy"])
def test_a_handle_that_only_resembles_a_levels_prefix_is_free(ladder: Ladder, handle: str) -> None:
    assert ladder.create_account(handle)["handle"] == handle


# ------------------------------------------------------------------ events


def test_a_bot_hears_that_its_game_has_started_with_its_own_player_uuid(ladder: Ladder) -> None:
    secrets = accounts(ladder, "Ania", "Robo")
    ladder.become_bot(secrets["Robo"])
    first = {h: ladder.events(s, None) for h, s in secrets.items()}
    assert all(a["events"] == [] for a in first.values())
    for secret in secrets.values():
        ladder.join_queue(secret, TWO)
    ladder.match()
    told = {h: ladder.events(s, first[h]["cursor"])["events"] for h, s in secrets.items()}
    for handle, events in told.items():
        status = ladder.queue_status(secrets[handle])
        assert events[0] == {
            "type": "game_started",
            "game_uuid": status["game_uuid"],
            "player_uuid": status["player_uuid"],
            "pool": TWO,
        }
    turns = [e for events in told.values() for e in events if e["type"] == "your_turn"]
    assert len(turns) == 1  # one of them is to move, told its view and its legal moves
    assert turns[0]["state"]["legal_actions"] and turns[0]["state"]["cp_nickname"]


def test_the_same_cursor_gets_the_same_answer_and_the_next_one_nothing_new(
    ladder: Ladder,
) -> None:
    secrets = accounts(ladder, "Ania", "Bolek")
    cursors = {h: ladder.events(s, None)["cursor"] for h, s in secrets.items()}
    for secret in secrets.values():
        ladder.join_queue(secret, TWO)
    ladder.match()
    for handle, secret in secrets.items():
        once = ladder.events(secret, cursors[handle])
        again = ladder.events(secret, cursors[handle])
        assert once == again and once["events"]
        assert ladder.events(secret, once["cursor"])["events"] == []


def test_two_accounts_play_a_whole_game_from_their_events_and_hear_their_rating_change(
    ladder: Ladder, games: GameService
) -> None:
    secrets = accounts(ladder, "Ania", "Robo")
    ladder.become_bot(secrets["Robo"])
    for secret in secrets.values():
        ladder.join_queue(secret, TWO)
    ladder.match()
    overs = play_from_events(ladder, games, secrets)
    assert sorted(o["place"] for o in overs.values()) == [1, 2]
    for handle, over in overs.items():
        last = ladder.queue_status(secrets[handle])["last_result"]
        assert {**over, "type": None} == {**last, "type": None}
        assert (over["change"] > 0) == (over["place"] == 1)


def test_a_game_over_missed_between_polls_is_still_told_once(
    ladder: Ladder, games: GameService, fake: FakeClock
) -> None:
    secrets = accounts(ladder, "Ania", "Bolek")
    cursor = ladder.events(secrets["Ania"], None)["cursor"]
    for _ in range(2):  # two whole games while Ania does not poll
        bolek_resigns(ladder, games, fake, secrets)
    answer = ladder.events(secrets["Ania"], cursor)
    assert [(e["type"], e["place"]) for e in answer["events"]] == [("game_over", 1)] * 2
    assert ladder.events(secrets["Ania"], answer["cursor"])["events"] == []


def test_a_forged_cursor_naming_another_accounts_table_tells_nothing_of_it(
    ladder: Ladder, games: GameService
) -> None:
    secrets = accounts(ladder, "Ania", "Bolek", "Eve")
    for handle in ("Ania", "Bolek"):
        ladder.join_queue(secrets[handle], TWO)
    ladder.match()
    (table,) = ladder.store.open_tables()
    status = ladder.queue_status(secrets["Bolek"])
    games.resign(status["game_uuid"], status["player_uuid"])
    ladder.tick()
    tag = "A" * 22
    for forged in (f"-.{table.table_id}.0", f"{table.table_id}.{table.table_id}.5", "x.y.1"):
        for cursor in (forged, f"{forged}.{tag}"):
            with pytest.raises(InvalidCursor) as refused:
                ladder.events(secrets["Eve"], cursor)
            assert status["game_uuid"] not in str(refused.value.__dict__)


def test_a_cursor_given_to_another_account_is_refused(ladder: Ladder, games: GameService) -> None:
    secrets = accounts(ladder, "Ania", "Bolek", "Eve")
    before = ladder.events(secrets["Ania"], None)["cursor"]
    for handle in ("Ania", "Bolek"):
        ladder.join_queue(secrets[handle], TWO)
    ladder.match()
    status = ladder.queue_status(secrets["Bolek"])
    games.resign(status["game_uuid"], status["player_uuid"])
    ladder.tick()
    with pytest.raises(InvalidCursor):
        ladder.events(secrets["Eve"], before)  # Ania's cursor: would replay her game
    told = ladder.events(secrets["Ania"], before)["events"]
    assert [e["type"] for e in told] == ["game_over"]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    after=st.one_of(
        st.text(max_size=80),
        st.integers(),
        st.just("a.b.01"),
        st.just("a.b.-1"),
        st.just("a.b.1234567890"),
        st.just("a..1"),
        st.just("-.-"),
    )
)
def test_a_cursor_the_service_did_not_give_is_refused_by_name(after: object) -> None:
    with pytest.raises(InvalidCursor) as refused:
        bots.parse_cursor(after, bots.cursor_key("acct", "sha256:x", 1.0))
    assert refused.value.code == "invalid_cursor"


@settings(max_examples=60, deadline=None)
@given(
    over=st.one_of(st.none(), st.from_regex(r"[A-Za-z0-9_]{1,64}", fullmatch=True)),
    table=st.one_of(st.none(), st.from_regex(r"[A-Za-z0-9_]{1,64}", fullmatch=True)),
    turn=st.integers(0, 999_999_999),
)
def test_a_cursor_is_taken_back_from_its_account_only(
    over: str | None, table: str | None, turn: int
) -> None:
    mine = bots.cursor_key("acct1", "sha256:one", 1.5)
    theirs = bots.cursor_key("acct2", "sha256:two", 1.5)
    cursor = bots.Cursor(over, table, turn)
    text = cursor.encode(mine)
    assert bots.parse_cursor(text, mine) == cursor
    with pytest.raises(InvalidCursor):
        bots.parse_cursor(text, theirs)
    body, _, tag = text.rpartition(".")
    forged = f"{body}.{'A' * len(tag)}" if tag != "A" * len(tag) else f"{body}.{'B' * len(tag)}"
    with pytest.raises(InvalidCursor):
        bots.parse_cursor(forged, mine)


def test_the_bell_rings_a_waiting_poll_when_its_account_is_seated_or_its_game_moves(
    ladder: Ladder, games: GameService
) -> None:
    secrets = accounts(ladder, "Ania", "Bolek")
    account = ladder.me(secrets["Ania"])["account_id"]
    rung: list[str] = []
    ladder.bell.listen([account], lambda: rung.append("seat"))
    for secret in secrets.values():
        ladder.join_queue(secret, TWO)
    ladder.match()
    assert rung == ["seat"]
    status = ladder.queue_status(secrets["Ania"])
    ladder.bell.listen([status["game_uuid"]], lambda: rung.append("game"))
    games.resign(status["game_uuid"], status["player_uuid"])
    assert "game" in rung
    ladder.tick()
    assert rung.count("seat") == 2  # and its table settled


@pytest.mark.parametrize("wait", [-1, 26, 2.5, "5", True])
def test_a_wait_out_of_bounds_is_refused(wait: object) -> None:
    with pytest.raises(InvalidParameter):
        bots.parse_wait(wait)


# ------------------------------------------------------------------ computer levels


def test_a_person_who_allows_filling_is_seated_with_a_computer_level_after_their_wait(
    ladder: Ladder, games: GameService, fake: FakeClock
) -> None:
    secret = ladder.create_account("Ania")["secret"]
    assert ladder.join_queue(secret, TWO, 30)["fill_after"] == 30
    ladder.match()
    assert ladder.queue_status(secret)["state"] == "waiting"
    waited(ladder, fake, 30, secret)
    ladder.match()
    (table,) = ladder.store.open_tables()
    assert table.seats[0].handle == "Ania"
    level = table.seats[1]
    assert level.player_uuid is None and level.agent and level.handle.startswith("AI_")
    overs = play_from_events(ladder, games, {"Ania": secret})
    record = games.record(table.game_uuid or "")
    (result,) = ladder.store.results(TWO)
    places = {c.handle: c.place for c in result.changes}
    (ai,) = [p["nickname"] for p in record["players"] if p.get("ai_agent") == level.agent]
    ai_won = record["winner"] == ai
    assert places == {"Ania": 2 if ai_won else 1, level.handle: 1 if ai_won else 2}
    assert overs["Ania"]["place"] == places["Ania"]
    listed = {lv["handle"]: lv for lv in ladder.levels()}
    assert listed[level.handle]["ratings"][TWO]["games"] == 1
    assert listed[level.handle]["bot"] is True
    assert ladder.profile(level.handle)["bot"] is True


def test_the_many_player_pool_is_filled_with_two_different_levels(
    ladder: Ladder, fake: FakeClock
) -> None:
    secret = ladder.create_account("Ania")["secret"]
    ladder.join_queue(secret, MANY, 0)
    ladder.match()
    (table,) = ladder.store.open_tables()
    ids = [s.account_id for s in table.seats]
    assert len(ids) == 3 == len(set(ids))
    assert all(s.agent for s in table.seats[1:])


def test_people_who_did_not_allow_filling_are_never_seated_with_computers(
    ladder: Ladder, fake: FakeClock
) -> None:
    secret = ladder.create_account("Ania")["secret"]
    ladder.join_queue(secret, TWO)
    waited(ladder, fake, 600, secret)  # there all along, past the longest fill wait
    ladder.match()
    assert ladder.store.open_tables() == []
    assert ladder.queue_status(secret)["state"] == "waiting"


def test_the_levels_start_unrated_weakest_first(ladder: Ladder) -> None:
    listed = ladder.levels()
    assert [lv["agent"] for lv in listed] == ["random", "bold", "probabilist", "bayesian"]
    assert all(lv["ratings"][TWO] == {"rated": False} for lv in listed)
    assert len({lv["handle"] for lv in ladder.levels()}) == 4  # made once


def test_a_bot_may_not_ask_for_computers_to_fill_its_table(ladder: Ladder) -> None:
    secret = ladder.create_account("Robo")["secret"]
    ladder.become_bot(secret)
    with pytest.raises(BotsCannotFill):
        ladder.join_queue(secret, TWO, 10)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    fill=st.one_of(
        st.integers(max_value=-1),
        st.integers(min_value=bots.FILL_MAX_SECONDS + 1),
        st.floats(),
        st.text(),
        st.booleans(),
    )
)
def test_a_fill_wait_out_of_bounds_is_refused_naming_it(fill: object) -> None:
    from app.ladder.queue import _fill_after

    with pytest.raises(InvalidParameter) as refused:
        _fill_after(fill)
    assert refused.value.parameter == "fill_after"


# ------------------------------------------------------------------ repeated pairs


def test_past_the_daily_limit_a_pairs_games_are_played_but_not_rated(
    ladder: Ladder, games: GameService, fake: FakeClock
) -> None:
    secrets = accounts(ladder, "Ania", "Bolek")

    def one_game() -> dict:
        bolek_resigns(ladder, games, fake, secrets)
        last: dict = ladder.queue_status(secrets["Ania"])["last_result"]
        return last

    rated = [one_game() for _ in range(bots.PAIR_LIMIT)]  # 10 in under two hours
    assert all(r["place"] == 1 for r in rated)
    assert one_game()["void"] is True  # the 11th in 24 hours
    account = ladder.me(secrets["Ania"])["account_id"]
    rating = ladder.store.rating(account, TWO)
    assert rating is not None and rating.games == bots.PAIR_LIMIT
    fake.advance(bots.PAIR_WINDOW_SECONDS)
    assert one_game()["place"] == 1  # a day later: rated again


def test_the_ladder_settles_from_the_finished_value_without_reading_anyones_view(
    ladder: Ladder, games: GameService, fake: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ladder learns places from the service's typed ``finished`` answer, never from a
    player's view."""
    secret = ladder.create_account("Ania")["secret"]
    ladder.join_queue(secret, TWO, 0)
    ladder.match()
    (table,) = ladder.store.open_tables()
    status = ladder.queue_status(secret)
    games.resign(status["game_uuid"], status["player_uuid"])

    def no_view(*args: object, **kwargs: object) -> object:
        raise AssertionError("the ladder read a player's view to settle")

    monkeypatch.setattr(games, "state", no_view)
    ladder.tick()
    (result,) = ladder.store.results(TWO)
    assert {c.handle: c.place for c in result.changes} == {"Ania": 2, table.seats[1].handle: 1}
    finished = games.finished(table.game_uuid or "")
    assert finished.kind == "blef" and finished.game_uuid == table.game_uuid
    people = [s for s in finished.seats if s.player_uuid is not None]
    assert [s.player_uuid for s in people] == [status["player_uuid"]]
    assert [s.agent for s in finished.seats if s.agent is not None] == [table.seats[1].agent]


def test_a_level_invited_whatever_the_invitations_words_sits_and_is_placed(
    ladder: Ladder, games: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    invite = games.invite_ai

    def reworded(*args: object, **kwargs: object) -> dict[str, object]:
        invite(*args, **kwargs)  # type: ignore[arg-type]
        return {"message": "Witaj przy stole"}

    monkeypatch.setattr(games, "invite_ai", reworded)
    secret = ladder.create_account("Ania")["secret"]
    ladder.join_queue(secret, TWO, 0)
    ladder.match()
    (table,) = ladder.store.open_tables()
    assert table.state == "playing" and table.seats[1].agent is not None
    status = ladder.queue_status(secret)
    games.resign(status["game_uuid"], status["player_uuid"])
    ladder.tick()
    (result,) = ladder.store.results(TWO)
    assert sorted(c.place for c in result.changes) == [1, 2]
