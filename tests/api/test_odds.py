"""GET /games/{g}/odds: the probability aid, for a seated player about their own hand only."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.facts import Card, Colour, Value
from engine.probability import set_probabilities
from tests.support.api import Blef, bearer


def _started(blef: Blef) -> tuple[str, str, str]:
    game = blef.create_post()
    alice = blef.join_post(game, "alice")
    bob = blef.join_post(game, "bob")
    blef.start_post(game, alice)
    return game, alice, bob


def _own_hand(blef: Blef, game: str, player: str, nickname: str) -> list[dict[str, int]]:
    state = blef.state(game, player)
    return next(h["hand"] for h in state["hands"] if h["nickname"] == nickname)


def _cards(hand: list[dict[str, Any]]) -> list[Card]:
    return [Card(Value(c["value"]), Colour(c["colour"])) for c in hand]


def test_a_seated_player_gets_the_engines_exact_odds_for_their_own_hand(
    client: TestClient, blef: Blef
) -> None:
    game, alice, _ = _started(blef)
    r = client.get(f"/games/{game}/odds", headers=bearer(alice))
    assert r.status_code == 200, r.text
    body = r.json()
    hand = _own_hand(blef, game, alice, "alice")
    assert body["hand"] == hand
    assert body["unknown_cards"] == 1
    assert body["probabilities"] == list(set_probabilities(_cards(hand), 1))
    assert len(body["probabilities"]) == 88


def test_the_odds_answer_holds_only_the_callers_cards_and_counts(
    client: TestClient, blef: Blef
) -> None:
    game, alice, bob = _started(blef)
    bobs_hand = _own_hand(blef, game, bob, "bob")
    body = client.get(f"/games/{game}/odds", headers=bearer(alice)).json()
    assert set(body) == {"round_number", "hand", "unknown_cards", "probabilities"}
    assert body["hand"] == _own_hand(blef, game, alice, "alice")
    # Its only inputs are the caller's hand and a count: bob's hand cannot change it.
    assert body["probabilities"] == list(set_probabilities(_cards(body["hand"]), 1))
    assert bobs_hand != body["hand"]


def test_an_observer_without_credentials_is_refused_with_a_clear_401(
    client: TestClient, blef: Blef
) -> None:
    game, _, _ = _started(blef)
    r = client.get(f"/games/{game}/odds")
    assert r.status_code == 401
    assert r.headers["WWW-Authenticate"] == "Bearer"
    assert r.json()["code"] == "missing_parameter"


def test_a_uuid_in_the_query_string_is_not_accepted_as_a_credential(
    client: TestClient, blef: Blef
) -> None:
    game, alice, _ = _started(blef)
    r = client.get(f"/games/{game}/odds", params={"player_uuid": alice})
    assert r.status_code == 401
    assert r.json()["code"] == "missing_parameter"


def test_a_player_of_another_game_learns_nothing_about_this_one(
    client: TestClient, blef: Blef
) -> None:
    game, _, _ = _started(blef)
    _, stranger, _ = _started(blef)
    r = client.get(f"/games/{game}/odds", headers=bearer(stranger))
    assert r.status_code == 400
    assert r.json()["code"] == "unknown_player"
    assert "probabilities" not in r.json()


@pytest.mark.parametrize("token", ["", "not-a-uuid", "{00000000-0000-0000-0000-000000000000}"])
def test_malformed_credentials_get_a_4xx_never_a_5xx(
    client: TestClient, blef: Blef, token: str
) -> None:
    game, _, _ = _started(blef)
    r = client.get(f"/games/{game}/odds", headers={"Authorization": f"Bearer {token}"})
    assert 400 <= r.status_code < 500
    assert set(r.json()) == {"error", "code"}


def test_odds_before_the_start_are_refused_as_not_started(client: TestClient, blef: Blef) -> None:
    game = blef.create_post()
    alice = blef.join_post(game, "alice")
    r = client.get(f"/games/{game}/odds", headers=bearer(alice))
    assert r.status_code == 400
    assert r.json()["code"] == "game_not_started"


def test_odds_after_the_game_are_refused_as_finished(client: TestClient, blef: Blef) -> None:
    game, alice, bob = _started(blef)
    players = {"alice": alice, "bob": bob}
    for _ in range(200):
        state = blef.state(game)
        if state["status"] == "Finished":
            break
        mover = players[state["cp_nickname"]]
        action = 87 if not state["history"] else 88  # 87 rarely exists: the bettor loses
        assert blef.play_post(game, mover, action).status_code == 200
    r = client.get(f"/games/{game}/odds", headers=bearer(alice))
    assert r.status_code == 400
    assert r.json()["code"] == "game_finished"


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(token=st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=60))
def test_no_guessed_token_gets_odds_or_a_5xx(client: TestClient, blef: Blef, token: str) -> None:
    game = blef.create_post()
    alice = blef.join_post(game, "alice")
    blef.join_post(game, "bob")
    blef.start_post(game, alice)
    r = client.get(f"/games/{game}/odds", headers={"Authorization": f"Bearer {token}"})
    assert 400 <= r.status_code < 500
    assert set(r.json()) == {"error", "code"}


def _variant_started(blef: Blef, service: Any, rules: Any, teams: bool = False) -> tuple[str, ...]:
    from app.service.writes import Outcome, reply

    game = blef.create_post()
    players = [blef.join_post(game, name) for name in ("alice", "bob", "carol", "dave")]

    def set_rules(_doc: Any, g: Any) -> Any:
        g.set_rules(rules)
        if teams:
            for name, team in zip(("alice", "bob", "carol", "dave"), (1, 2, 1, 2), strict=True):
                g.set_team(name, team)
        return Outcome(reply({}))

    service.writes.change(game, set_rules)
    blef.start_post(game, players[0])
    return game, *players


def test_a_variant_game_gets_odds_for_its_own_table_and_the_standing_bet(
    client: TestClient, blef: Blef, service: Any
) -> None:
    """32 cards, two jokers, two common cards: one chance per set of the 140, the common
    cards and the rules shown, the standing bet read as its bettor bet it. (Read from the
    service: the route's response schema still describes the classic 88.)"""
    from engine.game import Game
    from engine.odds import odds_for
    from engine.rules import Rules

    rules = Rules(deck_size=32, jokers=2, common_cards=2)
    game_uuid, alice, *_ = _variant_started(blef, service, rules)
    body = service.odds(game_uuid, alice)
    assert set(body) == {
        "round_number",
        "hand",
        "unknown_cards",
        "probabilities",
        "rules",
        "common_hand",
        "teammate_hands",
        "standing_bet",
    }
    assert len(body["probabilities"]) == 140
    assert body["rules"] == rules.to_dict()
    assert len(body["common_hand"]) == 2
    assert body["unknown_cards"] == 3
    assert body["standing_bet"] is None
    game = Game.from_dict(service.writes.load(game_uuid).state)
    seat = game.seat_of("alice")
    assert body["hand"] == game.hand_dicts(seat)
    assert body["probabilities"] == list(odds_for(game, seat))
    # Once someone has bet, the standing bet's chance is shown.
    mover = game.current_player
    players = dict(zip(("alice", "bob", "carol", "dave"), (alice, *_), strict=True))
    assert blef.play_post(game_uuid, players[str(mover)], 3).status_code == 200
    viewer = next(n for n in players if n != mover)
    standing = service.odds(game_uuid, players[viewer])["standing_bet"]
    game = Game.from_dict(service.writes.load(game_uuid).state)
    expected = odds_for(game, game.seat_of(viewer), game.seat_of(str(mover)))[3]
    assert standing == {"action_id": 3, "player": mover, "probability": expected}


def test_team_mates_hands_are_known_in_the_odds(
    client: TestClient, blef: Blef, service: Any
) -> None:
    from engine.rules import Rules

    game_uuid, alice, *_ = _variant_started(blef, service, Rules(), teams=True)
    body = service.odds(game_uuid, alice)
    assert [h["nickname"] for h in body["teammate_hands"]] == ["carol"]
    assert body["unknown_cards"] == 2
    assert len(body["probabilities"]) == 88
