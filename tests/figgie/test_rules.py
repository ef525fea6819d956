"""Figgie's rules: the deal, the market, the settlement, time, views, storage."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dealing import commitment, seed_sequence
from engine.figgie import GAME, FiggieRules, Order
from engine.figgie.deal import deal
from engine.figgie.decks import DECKS, GOAL, SUITS
from engine.figgie.errors import (
    CrossesTheBook,
    NoCardToSell,
    NoQuoteToCancel,
    NothingToTake,
    NotSeated,
    PriceNotInteger,
    PriceOutOfRange,
    TradingOver,
    UnknownSuit,
)
from engine.figgie.market import ASK, BID, CANCEL_ASK, CANCEL_BID, HIT, LIFT, Market, settlement
from engine.games import definition
from engine.protocol import GameOver, GameState, MalformedMove, MoveRefused, TurnMode


def new_game(n: int = 4, master: int = 1, now: float = 0.0):
    return GAME.setup(GAME.default_rules(), n, seed_sequence(master), now=now)


def holder_of(state, suit: int, but: int = -1) -> int:
    return next(s for s in range(state.n_seats) if s != but and state.market.hands[s][suit])


def test_the_registry_finds_figgie_and_its_state_speaks_the_protocol():
    assert definition("figgie") is not None
    state = new_game()
    assert isinstance(state, GameState)
    turn = state.turn()
    assert turn.mode is TurnMode.OPEN and turn.seats == frozenset(range(4))
    assert turn.deadline == 240.0


@given(st.binary(min_size=32, max_size=32), st.sampled_from([4, 5]))
def test_a_deal_gives_every_card_of_its_deck_and_equal_hands(seed, n):
    deck, hands = deal(seed, n)
    assert [sum(column) for column in zip(*hands, strict=True)] == list(DECKS[deck])
    assert {sum(hand) for hand in hands} == {40 // n}


def test_four_players_pay_50_and_five_pay_40_into_a_pot_of_200():
    four, five = new_game(4), new_game(5)
    assert four.market.chips == [300] * 4 and four.pot == 200
    assert five.market.chips == [310] * 5 and five.pot == 200
    assert {sum(h) for h in five.market.hands} == {8}


def test_a_new_quote_replaces_the_seats_own_quote_and_the_best_is_the_highest_bid():
    state = new_game()
    state.apply(0, Order.bid(0, 5))
    state.apply(1, Order.bid(0, 7))
    state.apply(0, Order.bid(0, 6))
    assert state.market.bids[0][0] == 6
    assert state.market.best_bid(0) == (7, 1)


def test_between_equal_prices_the_earliest_quote_is_best():
    state = new_game()
    state.apply(2, Order.bid(1, 4))
    state.apply(1, Order.bid(1, 4))
    assert state.market.best_bid(1) == (4, 2)
    state.apply(2, Order.bid(1, 4))  # re-posting goes to the back
    assert state.market.best_bid(1) == (4, 1)


def test_a_trade_moves_a_card_and_chips_and_clears_every_quote_in_every_suit():
    state = new_game()
    seller = holder_of(state, 2)
    buyer = (seller + 1) % 4
    state.apply(seller, Order.ask(2, 9))
    state.apply(buyer, Order.bid(0, 3))
    state.apply((seller + 2) % 4, Order.bid(3, 2))
    before_hand = list(state.market.hands[buyer])
    events = state.apply(buyer, Order(LIFT, 2))
    assert events[0].kind == "trade" and events[0].data["price"] == 9
    assert state.market.hands[buyer][2] == before_hand[2] + 1
    assert state.market.chips[buyer] == 291 and state.market.chips[seller] == 309
    assert state.market.quote_count() == 0


def test_a_lift_skips_the_seats_own_ask_and_takes_the_best_other():
    state = new_game()
    a = holder_of(state, 0)
    b = holder_of(state, 0, but=a)
    state.apply(a, Order.ask(0, 3))
    state.apply(b, Order.ask(0, 8))
    (event,) = state.apply(a, Order(LIFT, 0))
    assert (event.data["seller"], event.data["price"]) == (b, 8)


def test_crossing_the_book_is_refused_with_the_rule_named():
    state = new_game()
    seller = holder_of(state, 1)
    state.apply(seller, Order.ask(1, 6))
    with pytest.raises(CrossesTheBook, match="below the best ask"):
        state.apply((seller + 1) % 4, Order.bid(1, 6))
    with pytest.raises(CrossesTheBook, match="your own ask"):
        state.apply(seller, Order.bid(1, 7))


@pytest.mark.parametrize(
    ("move", "error"),
    [
        (Order(BID, 0, 0), PriceOutOfRange),
        (Order(BID, 0, 100), PriceOutOfRange),
        (Order(BID, 0, 2.5), PriceNotInteger),  # type: ignore[arg-type]
        (Order(BID, 7, 5), UnknownSuit),
        (Order(CANCEL_BID, 0), NoQuoteToCancel),
        (Order(CANCEL_ASK, 0), NoQuoteToCancel),
        (Order(LIFT, 0), NothingToTake),
    ],
)
def test_bad_orders_are_refused_and_change_nothing(move, error):
    state = new_game()
    before = state.to_dict()
    with pytest.raises(error) as caught:
        state.apply(0, move)
    assert isinstance(caught.value, MoveRefused) and caught.value.message
    assert state.to_dict() == before


def test_an_ask_or_a_hit_on_a_suit_not_held_is_refused():
    state = new_game()
    seat = next(s for s in range(4) if 0 in state.market.hands[s])
    empty = state.market.hands[seat].index(0)
    with pytest.raises(NoCardToSell, match="hold no"):
        state.apply(seat, Order.ask(empty, 5))
    state.apply((seat + 1) % 4, Order.bid(empty, 5))
    with pytest.raises(NoCardToSell):
        state.apply(seat, Order(HIT, empty))


def test_orders_at_or_after_the_deadline_and_from_unseated_seats_are_refused():
    state = new_game(now=100.0)
    with pytest.raises(TradingOver, match="Trading has ended"):
        state.apply(0, Order.bid(0, 1), now=340.0)
    with pytest.raises(NotSeated):
        state.apply(4, Order.bid(0, 1), now=101.0)
    state.apply(0, Order.bid(0, 1), now=339.9)
    assert state.advance(339.99) == []
    (event,) = state.advance(340.0)
    assert event.kind == "settled" and state.result() is not None
    with pytest.raises(GameOver):
        state.apply(0, Order.bid(0, 1), now=341.0)


def test_the_settlement_pays_10_a_goal_card_and_the_bonus_to_the_majority():
    deck = 1  # goal clubs, 10 cards: bonus 100
    hands = [[3, 4, 2, 1], [3, 3, 2, 2], [3, 2, 2, 3], [3, 1, 2, 4]]
    assert settlement(hands, deck) == [140, 30, 20, 10]


def test_an_uneven_split_gives_the_leftover_chip_to_the_lowest_tied_seat():
    deck = 1  # 10 goal cards, bonus 100, three seats tie with 3
    hands = [[3, 1, 3, 3], [3, 3, 2, 2], [3, 3, 2, 2], [3, 3, 1, 3]]
    assert settlement(hands, deck) == [10, 64, 63, 63]


orders = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.sampled_from([BID, ASK, CANCEL_BID, CANCEL_ASK, LIFT, HIT]),
        st.integers(0, 3),
        st.integers(-2, 102),
    ),
    max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), orders)
def test_chips_are_conserved_and_the_book_never_crosses_in_any_game(master, sequence):
    state = new_game(master=master)
    for seat, kind, suit, price in sequence:
        with contextlib.suppress(MoveRefused):
            state.apply(seat, Order(kind, suit, price if kind in (BID, ASK) else None), now=1.0)
        market = state.market
        assert sum(market.chips) + state.pot == 4 * 350
        for s in range(4):
            bid, ask = market.best_bid(s), market.best_ask(s)
            assert not (bid and ask and bid[0] >= ask[0])
            assert all(market.hands[p][s] or not market.asks[p][s] for p in range(4))
    state.advance(240.0)
    assert sum(state.market.chips) == 4 * 350
    assert GAME.restore(state.to_dict()).to_dict() == state.to_dict()


@given(st.integers(0, 10**6), st.sampled_from([4, 5]))
def test_a_seat_sees_its_own_hand_only_until_the_settlement_reveals_all(master, n):
    state = new_game(n, master)
    secret = state.seed.hex()
    for viewer in [None, *range(n)]:
        view = state.view(viewer)
        text = repr(view)
        assert secret not in text and "goal_suit" not in text
        assert ("hand" in view) == (viewer is not None)
        if viewer is not None:
            assert list(view["hand"].values()) == state.market.hands[viewer]
    assert state.view(None)["commitment"] == commitment(state.seed)
    state.advance(1e9)
    view = state.view(None)
    assert view["settlement"]["seed"] == secret
    assert view["settlement"]["goal_suit"] == SUITS[GOAL[state.deck]]


def test_results_place_seats_by_final_chips_with_ties_sharing():
    state = new_game()
    state.advance(240.0)
    result = state.result()
    assert result is not None
    chips = state.market.chips
    assert result.places == tuple(1 + sum(c > mine for c in chips) for mine in chips)


def test_moves_are_read_from_json_and_bad_json_is_refused_with_a_reason():
    assert GAME.parse_move({"type": "bid", "suit": "Hearts", "price": 7}) == Order(BID, 2, 7)
    assert GAME.parse_move({"type": "lift", "suit": "S"}) == Order(LIFT, 0)
    assert GAME.move_to_json(Order(ASK, 3, 9)) == {"type": "ask", "suit": "diamonds", "price": 9}
    with pytest.raises(UnknownSuit):
        GAME.parse_move({"type": "bid", "suit": "stars", "price": 7})
    with pytest.raises(PriceNotInteger):
        GAME.parse_move({"type": "ask", "suit": "clubs", "price": "7"})
    with pytest.raises(MalformedMove):
        GAME.parse_move({"type": "buy", "suit": "clubs"})
    with pytest.raises(MalformedMove):
        GAME.parse_move({"type": "lift", "suit": "clubs", "price": 3})


def test_rules_from_json_name_a_bad_value():
    assert GAME.rules_from_dict({"max_price": 30}) == FiggieRules(max_price=30)
    with pytest.raises(Exception, match="max_price"):
        GAME.rules_from_dict({"max_price": 1})
    with pytest.raises(Exception, match="no rule"):
        GAME.rules_from_dict({"jokers": 1})


def test_a_stored_game_whose_chips_disagree_with_its_tape_is_not_restored():
    state = new_game()
    seller = holder_of(state, 0)
    state.apply(seller, Order.ask(0, 5))
    state.apply((seller + 1) % 4, Order(LIFT, 0))
    data = state.to_dict()
    assert GAME.restore(data).to_dict() == data
    data["chips"][0] += 1
    with pytest.raises(ValueError, match="not a stored Figgie game"):
        GAME.restore(data)


def test_the_market_refuses_an_order_kind_it_does_not_know():
    market = Market([[10, 0, 0, 0]] * 4, [300] * 4, 30)
    with pytest.raises(ValueError, match="unknown order kind"):
        market.refusal(0, 9, 0)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
order_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["bid", "ask", "lift", "hit", "cancel_bid", "sell"])},
    optional={"suit": json_values | st.sampled_from(SUITS), "price": json_values},
)


@given(json_values | order_like)
def test_any_json_is_read_as_an_order_or_refused_as_malformed(data):
    message = None
    try:
        move = GAME.parse_move(data)
    except MalformedMove as exc:
        message = exc.message
    if message is not None:
        assert message.strip()
    else:
        assert GAME.parse_move(GAME.move_to_json(move)) == move


@given(st.integers(0, 3), st.sampled_from([BID, ASK]), st.integers(-5, 200))
def test_a_price_is_accepted_exactly_when_it_is_within_the_range(seat, kind, price):
    state = new_game(master=seat)
    suit = state.market.hands[seat].index(max(state.market.hands[seat]))
    try:
        state.apply(seat, Order(kind, suit, price))
    except PriceOutOfRange:
        assert not 1 <= price <= 99
    else:
        assert 1 <= price <= 99


def test_every_legal_move_is_accepted_and_every_other_order_refused():
    state = new_game(master=5)
    seller = holder_of(state, 3)
    state.apply(seller, Order.ask(3, 12))
    state.apply((seller + 1) % 4, Order.bid(3, 4))
    seat = (seller + 2) % 4
    legal = set(state.legal_moves(seat))
    candidates = [Order(k, s) for k in (CANCEL_BID, CANCEL_ASK, LIFT, HIT) for s in range(4)]
    prices = (1, 3, 4, 5, 11, 12, 13, 30, 99)
    candidates += [Order(k, s, p) for k in (BID, ASK) for s in range(4) for p in prices]
    for move in candidates:
        copy = GAME.restore(state.to_dict())
        try:
            copy.apply(seat, move)
        except MoveRefused:
            assert move not in legal
        else:
            assert move in legal
    assert Order(LIFT, 3) in legal and Order.bid(3, 12) not in legal
