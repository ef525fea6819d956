"""The market and the settlement: the one implementation of Figgie's trading rules.

Both the game the service hosts (:mod:`engine.figgie.game`, where time is the service's
clock) and the research simulator (:mod:`engine.figgie.sim`, where time is 240 ticks) play
through a :class:`Market`. Orders are small integers: :data:`BID`, :data:`ASK`,
:data:`CANCEL_BID`, :data:`CANCEL_ASK`, :data:`LIFT`, :data:`HIT`, each on a suit
(0..3 = spades, clubs, hearts, diamonds) and, for a quote, a price.

**The book.** Each seat has at most one bid and one ask per suit; a new quote replaces the
seat's own quote on that side (and goes to the back of the queue at its price). The best
bid is the highest, the best ask the lowest; between seats quoting the same price, the
earliest quote comes first.

**The rules of an order** (:meth:`Market.refusal` says which one an order breaks):

- a price is an integer from 1 to ``max_price``;
- an ask needs at least one card of the suit (every standing ask is so covered: a trade
  clears every quote, so a card cannot leave a hand while its ask stands);
- a quote never crosses the book: a bid must be below the best ask of the suit and an ask
  above its best bid, the seat's own quotes included (to trade at a standing price, lift or
  hit it);
- a lift buys one card at the best ask of the *other* seats (a seat's own ask is skipped:
  nobody trades with themselves), a hit sells one at their best bid and needs a card of the
  suit; the side must hold such a quote;
- a cancel needs the quote it cancels;
- chips may go below zero (as in the figgie.com app): a bid is not limited by chips.

**A trade** moves one card from seller to buyer and the price in chips from buyer to
seller, is appended to the tape, and **clears every quote of every seat in every suit**.

**The settlement** (:func:`settle`): each goal-suit card pays its holder 10 from the pot;
the rest (100 with a 10-card goal suit, 120 with an 8-card one) goes to the seat holding
the most goal cards, or is split among the tied seats: each gets the whole part of the
equal share, and the chips left over (at most a few) go one each to the tied seats in seat
order, lowest seat first. The pot is thus paid out exactly and chips are conserved.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from engine.figgie.decks import BONUS, DECKS, GOAL, GOAL_CARD_PAYOUT, N_SUITS, SUITS
from engine.figgie.errors import (
    CrossesTheBook,
    NoCardToSell,
    NoQuoteToCancel,
    NothingToTake,
    PriceNotInteger,
    PriceOutOfRange,
    UnknownSuit,
)
from engine.protocol import MoveRefused

BID: Final = 0
ASK: Final = 1
CANCEL_BID: Final = 2
CANCEL_ASK: Final = 3
LIFT: Final = 4
HIT: Final = 5
ORDER_KINDS: Final = ("bid", "ask", "cancel_bid", "cancel_ask", "lift", "hit")
"""The orders' names by number (their JSON ``type``)."""

NO_QUOTE: Final = 0
"""The price stored where a seat has no quote (prices start at 1)."""


class Trade(NamedTuple):
    """One card of ``suit`` sold by ``seller`` to ``buyer`` for ``price`` chips."""

    buyer: int
    seller: int
    suit: int
    price: int

    def to_dict(self) -> dict[str, int | str]:
        return {
            "buyer": self.buyer,
            "seller": self.seller,
            "suit": SUITS[self.suit],
            "price": self.price,
        }


class Market:
    """Hands, chips, the book and the tape of one game (see the module docstring).

    ``bids[seat][suit]`` and ``asks[seat][suit]`` hold the price of a seat's quote, or
    :data:`NO_QUOTE`; ``bid_order``/``ask_order`` the sequence number that ranks equal
    prices (earlier first). The lists are read freely (views, agents, the simulator) but
    changed only through :meth:`execute`.
    """

    __slots__ = (
        "ask_order",
        "asks",
        "bid_order",
        "bids",
        "chips",
        "hands",
        "max_price",
        "n_seats",
        "sequence",
        "tape",
    )

    def __init__(self, hands: Sequence[Sequence[int]], chips: Sequence[int], max_price: int):
        self.n_seats = len(hands)
        self.hands = [list(hand) for hand in hands]
        self.chips = list(chips)
        self.max_price = max_price
        self.bids = [[NO_QUOTE] * N_SUITS for _ in hands]
        self.asks = [[NO_QUOTE] * N_SUITS for _ in hands]
        self.bid_order = [[0] * N_SUITS for _ in hands]
        self.ask_order = [[0] * N_SUITS for _ in hands]
        self.sequence = 0
        self.tape: list[Trade] = []

    # ------------------------------------------------------------------ the book

    def best_bid(self, suit: int, exclude: int = -1) -> tuple[int, int] | None:
        """``(price, seat)`` of the best bid in ``suit`` (of the seats other than
        ``exclude``), or None when there is none."""
        best_price = NO_QUOTE
        best_seat = -1
        best_order = 0
        bids = self.bids
        order = self.bid_order
        for seat in range(self.n_seats):
            price = bids[seat][suit]
            if (
                price
                and seat != exclude
                and (price > best_price or (price == best_price and order[seat][suit] < best_order))
            ):
                best_price, best_seat, best_order = price, seat, order[seat][suit]
        return None if best_seat < 0 else (best_price, best_seat)

    def best_ask(self, suit: int, exclude: int = -1) -> tuple[int, int] | None:
        """``(price, seat)`` of the best (lowest) ask in ``suit`` (of the seats other than
        ``exclude``), or None when there is none."""
        best_price = 0
        best_seat = -1
        best_order = 0
        asks = self.asks
        order = self.ask_order
        for seat in range(self.n_seats):
            price = asks[seat][suit]
            if (
                price
                and seat != exclude
                and (
                    best_seat < 0
                    or price < best_price
                    or (price == best_price and order[seat][suit] < best_order)
                )
            ):
                best_price, best_seat, best_order = price, seat, order[seat][suit]
        return None if best_seat < 0 else (best_price, best_seat)

    def quotes(self, suit: int, side: int) -> list[tuple[int, int]]:
        """Every ``(price, seat)`` quote on one side (:data:`BID` or :data:`ASK`) of
        ``suit``, best first."""
        if side == BID:
            prices, order = self.bids, self.bid_order
            key = lambda seat: (-prices[seat][suit], order[seat][suit])  # noqa: E731
        else:
            prices, order = self.asks, self.ask_order
            key = lambda seat: (prices[seat][suit], order[seat][suit])  # noqa: E731
        seats = sorted((s for s in range(self.n_seats) if prices[s][suit]), key=key)
        return [(prices[seat][suit], seat) for seat in seats]

    # ------------------------------------------------------------------ orders

    def refusal(
        self, seat: int, kind: int, suit: object, price: object = None
    ) -> MoveRefused | None:
        """The rule the order breaks (an error to raise), or None when it is allowed now.
        ``seat`` must be a seat of the game (the caller checks)."""
        if type(suit) is not int or not 0 <= suit < N_SUITS:
            return UnknownSuit(f"{suit!r} is not a suit: the suits are {', '.join(SUITS)}")
        if kind in (BID, ASK):
            if type(price) is not int:
                return PriceNotInteger(f"A price is a whole number of chips, not {price!r}")
            if not 1 <= price <= self.max_price:
                return PriceOutOfRange(
                    f"A price must be from 1 to {self.max_price} chips, not {price}"
                )
            name = SUITS[suit]
            if kind == BID:
                lowest = self.best_ask(suit)
                if lowest is not None and price >= lowest[0]:
                    whose = "your own" if lowest[1] == seat else "the best"
                    return CrossesTheBook(
                        f"A bid of {price} on {name} would cross {whose} ask of {lowest[0]}: "
                        "a bid must be below the best ask (lift the ask to buy at it)"
                    )
                return None
            if not self.hands[seat][suit]:
                return NoCardToSell(f"You hold no {name}: you can only offer a suit you hold")
            highest = self.best_bid(suit)
            if highest is not None and price <= highest[0]:
                whose = "your own" if highest[1] == seat else "the best"
                return CrossesTheBook(
                    f"An ask of {price} on {name} would cross {whose} bid of {highest[0]}: "
                    "an ask must be above the best bid (hit the bid to sell at it)"
                )
            return None
        name = SUITS[suit]
        if kind == LIFT:
            if self.best_ask(suit, exclude=seat) is None:
                return NothingToTake(f"No other player offers {name}: there is no ask to lift")
            return None
        if kind == HIT:
            if not self.hands[seat][suit]:
                return NoCardToSell(f"You hold no {name}: you can only sell a suit you hold")
            if self.best_bid(suit, exclude=seat) is None:
                return NothingToTake(f"No other player bids for {name}: there is no bid to hit")
            return None
        if kind == CANCEL_BID:
            if not self.bids[seat][suit]:
                return NoQuoteToCancel(f"You have no bid on {name} to cancel")
            return None
        if kind == CANCEL_ASK:
            if not self.asks[seat][suit]:
                return NoQuoteToCancel(f"You have no ask on {name} to cancel")
            return None
        raise ValueError(f"unknown order kind {kind!r}")

    def execute(self, seat: int, kind: int, suit: int, price: int = 0) -> Trade | None:
        """Carry out an order :meth:`refusal` allows (unchecked here: check first);
        returns the trade it made, if any."""
        if kind == BID:
            self.sequence += 1
            self.bids[seat][suit] = price
            self.bid_order[seat][suit] = self.sequence
            return None
        if kind == ASK:
            self.sequence += 1
            self.asks[seat][suit] = price
            self.ask_order[seat][suit] = self.sequence
            return None
        if kind == CANCEL_BID:
            self.bids[seat][suit] = NO_QUOTE
            return None
        if kind == CANCEL_ASK:
            self.asks[seat][suit] = NO_QUOTE
            return None
        if kind == LIFT:
            best = self.best_ask(suit, exclude=seat)
            assert best is not None
            trade = Trade(seat, best[1], suit, best[0])
        else:
            best = self.best_bid(suit, exclude=seat)
            assert best is not None
            trade = Trade(best[1], seat, suit, best[0])
        self._trade(trade)
        return trade

    def order(self, seat: int, kind: int, suit: object, price: object = None) -> Trade | None:
        """Check, then carry out, an order: raises the refusal (changing nothing)."""
        refused = self.refusal(seat, kind, suit, price)
        if refused is not None:
            raise refused
        return self.execute(seat, kind, suit, price)  # type: ignore[arg-type]

    def _trade(self, trade: Trade) -> None:
        buyer, seller, suit, price = trade
        self.hands[buyer][suit] += 1
        self.hands[seller][suit] -= 1
        self.chips[buyer] -= price
        self.chips[seller] += price
        self.tape.append(trade)
        self.clear()

    def clear(self) -> None:
        """Cancel every quote of every seat in every suit (what a trade does)."""
        n = self.n_seats
        self.bids = [[NO_QUOTE] * N_SUITS for _ in range(n)]
        self.asks = [[NO_QUOTE] * N_SUITS for _ in range(n)]

    def quote_count(self) -> int:
        return sum(1 for row in self.bids for p in row if p) + sum(
            1 for row in self.asks for p in row if p
        )


def settlement(hands: Sequence[Sequence[int]], deck: int) -> list[int]:
    """What each seat receives from the pot of 200 at the end (see the module docstring):
    10 a goal card, and the bonus to the holder(s) of the most goal cards, the leftover
    chips of an uneven split one each to the tied seats from the lowest seat."""
    goal = GOAL[deck]
    counts = [hand[goal] for hand in hands]
    if sum(counts) != DECKS[deck][goal]:
        raise ValueError("the hands do not hold the deck's goal cards")
    most = max(counts)
    leaders = [seat for seat, count in enumerate(counts) if count == most]
    share, left = divmod(BONUS[deck], len(leaders))
    payouts = [GOAL_CARD_PAYOUT * count for count in counts]
    for rank, seat in enumerate(leaders):
        payouts[seat] += share + (1 if rank < left else 0)
    return payouts
