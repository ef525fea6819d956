"""Situations to put agents in: real mid-game observations, and hand-made ones."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.agents import AGENTS, Agent
from engine.dealing import seed_sequence
from engine.facts import CHECK, N_BETS, Card, Colour, Value
from engine.game import Game, RoundRecord
from engine.observation import Observation
from engine.rules import CLASSIC, Rules

NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal")
AGENT_NAMES = sorted(AGENTS)


def mid_game(seed: int, n_players: int, random_moves: int) -> Observation | None:
    """A seeded game after up to ``random_moves`` uniformly random legal moves: the current
    player's observation, or None if the game finished on the way."""
    game = Game(seed_source=seed_sequence(seed))
    for name in NAMES[:n_players]:
        game.join(name)
    game.start()
    rng = random.Random(seed)
    for _ in range(random_moves):
        record = game.apply(rng.choice(game.legal_actions()))
        if record is not None and record.ended_game:
            return None
    seat = game.current_seat
    assert seat is not None
    return Observation(game, seat)


@dataclass
class Situation:
    """A hand-made stand-in for :class:`~engine.observation.Observation`: the attributes the
    built-in agents read, set directly."""

    hand: tuple[Card, ...]
    n_cards: tuple[int, ...]
    seat_history: list[tuple[int, int]] = field(default_factory=list)
    seat: int = 0
    round_number: int = 1
    rules: Rules = CLASSIC
    teammate_hands: dict[int, tuple[int, ...]] = field(default_factory=dict)

    @property
    def hand_indices(self) -> tuple[int, ...]:
        return tuple(sorted(c.index for c in self.hand))

    @property
    def total_cards(self) -> int:
        return sum(self.n_cards)

    @property
    def min_bet(self) -> int:
        return self.seat_history[-1][1] + 1 if self.seat_history else 0

    @property
    def can_check(self) -> bool:
        return bool(self.seat_history)

    @property
    def legal_actions(self) -> list[int]:
        low = self.min_bet
        return [*range(low, N_BETS), *([CHECK] if low else [])]


def card(value: Value, colour: Colour) -> Card:
    return Card(value, colour)


class Recording(Agent):
    """Wraps an agent, checks every action it takes against the rules, and records them."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.actions: list[int] = []
        self.first_moves: list[int] = []

    def act(self, obs: Observation) -> int:
        action = self.inner.act(obs)
        legal = obs.legal_actions
        assert action in legal, f"{self.inner.name} played {action}; legal: {legal}"
        if not obs.seat_history:
            self.first_moves.append(action)
        self.actions.append(action)
        return action

    def round_ended(self, record: RoundRecord) -> None:
        self.inner.round_ended(record)
