"""Smoke runs of the RL examples: the NumPy policy-gradient trainer, the NumPy PPO trainer on
the batched environment and the OpenSpiel search bots (tiny settings; the real figures are in
docs/rl.md)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_train_rl_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    train = _load("train_rl")
    report = train.main(["--episodes", "6", "--eval-games", "3", "--quiet", "--seed", "2"])
    assert report["episodes"] == 6 and report["agent_steps"] > 0
    for key in ("win_rate_vs_random", "win_rate_vs_easy", "untrained_win_rate_vs_easy"):
        assert 0.0 <= report[key] <= 1.0
        assert report[key] * 3 == pytest.approx(round(report[key] * 3))  # wins out of 3 games
    assert '"win_rate_vs_random"' in capsys.readouterr().out


def test_train_vector_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    train = _load("train_vector")
    args = ["--steps", "256", "--num-envs", "16", "--rollout", "8", "--minibatch", "64"]
    report = train.main([*args, "--eval-games", "4", "--quiet", "--seed", "3"])
    assert report["agent_steps"] >= 256
    assert report["training_cpu_seconds"] > 0
    assert report["training_cpu_minutes"] == round(report["training_cpu_seconds"] / 60, 2)
    for key in ("win_rate_vs_random", "win_rate_vs_easy", "uniform_win_rate_vs_easy"):
        assert 0.0 <= report[key] <= 1.0
        assert report[key] * 4 == pytest.approx(round(report[key] * 4))  # wins out of 4 games
    assert '"win_rate_vs_easy"' in capsys.readouterr().out


def test_train_vector_win_rate_counts_each_slots_first_game() -> None:
    """The example's evaluation: with as many slots as games, each slot's first game is
    counted once, a win when the reward is +1 (here counted again by hand, the same actions
    drawn from the same generator)."""
    import numpy as np

    from sorry.rl.vector import SorryVectorEnv

    train = _load("train_vector")
    games, seed = 30, 5
    env = SorryVectorEnv(num_envs=games, players=2, opponents="easy")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    result = np.zeros(games)
    while not result.all():
        _obs, reward, term, trunc, _info = env.step(env.sample_actions(rng))
        first = (term | trunc) & (result == 0)
        result[first] = np.where(reward[first] > 0, 1, -1)
    wins = int((result > 0).sum())
    assert 0 < wins < games
    assert train.win_rate(None, 2, "easy", games, seed) == wins / games


def test_openspiel_search_smoke() -> None:
    search = _load("openspiel_search")
    report = search.main(["--games", "1", "--simulations", "4"])
    assert set(report) >= {
        "mcts_standard_win_rate_vs_random",
        "ismcts_points_win_rate_vs_random",
    }


def test_train_vector_gradients_are_the_loss_gradients() -> None:
    """The PPO example's hand-written gradients (policy through the masked softmax, clipped
    surrogate, entropy bonus, value head, both hidden layers) against central differences of
    its loss, in float64, on a minibatch where some ratios are clipped and some not."""
    import numpy as np

    train = _load("train_vector")
    rng = np.random.default_rng(0)
    net = train.Net.new(8, rng)
    net.p = {k: v.astype(np.float64) for k, v in net.p.items()}
    net.p["wp"] *= 300  # a policy far from uniform, so the ratios move
    net.p["bv"] += 0.3
    batch = 12
    x = rng.random((batch, train.OBS_SIZE))
    mask = rng.random((batch, train.NUM_ACTIONS)) < 0.01
    mask[:, :3] = True  # at least three legal actions everywhere
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
    logits, _, _ = net.forward(x)
    logp = train.masked_log_softmax(logits, mask)[np.arange(batch), actions]
    # old log-probabilities: ratios of 1.3 and 0.7 (clipped for one sign of the advantage,
    # with the clip at 0.2) and 1.05
    old = logp - np.log(np.tile([1.3, 0.7, 1.05], batch // 3))
    adv = np.tile([1.0, -0.7, 0.4, -1.2], batch // 4)  # every ratio with every sign
    returns = rng.choice([-1.0, 1.0], batch)
    args = (x, mask, actions, old, adv, returns, 0.2, 0.05, 0.5)
    grads = train.ppo_gradients(net, *args)
    assert set(grads) == set(net.p)
    h = 1e-6
    checked = 0
    for name, param in net.p.items():
        flat = param.reshape(-1)
        # the entries that matter: the chosen actions' logits, and some others
        picks = set(rng.choice(flat.size, min(6, flat.size), replace=False).tolist())
        if name in ("wp", "bp"):
            picks |= {int(a) for a in actions[:3]}
        for k in picks:
            keep = flat[k]
            flat[k] = keep + h
            up = train.ppo_loss(net, *args)
            flat[k] = keep - h
            down = train.ppo_loss(net, *args)
            flat[k] = keep
            numeric = (up - down) / (2 * h)
            assert grads[name].reshape(-1)[k] == pytest.approx(numeric, rel=1e-4, abs=1e-7), name
            checked += 1
    assert checked > 40
    ratio = np.exp(logp - old)
    clipped = ((adv > 0) & (ratio > 1.2)) | ((adv < 0) & (ratio < 0.8))
    assert 0 < clipped.sum() < batch  # both kinds of sample were in the minibatch
