"""The PettingZoo environment passes PettingZoo's own API test and plays whole games."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import parallel_api_test

from arena.figgie.env import FiggieParallelEnv


def test_the_environment_passes_pettingzoos_parallel_api_test():
    parallel_api_test(FiggieParallelEnv(), num_cycles=300)


def test_a_game_played_by_the_mask_ends_after_240_ticks_with_profits_summing_to_zero():
    env = FiggieParallelEnv()
    observations, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    total: dict[str, float] = {}
    ticks = 0
    while env.agents:
        actions = {
            agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
            for agent, obs in observations.items()
        }
        observations, rewards, terminations, _, _ = env.step(actions)
        ticks += 1
        for agent, reward in rewards.items():
            total[agent] = total.get(agent, 0.0) + reward
    assert ticks == 240 and all(terminations.values())
    assert sum(total.values()) == 0 and any(total.values())
