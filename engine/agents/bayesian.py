"""An agent that reads the other players' bets as evidence about their hands."""

from __future__ import annotations

import math
import random
from functools import lru_cache
from itertools import compress
from typing import ClassVar, Final

from engine.agents._hands import existence_bits, hand_mask, is_plain
from engine.agents.base import Agent
from engine.agents.bidding_model import DEFAULT_MODEL, BidModel, model_grid
from engine.agents.probabilist import own_hand_action
from engine.facts import CHECK, LOST_ROUND, N_BETS, N_CARDS
from engine.game import RoundRecord
from engine.observation import Observation
from engine.probability import set_probabilities

_ALL_BETS: Final = (1 << N_BETS) - 1
_LAST: Final = N_BETS - 1

# Weighted sums over particles of 88-bit "which sets" ints are done in one big-int sum:
# bit b of a particle's int becomes a 32-bit lane at 32 * b, multiplied by the particle's
# integer weight. Lane totals stay below 2**32: weights <= 1024 times factors <= 1000 is
# below 2**20 per particle, so up to 4095 particles fit (MAX_PARTICLES leaves room).
_LANE: Final = 32
_LANE_MASK: Final = (1 << _LANE) - 1
_CHUNK: Final = 11
_SPREAD: Final = tuple(
    sum(1 << (_LANE * k) for k in range(_CHUNK) if chunk >> k & 1) for chunk in range(1 << _CHUNK)
)
_BITS: Final = tuple(1 << b for b in range(N_BETS))
_IDS: Final = range(N_BETS)
_TINY: Final = 1e-200
_FLOOR: Final = 1e-12
_WEIGHT_SCALE: Final = 1024
_PER_MILLE: Final = 1000
MAX_PARTICLES: Final = 2048


def _spread(bits: int) -> int:
    """Bit b of ``bits`` (88 bits) becomes the value 1 in lane b."""
    table = _SPREAD
    step = _CHUNK * _LANE
    return (
        table[bits & 2047]
        | table[bits >> 11 & 2047] << step
        | table[bits >> 22 & 2047] << 2 * step
        | table[bits >> 33 & 2047] << 3 * step
        | table[bits >> 44 & 2047] << 4 * step
        | table[bits >> 55 & 2047] << 5 * step
        | table[bits >> 66 & 2047] << 6 * step
        | table[bits >> 77 & 2047] << 7 * step
    )


def _lanes(total: int, first: int) -> list[int]:
    """The lanes ``first..87`` of a spread sum."""
    return [total >> (_LANE * b) & _LANE_MASK for b in range(first, N_BETS)]


@lru_cache(maxsize=1 << 13)
def _response(hand: int, unknown: int, model: BidModel) -> tuple[int, int]:
    """What a player holding ``hand`` does about each possible last bet, under ``model``:
    the bets they would check (as bits; 87 is always checked), and the favourite set they
    would raise to (the most senior with ``p >= model.threshold``; 0 if none)."""
    p = set_probabilities(hand, unknown)
    checks = sum(compress(_BITS, map(model.check_below.__gt__, p))) | 1 << _LAST
    favourite = max(compress(_IDS, map(model.threshold.__le__, p)), default=0)
    return checks, favourite


class _Particle:
    """One guess of the unseen cards: every other seat's hand, and what follows from it."""

    __slots__ = ("answer", "exists", "hands", "probs")

    def __init__(self, hands: dict[int, int], exists: int) -> None:
        self.hands = hands
        self.exists = exists
        self.probs: dict[int, tuple[float, ...]] = {}
        # The next player's predicted answer to each of our bets (see _answer).
        self.answer: tuple[int, int, int, int] | None = None


class _RoundState:
    """The guesses for one round, their weights, and how many moves they have seen."""

    __slots__ = ("key", "particles", "processed", "weights")

    def __init__(self, key: tuple[object, ...]) -> None:
        self.key = key
        self.particles: list[_Particle] = []
        self.weights: list[float] = []
        self.processed = 0


class BayesianAgent(Agent):
    """Keeps a posterior over the unseen cards, updated by every move it sees.

    **Posterior.** At its first turn in a round it deals ``particles`` (128) guesses of the
    other players' hands, uniformly from the cards it cannot see, as the deck would. Each
    move another player has made this round multiplies a guess's weight by the likelihood
    of that move under the explicit bidding model of :mod:`engine.agents.bidding_model`
    (check when the last bet looks less likely than a bar; otherwise bet the most senior
    set whose probability clears a threshold drawn from a window; some uniform noise),
    evaluated on the exact probabilities that player would see holding the guessed hand.
    The weighted guesses give ``q[s]``, the posterior probability that set ``s`` exists
    given its own cards and everything said this round (:meth:`posterior`).

    **Opponent models.** Every finished round reveals all hands, so for each opponent it
    adds up the log-likelihood of each of their moves under every model of a small grid
    (4 threshold windows x 4 check bars with 10% noise, a uniformly random player, and the
    default model, which gets a head start of ``prior_bonus`` nats) and from then on reads
    that opponent through the most likely model. Until then it uses the default model
    (window 0.5..0.9, check bar 0.25, 15% noise).

    **Decision.** Checking the last bet ``L`` wins with probability ``1 - q[L]``. For each
    legal bet ``b`` it predicts, guess by guess, the next player's answer under that
    player's model: they check if ``b`` looks less likely to them than their check bar,
    and then it wins if ``b`` exists in the guess; otherwise they raise, to their favourite
    set (the most senior clearing the middle of their window) if that is above ``b``. In a
    two-player game a raise to a favourite is worth ``after_false_raise`` (0.85) if the
    favourite is false in the guess and ``after_true_raise`` (0.35) if true, and a raise
    with no favourite left ``after_weak_raise`` (0.6); with more players any raise is worth
    ``after_raise_multi`` (0.8), since it passes the risk on. It plays the action with the
    highest expected chance of not losing the round, except that with probability
    ``explore`` (5%) it picks uniformly among the actions within ``tolerance`` (0.02) of the
    best. All its randomness comes from its seeded generator, so given its seed and the
    same game it plays the same moves.

    **Variants.** The particle filter and the bidding model above are those of the classic
    game (24 cards, no joker, blank or common card, and no team-mate). In any other game it
    plays the own-hand rule of :class:`~engine.agents.probabilist.ProbabilistAgent` on the
    exact variant odds (:func:`engine.odds.observed_odds`: its hand, its team-mates' hands
    and the common cards known; its own jokers when it bets, the bettor's share of the
    unseen jokers when it checks), with its own parameters: check below
    ``variant_check_below`` (0.2), bet the most senior set of at least
    ``variant_bet_above`` (0.8), bluff 3% and spread 5% of the time; it learns nothing from
    variant rounds. tests/agents/test_variants.py measures it against random in two
    variants.
    """

    name: ClassVar[str] = "bayesian"
    learns_from_rounds: ClassVar[bool] = True
    particles: ClassVar[int] = 128
    after_false_raise: ClassVar[float] = 0.85
    after_true_raise: ClassVar[float] = 0.35
    after_weak_raise: ClassVar[float] = 0.6
    after_raise_multi: ClassVar[float] = 0.8
    explore: ClassVar[float] = 0.05
    tolerance: ClassVar[float] = 0.02
    prior_bonus: ClassVar[float] = 2.0
    variant_check_below: ClassVar[float] = 0.2
    variant_bet_above: ClassVar[float] = 0.8
    variant_bluff: ClassVar[float] = 0.03
    variant_spread: ClassVar[float] = 0.05

    def __init__(self, seed: int | None = None) -> None:
        if not 1 <= self.particles <= MAX_PARTICLES:
            raise ValueError(f"particles must be 1..{MAX_PARTICLES}, not {self.particles}")
        self._rng = random.Random(seed)
        self._seat: int | None = None
        self._round: _RoundState | None = None
        self._grid = (DEFAULT_MODEL, *model_grid())
        self._table: tuple[str, ...] = ()
        self._loglik: dict[int, list[float]] = {}
        self._models: dict[int, BidModel] = {}

    # ------------------------------------------------------------------ opponent models

    def model_for(self, seat: int) -> BidModel:
        """The model through which it reads the player in ``seat``."""
        return self._models.get(seat, DEFAULT_MODEL)

    def round_ended(self, record: RoundRecord) -> None:
        """Score every opponent's moves of the round under each model, with their hands
        (classic rounds without teams only: see the class docstring)."""
        if not record.rules.is_classic or any(t is not None for t in record.teams):
            self._round = None
            return
        if record.nicknames != self._table:
            self._table = record.nicknames
            self._loglik = {}
            self._models = {}
        self._round = None
        total = sum(record.n_cards)
        grid = self._grid
        touched: set[int] = set()
        low = 0
        for seat, action in record.seats_history:
            if action == LOST_ROUND:
                break
            if seat != self._seat:
                mask = 0
                for index in record.hand_indices[seat]:
                    mask |= 1 << index
                p = set_probabilities(mask, total - record.n_cards[seat])
                scores = self._loglik.setdefault(seat, [0.0] * len(grid))
                for j, model in enumerate(grid):
                    scores[j] += math.log(max(model.likelihood(p, low, action), _FLOOR))
                touched.add(seat)
            if action != CHECK:
                low = action + 1
        bonus = self.prior_bonus
        for seat in touched:
            scores = self._loglik[seat]
            # The default model (first in the grid) starts ``prior_bonus`` nats ahead.
            best = max(range(len(grid)), key=lambda j: scores[j] + (bonus if j == 0 else 0.0))
            self._models[seat] = grid[best]

    # ------------------------------------------------------------------ the posterior

    def _state(self, obs: Observation) -> _RoundState:
        key = (obs.round_number, obs.n_cards, obs.hand_indices)
        state = self._round
        if state is None or state.key != key or state.processed > len(obs.seat_history):
            state = self._round = _RoundState(key)
        return state

    def _deal_particles(self, obs: Observation, state: _RoundState, count: int) -> None:
        """Deal ``count`` guesses, weighted by every move of this round seen so far."""
        mine = hand_mask(obs)
        unseen = [i for i in range(N_CARDS) if not mine >> i & 1]
        seats = [s for s, n in enumerate(obs.n_cards) if n and s != obs.seat]
        sizes = [obs.n_cards[s] for s in seats]
        total_other = sum(sizes)
        rnd = self._rng.random
        n_unseen = len(unseen)
        batch: list[_Particle] = []
        for _ in range(count):
            # A partial Fisher-Yates shuffle: unseen[:total_other] becomes a uniform draw.
            for i in range(total_other):
                j = i + int(rnd() * (n_unseen - i))
                unseen[i], unseen[j] = unseen[j], unseen[i]
            hands: dict[int, int] = {}
            pool = mine
            start = 0
            for seat, size in zip(seats, sizes, strict=True):
                hand = 0
                for index in unseen[start : start + size]:
                    hand |= 1 << index
                start += size
                hands[seat] = hand
                pool |= hand
            batch.append(_Particle(hands, existence_bits(pool)))
        weights = [1.0] * count
        self._weigh(obs, batch, weights, 0)
        state.particles.extend(batch)
        state.weights.extend(weights)

    def _weigh(
        self, obs: Observation, particles: list[_Particle], weights: list[float], start: int
    ) -> None:
        """Multiply ``weights`` by the likelihood of the round's moves from ``start`` on."""
        total = obs.total_cards
        n_cards = obs.n_cards
        low = 0
        for j, (seat, action) in enumerate(obs.seat_history):
            if j >= start and seat != obs.seat:
                model = self.model_for(seat)
                unknown = total - n_cards[seat]
                for i, particle in enumerate(particles):
                    p = particle.probs.get(seat)
                    if p is None:
                        p = particle.probs[seat] = set_probabilities(particle.hands[seat], unknown)
                    weights[i] *= model.likelihood(p, low, action)
            low = action + 1

    def _update(self, obs: Observation, state: _RoundState) -> None:
        """Fold the moves made since the last update into the weights."""
        weights = state.weights
        self._weigh(obs, state.particles, weights, state.processed)
        state.processed = len(obs.seat_history)
        top = max(weights)
        if top < _TINY:
            # Rescale before the weights underflow; if every guess is impossible under the
            # models (none is, since every model has some noise), start again from the prior.
            state.weights = [w / top for w in weights] if top > 0.0 else [1.0] * len(weights)

    def posterior(self, obs: Observation) -> tuple[float, ...]:
        """The posterior probability that each of the 88 sets exists, given the agent's own
        cards and the moves of the round so far (the ``q`` its decisions use)."""
        state = self._prepare(obs)
        weights = state.weights
        scale = _WEIGHT_SCALE / max(weights)
        total = 0
        exist_sum = 0
        for particle, w in zip(state.particles, weights, strict=True):
            wq = int(w * scale)
            total += wq
            exist_sum += wq * _spread(particle.exists)
        return tuple(lane / total for lane in _lanes(exist_sum, 0))

    def _prepare(self, obs: Observation) -> _RoundState:
        """The round's guesses, dealt if need be and weighted by every move seen so far."""
        self._seat = obs.seat
        state = self._state(obs)
        if not state.particles:
            self._deal_particles(obs, state, self.particles)
            state.processed = len(obs.seat_history)
        self._update(obs, state)
        return state

    # ------------------------------------------------------------------ deciding

    def _answer(self, particle: _Particle, seat: int, model: BidModel, unknown: int) -> None:
        """Predict, in this guess, how the player in ``seat`` answers each bet we could make:
        spread ints of the bets they check that exist, of the bets they raise to a more
        senior favourite, of the bets they raise with no favourite left; and the favourite."""
        checks, favourite = _response(particle.hands[seat], unknown, model)
        exists = particle.exists
        below = (1 << favourite) - 1
        raises = _ALL_BETS & ~checks
        particle.answer = (
            _spread(checks & exists),
            _spread(raises & below),
            _spread(raises & ~below),
            favourite,
        )

    def act(self, obs: Observation) -> int:
        if not is_plain(obs):
            return own_hand_action(
                obs,
                self._rng.random,
                self.variant_check_below,
                self.variant_bet_above,
                self.variant_bluff,
                self.variant_spread,
            )
        low = obs.min_bet
        if low >= N_BETS:
            return CHECK
        state = self._prepare(obs)
        n_cards = obs.n_cards
        n = len(n_cards)
        next_seat = (obs.seat + 1) % n
        while not n_cards[next_seat]:
            next_seat = (next_seat + 1) % n
        next_model = self.model_for(next_seat)
        unknown = obs.total_cards - n_cards[next_seat]
        two_players = sum(1 for c in n_cards if c) == 2
        weights = state.weights
        top = max(weights)
        scale = _WEIGHT_SCALE / top
        last_bit = 1 << (low - 1) if low else 0
        exist_sum = checked_true = raised_below = raised_above = 0
        total = 0
        false_raise = int(self.after_false_raise * _PER_MILLE)
        true_raise = int(self.after_true_raise * _PER_MILLE)
        weak_raise = int(self.after_weak_raise * _PER_MILLE)
        multi = int(self.after_raise_multi * _PER_MILLE)
        for particle, w in zip(state.particles, weights, strict=True):
            wq = int(w * scale)
            if not wq:
                continue
            total += wq
            if particle.answer is None:
                self._answer(particle, next_seat, next_model, unknown)
            answer = particle.answer
            assert answer is not None
            if particle.exists & last_bit:
                exist_sum += wq
            checked_true += wq * answer[0]
            if two_players:
                favourite_true = particle.exists >> answer[3] & 1
                raised_below += wq * (true_raise if favourite_true else false_raise) * answer[1]
                raised_above += wq * weak_raise * answer[2]
            else:
                raised_below += wq * multi * answer[1]
                raised_above += wq * multi * answer[2]
        values = [
            (a * _PER_MILLE + r1 + r2) / (total * _PER_MILLE)
            for a, r1, r2 in zip(
                _lanes(checked_true, low),
                _lanes(raised_below, low),
                _lanes(raised_above, low),
                strict=True,
            )
        ]
        options = [(v, low + k) for k, v in enumerate(values)]
        if low:
            q_last = exist_sum / total
            options.append((1.0 - q_last, CHECK))
        best_value = max(v for v, _ in options)
        rng = self._rng.random
        if rng() < self.explore:
            near = [a for v, a in options if v >= best_value - self.tolerance]
            return near[int(rng() * len(near))]
        return max(options)[1]
