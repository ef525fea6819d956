"""Every use case of the service, by area, on the in-memory store: what it answers, what it
changes, and what it refuses (in the established order of checks where clients see it)."""

from __future__ import annotations

import pytest

from app.service import GameService
from app.service.errors import (
    CannotReportAI,
    CannotReportSelf,
    ConflictError,
    GameGone,
    GameNotFinished,
    InvalidParameter,
    NotAPlayer,
    StaleVersion,
    TooManyReactions,
)
from engine import errors as rules
from tests.service.conftest import mover, seat, started
from tests.support.clock import FakeClock, ai_game
from tests.support.memory_store import MemoryStore

KEY = "1b4e28ba-2fa1-41d2-883f-0016d3cca427"
STRANGER = "6f1c2a8e-0000-4000-8000-000000000001"
NICKNAME_ERRORS = (rules.InvalidNickname, rules.NicknameTaken)

# ---------------------------------------------------------------- the lobby


def test_a_keyed_create_made_again_gets_the_same_game_and_a_gone_one_says_so(
    service: GameService, store: MemoryStore
) -> None:
    game = service.create_game(KEY)["game_uuid"]
    assert service.create_game(KEY) == {"game_uuid": game}
    store.games.clear()
    with pytest.raises(GameGone):
        service.create_game(KEY)


def test_joining_names_the_parameter_when_a_nickname_is_bad_or_taken(
    service: GameService,
) -> None:
    table = seat(service, "ann")
    for bad in ("9lives", "ANN"):
        with pytest.raises(NICKNAME_ERRORS, match="Bad input value in 'nickname'"):
            service.join(table.game, bad)


def test_inviting_checks_the_game_then_the_admin_then_the_agent(service: GameService) -> None:
    table = started(service, "ann", "ben")
    with pytest.raises(rules.GameAlreadyStarted):
        service.invite_ai(table.game, STRANGER, "nobody")
    lobby = seat(service, "ann", "ben")
    with pytest.raises(rules.NotAdmin):
        service.invite_ai(lobby.game, lobby["ben"], "nobody")
    with pytest.raises(rules.UnknownAgent):
        service.invite_ai(lobby.game, lobby["ann"], "nobody")
    answer = service.invite_ai(lobby.game, lobby["ann"], "Dazhbog")
    assert answer == {"message": "Dazhbog_(AI) joined the game"}


def test_a_full_room_refuses_an_ai_before_looking_at_the_admin(service: GameService) -> None:
    table = seat(service, *"abcdefgh")
    with pytest.raises(rules.RoomFull):
        service.invite_ai(table.game, STRANGER, "random")


def test_only_the_admin_lists_a_game_and_only_in_the_lobby(service: GameService) -> None:
    table = seat(service, "ann", "ben")
    with pytest.raises(rules.NotAdmin):
        service.set_public(table.game, table["ben"], True)
    with pytest.raises(rules.NotAdmin):
        service.set_public(table.game, STRANGER, True)
    assert service.set_public(table.game, table["ann"], True) == {"message": "Game made public"}
    service.start(table.game, table["ann"])
    with pytest.raises(rules.GameAlreadyStarted, match="Cannot make the change"):
        service.set_public(table.game, STRANGER, True)


def test_the_time_limit_is_set_once_by_the_admin_and_stamps_a_deadline(
    service: GameService, fake: FakeClock
) -> None:
    table = seat(service, "ann", "ben")
    assert service.set_time_limit(table.game, table["ann"], 30) == {
        "message": "Time limit set to 30"
    }
    assert service.set_time_limit(table.game, table["ann"], "30")["message"].startswith(
        "Request redundant"
    )
    service.start(table.game, table["ann"])
    assert service.state(table.game).body["move_deadline"] == fake.now + 30


def test_starting_needs_the_admin_and_two_players(service: GameService) -> None:
    table = seat(service, "ann")
    with pytest.raises(rules.NotAdmin):
        service.start(table.game, STRANGER)
    with pytest.raises(rules.TooFewPlayers):
        service.start(table.game, table["ann"])


# ---------------------------------------------------------------- the table


def test_an_admin_who_leaves_hands_over_and_the_last_human_empties_the_game(
    service: GameService,
) -> None:
    table = seat(service, "ann", "ben")
    service.invite_ai(table.game, table["ann"], "random")
    assert service.leave(table.game, table["ann"]) == {
        "message": "You left the game - ben is the admin now"
    }
    service.leave(table.game, table["ben"])
    state = service.state(table.game).body
    assert (state["players"], state["admin_nickname"]) == ([], None)
    with pytest.raises(NotAPlayer):
        service.leave(table.game, table["ben"])


def test_removing_matches_the_nickname_ignoring_case_and_frees_the_uuid(
    service: GameService,
) -> None:
    table = seat(service, "ann", "ben")
    assert service.remove_player(table.game, table["ann"], "BEN") == {
        "message": "ben was removed from the game"
    }
    with pytest.raises(NotAPlayer):
        service.state(table.game, table["ben"])
    with pytest.raises(rules.CannotRemoveSelf):
        service.remove_player(table.game, table["ann"], "ann")


def test_a_resignation_ends_the_round_and_the_last_one_ends_the_game(
    service: GameService,
) -> None:
    table = started(service, "ann", "ben", "cid")
    assert service.resign(table.game, table["ben"]) == {
        "message": "You resigned - you are out of the game"
    }
    with pytest.raises(rules.AlreadyOut):
        service.resign(table.game, table["ben"])
    message = service.resign(table.game, table["cid"])["message"]
    assert message == "You resigned - you are out of the game; ann won"
    assert [r["round_number"] for r in service.record(table.game)["rounds"]] == [1, 2]


def test_readiness_with_auto_start_starts_the_game_and_says_so(service: GameService) -> None:
    table = seat(service, "ann", "ben")
    assert service.set_auto_start(table.game, table["ann"], True) == {"message": "Auto start on"}
    with pytest.raises(rules.NotAdmin):
        service.set_auto_start(table.game, table["ben"], False)
    service.set_ready(table.game, table["ann"], True)
    assert service.set_ready(table.game, table["ann"], True)["message"].startswith("Request")
    assert service.set_ready(table.game, table["ben"], True) == {"message": "Ready - Game started"}


def test_the_maximum_of_cards_is_the_admins_and_bounded(service: GameService) -> None:
    table = seat(service, "ann", "ben")
    assert service.set_max_cards(table.game, table["ann"], 3) == {
        "message": "Maximum of cards set to 3"
    }
    with pytest.raises(rules.InvalidMaxCards):
        service.set_max_cards(table.game, table["ann"], 12)
    with pytest.raises(InvalidParameter):
        service.set_max_cards(table.game, table["ann"], "3")
    with pytest.raises(rules.NotAdmin):
        service.set_max_cards(table.game, table["ben"], 2)


def test_reactions_are_limited_per_player_on_the_services_clock(
    service: GameService, fake: FakeClock
) -> None:
    table = seat(service, "ann", "ben")
    for _ in range(3):
        service.react(table.game, table["ann"], "👍")
    with pytest.raises(TooManyReactions):
        service.react(table.game, table["ann"], "👍")
    fake.advance(10)
    assert service.react(table.game, table["ann"], "🎉") == {"message": "Reaction sent"}


def test_a_report_is_filed_once_it_stands_and_a_hidden_player_stays_one_player(
    service: GameService, store: MemoryStore
) -> None:
    table = seat(service, "ann", "ben", "Rude")
    service.invite_ai(table.game, table["ann"], "random")
    with pytest.raises(CannotReportSelf):
        service.report(table.game, table["ann"], "ANN")
    with pytest.raises(CannotReportAI):
        service.report(table.game, table["ann"], "random_(AI)")
    assert store.reports == {}  # a refusal files nothing
    service.report(table.game, table["ann"], "rude")
    answer = service.report(table.game, table["ben"], "Rude")
    assert answer == {"message": "Reported - Rude is shown as Player_3 from now on"}
    again = service.report(table.game, table["ben"], "player_3")
    assert again == {"message": "Request redundant - that nickname is hidden"}
    filed = sorted((r.reporter, r.nickname) for r in store.reports.values())
    assert filed == [("ann", "Rude"), ("ben", "Rude")]


# ---------------------------------------------------------------- playing


def test_a_bet_answers_the_movers_state_and_a_check_the_ended_round(
    service: GameService,
) -> None:
    table = started(service, "ann", "ben")
    first = mover(service, table)
    bet = service.play(table.game, first, 6)
    assert bet["history"][-1]["action_id"] == 6
    assert len(bet["hands"]) == 1
    ended = service.play(table.game, mover(service, table), 88)
    assert ended["history"][-1]["action_id"] == 89
    assert len(ended["hands"]) == 2 and "seed" in ended


def test_a_move_checks_the_status_then_the_player_then_the_action(
    service: GameService,
) -> None:
    table = seat(service, "ann", "ben")
    with pytest.raises(rules.GameNotStarted):
        service.play(table.game, "not a uuid", "not an action")
    service.start(table.game, table["ann"])
    with pytest.raises(NotAPlayer):
        service.play(table.game, STRANGER, "x")
    with pytest.raises(InvalidParameter):
        service.play(table.game, mover(service, table), "x")
    with pytest.raises(StaleVersion):
        service.play(table.game, mover(service, table), 3, expected_version=1)


def test_a_move_is_retried_after_a_reaction_but_not_after_a_real_change(
    service: GameService, store: MemoryStore
) -> None:
    table = started(service, "ann", "ben", "cid")
    who = mover(service, table)
    others = [s for s in table.players.values() if s != who]
    real_load = store.load
    races = [lambda: service.react(table.game, others[0], "👍")]

    def load_then_race(game_uuid: str) -> object:
        doc = real_load(game_uuid)
        if races:
            races.pop()()
        return doc

    store.load = load_then_race  # type: ignore[method-assign]
    assert service.play(table.game, who, 3)["history"][-1]["action_id"] == 3
    nxt = mover(service, table)
    waiting = next(s for s in table.players.values() if s not in (who, nxt))
    races.append(lambda: service.resign(table.game, waiting))
    with pytest.raises(ConflictError):
        service.play(table.game, nxt, 5)


# ---------------------------------------------------------------- reading


def test_a_viewer_sees_their_own_hand_an_observer_none(service: GameService) -> None:
    table = started(service, "ann", "ben")
    mine = service.state(table.game, table["ann"]).body
    assert [h["nickname"] for h in mine["hands"]] == ["ann"]
    assert service.state(table.game).body["hands"] == []
    with pytest.raises(rules.RoundNotReached):
        service.state(table.game, None, "2")


def test_the_record_waits_for_the_finish(service: GameService) -> None:
    table = started(service, "ann", "ben")
    with pytest.raises(GameNotFinished):
        service.record(table.game)


def test_the_odds_are_for_a_seated_player_of_a_running_game_only(service: GameService) -> None:
    table = seat(service, "ann", "ben")
    with pytest.raises(rules.GameNotStarted):
        service.odds(table.game, table["ann"])
    service.start(table.game, table["ann"])
    odds = service.odds(table.game, table["ann"])
    assert (len(odds["hand"]), odds["unknown_cards"], len(odds["probabilities"])) == (1, 1, 88)
    with pytest.raises(NotAPlayer):
        service.odds(table.game, STRANGER)


def test_the_public_list_pages_through_every_game(service: GameService) -> None:
    made = set()
    for _ in range(5):
        table = seat(service, "ann")
        service.set_public(table.game, table["ann"], True)
        made.add(table.game)
    seen: set[str] = set()
    page, cursor = service.list_public_page(2)
    while True:
        seen |= {entry["game_uuid"] for entry in page}
        if cursor is None:
            break
        page, cursor = service.list_public_page(2, cursor)
    assert seen == made
    with pytest.raises(InvalidParameter):
        service.list_public_page(2, "not-a-cursor")


# ---------------------------------------------------------------- what time does


def test_an_ai_moves_once_its_think_time_has_come_and_a_repeat_trigger_does_nothing(
    service: GameService, fake: FakeClock
) -> None:
    game, _ = ai_game(service)
    version = service.state(game).body["version"]
    early = service.advance(game, version)
    assert (early.acted, early.version, early.due_at) == (False, version, fake.now + 1.0)
    fake.advance(1.0)
    assert service.advance(game, version).acted
    assert not service.advance(game, version).acted
    assert service.advance("0" * 32, 1).version is None


def test_a_human_who_lets_the_deadline_pass_loses_the_round(
    service: GameService, fake: FakeClock
) -> None:
    table = seat(service, "ann", "ben")
    service.set_time_limit(table.game, table["ann"], 20)
    service.start(table.game, table["ann"])
    late = service.state(table.game).body["cp_nickname"]
    fake.advance(20)
    assert service.sweep() == 1
    lost = service.state(table.game, None, "1").body
    assert lost["history"] == [{"player": late, "action_id": 89}]
