"""Figgie as a PettingZoo ``ParallelEnv`` (the optional extra ``figgie-env``).

Four (or five) agents ``player_0`` .. act at once every tick of the engine's simulator
(:mod:`engine.figgie.sim`: 240 ticks, 257 actions, the documented order within a tick).

- **Action space**: ``Discrete(257)``, numbered as in :mod:`engine.figgie.sim`. An action
  that is not legal when its turn in the tick comes does nothing (use the mask).
- **Observation** (a dict): ``"observation"``, float32 of length ``4 + 2n + 8n + 1``: the
  agent's hand per suit / 10; every seat's chips / 350 and card count / 10; every seat's
  bid and ask price per suit / 30 (0: none), seats rotated so that the agent's own row
  comes first; and the fraction of the game elapsed. ``"action_mask"``, int8 of length
  257: 1 where the action is legal (:func:`engine.figgie.sim.action_mask`).
- **Reward**: 0 every tick, the profit (final chips less 350) at the end, when every agent
  terminates together.

``reset(seed=k)`` deals game ``SHA-256(b"figgie/env/v1" + k as 8 bytes)``: the same seed
and actions replay the same game.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from engine.figgie.decks import N_SUITS
from engine.figgie.sim import MAX_PRICE, N_ACTIONS, TICKS, Simulation, action_mask

ENV_TAG = b"figgie/env/v1"


class FiggieParallelEnv(ParallelEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    metadata = {"name": "figgie_v1", "render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(self, n_players: int = 4, ticks: int = TICKS, render_mode: str | None = None):
        if n_players not in (4, 5):
            raise ValueError(f"Figgie is played by 4 or 5 players, not {n_players}")
        self.n_players = n_players
        self.ticks = ticks
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(n_players)]
        self.agents: list[str] = []
        self.sim: Simulation | None = None
        self._size = 4 + 2 * n_players + 2 * N_SUITS * n_players + 1

    @functools.cache  # noqa: B019 - one space per agent, as PettingZoo asks
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self._size,), np.float32),
                "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
            }
        )

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return spaces.Discrete(N_ACTIONS)

    def _observe(self, seat: int) -> dict[str, Any]:
        assert self.sim is not None
        market = self.sim.market
        n = self.n_players
        order = [(seat + k) % n for k in range(n)]
        values: list[float] = [c / 10 for c in market.hands[seat]]
        values += [market.chips[p] / 350 for p in order]
        values += [sum(market.hands[p]) / 10 for p in order]
        for p in order:
            values += [b / MAX_PRICE for b in market.bids[p]]
            values += [a / MAX_PRICE for a in market.asks[p]]
        values.append(self.sim.tick / self.ticks)
        return {
            "observation": np.asarray(values, dtype=np.float32),
            "action_mask": np.asarray(action_mask(market, seat), dtype=np.int8),
        }

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        number = secrets.randbelow(2**63) if seed is None else seed
        game_seed = hashlib.sha256(ENV_TAG + number.to_bytes(8, "big")).digest()
        self.sim = Simulation(game_seed, self.n_players, self.ticks)
        self.agents = list(self.possible_agents)
        observations = {a: self._observe(i) for i, a in enumerate(self.possible_agents)}
        return observations, {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, dict[str, Any]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        assert self.sim is not None, "call reset() first"
        moves = [int(actions.get(agent, 0)) for agent in self.possible_agents]
        self.sim.step(moves)
        done = self.sim.done
        profits = self.sim.profits() if done else [0] * self.n_players
        agents = self.agents
        observations = {a: self._observe(self.possible_agents.index(a)) for a in agents}
        rewards = {a: float(profits[self.possible_agents.index(a)]) for a in agents}
        terminations = dict.fromkeys(agents, done)
        truncations = dict.fromkeys(agents, False)
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.sim is None:
            return None
        market = self.sim.market
        return f"tick {self.sim.tick}: chips {market.chips}, trades {len(market.tape)}"


def parallel_env(**kwargs: Any) -> FiggieParallelEnv:
    return FiggieParallelEnv(**kwargs)
