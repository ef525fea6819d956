"""The research simulator: Figgie cut into 240 ticks of simultaneous actions.

It plays the engine's own game (:class:`~engine.figgie.game.FiggieState`, its deal, its
:class:`~engine.figgie.market.Market` and its settlement): a tick is one second of the
game's clock, and each order goes through :meth:`Market.refusal` then
:meth:`Market.execute`, exactly as an order of the online game does.

**Actions** (257, suits S, C, H, D = 0..3, prices p = 1..30):

====================  =================================
0                     NO_OP
1 + 30 s + (p - 1)    PLACE_BID(s, p)     (1 .. 120)
121 + 30 s + (p - 1)  PLACE_ASK(s, p)     (121 .. 240)
241 + s               CANCEL_BID(s)
245 + s               CANCEL_ASK(s)
249 + s               LIFT(s)
253 + s               HIT(s)
====================  =================================

**The legal-action mask** of a seat at the start of a tick (:func:`legal_ranges`,
:func:`action_mask`) is exactly the set of orders the market allows it then: NO_OP always;
PLACE_BID(s, p) when p is below the best ask of s (any seat's, its own included);
PLACE_ASK(s, p) when it holds a card of s and p is above the best bid of s; CANCEL_BID(s) /
CANCEL_ASK(s) when it has that quote; LIFT(s) when another seat asks in s; HIT(s) when it
holds a card of s and another seat bids in s. Chips never limit an action (chips may go
below zero).

**A tick.** Every seat picks one action from its mask, all at once, seeing the state at
the start of the tick. Then the actions are applied one seat at a time in a random order
drawn afresh each tick (a permutation by :meth:`random.Random.shuffle` of a generator
seeded with ``SHA-256(b"figgie/tick-order/v1" + seed)``, so the game replays from its
seed). An action that the earlier actions of the tick have made illegal (the ask it lifts
was taken, a trade cleared the quote it cancels, its bid now crosses a new ask) does
nothing: it is counted as *stale*. After the last tick the game settles.

>>> decode(0), decode(1), decode(120), decode(121), decode(256)
((None, 0, 0), (0, 0, 1), (0, 3, 30), (1, 0, 1), (5, 3, 0))
>>> encode(ASK, 2, 7)
187
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from engine.dealing import seed_sequence
from engine.figgie.decks import N_SUITS
from engine.figgie.game import FiggieGame, FiggieRules, FiggieState
from engine.figgie.market import (
    ASK,
    BID,
    CANCEL_ASK,
    CANCEL_BID,
    HIT,
    LIFT,
    Market,
    Trade,
)

TICKS: Final = 240
MAX_PRICE: Final = 30
N_ACTIONS: Final = 1 + 2 * N_SUITS * MAX_PRICE + 4 * N_SUITS
NO_OP: Final = 0
_BID0: Final = 1
_ASK0: Final = 1 + N_SUITS * MAX_PRICE
_CANCEL_BID0: Final = _ASK0 + N_SUITS * MAX_PRICE
_CANCEL_ASK0: Final = _CANCEL_BID0 + N_SUITS
_LIFT0: Final = _CANCEL_ASK0 + N_SUITS
_HIT0: Final = _LIFT0 + N_SUITS
ORDER_TAG: Final = b"figgie/tick-order/v1"
SIM_RULES: Final = FiggieRules(
    starting_chips=350, trading_seconds=float(TICKS), max_price=MAX_PRICE
)
"""The rules the simulator plays: 350 chips, 240 ticks (seconds), prices 1..30."""


def encode(kind: int, suit: int, price: int = 0) -> int:
    """The action number of an order (kinds as in :mod:`engine.figgie.market`)."""
    if kind == BID:
        return _BID0 + suit * MAX_PRICE + price - 1
    if kind == ASK:
        return _ASK0 + suit * MAX_PRICE + price - 1
    return (_CANCEL_BID0, _CANCEL_ASK0, _LIFT0, _HIT0)[kind - CANCEL_BID] + suit


def _decode_table() -> tuple[tuple[int | None, int, int], ...]:
    table: list[tuple[int | None, int, int]] = [(None, 0, 0)]
    for kind in (BID, ASK):
        table.extend((kind, s, p) for s in range(N_SUITS) for p in range(1, MAX_PRICE + 1))
    for kind in (CANCEL_BID, CANCEL_ASK, LIFT, HIT):
        table.extend((kind, s, 0) for s in range(N_SUITS))
    return tuple(table)


DECODE: Final = _decode_table()
"""``DECODE[action]`` = ``(kind, suit, price)``; kind None for NO_OP."""


def decode(action: int) -> tuple[int | None, int, int]:
    return DECODE[action]


def legal_ranges(market: Market, seat: int) -> list[tuple[int, int]]:
    """The legal actions of ``seat`` as ``(first, count)`` runs of action numbers, in
    increasing order (NO_OP first): the mask of the module docstring."""
    runs = [(NO_OP, 1)]
    hand = market.hands[seat]
    bids, asks = market.bids, market.asks
    n = market.n_seats
    lowest_ask = [0] * N_SUITS
    highest_bid = [0] * N_SUITS
    other_ask = [False] * N_SUITS
    other_bid = [False] * N_SUITS
    for s in range(N_SUITS):
        low = high = 0
        for other in range(n):
            a = asks[other][s]
            if a:
                if not low or a < low:
                    low = a
                if other != seat:
                    other_ask[s] = True
            b = bids[other][s]
            if b:
                high = max(high, b)
                if other != seat:
                    other_bid[s] = True
        lowest_ask[s], highest_bid[s] = low, high
    for s in range(N_SUITS):
        top = min(MAX_PRICE, lowest_ask[s] - 1) if lowest_ask[s] else MAX_PRICE
        if top >= 1:
            runs.append((_BID0 + s * MAX_PRICE, top))
    for s in range(N_SUITS):
        if hand[s] and highest_bid[s] < MAX_PRICE:
            bottom = highest_bid[s] + 1
            runs.append((_ASK0 + s * MAX_PRICE + bottom - 1, MAX_PRICE - bottom + 1))
    mine_bids, mine_asks = bids[seat], asks[seat]
    runs.extend((_CANCEL_BID0 + s, 1) for s in range(N_SUITS) if mine_bids[s])
    runs.extend((_CANCEL_ASK0 + s, 1) for s in range(N_SUITS) if mine_asks[s])
    runs.extend((_LIFT0 + s, 1) for s in range(N_SUITS) if other_ask[s])
    runs.extend((_HIT0 + s, 1) for s in range(N_SUITS) if hand[s] and other_bid[s])
    return runs


def legal_actions(market: Market, seat: int) -> list[int]:
    """Every legal action number of ``seat``, increasing."""
    return [a for first, count in legal_ranges(market, seat) for a in range(first, first + count)]


def action_mask(market: Market, seat: int) -> list[bool]:
    """The mask: ``mask[a]`` is True when action ``a`` is legal for ``seat``."""
    mask = [False] * N_ACTIONS
    for first, count in legal_ranges(market, seat):
        mask[first : first + count] = [True] * count
    return mask


def is_legal(market: Market, seat: int, action: int) -> bool:
    """Whether ``action`` is legal now, by the market's own rules."""
    kind, suit, price = DECODE[action]
    return kind is None or market.refusal(seat, kind, suit, price or None) is None


# ---------------------------------------------------------------------- one game


class Observation:
    """What one seat sees at the start of a tick: its own hand, every seat's chips and
    card count, the book (``bids[seat][suit]``, ``asks[seat][suit]``, 0 for none) and the
    tape. Built-in agents read it; it never exposes another seat's hand."""

    __slots__ = ("_market", "seat", "tick", "ticks")

    def __init__(self, market: Market, seat: int, tick: int, ticks: int) -> None:
        self._market = market
        self.seat = seat
        self.tick = tick
        self.ticks = ticks

    @property
    def n_seats(self) -> int:
        return self._market.n_seats

    @property
    def hand(self) -> list[int]:
        return self._market.hands[self.seat]

    @property
    def chips(self) -> list[int]:
        return self._market.chips

    @property
    def card_counts(self) -> list[int]:
        return [sum(hand) for hand in self._market.hands]

    @property
    def bids(self) -> list[list[int]]:
        return self._market.bids

    @property
    def asks(self) -> list[list[int]]:
        return self._market.asks

    @property
    def tape(self) -> list[Trade]:
        return self._market.tape

    def best_bid(self, suit: int, others_only: bool = False) -> tuple[int, int] | None:
        """``(price, seat)`` of the best bid in ``suit`` (of the other seats only, when
        asked: the one a hit would take)."""
        return self._market.best_bid(suit, self.seat if others_only else -1)

    def best_ask(self, suit: int, others_only: bool = False) -> tuple[int, int] | None:
        return self._market.best_ask(suit, self.seat if others_only else -1)

    def legal_ranges(self) -> list[tuple[int, int]]:
        return legal_ranges(self._market, self.seat)

    def is_legal(self, action: int) -> bool:
        return is_legal(self._market, self.seat, action)


class Agent(Protocol):
    """A simulator agent: told its seat and hand at the start, then asked for one action
    number per tick (legal by the mask of the start of the tick)."""

    def reset(self, seat: int, n_seats: int, hand: Sequence[int], rng: random.Random) -> None: ...

    def act(self, observation: Observation) -> int: ...


class Simulation:
    """One game in the tick discretisation (see the module docstring)."""

    __slots__ = ("market", "order_rng", "seats", "stale", "state", "tick", "ticks")

    def __init__(self, seed: bytes, n_seats: int = 4, ticks: int = TICKS) -> None:
        rules = SIM_RULES if ticks == TICKS else FiggieRules(350, float(ticks), MAX_PRICE)
        self.state: FiggieState = _GAME.setup(rules, n_seats, lambda: seed, now=0.0)
        self.market = self.state.market
        self.ticks = ticks
        self.tick = 0
        self.stale = 0
        self.seats = list(range(n_seats))
        self.order_rng = random.Random(hashlib.sha256(ORDER_TAG + seed).digest())

    @property
    def done(self) -> bool:
        return self.state.settled

    def observation(self, seat: int) -> Observation:
        return Observation(self.market, seat, self.tick, self.ticks)

    def step(self, actions: Sequence[int]) -> list[Trade]:
        """Apply one tick: ``actions[seat]`` for each seat (see the module docstring);
        returns the trades made. After the last tick the game is settled."""
        if self.state.settled:
            raise ValueError("the game is over")
        market = self.market
        refusal = market.refusal
        execute = market.execute
        table = DECODE
        trades = []
        order = self.seats
        self.order_rng.shuffle(order)
        for seat in order:
            kind, suit, price = table[actions[seat]]
            if kind is None:
                continue
            if refusal(seat, kind, suit, price or None) is None:
                trade = execute(seat, kind, suit, price)
                if trade is not None:
                    trades.append(trade)
            else:
                self.stale += 1
        self.tick += 1
        if self.tick >= self.ticks:
            self.state.advance(float(self.tick))
        return trades

    def profits(self) -> list[int]:
        return self.state.profits()


_GAME: Final = FiggieGame()


@dataclass(frozen=True, slots=True)
class SimRecord:
    """What a finished simulated game leaves: the deck, each seat's profit (final chips
    less 350), its number of trades and stale actions."""

    deck: int
    profits: tuple[int, ...]
    trades: int
    stale: int


def agent_rng(seed: bytes, seat: int) -> random.Random:
    """The random generator of the agent at ``seat`` in the game of ``seed``."""
    return random.Random(hashlib.sha256(b"figgie/agent/v1" + seed + bytes([seat])).digest())


def play(agents: Sequence[Agent], seed: bytes, ticks: int = TICKS) -> SimRecord:
    """Play one game between ``agents`` (seat order), dealt from ``seed``."""
    sim = Simulation(seed, len(agents), ticks)
    market = sim.market
    for seat, agent in enumerate(agents):
        agent.reset(seat, len(agents), list(market.hands[seat]), agent_rng(seed, seat))
    observations = [sim.observation(seat) for seat in range(len(agents))]
    while not sim.done:
        tick = sim.tick
        for observation in observations:
            observation.tick = tick
        sim.step([agent.act(obs) for agent, obs in zip(agents, observations, strict=True)])
    return SimRecord(sim.state.deck, tuple(sim.profits()), len(market.tape), sim.stale)


class BatchSimulation:
    """Many games stepped together, tick by tick: ``observations()`` then ``step`` with
    one action per seat per game. Games of a batch share their length, so they finish
    together."""

    def __init__(self, seeds: Sequence[bytes], n_seats: int = 4, ticks: int = TICKS) -> None:
        self.games = [Simulation(seed, n_seats, ticks) for seed in seeds]
        self.n_seats = n_seats

    @property
    def done(self) -> bool:
        return all(game.done for game in self.games)

    def hands(self) -> list[list[list[int]]]:
        """Each game's hands now, ``[game][seat][suit]`` (for agents' ``reset``)."""
        return [[list(h) for h in game.market.hands] for game in self.games]

    def observations(self) -> list[list[Observation]]:
        return [[game.observation(seat) for seat in range(self.n_seats)] for game in self.games]

    def masks(self) -> list[list[list[bool]]]:
        """``[game][seat]``: the legal-action mask of each seat of each game."""
        return [
            [action_mask(game.market, seat) for seat in range(self.n_seats)] for game in self.games
        ]

    def step(self, actions: Sequence[Sequence[int]]) -> list[list[Trade]]:
        return [game.step(acts) for game, acts in zip(self.games, actions, strict=True)]

    def profits(self) -> list[list[int]]:
        return [game.profits() for game in self.games]


def game_seeds(master: int | bytes | str, count: int, start: int = 0) -> list[bytes]:
    """The seeds of games ``start .. start + count - 1`` of a run seeded by ``master``."""
    source: Callable[[], bytes] = seed_sequence(master)
    seeds = [source() for _ in range(start + count)]
    return seeds[start:]
