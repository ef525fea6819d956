"""The five baseline agents of the research simulator, and the registry of agents.

Every agent acts once a tick on an :class:`~engine.figgie.sim.Observation` and answers an
action number that is legal at the start of the tick (:mod:`engine.figgie.sim`). Its
randomness comes only from the generator it is given at ``reset`` (seeded per game and
seat), so a game replays from its seed.

Common to FairValue, Conservative and MarketMaker: the naive value of a suit,
``v(s) = 10 x P(goal = s | own initial hand)`` (:func:`naive_values`), fixed for the game.
"External" quotes are other seats' quotes. Suits are ranked by value; ties go to the
lower suit number (spades, clubs, hearts, diamonds). Prices are whole chips within 1..30:
a bid's price is rounded down, an ask's up (never past the stated edge), then clamped.

- **Random**: uniform over the legal actions.
- **FairValue** (edge 2): lifts the external best ask of a suit if it is at most
  ``v(s) - edge`` (the suit with the largest gap first); else hits the external best bid
  of a suit it holds if it is at least ``v(s) + edge``; else posts, alternating tick by
  tick, a bid of ``floor(v - edge)`` on its highest-value suit or an ask of
  ``ceil(v + edge)`` on its lowest-value suit among those it holds. A quote it already has
  at that price is left alone (it keeps its place in the queue), and a quote the mask
  forbids (it would cross the book) is not posted; the other side is tried, else NO_OP.
- **Conservative** (edge 4, gate 0.4): FairValue with edge 4, and NO_OP all game unless
  ``max_s P(goal = s) >= 0.4``.
- **MarketMaker** (half-spread 3): never lifts or hits. Each tick it fills the first
  empty slot in the order spades bid, spades ask, clubs bid, ... with a bid of
  ``max(1, floor(v - 3))`` or an ask of ``min(30, ceil(v + 3))``; it skips an ask on a
  suit it does not hold and a quote that would cross the book; NO_OP when nothing is left.
- **Bayesian** (DiSilvio's fundamentalist, r = 2): see :class:`BayesianAgent`.

Ours is :class:`engine.figgie.ours.OursAgent` (``ours``); ``ours_quoting`` is the same
agent also quoting at 4 chips either side of its values, kept to measure quoting against
taking alone.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Final

from engine.figgie.decks import (
    BONUS,
    GOAL,
    GOAL_CARDS,
    N_DECKS,
    N_SUITS,
    deck_posterior,
    goal_probabilities,
)
from engine.figgie.market import ASK, BID, CANCEL_ASK, CANCEL_BID, HIT, LIFT
from engine.figgie.sim import MAX_PRICE, NO_OP, Agent, Observation, encode


def naive_values(hand: Sequence[int]) -> list[float]:
    """``10 x P(goal = s)`` from a hand alone, per suit."""
    return [10.0 * p for p in goal_probabilities(hand)]


def _clamp(price: int) -> int:
    return 1 if price < 1 else MAX_PRICE if price > MAX_PRICE else price


def _bid_allowed(obs: Observation, suit: int, price: int) -> bool:
    best = obs.best_ask(suit)
    return best is None or price < best[0]


def _ask_allowed(obs: Observation, suit: int, price: int) -> bool:
    if not obs.hand[suit]:
        return False
    best = obs.best_bid(suit)
    return best is None or price > best[0]


class RandomAgent:
    """Uniform over the legal actions."""

    name = "random"

    def reset(self, seat: int, n_seats: int, hand: Sequence[int], rng: random.Random) -> None:
        self.rng = rng

    def act(self, obs: Observation) -> int:
        runs = obs.legal_ranges()
        k = self.rng.randrange(sum(count for _, count in runs))
        for first, count in runs:
            if k < count:
                return first + k
            k -= count
        raise AssertionError("unreachable")


class FairValueAgent:
    """FairValue (see the module docstring); ``gate`` makes it Conservative."""

    name = "fairvalue"

    def __init__(self, edge: float = 2.0, gate: float | None = None) -> None:
        self.edge = edge
        self.gate = gate

    def reset(self, seat: int, n_seats: int, hand: Sequence[int], rng: random.Random) -> None:
        probabilities = goal_probabilities(hand)
        self.values = [10.0 * p for p in probabilities]
        self.active = self.gate is None or max(probabilities) >= self.gate
        self.next_side = BID

    def act(self, obs: Observation) -> int:
        if not self.active:
            return NO_OP
        values, edge, hand = self.values, self.edge, obs.hand
        best_gap = 0.0
        action = NO_OP
        for suit in range(N_SUITS):
            ask = obs.best_ask(suit, others_only=True)
            if ask is not None and ask[0] <= values[suit] - edge:
                gap = values[suit] - ask[0]
                if action == NO_OP or gap > best_gap:
                    best_gap, action = gap, encode(LIFT, suit)
        if action != NO_OP:
            return action
        for suit in range(N_SUITS):
            if not hand[suit]:
                continue
            bid = obs.best_bid(suit, others_only=True)
            if bid is not None and bid[0] >= values[suit] + edge:
                gap = bid[0] - values[suit]
                if action == NO_OP or gap > best_gap:
                    best_gap, action = gap, encode(HIT, suit)
        if action != NO_OP:
            return action
        return self._post(obs)

    def _post(self, obs: Observation) -> int:
        values, seat = self.values, obs.seat
        high = max(range(N_SUITS), key=lambda s: (values[s], -s))
        held = [s for s in range(N_SUITS) if obs.hand[s]]
        for side in (self.next_side, 1 - self.next_side):
            if side == BID:
                suit = high
                price = _clamp(math.floor(values[suit] - self.edge))
                if obs.bids[seat][suit] == price or not _bid_allowed(obs, suit, price):
                    continue
            else:
                if not held:
                    continue
                suit = min(held, key=lambda s: (values[s], s))
                price = _clamp(math.ceil(values[suit] + self.edge))
                if obs.asks[seat][suit] == price or not _ask_allowed(obs, suit, price):
                    continue
            self.next_side = 1 - side
            return encode(side, suit, price)
        return NO_OP


class ConservativeAgent(FairValueAgent):
    name = "conservative"

    def __init__(self) -> None:
        super().__init__(edge=4.0, gate=0.4)


class MarketMakerAgent:
    """MarketMaker (see the module docstring)."""

    name = "marketmaker"

    def __init__(self, half_spread: float = 3.0) -> None:
        self.half_spread = half_spread

    def reset(self, seat: int, n_seats: int, hand: Sequence[int], rng: random.Random) -> None:
        values = naive_values(hand)
        self.bid_prices = [_clamp(math.floor(v - self.half_spread)) for v in values]
        self.ask_prices = [_clamp(math.ceil(v + self.half_spread)) for v in values]

    def act(self, obs: Observation) -> int:
        seat = obs.seat
        bids, asks = obs.bids[seat], obs.asks[seat]
        for suit in range(N_SUITS):
            if not bids[suit]:
                price = self.bid_prices[suit]
                if _bid_allowed(obs, suit, price):
                    return encode(BID, suit, price)
            if not asks[suit]:
                price = self.ask_prices[suit]
                if _ask_allowed(obs, suit, price):
                    return encode(ASK, suit, price)
        return NO_OP


def majority_values(r: float) -> list[list[float]]:
    """``[deck][j]``: the Bayesian's value ``v_m`` of the majority bonus for the card that
    takes its holding of the goal suit from ``j`` to ``j + 1`` (0 once ``j`` reaches the
    threshold ``x``: 5 of an 8-card goal suit, 6 of a 10-card one). The terms for
    ``j = 0 .. x - 1`` sum to the bonus."""
    table = []
    for deck in range(N_DECKS):
        bonus, x = BONUS[deck], GOAL_CARDS[deck] // 2 + 1
        base = bonus * (1 - r) / (1 - r**x)
        table.append([base * r**j if j < x else 0.0 for j in range(13)])
    return table


class BayesianAgent:
    """DiSilvio et al.'s "fundamentalist", as the Yang paper runs it (r = 2).

    It keeps ``L[p][s]``, a lower bound of the cards of suit ``s`` seat ``p`` holds: its
    own row is its hand; on each trade of ``s`` the seller's bound drops by one (not below
    0) and the buyer's rises by one. The known counts ``c[s] = sum_p L[p][s]`` give the
    posterior over decks (:func:`~engine.figgie.decks.deck_posterior`), and the value of
    one more card of suit ``j`` when holding ``n`` is
    ``e_b(j, n) = sum_i m_i [goal_i = j] (10 + v_m(i, n))`` (:func:`majority_values`).
    Its buy value of ``j`` is ``e_b(j, held)``, its sell value ``e_b(j, held - 1)``.

    Each tick, in order:

    1. If one of its own bids is above the suit's buy value, or an ask below the sell
       value, it cancels the first such quote (suits in order, bids first).
    2. Else it draws a suit uniformly and a fair coin: it buys on heads, or when it holds
       none of the suit; else it sells.
    3. Buying: ``u ~ U(0, buy value)``. If another seat asks at or below ``u``, it lifts
       that best ask (the order "crosses" and trades at the resting price); otherwise it
       bids ``floor(u)``, if that is at least 1 and the mask allows it, else NO_OP.
    4. Selling: ``u ~ U(sell value, 2 x sell value)``. If another seat bids at or above
       ``u``, it hits that best bid; otherwise it asks ``max(1, ceil(u))``, if that is at
       most 30 and the mask allows it, else NO_OP.
    """

    name = "bayesian"

    def __init__(self, r: float = 2.0) -> None:
        self.table = majority_values(r)

    def reset(self, seat: int, n_seats: int, hand: Sequence[int], rng: random.Random) -> None:
        self.rng = rng
        self.seat = seat
        self.known = [[0] * N_SUITS for _ in range(n_seats)]
        self.known[seat] = list(hand)
        self.seen = 0
        self.values: list[float] = []

    def _update(self, obs: Observation) -> None:
        tape = obs.tape
        if self.seen == len(tape) and self.values:
            return
        known = self.known
        for buyer, seller, suit, _ in tape[self.seen :]:
            if known[seller][suit]:
                known[seller][suit] -= 1
            known[buyer][suit] += 1
        self.seen = len(tape)
        known[self.seat] = list(obs.hand)
        counts = [sum(row[s] for row in known) for s in range(N_SUITS)]
        self.posterior = deck_posterior(counts)
        hand = obs.hand
        self.values = [self.value(s, hand[s]) for s in range(N_SUITS)]
        self.sell_values = [self.value(s, hand[s] - 1) if hand[s] else 0.0 for s in range(N_SUITS)]

    def value(self, suit: int, held: int) -> float:
        """``e_b(suit, held)`` under the current posterior."""
        table = self.table
        return sum(
            m * (10.0 + table[deck][held])
            for deck, m in enumerate(self.posterior)
            if m and GOAL[deck] == suit
        )

    def act(self, obs: Observation) -> int:
        self._update(obs)
        seat, buy_values, sell_values = self.seat, self.values, self.sell_values
        for suit in range(N_SUITS):
            bid = obs.bids[seat][suit]
            if bid and bid > buy_values[suit]:
                return encode(CANCEL_BID, suit)
            ask = obs.asks[seat][suit]
            if ask and ask < sell_values[suit]:
                return encode(CANCEL_ASK, suit)
        rng = self.rng
        suit = rng.randrange(N_SUITS)
        buying = rng.random() < 0.5 or not obs.hand[suit]
        if buying:
            u = rng.uniform(0.0, buy_values[suit])
            best_ask = obs.best_ask(suit, others_only=True)
            if best_ask is not None and best_ask[0] <= u:
                return encode(LIFT, suit)
            price = min(MAX_PRICE, math.floor(u))
            if price >= 1 and _bid_allowed(obs, suit, price):
                return encode(BID, suit, price)
            return NO_OP
        low = sell_values[suit]
        u = rng.uniform(low, 2.0 * low)
        best_bid = obs.best_bid(suit, others_only=True)
        if best_bid is not None and best_bid[0] >= u:
            return encode(HIT, suit)
        price = max(1, math.ceil(u))
        if price <= MAX_PRICE and _ask_allowed(obs, suit, price):
            return encode(ASK, suit, price)
        return NO_OP


def _ours() -> Agent:
    from engine.figgie.ours import OursAgent  # noqa: PLC0415

    return OursAgent()


def _ours_quoting() -> Agent:
    from engine.figgie.ours import OursAgent  # noqa: PLC0415

    return OursAgent(quote_edge=4.0)


AGENTS: Final[dict[str, Callable[[], Agent]]] = {
    "random": RandomAgent,
    "fairvalue": FairValueAgent,
    "conservative": ConservativeAgent,
    "marketmaker": MarketMakerAgent,
    "bayesian": BayesianAgent,
    "ours": _ours,
    "ours_quoting": _ours_quoting,
}
"""The built-in agents by name; each call makes a fresh agent."""


def make_agent(name: str) -> Agent:
    """A fresh agent by name; ``KeyError`` naming the agents for an unknown one."""
    try:
        factory = AGENTS[name]
    except KeyError:
        raise KeyError(f"No Figgie agent {name!r}: the agents are {', '.join(AGENTS)}") from None
    return factory()
