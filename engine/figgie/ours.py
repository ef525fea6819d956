"""Our agent: a belief over the twelve decks, the majority bonus valued exactly, and
quoting and taking by expected value.

**Belief.** As the Bayesian baseline, it keeps ``L[p][s]``, a lower bound of the cards of
suit ``s`` that seat ``p`` holds (its own row is its hand; a trade lowers the seller's
bound, not below 0, and raises the buyer's), and weighs each deck by
``prod_s C(d[s], sum_p L[p][s])``. It also reads every other seat's quotes: for each deck,
each possible starting hand of that seat (drawn from the cards not in ours) is weighed by
how well the seat's latest bid and ask in each suit fit a trader valuing cards by that
hand (:func:`quote_score`), and the deck by the total (:meth:`OursAgent._likelihoods`).

**The value of a position** under deck ``i`` (goal suit ``g``, ``G`` goal cards, bonus
``B``) when it holds ``h`` goal cards is ``10 h + B x E[share]``: the expected share of the
bonus, computed exactly over the ways the goal cards it does not know of can lie in the
other hands. Each other seat ``k`` holds ``K_k = L[k][g]`` known goal cards and ``u_k``
cards nobody has seen (its card count less the sum of its bounds); the ``R = G - h -
sum K_k`` unseen goal cards are spread over those unseen cards as a multivariate
hypergeometric draw, and the share is 1 / (1 + the others tied with it) when nobody holds
more than ``h`` (:func:`bonus_share`, a small dynamic programme, memoised).

**Values of a card.** Buying a card of suit ``s`` from seat ``k`` is worth the expected
change of that value over the decks whose goal is ``s`` (the card leaves ``k``'s known or
unseen cards), averaged over the next ``lookahead`` (3) cards when that is more (the
bonus is won by several cards together); selling one to ``k`` costs the change when
``k`` gains a known card. For a quote, whose counterpart is not known yet, it takes the
seat that makes the trade worst for it (the seat with the most unseen cards for a
purchase; the seat to which a sale costs most).

**Each tick** it does the first of: take the external best ask (or bid) with the largest
surplus, if the surplus over its value is at least ``take_edge`` (1 chip); cancel a quote of
its own that its values no longer support; post a bid ``floor(buy value - quote_edge)``
or an ask ``ceil(sell value + quote_edge)`` on the suit where its quote is missing or
stale, the most valuable suit first; else NO_OP.

By default ``quote_edge`` is None: it does not quote, it only takes. Against the
baselines quoting earned less than taking alone (``ours_quoting`` quotes at 4 chips;
docs/figgie_strength.md has the figures): a quote of ours is taken only by a seat that
values the card more (or less) than we do, and the baselines' values, drawn from their
own hands, carry information ours lacks.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache
from math import comb
from operator import mul

from engine.figgie.decks import BONUS, DECKS, GOAL, GOAL_CARDS, N_DECKS, N_SUITS, deck_weights
from engine.figgie.market import ASK, BID, CANCEL_ASK, CANCEL_BID, HIT, LIFT
from engine.figgie.sim import MAX_PRICE, NO_OP, Observation, encode

OFF_MODEL = 0.03
"""The factor a quote outside the expected band costs a hand (see :func:`quote_score`)."""


@lru_cache(maxsize=8)
def hands_of(size: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[float, ...], ...]]:
    """Every composition of a hand of ``size`` cards (per suit, at most 12 each), and the
    naive value ``10 x P(goal = s | hand)`` of each suit for each."""
    hands = []
    for a in range(min(size, 12) + 1):
        for b in range(min(size - a, 12) + 1):
            for c in range(min(size - a - b, 12) + 1):
                d = size - a - b - c
                if d <= 12:
                    hands.append((a, b, c, d))
    values = []
    for hand in hands:
        weights = deck_weights(hand)
        total = sum(weights)
        goal = [0.0] * N_SUITS
        for deck, w in enumerate(weights):
            goal[GOAL[deck]] += 10.0 * w / total if total else 0.0
        values.append(tuple(goal))
    return tuple(hands), tuple(values)


def quote_score(
    quotes: dict[tuple[int, int], int], hand: tuple[int, ...], value: tuple[float, ...]
) -> float:
    """How well a seat's quotes fit a starting ``hand`` whose naive values are ``value``:
    a bid is expected from 5 below to 1 above the value, an ask from 1 below to 5 above and
    on a suit held; each quote outside that costs a factor :data:`OFF_MODEL` (an ask on a suit not
    held, 0.05: the seat may have bought it)."""
    score = 1.0
    off = OFF_MODEL
    for (suit, side), price in quotes.items():
        v = value[suit]
        if side == BID:
            if not v - 5.0 <= price <= v + 1.0:
                score *= off
        elif not hand[suit]:
            score *= 0.05
        elif not v - 1.0 <= price <= v + 5.0:
            score *= off
    return score


@lru_cache(maxsize=4096)
def _factors(size: int, off: float, suit: int, side: int, price: int) -> tuple[float, ...]:
    """:func:`quote_score` of one quote, for every starting hand of ``size`` cards."""
    hands, values = hands_of(size)
    quote = {(suit, side): price}
    return tuple(quote_score(quote, h, v) for h, v in zip(hands, values, strict=True))


@lru_cache(maxsize=200_000)
def bonus_share(h: int, known: tuple[int, ...], unseen: tuple[int, ...], goal_left: int) -> float:
    """The expected share of the majority bonus of a seat holding ``h`` goal cards, when
    each other seat ``k`` holds ``known[k]`` goal cards for sure plus a part of
    ``unseen[k]`` unseen cards, among which ``goal_left`` goal cards lie uniformly."""
    total = sum(unseen)
    if goal_left < 0 or goal_left > total:
        return 0.0
    # states: (goal cards placed, others tied with h) -> number of ways
    ways: dict[tuple[int, int], int] = {(0, 0): 1}
    for k_known, k_unseen in zip(known, unseen, strict=True):
        if k_known > h:
            return 0.0
        step: dict[tuple[int, int], int] = {}
        for (placed, tied), count in ways.items():
            room = min(k_unseen, goal_left - placed, h - k_known)
            for y in range(room + 1):
                key = (placed + y, tied + (k_known + y == h))
                step[key] = step.get(key, 0) + count * comb(k_unseen, y)
        ways = step
    share = 0.0
    for (placed, tied), count in ways.items():
        if placed == goal_left:
            share += count / (tied + 1)
    return share / comb(total, goal_left)


class OursAgent:
    """Our agent (see the module docstring)."""

    name = "ours"

    def __init__(
        self, take_edge: float = 1.0, quote_edge: float | None = None, lookahead: int = 3
    ) -> None:
        self.lookahead = lookahead
        self.take_edge = take_edge
        self.quote_edge = math.inf if quote_edge is None else quote_edge

    def reset(self, seat: int, n_seats: int, hand: Sequence[int], rng: random.Random) -> None:
        self.seat = seat
        self.n_seats = n_seats
        self.others = [p for p in range(n_seats) if p != seat]
        self.known = [[0] * N_SUITS for _ in range(n_seats)]
        self.known[seat] = list(hand)
        self.seen = -1
        self.rng = rng
        self._dirty: set[int] = set()
        self.quotes: list[dict[tuple[int, int], int]] = [{} for _ in range(n_seats)]
        self.likelihood = [[1.0] * N_DECKS for _ in range(n_seats)]
        self._hand_priors(hand, n_seats)

    def _hand_priors(self, hand: Sequence[int], n_seats: int) -> None:
        """For each deck, the chance of each starting hand of another seat (drawn from the
        cards not in ours)."""
        size = sum(hand)
        hands, self.hand_values = hands_of(size)
        self.hands = hands
        self.priors: list[tuple[list[int], list[float]]] = []
        for deck in range(N_DECKS):
            pool = [DECKS[deck][s] - hand[s] for s in range(N_SUITS)]
            indices: list[int] = []
            probs: list[float] = []
            if min(pool) >= 0:
                total = comb(sum(pool), size)
                for index, other in enumerate(hands):
                    w = (
                        comb(pool[0], other[0])
                        * comb(pool[1], other[1])
                        * comb(pool[2], other[2])
                        * comb(pool[3], other[3])
                    )
                    if w:
                        indices.append(index)
                        probs.append(w / total)
            self.priors.append((indices, probs))

    def _watch_quotes(self, obs: Observation) -> bool:
        """Note the other seats' quotes; True when one of them changed."""
        changed = False
        bids, asks = obs.bids, obs.asks
        for seat in self.others:
            mine = self.quotes[seat]
            for suit in range(N_SUITS):
                for side, price in ((BID, bids[seat][suit]), (ASK, asks[seat][suit])):
                    if price and mine.get((suit, side)) != price:
                        mine[(suit, side)] = price
                        changed = True
                        self._dirty.add(seat)
        return changed

    def _likelihoods(self) -> None:
        """Each changed seat's likelihood of each deck: the sum over its possible starting
        hands of their chance under the deck times :func:`quote_score` (computed quote by
        quote, as vectors over the hands: the same products, in the same order)."""
        size = sum(self.hands[0])
        ones = [1.0] * len(self.hands)
        for seat in self._dirty:
            scores = ones
            for (suit, side), price in self.quotes[seat].items():
                scores = list(map(mul, scores, _factors(size, OFF_MODEL, suit, side, price)))
            pick = scores.__getitem__
            self.likelihood[seat] = [
                sum(map(mul, probs, map(pick, indices))) for indices, probs in self.priors
            ]
        self._dirty.clear()

    # ------------------------------------------------------------------ belief

    def _update(self, obs: Observation) -> None:
        tape = obs.tape
        quoted = self._watch_quotes(obs)
        if self.seen == len(tape) and not quoted:
            return
        self._likelihoods()
        known = self.known
        for buyer, seller, suit, _ in tape[max(self.seen, 0) :]:
            if known[seller][suit]:
                known[seller][suit] -= 1
            known[buyer][suit] += 1
        self.seen = len(tape)
        known[self.seat] = list(obs.hand)
        self.card_counts = obs.card_counts
        counts = [sum(row[s] for row in known) for s in range(N_SUITS)]
        weights = [float(w) for w in deck_weights(counts)]
        for seat in self.others:
            row = self.likelihood[seat]
            weights = [w * f for w, f in zip(weights, row, strict=True)]
        total = sum(weights)
        self.posterior = [w / total for w in weights]
        self._buy: dict[tuple[int, int], float] = {}
        self._sell: dict[tuple[int, int], float] = {}
        self.buy_values = [self.buy_value(s, -1) for s in range(N_SUITS)]
        self.sell_values = [
            self.sell_value(s, -1) if obs.hand[s] else math.inf for s in range(N_SUITS)
        ]

    def _position(
        self, deck: int, hand_goal: int, known: list[list[int]], counts: list[int] | None = None
    ) -> float:
        """``B x E[share]`` under ``deck`` with ``hand_goal`` of its goal cards and the
        others' bounds ``known``."""
        goal = GOAL[deck]
        others = self.others
        k_known = tuple(known[p][goal] for p in others)
        counts = self.card_counts if counts is None else counts
        unseen = tuple(counts[p] - sum(known[p]) for p in others)
        left = GOAL_CARDS[deck] - hand_goal - sum(k_known)
        return BONUS[deck] * bonus_share(hand_goal, k_known, unseen, left)

    def _decks_of(self, suit: int) -> list[tuple[int, float]]:
        return [
            (deck, m)
            for deck, m in enumerate(self.posterior)
            if m > 1e-9 and GOAL[deck] == suit and deck < N_DECKS
        ]

    def buy_value(self, suit: int, seller: int) -> float:
        """The expected worth of one more card of ``suit`` bought from ``seller`` (-1: the
        worst seat for it, the one with the most unseen cards).

        With ``lookahead`` k > 1 it is the best average worth of the next 1 .. k cards
        (the first from ``seller``, the rest from the worst seat): the majority bonus is
        won by several cards together, so the first of them is worth a share of it."""
        key = (suit, seller)
        cached = self._buy.get(key)
        if cached is not None:
            return cached
        known = [row[:] for row in self.known]
        counts = list(self.card_counts)
        held = known[self.seat][suit]
        decks = self._decks_of(suit)
        before = [self._position(deck, held, known, counts) for deck, _ in decks]
        best = -math.inf
        for k in range(1, self.lookahead + 1):
            source = seller
            if source < 0 or k > 1:
                source = max(self.others, key=lambda p: counts[p] - sum(known[p]))
            if counts[source] <= 0:
                break
            known[source][suit] = max(0, known[source][suit] - 1)
            counts[source] -= 1
            value = 0.0
            for (deck, m), start in zip(decks, before, strict=True):
                gained = self._position(deck, held + k, known, counts)
                value += m * (10.0 + (gained - start) / k)
            best = max(best, value)
        best = max(best, 0.0)
        self._buy[key] = best
        return best

    def sell_value(self, suit: int, buyer: int) -> float:
        """The expected worth lost by selling one card of ``suit`` to ``buyer`` (-1: the
        worst seat for it)."""
        key = (suit, buyer)
        cached = self._sell.get(key)
        if cached is not None:
            return cached
        if buyer < 0:
            value = max(self.sell_value(suit, p) for p in self.others)
            self._sell[key] = value
            return value
        known = self.known
        after = [row[:] for row in known]
        after[buyer][suit] += 1
        after_counts = list(self.card_counts)
        after_counts[buyer] += 1
        held = known[self.seat][suit]
        value = 0.0
        saved = self.card_counts
        for deck, m in self._decks_of(suit):
            before = self._position(deck, held, known)
            self.card_counts = after_counts
            kept = self._position(deck, held - 1, after)
            self.card_counts = saved
            value += m * (10.0 + before - kept)
        self._sell[key] = value
        return value

    # ------------------------------------------------------------------ acting

    def act(self, obs: Observation) -> int:
        self._update(obs)
        hand = obs.hand
        best = 0.0
        action = NO_OP
        for suit in range(N_SUITS):
            ask = obs.best_ask(suit, others_only=True)
            if ask is not None:
                surplus = self.buy_value(suit, ask[1]) - ask[0]
                if surplus >= self.take_edge and surplus > best:
                    best, action = surplus, encode(LIFT, suit)
            if hand[suit]:
                bid = obs.best_bid(suit, others_only=True)
                if bid is not None:
                    surplus = bid[0] - self.sell_value(suit, bid[1])
                    if surplus >= self.take_edge and surplus > best:
                        best, action = surplus, encode(HIT, suit)
        if action != NO_OP:
            return action
        seat = self.seat
        my_bids, my_asks = obs.bids[seat], obs.asks[seat]
        edge = self.quote_edge
        if edge == math.inf:
            return NO_OP
        wanted_bids = [math.floor(v - edge) for v in self.buy_values]
        wanted_asks = [
            math.ceil(v + edge) if hand[s] and v + edge < MAX_PRICE + 1 else 0
            for s, v in enumerate(self.sell_values)
        ]
        for suit in range(N_SUITS):
            if my_bids[suit] and my_bids[suit] > max(wanted_bids[suit], 0):
                return encode(CANCEL_BID, suit)
            if my_asks[suit] and (not wanted_asks[suit] or my_asks[suit] < wanted_asks[suit]):
                return encode(CANCEL_ASK, suit)
        for suit in sorted(range(N_SUITS), key=lambda s: -self.buy_values[s]):
            price = min(wanted_bids[suit], MAX_PRICE)
            if price >= 1 and my_bids[suit] != price:
                low = obs.best_ask(suit)
                if low is None or price < low[0]:
                    return encode(BID, suit, price)
            price = wanted_asks[suit]
            if 1 <= price <= MAX_PRICE and my_asks[suit] != price:
                high = obs.best_bid(suit)
                if high is None or price > high[0]:
                    return encode(ASK, suit, price)
        return NO_OP
