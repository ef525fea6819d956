"""``planner``: our strongest Economancy agent (also known as ``ours``).

It plays from the protocol's view only, and plans over the hidden simultaneous choices:

- **The count that decides fights.** Every attack uses one defence of each defender (the
  defender picks which card), and a defender left with no usable defender is eliminated.
  So a seat whose attacks outnumber a rival's defences (a Wall of Wealth counts twice)
  eliminates that rival if it wins the investment. The evaluation of a position weighs
  that threat both ways, as well as the cards' worth, the coins, and the points race.
- **Investing is a sealed bid.** For each amount it could invest it plays out, with the
  engine, the attack phase each bid would lead to (it attacks, a rival attacks, nobody
  does), and scores every pair (its amount, the rival's amount) with the evaluation and
  the coins each side paid. The rival's amount is unknown: it is drawn from a model made
  of what that rival invested so far in this game (read from the coins each view shows:
  each view's coins minus the last investing view's), as a share of its coins, mixed with
  a prior (nothing, everything when the rival can eliminate us, anything). The agent
  invests the amount with the best expected score against that model. At a table of
  three or four the rival it bids against is the richest, unless a rival able to
  eliminate it threatens more: the rival whose attack phase would cost it most, weighed
  by the share of its coins that rival is expected to invest.
- **Attacking** looks one fight ahead: each usable attacker is tried in the engine, the
  defenders answering as a sound defender would, and the best of these and stopping is
  played; with enough attacks to eliminate, it attacks with everything.
- **Defending** picks the card whose fight costs least: a card that survives or knocks
  out the attacker first, and points last.
- **Buying** scores every affordable card in stock (and Pass) by the evaluation of the
  army it would give, the defences needed against the rivals' attacks first, then the
  economy early and the points once it is safe.

Deterministic given its seed (the seed only breaks exact ties).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from engine.economancy.agents.base import EconomancyAgent
from engine.economancy.cards import CARDS, PASS
from engine.economancy.rules import EconomancyRules
from engine.economancy.state import (
    ATTACKING,
    BUY,
    INVESTING,
    POINTS_TO_WIN,
    EconomancyState,
    Move,
)

WIN: Final = 1000.0
"""The score of a won game (minus it for a lost one)."""
COIN: Final = 1.3
"""What a coin in hand is worth against a card's worth (and what a coin invested costs)."""
POINT: Final = 1.6
"""What a victory point is worth, before the bonus near the goal."""

_WORTH_BY_NAME: Final = {
    "Sorcerer's Stipend": 0.0,
    "Board of Monopoly": 1.0,
    "Incantation": 1.2,
    "Worker": 2.3,
    "Magic Bean Stock": 1.7,
    "Bubble": 2.7,
    "Ghost": 3.2,
    "Senior Worker": 3.0,
    "Gold Fish": 3.1,
    "Wall of Wealth": 2.6,
    "Apprentice": 2.6,
    "Thug": 4.6,
    "Shield of Greed": 4.4,
    "Golem": 6.4,
}
WORTH: Final = tuple(_WORTH_BY_NAME[c.name] for c in CARDS)
"""A card's worth in an army (coin equivalents), its points apart."""
_POINTS: Final = tuple(c.points for c in CARDS)
_ATTACKS: Final = tuple(c.attacks for c in CARDS)
_DEFENDS: Final = tuple(c.defends for c in CARDS)
_DEFENCE: Final = tuple(c.defence for c in CARDS)
_COST: Final = tuple(c.cost or 0 for c in CARDS)
_INCOME3: Final = tuple(sum(c.income) for c in CARDS)
_MAX_COST: Final = max(_COST)


def _points_worth(points: int) -> float:
    return POINT * points + (2.0 if points >= 4 else 0.0) + (3.0 if points >= 6 else 0.0)


def _attacks(cards: list[int]) -> int:
    return sum(1 for k in cards if _ATTACKS[k])


def _slots(cards: list[int]) -> int:
    return sum(_DEFENDS[k] for k in cards)


def seat_worth(state: EconomancyState, seat: int) -> float:
    """A seat's worth: its cards, coins and points (0 once out)."""
    cards = state.cards[seat]
    if not cards:
        return 0.0
    points = sum(_POINTS[k] for k in cards)
    return sum(WORTH[k] for k in cards) + COIN * state.coins[seat] + _points_worth(points)


def evaluate(state: EconomancyState, me: int) -> float:
    """How good ``state`` is for ``me``: the game's end if it is over, else its worth
    against its rivals', with the elimination threats both ways."""
    if state.over:
        if state.winner == me:
            return WIN
        if state.winner is None:
            return 0.0
        return -WIN
    if not state.cards[me]:
        return -WIN
    rivals = [s for s in range(state.n) if s != me and state.cards[s]]
    mine = seat_worth(state, me)
    worths = [seat_worth(state, s) for s in rivals]
    score = mine - (max(worths) + sum(worths) / len(worths)) / 2
    my_cards = state.cards[me]
    my_attacks, my_slots = _attacks(my_cards), _slots(my_cards)
    for s in rivals:
        cards = state.cards[s]
        if _attacks(cards) > my_slots:
            score -= 0.25 * WIN / len(rivals) ** 2 if len(rivals) > 1 else 0.3 * WIN
        if my_attacks > _slots(cards):
            score += 0.15 * WIN / len(rivals) if len(rivals) > 1 else 0.25 * WIN
    return score


def defence_choice(state: EconomancyState, seat: int) -> int:
    """The defender a sound player picks: the cheapest fight (see the module docstring)."""
    attacker = state.attacker
    kind = state.cards[attacker][state.attacker_card]
    attack = state.attack_values
    hits, guard = attack[kind], _DEFENCE[kind]
    cards, uses = state.cards[seat], state.uses[seat]
    best, best_score = -1, -1e9
    for i, k in enumerate(cards):
        if uses[i] >= _DEFENDS[k]:
            continue
        score = 0.0
        if hits > _DEFENCE[k]:
            score -= WORTH[k] + POINT * 2 * _POINTS[k] + 0.3 * (_DEFENDS[k] - uses[i] - 1)
        if attack[k] > guard:
            score += WORTH[kind]
        score -= 0.01 * _POINTS[k]
        if score > best_score:
            best, best_score = i, score
    return best


def _play_defences(state: EconomancyState) -> None:
    for seat in state.to_act():
        if state.phase != ATTACKING or state.attacker_card < 0:
            return
        state.apply_checked(seat, defence_choice(state, seat))


def attack_choice(state: EconomancyState, me: int) -> int:
    """The attacker's card (0: stop), one fight ahead (see the module docstring)."""
    usable = [int(i) for i in state.legal_moves(me) if i]
    if not usable:
        return 0
    rivals = [s for s in range(state.n) if s != me and state.cards[s]]
    left_slots = min(
        sum(max(0, _DEFENDS[k] - u) for k, u in zip(state.cards[s], state.uses[s], strict=True))
        for s in rivals
    )
    if len(usable) > left_slots:  # enough attacks to eliminate a rival: all of them
        return min(usable, key=lambda i: WORTH[state.cards[me][i]])
    stop = state.clone()
    stop.apply_checked(me, 0)
    best, best_score = 0, evaluate(stop, me)
    for i in usable:
        trial = state.clone()
        trial.apply_checked(me, i)
        _play_defences(trial)
        score = evaluate(trial, me)
        if score > best_score + 1e-9:
            best, best_score = i, score
    return best


def _attack_phase(state: EconomancyState, attacker: int) -> EconomancyState:
    """The attack phase played out with ``attacker`` attacking (sound choices all round),
    from an investing state; returns the state at its end."""
    trial = state.clone()
    trial.phase = ATTACKING
    trial.attacker = attacker
    trial.attacker_card = -1
    trial.pending = {}
    trial.choosers = ()
    trial.refresh()
    for _ in range(20):
        if trial.phase != ATTACKING:
            break
        if trial.attacker_card < 0:
            trial.apply_checked(attacker, attack_choice(trial, attacker))
        else:
            _play_defences(trial)
    return trial


class PlannerAgent(EconomancyAgent):
    name = "planner"

    def __init__(self, seed: int | None = None, rules: EconomancyRules | None = None) -> None:
        super().__init__(seed, rules)
        self._snapshot: list[int] | None = None
        self._bids: dict[int, list[float]] = {}
        """Each rival's investments so far, as shares of the coins it had."""

    def choose(self, view: Mapping[str, Any]) -> Move:
        self._learn(view)
        return super().choose(view)

    def _learn(self, view: Mapping[str, Any]) -> None:
        coins = [int(p["coins"]) for p in view["players"]]
        if self._snapshot is not None and view["phase"]["name"] != INVESTING:
            for seat, (before, now) in enumerate(zip(self._snapshot, coins, strict=False)):
                if seat != view["player"] and before > 0 and view["players"][seat]["cards"]:
                    share = max(0, before - now) / before
                    self._bids.setdefault(seat, []).append(min(1.0, share))
            self._snapshot = None
        if view["phase"]["name"] == INVESTING:
            self._snapshot = coins

    def decide(self, state: EconomancyState, me: int, view: Mapping[str, Any]) -> Move:
        if state.phase == INVESTING:
            return self._invest(state, me)
        if state.phase == BUY:
            return self._buy(state, me)
        if state.asking_attacker():
            return attack_choice(state, me)
        return defence_choice(state, me)

    # ------------------------------------------------------------------ investing

    def _bid_model(
        self, state: EconomancyState, me: int, rival: int
    ) -> tuple[dict[int, float], float]:
        """What the rival may invest: point masses (amount: probability) and the weight
        spread evenly over every amount from 0 to its coins."""
        coins = state.coins[rival]
        threat = _attacks(state.cards[rival]) > _slots(state.cards[me])
        points: dict[int, float] = {0: 0.35}
        likely = coins if threat else (coins + 1) // 2
        points[likely] = points.get(likely, 0.0) + 0.25
        spread = 0.4
        history = self._bids.get(rival, [])
        if history:
            recent = history[-8:]
            learned = min(0.85, 0.2 * len(recent))
            points = {a: p * (1 - learned) for a, p in points.items()}
            spread *= 1 - learned
            for share in recent:
                amount = min(coins, round(share * coins))
                points[amount] = points.get(amount, 0.0) + learned / len(recent)
        return points, spread

    def _expected_share(self, state: EconomancyState, me: int, rival: int) -> float:
        """The share of its coins ``rival`` is expected to invest, by :meth:`_bid_model`."""
        coins = state.coins[rival]
        if coins <= 0:
            return 0.0
        points, spread = self._bid_model(state, me, rival)
        return spread / 2 + sum(p * a for a, p in points.items()) / coins

    def _invest(self, state: EconomancyState, me: int) -> int:
        coins = state.coins[me]
        rivals = [s for s in range(state.n) if s != me and state.cards[s]]
        if not rivals:
            return 0
        none = state
        mine = _attack_phase(state, me) if state.can_attack(me) else none
        # The rival that matters for the bid: the richest (the most dangerous on a tie),
        # unless a rival able to eliminate us (more attacks than our defences) threatens
        # more: then the rival whose attack phase, if it won the investment, would cost us
        # most, weighed by the share of its coins it is expected to invest.
        first = max(rivals, key=lambda s: (state.coins[s], _attacks(state.cards[s])))
        threats = {first: _attack_phase(state, first) if state.can_attack(first) else none}
        if len(rivals) > 1:
            base = evaluate(none, me)
            weight: dict[int, float] = {}
            for s in rivals:
                if s not in threats:
                    threats[s] = _attack_phase(state, s) if state.can_attack(s) else none
                harm = max(0.0, base - evaluate(threats[s], me))
                weight[s] = harm * self._expected_share(state, me, s)
            rival = max(rivals, key=lambda s: (weight[s], state.coins[s], _attacks(state.cards[s])))
            if _attacks(state.cards[rival]) > _slots(state.cards[me]):
                first = rival
        rival = first
        theirs = threats[rival]
        richest = state.coins[rival]
        top = min(coins, richest + 1)
        points, spread = self._bid_model(state, me, rival)
        # Every amount up to 10, a few larger ones, the rival's coins (a tie) and one more
        # (a sure win), and one more than each amount the model expects: a few dozen
        # candidates however rich the table gets.
        candidates = sorted(
            a
            for a in {
                *range(min(top, 10) + 1),
                top,
                richest,
                *(top * i // 8 for i in range(9)),
                *(b + 1 for b in points),
            }
            if 0 <= a <= top
        )
        cache: dict[tuple[int, int], float] = {}

        def value(scenario: EconomancyState, left: int) -> float:
            key = (id(scenario), min(left, _MAX_COST))  # a card costs at most 5
            if key not in cache:
                cache[key] = self._day_value(scenario, me, min(left, _MAX_COST))
            return cache[key] + COIN * (left - min(left, _MAX_COST))

        width = richest + 1
        best, best_score = 0, -1e18
        for a in candidates:
            below = spread * min(a, width) / width + sum(p for b, p in points.items() if b < a)
            equal = (spread / width if a < width else 0.0) + points.get(a, 0.0)
            above = max(0.0, 1.0 - below - equal)
            expected = 0.0
            if below:
                expected += below * value(mine, coins - a)
            if above:
                expected += above * value(theirs, coins - a)
            if equal:
                expected += equal * value(none, coins - a)
            if expected > best_score + 1e-9:
                best, best_score = a, expected
        return best

    def _day_value(self, state: EconomancyState, me: int, coins: int) -> float:
        """The value of ``state`` (after an attack phase) for ``me`` holding ``coins`` to
        spend on its best buy of the day, the coins of the view discounted."""
        value = evaluate(state, me) - COIN * state.coins[me] + COIN * coins
        if state.over or not state.cards[me]:
            return value
        saved = state.coins[me]
        state.coins[me] = coins
        try:
            _, gain = self._best_buy(state, me)
        finally:
            state.coins[me] = saved
        return value + gain

    # ------------------------------------------------------------------ buying

    def _buy(self, state: EconomancyState, me: int) -> str:
        return self._best_buy(state, me)[0]

    def _best_buy(self, state: EconomancyState, me: int) -> tuple[str, float]:
        """The best buy and what it adds to the army's score (0 for Pass)."""
        coins = state.coins[me]
        options = [k for k, n in state.shop.items() if n > 0 and _COST[k] <= coins]
        rivals = [s for s in range(state.n) if s != me and state.cards[s]]
        threat = max((_attacks(state.cards[s]) for s in rivals), default=0)
        # a rival may buy one more attacker today
        threat += 1 if any(state.coins[s] >= 1 for s in rivals) else 0
        passing = self._army_score(state, me, None, threat, rivals)
        best, best_score = PASS, passing
        for k in options:
            score = self._army_score(state, me, k, threat, rivals)
            if score > best_score + 1e-9:
                best, best_score = CARDS[k].name, score
        return best, best_score - passing

    def _army_score(
        self, state: EconomancyState, me: int, kind: int | None, threat: int, rivals: list[int]
    ) -> float:
        cards = state.cards[me] + ([kind] if kind is not None else [])
        coins = state.coins[me] - (_COST[kind] if kind is not None else 0)
        points = sum(_POINTS[k] for k in cards)
        score = sum(WORTH[k] for k in cards) + COIN * coins + _points_worth(points)
        slots, attacks = _slots(cards), _attacks(cards)
        score -= 6.0 * max(0, threat - slots)  # as many defences as the rivals' attacks
        weakest = min((_slots(state.cards[s]) for s in rivals), default=99)
        if attacks > weakest:
            score += 3.0
        size = len(cards)
        if kind is not None:
            early = max(0.0, 1.0 - size / 8)
            score += early * 1.2 * _INCOME3[kind] / 3
            if CARDS[kind].bean:
                score += early * 1.0
        rival_points = max((sum(_POINTS[k] for k in state.cards[s]) for s in rivals), default=0)
        if points >= POINTS_TO_WIN and points > rival_points:
            score += WIN / 2
        if slots >= threat + 2 and kind is not None and _POINTS[kind]:
            score += 1.5 * _POINTS[kind]
        return score
