"""The PettingZoo AEC environment (sorry.rl.pettingzoo_env): PettingZoo's API and seed tests in
every variant, masks, rewards and truncation."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from sorry.errors import RulesError
from sorry.rl.pettingzoo_env import SorryAECEnv

VARIANTS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3, "options": {"deck": 44}},
    {"players": 4, "options": {"sorry_forward_4": "always"}},
    {"players": 4, "variant": "teams"},
    {"players": 4, "variant": "teams", "options": {"team_swap_partner": "yes"}},
    {"players": 2, "variant": "points"},
    {"players": 4, "variant": "points"},
]
IDS = ["2", "3-deck44", "4-sorry4", "teams", "teams-swap", "points2", "points4"]

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("kw", VARIANTS, ids=IDS)
def test_api_and_seed(kw: dict[str, Any]) -> None:
    api_test(SorryAECEnv(**kw), num_cycles=300, verbose_progress=False)
    seed_test(lambda: SorryAECEnv(**kw), num_cycles=300)


def _play_out(env: SorryAECEnv, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() >= 1
        # Agents not to move see an all-zero mask.
        for other in env.agents:
            if other != agent:
                assert env.observe(other)["action_mask"].sum() == 0
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return totals


@pytest.mark.parametrize("kw", [VARIANTS[0], VARIANTS[3], VARIANTS[6]], ids=["2", "teams", "pts"])
def test_full_games_have_zero_sum_rewards(kw: dict[str, Any]) -> None:
    env = SorryAECEnv(**kw)
    totals = _play_out(env, seed=11)
    assert sum(totals.values()) == pytest.approx(0.0)
    n = len(env.possible_agents)
    top = 1.0 if kw.get("variant") == "teams" else n - 1
    assert max(totals.values()) == top and min(totals.values()) == -1.0
    assert env.agents == []


def test_turn_limit_truncates() -> None:
    env = SorryAECEnv(players=2, turn_limit=10)
    env.reset(seed=2)
    steps = 0
    for _agent in env.agent_iter():
        _obs, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0
            env.step(None)
            continue
        env.step(int(np.flatnonzero(env.action_mask())[0]))
        steps += 1
    assert steps == 10


def test_agents_and_refusal() -> None:
    assert SorryAECEnv(players=2).possible_agents == ["red", "yellow"]
    assert SorryAECEnv(players=3).possible_agents == ["red", "blue", "yellow"]
    with pytest.raises(RulesError, match="team_seven_split=any"):
        SorryAECEnv(variant="teams", options={"team_seven_split": "any"})
