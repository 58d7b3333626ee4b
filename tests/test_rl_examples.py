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
    assert '"win_rate_vs_random"' in capsys.readouterr().out


def test_train_vector_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    train = _load("train_vector")
    args = ["--steps", "256", "--num-envs", "16", "--rollout", "8", "--minibatch", "64"]
    report = train.main([*args, "--eval-games", "4", "--quiet", "--seed", "3"])
    assert report["agent_steps"] >= 256 and report["training_minutes"] >= 0
    for key in ("win_rate_vs_random", "win_rate_vs_easy", "uniform_win_rate_vs_easy"):
        assert 0.0 <= report[key] <= 1.0
    assert '"win_rate_vs_easy"' in capsys.readouterr().out


def test_openspiel_search_smoke() -> None:
    search = _load("openspiel_search")
    report = search.main(["--games", "1", "--simulations", "4"])
    assert set(report) >= {
        "mcts_standard_win_rate_vs_random",
        "ismcts_points_win_rate_vs_random",
    }
