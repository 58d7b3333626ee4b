"""The PettingZoo AEC environment (sorry.rl.pettingzoo_env): PettingZoo's API, seed, render and
save-observation tests in every variant, the classic games' wrappers, masks, rewards and
truncation. (PettingZoo's max_cycles_test is for parallel environments with a ``max_cycles``
argument; PettingZoo skips it for its classic games, and so does this turn-based game.)"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test, test_save_obs as save_obs_test

from sorry.errors import IllegalMoveError, RulesError
from sorry.rl import sorry_v0
from sorry.rl.pettingzoo_env import SorryAECEnv, env

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


@pytest.mark.parametrize("kw", [VARIANTS[0], VARIANTS[3], VARIANTS[6]], ids=["2", "teams", "pts"])
def test_wrapped_env_passes_api_seed_and_render_tests(
    kw: dict[str, Any],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    api_test(env(**kw), num_cycles=200, verbose_progress=False)
    seed_test(lambda: env(**kw), num_cycles=200)
    render_test(lambda render_mode=None: env(render_mode=render_mode, **kw))
    assert "to move" in capsys.readouterr().out  # human mode printed the board
    monkeypatch.chdir(tmp_path)
    save_obs_test(env(**kw))  # dict observations are not images: nothing saved, no error
    assert not (tmp_path / "saved_observations").exists()


def test_render_modes() -> None:
    e = SorryAECEnv(players=2, render_mode="ansi")
    e.reset(seed=3)
    text = e.render()
    assert isinstance(text, str)
    lines = text.splitlines()
    assert len(lines) == 17 and lines[-1].startswith("turn 0: ")
    assert "S4r" in text and "S4y" in text and "S4b" not in text  # Red and Yellow in START
    human = SorryAECEnv(players=2, render_mode="human")
    human.reset(seed=3)
    assert human.render() is None
    assert SorryAECEnv(players=2).metadata["name"] == "sorry_v0"
    with pytest.raises(RulesError, match="render_mode 'rgb' is not one of ansi, human, rgb_array"):
        SorryAECEnv(render_mode="rgb")


def test_classic_wrappers() -> None:
    e = sorry_v0.env(players=2)
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agents  # OrderEnforcingWrapper
    e.reset(seed=4)
    with pytest.raises(AssertionError, match="action space"):
        e.step(684)  # AssertOutOfBoundsWrapper
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    e.step(illegal)  # TerminateIllegalWrapper: the game ends, the culprit loses
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0
    assert all(r == 0.0 for a, r in e.rewards.items() if a != agent)
    raw = sorry_v0.raw_env(players=2)
    raw.reset(seed=4)
    with pytest.raises(IllegalMoveError, match="not legal"):
        raw.step(illegal)
    clone = pickle.loads(pickle.dumps(raw))  # EzPickle: rebuilt from the arguments
    assert clone.possible_agents == raw.possible_agents


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
