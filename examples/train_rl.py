"""Train a Sorry! agent with a compact policy gradient in plain NumPy, then measure it.

    python examples/train_rl.py                       # 2 players, 4000 training games vs random
    python examples/train_rl.py --episodes 2000 --opponent easy --eval-games 400
    python examples/train_rl.py --variant points --players 2

The agent plays the Gymnasium environment :class:`sorry.rl.gym_env.SorryEnv` (the other seats
are bots). Its policy is a softmax over the legal actions (the environment's action mask),
scoring each action by a linear function of the *observation after the move*: the observation
layout of docs/rl.md computed for the position the move leads to (the agent works that out from
its own view, as a player at the table would). The 339 weights act like a piece-square table
per relative colour plus values for the cards in hand. They are learned by policy gradient
(REINFORCE, reward +1 for a win and -1 for a loss) with a learned baseline: a linear value of
the observation before each decision (a Monte-Carlo actor-critic).

It prints the win rate of the trained (greedy) policy against the ``random`` and ``easy`` bots,
and of the untrained (uniform) policy for comparison.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from typing import Any

import numpy as np

from sorry.actions import legal_action_moves
from sorry.bots.base import state_of
from sorry.moves import Move
from sorry.rl.gym_env import SorryEnv
from sorry.rl.observation import OBS_SIZE, observation
from sorry.view import PlayerView


def afterstate_features(view: PlayerView, moves: dict[int, Move]) -> tuple[list[int], np.ndarray]:
    """The legal actions and, per action, the observation of the position after its move."""
    state = state_of(view)
    actions = list(moves)
    feats = np.zeros((len(actions), OBS_SIZE), np.float32)
    played = view.card
    for row, a in enumerate(actions):
        move = moves[a]
        changes: list[Any] = []
        state.apply(move, changes)
        card = move.card if move.card is not None else played
        hand = list(view.hand)
        if move.card is not None and move.card in hand:
            hand.remove(move.card)
        after = dataclasses.replace(
            view,
            pawns=state.sorted_pawns(),
            card=None,
            hand=tuple(hand),
            discard_pile=view.discard_pile + ((card,) if card is not None else ()),
            legal_moves=(),
        )
        observation(after, feats[row])
        state.undo(changes)
    return actions, feats


class LinearAfterstatePolicy:
    """Softmax over legal actions of ``w . features(afterstate)``."""

    def __init__(self, size: int = OBS_SIZE) -> None:
        self.w = np.zeros(size, np.float64)

    def probabilities(self, feats: np.ndarray) -> np.ndarray:
        logits = feats @ self.w
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()  # type: ignore[no-any-return]

    def act(self, env: SorryEnv, rng: np.random.Generator, greedy: bool) -> tuple[int, Any]:
        assert env.game is not None
        view = env.game.view(env.colour)
        actions, feats = afterstate_features(view, legal_action_moves(view))
        p = self.probabilities(feats)
        i = int(np.argmax(p)) if greedy else int(rng.choice(len(actions), p=p))
        grad = feats[i] - p @ feats  # d log pi(a) / d w
        return actions[i], grad


def play_episode(
    env: SorryEnv,
    policy: LinearAfterstatePolicy | None,
    rng: np.random.Generator,
    seed: int,
    greedy: bool = False,
) -> tuple[float, list[np.ndarray], list[np.ndarray]]:
    """One game; ``policy=None`` plays uniformly at random. Returns the final reward, the
    observations at the agent's decisions and the score-function gradients of its choices."""
    obs, info = env.reset(seed=seed)
    seen: list[np.ndarray] = []
    grads: list[np.ndarray] = []
    while True:
        if policy is None:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        else:
            seen.append(obs)
            action, grad = policy.act(env, rng, greedy)
            grads.append(grad)
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return float(reward), seen, grads


def win_rate(make_env: Any, policy: LinearAfterstatePolicy | None, games: int, seed: int) -> float:
    env = make_env()
    rng = np.random.default_rng(seed)
    wins = 0
    for g in range(games):
        reward, _, _ = play_episode(env, policy, rng, seed=seed * 1_000_003 + g, greedy=True)
        wins += reward > 0
    return wins / games


def train(args: argparse.Namespace) -> tuple[dict[str, Any], LinearAfterstatePolicy]:
    def make_env(opponent: str = args.opponent) -> SorryEnv:
        return SorryEnv(players=args.players, variant=args.variant, opponents=opponent)

    env = make_env()
    policy = LinearAfterstatePolicy()
    rng = np.random.default_rng(args.seed)
    value_w = np.zeros(OBS_SIZE)  # the critic: a linear value of the observation
    value_b = 0.0
    recent: list[float] = []
    start = time.perf_counter()
    steps = 0
    for episode in range(args.episodes):
        reward, seen, grads = play_episode(env, policy, rng, seed=args.seed + episode)
        steps += len(grads)
        if grads:
            x = np.array(seen, np.float64)
            advantage = reward - (x @ value_w + value_b)  # per decision
            step = (advantage[:, None] * np.array(grads)).sum(axis=0)
            policy.w += args.lr * step / np.sqrt(len(grads))
            value_w += args.value_lr * (advantage[:, None] * x).sum(axis=0) / len(grads)
            value_b += args.value_lr * float(advantage.mean())
        recent.append(reward > 0)
        if args.verbose and (episode + 1) % max(1, args.episodes // 10) == 0:
            rate = np.mean(recent[-100:])
            print(f"episode {episode + 1}: win rate (last 100, sampling) {rate:.2f}")
    train_time = time.perf_counter() - start
    report: dict[str, Any] = {
        "players": args.players,
        "variant": args.variant,
        "trained_against": args.opponent,
        "episodes": args.episodes,
        "agent_steps": steps,
        "train_seconds": round(train_time, 1),
        "eval_games": args.eval_games,
    }
    for opponent in ("random", "easy"):
        report[f"win_rate_vs_{opponent}"] = win_rate(
            lambda o=opponent: make_env(o), policy, args.eval_games, seed=args.seed + 7
        )
        report[f"untrained_win_rate_vs_{opponent}"] = win_rate(
            lambda o=opponent: make_env(o), None, args.eval_games, seed=args.seed + 7
        )
    return report, policy


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", default="standard", choices=("standard", "teams", "points"))
    parser.add_argument("--opponent", default="random", help="bot level to train against")
    parser.add_argument("--episodes", type=int, default=4000)
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--lr", type=float, default=1.0)
    parser.add_argument("--value-lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", dest="verbose", action="store_false")
    args = parser.parse_args(argv)
    report, _policy = train(args)
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
