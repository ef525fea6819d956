"""The worked examples E1-E6 of Economancy's protocol, two players, the first subset."""

from __future__ import annotations

from engine.economancy import GAME
from engine.economancy.state import EconomancyState
from tests.economancy.helpers import SIMPLE, army, play, state_with

S = {
    "Board of Monopoly": 4,
    "Incantation": 6,
    "Worker": 4,
    "Magic Bean Stock": 2,
    "Bubble": 2,
    "Ghost": 4,
    "Senior Worker": 4,
    "Gold Fish": 2,
}
STIPEND = {"name": "Sorcerer's Stipend", "uses": 0}


def new_game() -> EconomancyState:
    return GAME.setup(SIMPLE, 2)


def test_e1_day_one_investing_shows_three_coins_each_and_any_amount_up_to_three() -> None:
    state = new_game()
    assert state.view(0) == {
        "day": 1,
        "phase": {"name": "investing"},
        "shop": S,
        "players": [
            {"coins": 3, "buys": 1, "cards": [STIPEND]},
            {"coins": 3, "buys": 1, "cards": [STIPEND]},
        ],
        "player": 0,
    }
    assert list(state.legal_moves(0)) == [0, 1, 2, 3]


def test_e1_a_tie_for_the_highest_investment_means_nobody_attacks() -> None:
    state = new_game()
    play(state, (0, 0), (1, 0))
    assert state.view(0)["phase"] == {"name": "buy"}


def test_e2_the_buy_phase_offers_pass_and_every_card_of_the_shop_one_can_afford() -> None:
    state = new_game()
    play(state, (0, 0), (1, 0))
    assert set(state.legal_moves(0)) == {
        "Pass",
        "Worker",
        "Magic Bean Stock",
        "Board of Monopoly",
        "Bubble",
        "Ghost",
        "Senior Worker",
        "Gold Fish",
    }
    play(state, (0, "Ghost"), (1, "Senior Worker"))
    view = state.view(0)
    assert [p["coins"] for p in view["players"]] == [1 + 1, 1 + 1 + 1]  # day 2's income
    assert view["shop"]["Ghost"] == 3
    assert view["shop"]["Senior Worker"] == 3
    assert view["day"] == 2


def _e3() -> EconomancyState:
    state = new_game()
    play(state, (0, 0), (1, 0), (0, "Ghost"), (1, "Senior Worker"), (0, 2), (1, 1))
    return state


def test_e3_the_highest_investor_attacks_and_sees_attacker_card_false() -> None:
    state = _e3()
    view = state.view(0)
    shop_after_day_1 = {**S, "Ghost": 3, "Senior Worker": 3}
    phase = {"name": "attacking", "attacker": 0, "attacker_card": False, "attacker-card": False}
    assert view == {
        "day": 2,
        "phase": phase,
        "shop": shop_after_day_1,
        "players": [
            {"coins": 0, "buys": 1, "cards": [STIPEND, {"name": "Ghost", "uses": 0}]},
            {"coins": 2, "buys": 1, "cards": [STIPEND, {"name": "Senior Worker", "uses": 0}]},
        ],
        "player": 0,
    }
    assert state.legal_moves(0) == [0, 1]
    assert state.to_act() == (0,)


def test_e4_the_defender_sees_the_attacking_card_and_the_ghost_beats_the_senior_worker() -> None:
    state = _e3()
    state.apply(0, 1)
    view = state.view(1)
    assert view["phase"] == {
        "name": "attacking",
        "attacker": 0,
        "attacker_card": 1,
        "attacker-card": 1,
    }
    assert view["players"][0]["cards"][1] == {"name": "Ghost", "uses": 1}
    assert view["player"] == 1
    assert state.legal_moves(1) == [1]
    state.apply(1, 1)
    after = state.view(0)
    assert after["phase"] == {"name": "buy"}  # no attack left: the phase ended unasked
    assert after["players"][1]["cards"] == [STIPEND]
    assert after["players"][0]["cards"] == [STIPEND, {"name": "Ghost", "uses": 0}]
    assert list(state.legal_moves(0)) == ["Pass"]
    assert state.to_act() == (0, 1)


def test_e4_a_second_attack_eliminates_a_defender_without_a_usable_defender_unasked() -> None:
    state = state_with([army("Ghost", "Worker"), army("Senior Worker")], [2, 1], day_count=2)
    play(state, (0, 2), (1, 1), (0, 1), (1, 1))
    assert state.to_act() == (0,)
    state.apply(0, 2)
    assert state.over
    assert state.view(1)["phase"] == {"name": "end", "winner": 0}
    assert state.view(1)["players"][1] == {"coins": 0, "buys": 0, "cards": []}
    result = state.result()
    assert result is not None
    assert (result.places, result.reason) == ((1, 2), "last_standing")


def test_e5_a_golem_attacking_a_bubble_faints_with_attack_nine_but_not_five() -> None:
    for bubble, golem_faints in ((9, True), (5, False)):
        rules = SIMPLE.__class__(cards="base", bubble_attack=bubble)
        state = state_with([army("Golem"), army("Bubble", "Worker")], [1, 0], rules=rules)
        play(state, (0, 1), (1, 0), (0, 1), (1, 1))
        cards = [c["name"] for c in state.view(0)["players"][0]["cards"]]
        assert ("Golem" not in cards) is golem_faints
        assert [c["name"] for c in state.view(0)["players"][1]["cards"]] == [
            "Sorcerer's Stipend",
            "Worker",
        ]


def test_e6_seven_points_and_strictly_the_most_wins_after_the_buy_round() -> None:
    state = state_with(
        [army("Incantation", "Incantation"), army("Incantation", "Incantation")], [2, 0]
    )
    play(state, (0, 0), (1, 0), (0, "Board of Monopoly"), (1, "Pass"))
    assert state.view(0)["phase"] == {"name": "end", "winner": 0}
    result = state.result()
    assert result is not None
    assert result.reason == "points"
    assert result.scores == (7.0, 6.0)


def test_e6_two_players_reaching_seven_together_play_on() -> None:
    state = state_with(
        [army("Incantation", "Incantation"), army("Incantation", "Incantation")], [2, 2]
    )
    play(state, (0, 0), (1, 0), (0, "Board of Monopoly"), (1, "Board of Monopoly"))
    assert not state.over
    assert state.view(0)["phase"] == {"name": "investing"}
