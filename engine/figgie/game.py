"""Figgie behind the game protocol: the rules value, orders as moves, the state in time.

**Players and chips.** 4 players each pay 50 into the pot and get 10 cards; 5 players pay
40 and get 8; the pot is 200 either way. Every seat starts with ``starting_chips`` (350 by
default, as in the figgie.com app) less the buy-in.

**Time.** Trading opens at the ``now`` given to :meth:`FiggieGame.setup` and lasts
``trading_seconds`` (240 by default): the :class:`~engine.protocol.Turn` is ``OPEN`` for
every seat with that deadline. An order at or after the deadline is refused
(:class:`~engine.figgie.errors.TradingOver`); :meth:`FiggieState.advance` at or past it
ends trading and settles (:func:`engine.figgie.market.settlement`). The state never reads a
clock.

**Moves** are orders (:class:`Order`); their JSON form is ``{"type": "bid", "suit":
"hearts", "price": 7}`` with ``type`` one of ``bid``, ``ask``, ``cancel_bid``,
``cancel_ask``, ``lift``, ``hit``; ``price`` only for ``bid`` and ``ask``; a suit by name
(``"spades"``), singular or letter (``"spade"``, ``"S"``), any case. The rules of the
market are in :mod:`engine.figgie.market`.

**What each viewer sees** (:meth:`FiggieState.view`): a seat its own hand; everyone every
seat's chips and number of cards, the whole book with its owners, the tape of trades, the
deadline and the deal's commitment. The other hands, the deck, the goal suit and the seed
stay hidden until the settlement, which reveals them all with the payouts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from engine.dealing import SeedSource, commitment
from engine.figgie.deal import deal
from engine.figgie.decks import DECKS, GOAL, N_DECKS, N_SUITS, POT, SUITS, suit_index
from engine.figgie.errors import NotSeated, PriceNotInteger, TradingOver, UnknownSuit
from engine.figgie.market import (
    ASK,
    BID,
    CANCEL_ASK,
    CANCEL_BID,
    HIT,
    LIFT,
    NO_QUOTE,
    ORDER_KINDS,
    Market,
    Trade,
    settlement,
)
from engine.protocol import (
    Event,
    GameOver,
    InvalidRules,
    Json,
    MalformedMove,
    RecordStyle,
    Result,
    Seat,
    Turn,
    TurnMode,
    Viewer,
)

BUY_IN: Final = {4: 50, 5: 40}
"""Each player's share of the pot of 200, by number of players."""
CARDS_EACH: Final = {4: 10, 5: 8}


@dataclass(frozen=True, slots=True)
class FiggieRules:
    """The rules value. ``max_price`` bounds every quote (prices are 1..max_price)."""

    starting_chips: int = 350
    trading_seconds: float = 240.0
    max_price: int = 99

    BOUNDS: ClassVar[dict[str, tuple[float, float]]] = {
        "starting_chips": (50, 1_000_000),
        "trading_seconds": (1, 86_400),
        "max_price": (2, 10_000),
    }

    def __post_init__(self) -> None:
        for key, (low, high) in self.BOUNDS.items():
            value = getattr(self, key)
            kind = float if key == "trading_seconds" else int
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InvalidRules(f"{key} must be a number, not {value!r}")
            if kind is int and not isinstance(value, int):
                raise InvalidRules(f"{key} must be a whole number, not {value!r}")
            if not low <= value <= high:
                raise InvalidRules(f"{key} must be from {low:g} to {high:g}, not {value!r}")

    def to_dict(self) -> dict[str, Json]:
        return {
            "starting_chips": self.starting_chips,
            "trading_seconds": self.trading_seconds,
            "max_price": self.max_price,
        }


@dataclass(frozen=True, slots=True)
class Order:
    """One order: ``kind`` a number of :mod:`engine.figgie.market` (``BID`` ... ``HIT``),
    ``suit`` 0..3, ``price`` for a bid or an ask (None otherwise)."""

    kind: int
    suit: int
    price: int | None = None

    @classmethod
    def bid(cls, suit: int, price: int) -> Order:
        return cls(BID, suit, price)

    @classmethod
    def ask(cls, suit: int, price: int) -> Order:
        return cls(ASK, suit, price)

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = {"type": ORDER_KINDS[self.kind], "suit": SUITS[self.suit]}
        if self.price is not None:
            out["price"] = self.price
        return out


def _quote_json(price: int, seat: int) -> dict[str, int]:
    return {"seat": seat, "price": price}


class FiggieState:
    """One game of Figgie (see the module docstring)."""

    def __init__(
        self,
        rules: FiggieRules,
        seed: bytes,
        deck: int,
        hands: Sequence[Sequence[int]],
        opened_at: float,
    ) -> None:
        n = len(hands)
        self.rules = rules
        self.seed = seed
        self.deck = deck
        self.initial_hands = [list(hand) for hand in hands]
        chips = [rules.starting_chips - BUY_IN[n]] * n
        self.market = Market(hands, chips, rules.max_price)
        self.opened_at = opened_at
        self.deadline = opened_at + rules.trading_seconds
        self.latest = opened_at
        self.payouts: list[int] | None = None

    @property
    def n_seats(self) -> int:
        return self.market.n_seats

    @property
    def settled(self) -> bool:
        return self.payouts is not None

    @property
    def pot(self) -> int:
        return 0 if self.settled else POT

    def turn(self) -> Turn:
        if self.settled:
            return Turn.nobody()
        return Turn(frozenset(range(self.n_seats)), TurnMode.OPEN, self.deadline)

    def legal_moves(self, seat: Seat) -> list[Order]:
        """Every order ``seat`` may make now, complete (quotes at every allowed price)."""
        if self.settled or not 0 <= seat < self.n_seats:
            return []
        market = self.market
        moves = []
        for suit in range(N_SUITS):
            for kind in (CANCEL_BID, CANCEL_ASK, LIFT, HIT):
                if market.refusal(seat, kind, suit) is None:
                    moves.append(Order(kind, suit))
            for kind in (BID, ASK):
                for price in range(1, market.max_price + 1):
                    if market.refusal(seat, kind, suit, price) is None:
                        moves.append(Order(kind, suit, price))
        return moves

    def apply(self, seat: Seat, move: Order, now: float = 0.0) -> list[Event]:
        if type(seat) is not int or not 0 <= seat < self.n_seats:
            raise NotSeated(f"Seat {seat!r} is not in this game: only its players may trade")
        if self.settled:
            raise GameOver("The game is over: trading has ended and the pot is paid out")
        if now >= self.deadline:
            raise TradingOver(
                "Trading has ended: orders are taken only before the deadline "
                f"({now - self.deadline:.3f} s late)"
            )
        if move.kind not in (BID, ASK, CANCEL_BID, CANCEL_ASK, LIFT, HIT):
            raise MalformedMove(f"{move.kind!r} is not an order")
        trade = self.market.order(seat, move.kind, move.suit, move.price)
        self.latest = max(self.latest, now)
        if trade is not None:
            return [Event("trade", seat, {**trade.to_dict(), "at": now})]
        data: dict[str, Json] = {"suit": SUITS[move.suit]}
        if move.price is not None:
            data["price"] = move.price
        return [Event(ORDER_KINDS[move.kind], seat, data)]

    def advance(self, now: float) -> list[Event]:
        if self.settled or now < self.deadline:
            return []
        self.latest = max(self.latest, now)
        return [self._settle()]

    def _settle(self) -> Event:
        market = self.market
        market.clear()
        payouts = settlement(market.hands, self.deck)
        for seat, paid in enumerate(payouts):
            market.chips[seat] += paid
        self.payouts = payouts
        return Event("settled", None, self._reveal())

    def _reveal(self) -> dict[str, Json]:
        assert self.payouts is not None
        return {
            "deck": {SUITS[s]: DECKS[self.deck][s] for s in range(N_SUITS)},
            "goal_suit": SUITS[GOAL[self.deck]],
            "hands": [self._hand_json(hand) for hand in self.market.hands],
            "initial_hands": [self._hand_json(hand) for hand in self.initial_hands],
            "payouts": list(self.payouts),
            "chips": list(self.market.chips),
            "seed": self.seed.hex(),
        }

    @staticmethod
    def _hand_json(hand: Sequence[int]) -> dict[str, int]:
        return {SUITS[s]: hand[s] for s in range(N_SUITS)}

    def book(self) -> dict[str, Json]:
        market = self.market
        out: dict[str, Json] = {}
        for suit in range(N_SUITS):
            best_bid = market.best_bid(suit)
            best_ask = market.best_ask(suit)
            out[SUITS[suit]] = {
                "bids": [_quote_json(p, s) for p, s in market.quotes(suit, BID)],
                "asks": [_quote_json(p, s) for p, s in market.quotes(suit, ASK)],
                "best_bid": None if best_bid is None else _quote_json(*best_bid),
                "best_ask": None if best_ask is None else _quote_json(*best_ask),
            }
        return out

    def view(self, viewer: Viewer, now: float | None = None) -> dict[str, Json]:
        """What ``viewer`` may see (see the module docstring); ``time_left`` counts from
        ``now`` when given, else from the latest time the state was told."""
        market = self.market
        clock = self.latest if now is None else now
        out: dict[str, Json] = {
            "game": "figgie",
            "seat": viewer,
            "n_seats": self.n_seats,
            "chips": list(market.chips),
            "card_counts": [sum(hand) for hand in market.hands],
            "pot": self.pot,
            "book": self.book(),
            "tape": [trade.to_dict() for trade in market.tape],
            "deadline": self.deadline,
            "time_left": 0.0 if self.settled else max(0.0, self.deadline - clock),
            "commitment": commitment(self.seed),
            "max_price": market.max_price,
            "settled": self.settled,
        }
        if viewer is not None and 0 <= viewer < self.n_seats:
            out["hand"] = self._hand_json(market.hands[viewer])
        if self.settled:
            out["settlement"] = self._reveal()
        return out

    def result(self) -> Result | None:
        if not self.settled:
            return None
        return Result.from_scores(self.market.chips, reason="settled")

    def profits(self) -> list[int]:
        """Each seat's chips less the starting stack (after the settlement: the game's
        profit; before it the pot still holds the buy-ins)."""
        return [chips - self.rules.starting_chips for chips in self.market.chips]

    def to_dict(self) -> dict[str, Json]:
        market = self.market
        return {
            "rules": self.rules.to_dict(),
            "seed": self.seed.hex(),
            "deck": self.deck,
            "initial_hands": [list(h) for h in self.initial_hands],
            "hands": [list(h) for h in market.hands],
            "chips": list(market.chips),
            "bids": [list(row) for row in market.bids],
            "asks": [list(row) for row in market.asks],
            "bid_order": [list(row) for row in market.bid_order],
            "ask_order": [list(row) for row in market.ask_order],
            "sequence": market.sequence,
            "tape": [list(trade) for trade in market.tape],
            "opened_at": self.opened_at,
            "latest": self.latest,
            "payouts": None if self.payouts is None else list(self.payouts),
        }


class FiggieGame:
    """The definition of Figgie for the service's registry (:data:`engine.figgie.GAME`)."""

    name = "figgie"
    title = "Figgie"
    min_seats = 4
    max_seats = 5
    record: RecordStyle = "final_view"

    def default_rules(self) -> FiggieRules:
        return FiggieRules()

    def rules_from_dict(self, data: Mapping[str, Json]) -> FiggieRules:
        if not isinstance(data, Mapping):
            raise InvalidRules("Figgie's rules are an object of named values")
        known = set(FiggieRules.BOUNDS)
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidRules(
                f"Figgie has no rule {unknown[0]!r}: its rules are {', '.join(sorted(known))}"
            )
        values: dict[str, Any] = dict(data)
        return FiggieRules(**values)

    def rules_to_dict(self, rules: FiggieRules) -> dict[str, Json]:
        return rules.to_dict()

    def setup(
        self, rules: FiggieRules, n_seats: int, seeds: SeedSource, now: float = 0.0
    ) -> FiggieState:
        if n_seats not in BUY_IN:
            raise InvalidRules(f"Figgie is played by 4 or 5 players, not {n_seats}")
        seed = seeds()
        deck, hands = deal(seed, n_seats)
        return FiggieState(rules, seed, deck, hands, now)

    def parse_move(self, data: Json) -> Order:
        if not isinstance(data, Mapping):
            raise MalformedMove("An order is an object with a type and a suit")
        kind_name = data.get("type")
        if kind_name not in ORDER_KINDS:
            raise MalformedMove(
                f"{kind_name!r} is not an order: the orders are {', '.join(ORDER_KINDS)}"
            )
        kind = ORDER_KINDS.index(kind_name)
        allowed = {"type", "suit", "price"} if kind in (BID, ASK) else {"type", "suit"}
        extra = sorted(set(data) - allowed)
        if extra:
            raise MalformedMove(f"A {kind_name} order has no field {extra[0]!r}")
        suit_text = data.get("suit")
        if not isinstance(suit_text, str):
            raise UnknownSuit(f"An order names its suit: {', '.join(SUITS)}, not {suit_text!r}")
        try:
            suit = suit_index(suit_text)
        except ValueError as exc:
            raise UnknownSuit(str(exc)) from None
        if kind not in (BID, ASK):
            return Order(kind, suit)
        price = data.get("price")
        if type(price) is not int:
            raise PriceNotInteger(f"A {kind_name} needs a whole number of chips, not {price!r}")
        return Order(kind, suit, price)

    def move_to_json(self, move: Order) -> Json:
        return move.to_json()

    def restore(self, data: Mapping[str, Json], seeds: SeedSource | None = None) -> FiggieState:
        """The state :meth:`FiggieState.to_dict` wrote; the deal is re-derived from the
        seed and the tape replayed over it, so hands and chips must agree with both."""
        try:
            rules = self.rules_from_dict(data["rules"])
            seed = bytes.fromhex(data["seed"])
            n = len(data["initial_hands"])
            deck, hands = deal(seed, n)
            if deck != data["deck"] or hands != data["initial_hands"]:
                raise ValueError("the deck or the hands are not the seed's deal")
            state = FiggieState(rules, seed, deck, hands, float(data["opened_at"]))
            market = state.market
            for buyer, seller, suit, price in data["tape"]:
                market.hands[buyer][suit] += 1
                market.hands[seller][suit] -= 1
                market.chips[buyer] -= price
                market.chips[seller] += price
                market.tape.append(Trade(buyer, seller, suit, price))
            if any(c < 0 for hand in market.hands for c in hand):
                raise ValueError("the tape sells cards a seat did not hold")
            payouts = data["payouts"]
            if payouts is not None:
                if payouts != settlement(market.hands, deck):
                    raise ValueError("the payouts are not the settlement of the hands")
                for seat, paid in enumerate(payouts):
                    market.chips[seat] += paid
                state.payouts = list(payouts)
            if market.hands != data["hands"] or market.chips != data["chips"]:
                raise ValueError("the hands or the chips are not the tape's")
            for name in ("bids", "asks", "bid_order", "ask_order"):
                rows = [list(map(int, row)) for row in data[name]]
                if len(rows) != n or any(len(row) != N_SUITS for row in rows):
                    raise ValueError(f"{name} is not one row of four per seat")
                setattr(market, name, rows)
            market.sequence = int(data["sequence"])
            state.latest = float(data["latest"])
        except (KeyError, TypeError, ValueError, InvalidRules) as exc:
            raise ValueError(f"not a stored Figgie game: {exc}") from exc
        _check_book(market, state.settled)
        return state


def _check_book(market: Market, settled: bool) -> None:
    for suit in range(N_SUITS):
        for seat in range(market.n_seats):
            for price in (market.bids[seat][suit], market.asks[seat][suit]):
                if price != NO_QUOTE and not 1 <= price <= market.max_price:
                    raise ValueError("not a stored Figgie game: a quote's price is out of range")
            if market.asks[seat][suit] and not market.hands[seat][suit]:
                raise ValueError("not a stored Figgie game: an ask without a card")
        best_bid, best_ask = market.best_bid(suit), market.best_ask(suit)
        if best_bid and best_ask and best_bid[0] >= best_ask[0]:
            raise ValueError("not a stored Figgie game: the book is crossed")
    if settled and market.quote_count():
        raise ValueError("not a stored Figgie game: quotes after the settlement")


assert N_DECKS == 12  # the deal reads the deck number in base 12
