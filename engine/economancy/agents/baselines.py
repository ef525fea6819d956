"""The baseline agents: random, a greedy point buyer, a greedy attacker.

- ``random``: a uniformly random legal move (any amount, any card that can act, any
  affordable shop card or Pass);
- ``greedy_points``: never invests and never attacks; defends with its leftmost usable
  card; buys the card with the most points it can afford that is in stock (Incantation,
  then Board of Monopoly), else the cheapest income card in stock (Worker), else Pass;
- ``greedy_attack``: invests all its coins whenever it has a card able to attack (else
  nothing); attacks with every card it can, strongest first; defends with its card of the
  highest defence; buys the affordable card in stock with the highest attack (the cheaper
  on a tie), else Pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.economancy.agents.base import EconomancyAgent
from engine.economancy.cards import BY_NAME, CARDS, PASS
from engine.economancy.state import ATTACKING, BUY, INVESTING, EconomancyState, Move


class RandomAgent(EconomancyAgent):
    name = "random"

    def decide(self, state: EconomancyState, me: int, view: Mapping[str, Any]) -> Move:
        return self.random.choice(state.legal_moves(me))


def _in_stock(state: EconomancyState, me: int) -> list[int]:
    coins = state.coins[me]
    return [k for k, n in state.shop.items() if n > 0 and (CARDS[k].cost or 0) <= coins]


class GreedyPointsAgent(EconomancyAgent):
    name = "greedy_points"

    def decide(self, state: EconomancyState, me: int, view: Mapping[str, Any]) -> Move:
        if state.phase == INVESTING:
            return 0
        if state.phase == BUY:
            options = _in_stock(state, me)
            scoring = [k for k in options if CARDS[k].points]
            if scoring:
                return CARDS[max(scoring, key=lambda k: CARDS[k].points)].name
            if BY_NAME["Worker"] in options:
                return "Worker"
            return PASS
        if state.asking_attacker():
            return 0
        return state.legal_moves(me)[0]


class GreedyAttackAgent(EconomancyAgent):
    name = "greedy_attack"

    def decide(self, state: EconomancyState, me: int, view: Mapping[str, Any]) -> Move:
        attack = state.attack_values
        if state.phase == INVESTING:
            return state.coins[me] if state.can_attack(me) else 0
        if state.phase == BUY:
            options = [k for k in _in_stock(state, me) if CARDS[k].attacks]
            if not options:
                return PASS
            best = max(options, key=lambda k: (attack[k], -(CARDS[k].cost or 0)))
            return CARDS[best].name
        cards = state.cards[me]
        if state.phase == ATTACKING and state.asking_attacker():
            usable = [int(i) for i in state.legal_moves(me) if i]
            return max(usable, key=lambda i: attack[cards[i]]) if usable else 0
        usable = [int(i) for i in state.legal_moves(me)]
        return max(usable, key=lambda i: CARDS[cards[i]].defence)
