"""Every card's numbers and special rule, one behaviour at a time."""

from __future__ import annotations

import pytest

from engine.economancy import EconomancyRules
from engine.economancy.cards import BASE_SHOP, CARDS, SIMPLE_SHOP
from tests.economancy.helpers import SIMPLE, army, play, state_with

BASE = EconomancyRules(cards="base")

# name: cost, attack, defence, points, per player, income day 1/2/3 (the reference table)
REFERENCE = {
    "Sorcerer's Stipend": (None, 0, 0, 0, 1, (2, 1, 1)),
    "Board of Monopoly": (2, 1, 1, 1, 2, (0, 0, 0)),
    "Incantation": (4, 1, 1, 3, 3, (0, 0, 0)),
    "Worker": (1, 1, 2, 0, 2, (0, 1, 1)),
    "Magic Bean Stock": (1, 1, 1, 0, 1, (0, 0, 0)),
    "Bubble": (2, 9, 2, 0, 1, (0, 0, 0)),
    "Ghost": (2, 3, 2, 0, 2, (0, 0, 1)),
    "Senior Worker": (2, 2, 2, 0, 2, (1, 1, 1)),
    "Gold Fish": (3, 1, 2, 0, 1, (0, 0, 4)),
    "Wall of Wealth": (1, 1, 2, 0, 2, (1, 0, 0)),
    "Apprentice": (3, 2, 1, 0, 1, (1, 1, 0)),
    "Thug": (3, 4, 4, 0, 1, (0, 1, 0)),
    "Shield of Greed": (4, 2, 7, 0, 1, (0, 0, 0)),
    "Golem": (5, 7, 7, 0, 1, (0, 0, 0)),
}


def test_the_card_table_matches_the_reference_numbers() -> None:
    table = {c.name: (c.cost, c.attack, c.defence, c.points, c.per_player, c.income) for c in CARDS}
    assert table == REFERENCE


def test_the_base_shop_has_thirteen_cards_and_the_first_subset_eight() -> None:
    assert len(BASE_SHOP) == 13
    assert [CARDS[k].name for k in SIMPLE_SHOP] == [
        "Board of Monopoly",
        "Incantation",
        "Worker",
        "Magic Bean Stock",
        "Bubble",
        "Ghost",
        "Senior Worker",
        "Gold Fish",
    ]


def test_only_bubble_and_the_stipend_cannot_attack_and_only_the_stipend_cannot_defend() -> None:
    assert {c.name for c in CARDS if not c.attacks} == {"Sorcerer's Stipend", "Bubble"}
    assert {c.name for c in CARDS if not c.defends} == {"Sorcerer's Stipend"}
    assert {c.name for c in CARDS if c.defends == 2} == {"Wall of Wealth"}


@pytest.mark.parametrize(
    ("players", "single", "double", "incantations"), [(2, 2, 4, 6), (3, 3, 6, 9), (4, 4, 8, 12)]
)
def test_the_shop_holds_copies_per_player_times_players(
    players: int, single: int, double: int, incantations: int
) -> None:
    from engine.economancy import GAME

    shop = GAME.setup(BASE, players).view(None)["shop"]
    assert shop["Golem"] == single
    assert shop["Wall of Wealth"] == double
    assert shop["Incantation"] == incantations
    assert "Sorcerer's Stipend" not in shop


def _income(names: tuple[str, ...], day_count: int, coins: int) -> tuple[int, int]:
    state = state_with([army(*names), army()], [coins, 0], rules=BASE, day_count=day_count)
    state._income()
    return state.coins[0] - 0, state.buys[0]


@pytest.mark.parametrize(
    ("names", "day", "start", "coins"),
    [
        ((), 1, 1, 3),  # the Stipend: +2 on day 1
        ((), 2, 0, 1),
        ((), 3, 0, 1),
        (("Worker", "Magic Bean Stock", "Senior Worker"), 1, 0, 3),  # the site's example
        (("Worker", "Magic Bean Stock", "Senior Worker"), 1, 1, 5),
        (("Magic Bean Stock", "Gold Fish"), 3, 5, 6 + 2 + 4),  # 5+1=6, +6//3, +4
        (("Gold Fish", "Magic Bean Stock"), 3, 5, 10 + 3),  # the bean sees the fish's coins
        (("Ghost",), 3, 0, 2),
        (("Wall of Wealth",), 1, 0, 3),
        (("Wall of Wealth",), 2, 0, 1),
        (("Apprentice",), 2, 0, 2),
        (("Apprentice",), 3, 0, 1),
        (("Thug",), 2, 0, 2),
        (("Thug",), 1, 0, 2),
    ],
)
def test_income_is_applied_left_to_right(
    names: tuple[str, ...], day: int, start: int, coins: int
) -> None:
    assert _income(names, day, start)[0] == coins


def test_the_apprentice_gives_a_second_buy_on_day_three_only() -> None:
    assert _income(("Apprentice",), 3, 0)[1] == 2
    assert _income(("Apprentice",), 1, 0)[1] == 1
    assert _income(("Apprentice", "Apprentice"), 3, 0)[1] == 3


def test_a_seat_with_two_buys_is_asked_again_in_a_second_buy_round() -> None:
    state = state_with([army("Apprentice"), army("Worker")], [2, 2], rules=BASE, day_count=3)
    state.buys = [2, 1]
    play(state, (0, 0), (1, 0), (0, "Worker"), (1, "Pass"))
    assert state.phase == "buy"
    assert state.to_act() == (0,)
    state.apply(0, "Worker")
    assert state.phase == "investing"
    assert state.view(0)["players"][0]["cards"][-2:] == [
        {"name": "Worker", "uses": 0},
        {"name": "Worker", "uses": 0},
    ]


def test_the_wall_of_wealth_defends_twice_in_one_attack_phase() -> None:
    state = state_with(
        [army("Worker", "Worker", "Worker"), army("Wall of Wealth")], [1, 0], rules=BASE
    )
    play(state, (0, 1), (1, 0), (0, 1))
    assert state.legal_moves(1) == [1]
    state.apply(1, 1)  # Worker 1 vs Wall 2: nothing faints
    state.apply(0, 2)
    assert state.view(1)["players"][1]["cards"][1] == {"name": "Wall of Wealth", "uses": 1}
    assert state.legal_moves(1) == [1]
    state.apply(1, 1)
    state.apply(0, 3)  # the wall is used up: the defender is eliminated unasked
    assert state.over
    assert state.winner == 0


def test_the_shield_of_greed_pays_a_coin_each_time_it_defends() -> None:
    state = state_with(
        [army("Golem", "Ghost"), army("Shield of Greed", "Worker")], [1, 0], rules=BASE
    )
    play(state, (0, 1), (1, 0), (0, 2), (1, 1))  # Ghost 3 vs Shield 7: both hold
    assert state.coins[1] == 1
    assert state.legal_moves(1) == []  # not asked until the next attack
    state.apply(0, 1)
    assert state.legal_moves(1) == [2]  # the shield is used: only the worker is left
    state.apply(1, 2)
    assert state.coins[1] == 1
    assert state.cards[1] == army("Shield of Greed")


def test_a_shield_of_greed_that_faints_still_pays_its_coin() -> None:
    # No shop card attacks above 7: give the Golem an attack of 8 to make the shield faint.
    state = state_with([army("Golem"), army("Shield of Greed")], [1, 0], rules=BASE)
    golem = army("Golem")[1]
    state.attack_values = tuple(8 if k == golem else a for k, a in enumerate(state.attack_values))
    play(state, (0, 1), (1, 0), (0, 1), (1, 1))
    assert state.cards[1] == [0]  # the shield fainted
    assert state.coins[1] == 1  # and paid its coin


def test_bubble_cannot_attack_but_defends_with_its_attack() -> None:
    state = state_with([army("Bubble", "Ghost"), army("Ghost")], [1, 0])
    play(state, (0, 1), (1, 0))
    assert state.legal_moves(0) == [0, 2]
    state_b = state_with([army("Ghost"), army("Bubble")], [1, 0])
    play(state_b, (0, 1), (1, 0), (0, 1), (1, 1))  # Ghost 3 > Bubble 2; Bubble 9 > Ghost 2
    assert state_b.cards[0] == [0]
    assert state_b.cards[1] == [0]


def test_equal_numbers_do_nothing_in_a_fight() -> None:
    state = state_with([army("Senior Worker", "Senior Worker"), army("Senior Worker")], [1, 0])
    play(state, (0, 1), (1, 0), (0, 1), (1, 1))  # 2 vs 2 both ways
    assert len(state.cards[0]) == 3
    assert len(state.cards[1]) == 2


def test_one_attack_meets_every_defender_at_once_and_faints_if_any_is_stronger() -> None:
    state = state_with([army("Ghost"), army("Worker"), army("Bubble")], [1, 0, 0])
    play(state, (0, 1), (1, 0), (2, 0), (0, 1))
    assert state.to_act() == (1, 2)
    state.apply(1, 1)
    assert state.cards[1] == army("Worker")  # nothing resolved before the last defender
    state.apply(2, 1)
    assert state.cards == [[0], [0], [0]]  # ghost 3 beats both defences of 2; bubble 9 > 2


def test_a_fainted_card_goes_to_the_discard_not_back_to_the_shop() -> None:
    state = state_with([army("Ghost"), army("Worker")], [1, 0])
    before = dict(state.shop)
    play(state, (0, 1), (1, 0), (0, 1), (1, 1))
    assert state.shop == before


def test_an_oversubscribed_card_costs_every_chooser_and_the_remaining_copies_are_discarded() -> (
    None
):
    state = state_with([army(), army(), army()], [3, 3, 3])
    state.shop[8] = 2  # Gold Fish: 2 copies left
    play(state, (0, 0), (1, 0), (2, 0), (0, "Gold Fish"), (1, "Gold Fish"), (2, "Gold Fish"))
    assert state.shop[8] == 0
    assert all(cards == [0] for cards in state.cards)
    assert state.coins == [1, 1, 1]  # all paid 3 (then day 2's income: +1)


def test_naming_a_sold_out_card_costs_its_price_and_gives_nothing() -> None:
    state = state_with([army(), army()], [3, 3])
    state.shop[8] = 0
    play(state, (0, 0), (1, 0), (0, "Gold Fish"), (1, "Pass"))
    assert state.cards[0] == [0]
    assert state.coins == [0 + 1, 3 + 1]


def test_a_card_bought_goes_to_the_right_end_of_the_army() -> None:
    state = state_with([army("Ghost"), army()], [1, 1])
    play(state, (0, 0), (1, 0), (0, "Worker"), (1, "Pass"))
    assert state.cards[0] == army("Ghost", "Worker")


def test_all_cards_untap_when_the_attack_phase_ends() -> None:
    state = state_with([army("Ghost", "Ghost"), army("Worker", "Thug")], [1, 0], rules=BASE)
    play(state, (0, 1), (1, 0), (0, 1), (1, 2))
    assert state.uses[1][2] == 1
    state.apply(0, 0)
    assert all(u == 0 for uses in state.uses for u in uses)


def test_the_day_limit_ends_the_game_as_a_draw() -> None:
    rules = EconomancyRules(cards="simple", day_limit=2)
    state = state_with([army(), army()], [0, 0], rules=rules, day_count=2)
    play(state, (0, 0), (1, 0), (0, "Pass"), (1, "Pass"))
    assert state.over
    assert state.view(None)["phase"] == {"name": "end", "winner": False}
    result = state.result()
    assert result is not None
    assert (result.places, result.reason, result.is_draw) == ((1, 1), "day_limit", True)


def test_places_rank_the_eliminated_by_how_long_they_lasted() -> None:
    state = state_with(
        [army("Ghost", "Ghost"), army(), army("Worker"), army("Worker")], [1, 0, 0, 0]
    )
    play(state, (0, 1), (1, 0), (2, 0), (3, 0), (0, 1))  # seat 1 out at once
    play(state, (2, 1), (3, 1))
    play(state, (0, 2))  # seats 2 and 3 have nothing left: out together
    result = state.result()
    assert result is not None
    assert result.places == (1, 4, 2, 2)
    assert state.eliminated == [(1,), (2, 3)]


def test_the_winner_check_runs_after_a_fight_with_points() -> None:
    state = state_with(
        [
            army("Incantation", "Incantation", "Board of Monopoly", "Ghost"),
            army("Incantation", "Incantation", "Board of Monopoly"),
        ],
        [1, 0],
    )
    play(state, (0, 1), (1, 0), (0, 4), (1, 3))  # ghost knocks out the board: 7 to 6
    assert state.over
    assert (state.winner, state.reason) == (0, "points")


def test_simple_rules_shop_refuses_a_base_card() -> None:
    from engine.economancy.errors import NotInShop

    state = state_with([army(), army()], [9, 9], rules=SIMPLE)
    play(state, (0, 0), (1, 0))
    with pytest.raises(NotInShop):
        state.apply(0, "Golem")
