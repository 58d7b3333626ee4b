"""The Gymnasium single-agent environment (sorry.rl.gym_env): Gymnasium's checker in every
variant, masks, bots as opponents, rewards, illegal actions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from sorry.bots import make_bot
from sorry.errors import RulesError
from sorry.rl.gym_env import SorryEnv

VARIANTS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3, "opponents": "easy", "seat": 1},
    {"players": 4, "opponents": ["random", "easy", "medium"], "options": {"slide_on": "own"}},
    {"players": 4, "variant": "teams", "opponents": "easy"},
    {"players": 2, "variant": "points", "opponents": "easy"},
    {"players": 4, "variant": "points", "seat": 3},
]
IDS = ["2", "3-easy", "4-mixed", "teams", "points2", "points4"]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("kw", VARIANTS, ids=IDS)
def test_env_checker(kw: dict[str, Any]) -> None:
    check_env(SorryEnv(render_mode="ansi", **kw))


@pytest.mark.parametrize("kw", VARIANTS, ids=IDS)
def test_masked_random_games(kw: dict[str, Any]) -> None:
    env = SorryEnv(**kw)
    for seed in range(2):
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = False
        reward = 0.0
        while not done:
            mask = env.action_masks()
            assert mask.dtype == np.bool_ and mask.any()
            assert np.array_equal(mask, info["action_mask"])
            assert env.observation_space.contains(obs)
            assert env.game is not None and env.game.to_move == env.colour
            obs, reward, terminated, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(mask)))
            )
            assert not info["illegal"]
            done = terminated or truncated
        assert reward in (1.0, -1.0)
        assert (reward == 1.0) == (env.colour in info["winners"])


def test_same_seed_same_game() -> None:
    a, b = SorryEnv(players=4, opponents="easy"), SorryEnv(players=4, opponents="easy")
    oa, _ = a.reset(seed=5)
    ob, _ = b.reset(seed=5)
    for _ in range(20):
        assert np.array_equal(oa, ob)
        act = int(np.flatnonzero(a.action_masks())[0])
        oa, ra, ta, _, _ = a.step(act)
        ob, rb, tb, _, _ = b.step(act)
        assert (ra, ta) == (rb, tb)
        if ta:
            break


def test_illegal_action_is_replaced_and_flagged() -> None:
    env = SorryEnv(players=2, illegal_reward=-0.5)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    turn = env.game.turn if env.game else 0
    _obs, reward, terminated, _trunc, info = env.step(illegal)
    assert info["illegal"] and (reward == -0.5 or terminated)
    assert env.game is not None and env.game.turn > turn


def test_bad_arguments() -> None:
    with pytest.raises(RulesError, match="opponents"):
        SorryEnv(players=3, opponents=["easy"])
    with pytest.raises(RulesError, match="seat"):
        SorryEnv(players=2, seat=2)
    with pytest.raises(RulesError, match="team_seven_split=any"):
        SorryEnv(players=4, variant="teams", options={"team_seven_split": "any"})
    env = SorryEnv(players=2, opponents=make_bot("medium"))
    env.reset(seed=0)
    assert env.bots[2].name


def test_registered_with_gymnasium() -> None:
    import gymnasium as gym

    from sorry.rl.gym_env import ENV_ID

    env = gym.make(ENV_ID, players=3, opponents="easy")
    assert isinstance(env.unwrapped, SorryEnv) and env.unwrapped.colours == (0, 1, 2)
    obs, _info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
