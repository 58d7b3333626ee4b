"""Train a Sorry! agent on the batched environment with PPO in plain NumPy, then measure it.

    python examples/train_vector.py                          # 2 players vs random, 3M steps
    python examples/train_vector.py --steps 500000 --opponents easy
    python examples/train_vector.py --players 4 --eval-games 2000

The agent plays :class:`sorry.rl.vector.SorryVectorEnv` (``--num-envs`` games stepped together
in compiled code; the other seats are the compiled ``random``, ``easy`` or ``medium`` bots).
Its policy and value are one small multilayer perceptron over the 339-float observation (two
hidden layers of ``--hidden`` ReLU units, then 684 action logits, masked to the legal actions,
and one value), trained by PPO (clipped surrogate, generalised advantage estimation, Adam),
with the gradients written out by hand: NumPy only, no deep-learning library. Rewards are the
environment's: +1 for a win, -1 for a loss, at the end of a game.

It reports the win rate of the trained policy (greedy: the most probable legal action)
against ``random`` and ``easy`` on fresh seeds, next to the untrained network's, with the
agent steps and minutes the training took, by the clock and in CPU time (JSON on stdout;
progress on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from sorry.rl.observation import OBS_SIZE
from sorry.rl.vector import SorryVectorEnv

NUM_ACTIONS = 684
F = npt.NDArray[np.float32]
NEG = np.float32(-1e9)


@dataclass
class Net:
    """obs -> ReLU -> ReLU -> (684 logits, value). Parameters and Adam moments by name."""

    p: dict[str, F]
    m: dict[str, F] = field(default_factory=dict)
    v: dict[str, F] = field(default_factory=dict)
    t: int = 0

    @classmethod
    def new(cls, hidden: int, rng: np.random.Generator) -> Net:
        def layer(n_in: int, n_out: int, scale: float) -> F:
            return (rng.standard_normal((n_in, n_out)) * scale / np.sqrt(n_in)).astype(np.float32)

        p = {
            "w1": layer(OBS_SIZE, hidden, np.sqrt(2)),
            "b1": np.zeros(hidden, np.float32),
            "w2": layer(hidden, hidden, np.sqrt(2)),
            "b2": np.zeros(hidden, np.float32),
            "wp": layer(hidden, NUM_ACTIONS, 0.01),  # a near-uniform policy to start
            "bp": np.zeros(NUM_ACTIONS, np.float32),
            "wv": layer(hidden, 1, 1.0),
            "bv": np.zeros(1, np.float32),
        }
        return cls(
            p,
            {k: np.zeros_like(x) for k, x in p.items()},
            {k: np.zeros_like(x) for k, x in p.items()},
        )

    def forward(self, x: F) -> tuple[F, F, tuple[F, F, F]]:
        p = self.p
        h1 = np.maximum(x @ p["w1"] + p["b1"], 0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0)
        return h2 @ p["wp"] + p["bp"], (h2 @ p["wv"] + p["bv"])[:, 0], (x, h1, h2)

    def backward(self, cache: tuple[F, F, F], dlogits: F, dvalue: F) -> dict[str, F]:
        x, h1, h2 = cache
        p = self.p
        g = {"wp": h2.T @ dlogits, "bp": dlogits.sum(0), "wv": h2.T @ dvalue[:, None]}
        g["bv"] = dvalue.sum(0, keepdims=True)
        dh2 = (dlogits @ p["wp"].T + dvalue[:, None] @ p["wv"].T) * (h2 > 0)
        g["w2"], g["b2"] = h1.T @ dh2, dh2.sum(0)
        dh1 = (dh2 @ p["w2"].T) * (h1 > 0)
        g["w1"], g["b1"] = x.T @ dh1, dh1.sum(0)
        return g

    def adam(self, grads: dict[str, F], lr: float, clip: float = 0.5) -> None:
        norm = np.sqrt(sum(float((g * g).sum()) for g in grads.values()))
        scale = min(1.0, clip / (norm + 1e-8))
        self.t += 1
        b1, b2 = 0.9, 0.999
        for k, g in grads.items():
            g = g * scale
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            mh = self.m[k] / (1 - b1**self.t)
            vh = self.v[k] / (1 - b2**self.t)
            self.p[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)


def masked_log_softmax(logits: F, mask: npt.NDArray[np.bool_]) -> F:
    z = np.where(mask, logits, NEG)
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))  # type: ignore[no-any-return]


def act(net: Net, obs: F, mask: npt.NDArray[np.bool_], rng: np.random.Generator | None) -> Any:
    """(actions, their log-probabilities, values); greedy when rng is None."""
    logits, value, _ = net.forward(obs)
    logp = masked_log_softmax(logits, mask)
    if rng is None:
        a = np.where(mask, logp, NEG).argmax(axis=1)
    else:  # Gumbel-max: a sample of the masked softmax
        u = rng.random(logp.shape, dtype=np.float32)
        a = np.where(mask, logp - np.log(-np.log(u + 1e-12) + 1e-12), NEG).argmax(axis=1)
    return a, logp[np.arange(len(a)), a], value


def ppo_gradients(
    net: Net,
    x: F,
    mask: npt.NDArray[np.bool_],
    actions: npt.NDArray[np.int64],
    old_logp: F,
    adv: F,
    returns: F,
    clip: float,
    entropy: float,
    value_coef: float,
) -> dict[str, F]:
    """The gradients of :func:`ppo_loss` on one minibatch, written out by hand."""
    B = len(actions)
    logits, value, cache = net.forward(x)
    logp_all = masked_log_softmax(logits, mask)
    pi = np.exp(logp_all) * mask
    rows = np.arange(B)
    ratio = np.exp(logp_all[rows, actions] - old_logp)
    # the clipped surrogate is flat where the ratio left the interval in the advantage's way
    clipped = ((adv > 0) & (ratio > 1 + clip)) | ((adv < 0) & (ratio < 1 - clip))
    coef = np.where(clipped, 0.0, -adv * ratio).astype(np.float32) / B
    dlogits = -pi * coef[:, None]
    dlogits[rows, actions] += coef
    # entropy bonus: d(-H)/dlogits = pi * (log pi + H)
    ent = -(pi * np.where(mask, logp_all, 0)).sum(1)
    dlogits += entropy / B * pi * (np.where(mask, logp_all, 0) + ent[:, None])
    dvalue = (value_coef * (value - returns) / B).astype(np.float32)
    return net.backward(cache, dlogits.astype(np.float32), dvalue)


def ppo_loss(
    net: Net,
    x: F,
    mask: npt.NDArray[np.bool_],
    actions: npt.NDArray[np.int64],
    old_logp: F,
    adv: F,
    returns: F,
    clip: float,
    entropy: float,
    value_coef: float,
) -> float:
    """PPO's loss on one minibatch (what :func:`ppo_gradients` differentiates): the clipped
    surrogate, minus ``entropy`` times the policy's entropy, plus ``value_coef`` times half
    the value's squared error; means over the minibatch."""
    B = len(actions)
    logits, value, _ = net.forward(x)
    logp_all = masked_log_softmax(logits, mask)
    logp = np.where(mask, logp_all, 0)
    ratio = np.exp(logp_all[np.arange(B), actions] - old_logp)
    surrogate = np.minimum(ratio * adv, np.clip(ratio, 1 - clip, 1 + clip) * adv)
    ent = -(np.exp(logp_all) * mask * logp).sum(1)
    value_error = 0.5 * ((value - returns) ** 2).mean()
    return float(-surrogate.mean() - entropy * ent.mean() + value_coef * value_error)


def win_rate(net: Net | None, players: int, opponents: str, games: int, seed: int) -> float:
    """Share of ``games`` fresh games the policy wins (greedy; None: uniform random)."""
    n = min(games, 500)
    env = SorryVectorEnv(num_envs=n, players=players, opponents=opponents)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    wins = done = 0
    active = np.ones(n, bool)  # each slot plays games until the total is reached
    started = n
    while done < games:
        mask = info["action_mask"]
        if net is None:
            a = env.sample_actions(rng)
        else:
            a, _, _ = act(net, obs, mask | ~mask.any(axis=1, keepdims=True), None)
        obs, reward, term, trunc, info = env.step(a)
        end = (term | trunc) & active
        wins += int((reward[end] > 0).sum())
        done += int(end.sum())
        for i in np.flatnonzero(end):  # the slot's next game counts only if one is left to play
            if started >= games:
                active[i] = False
            started += 1
    return wins / games


def train(args: argparse.Namespace) -> dict[str, Any]:
    rng = np.random.default_rng(args.seed)
    net = Net.new(args.hidden, rng)
    log = sys.stderr
    report: dict[str, Any] = {
        "players": args.players,
        "opponents": args.opponents,
        "untrained_win_rate_vs_random": win_rate(net, args.players, "random", args.eval_games, 7),
        "untrained_win_rate_vs_easy": win_rate(net, args.players, "easy", args.eval_games, 8),
        "uniform_win_rate_vs_random": win_rate(None, args.players, "random", args.eval_games, 7),
        "uniform_win_rate_vs_easy": win_rate(None, args.players, "easy", args.eval_games, 8),
    }
    env = SorryVectorEnv(
        num_envs=args.num_envs,
        players=args.players,
        opponents=args.opponents,
        autoreset_mode="SameStep",  # no wasted steps: a finished game is replaced at once
    )
    obs, info = env.reset(seed=args.seed)
    mask = info["action_mask"]
    T, N = args.rollout, args.num_envs
    start, start_cpu = time.perf_counter(), time.process_time()
    steps = 0
    recent: list[float] = []
    while steps < args.steps:
        buf_obs = np.zeros((T, N, OBS_SIZE), np.float32)
        buf_mask = np.zeros((T, N, NUM_ACTIONS), np.bool_)
        buf_a = np.zeros((T, N), np.int64)
        buf_logp = np.zeros((T, N), np.float32)
        buf_v = np.zeros((T, N), np.float32)
        buf_r = np.zeros((T, N), np.float32)
        buf_done = np.zeros((T, N), np.float32)
        for t in range(T):
            a, logp, v = act(net, obs, mask, rng)
            buf_obs[t], buf_mask[t], buf_a[t], buf_logp[t], buf_v[t] = obs, mask, a, logp, v
            obs, reward, term, trunc, info = env.step(a)
            mask = info["action_mask"]
            buf_r[t] = reward
            buf_done[t] = term | trunc
            recent.extend(reward[term].tolist())
        steps += T * N
        # generalised advantage estimation (gamma 1: one reward, at the end of the game)
        _, last_v, _ = net.forward(obs)
        adv = np.zeros((T, N), np.float32)
        gae = np.zeros(N, np.float32)
        for t in range(T - 1, -1, -1):
            nxt = last_v if t == T - 1 else buf_v[t + 1]
            live = 1.0 - buf_done[t]
            delta = buf_r[t] + args.gamma * nxt * live - buf_v[t]
            gae = delta + args.gamma * args.lam * live * gae
            adv[t] = gae
        ret = adv + buf_v
        flat = T * N
        X = buf_obs.reshape(flat, OBS_SIZE)
        M = buf_mask.reshape(flat, NUM_ACTIONS)
        A = buf_a.reshape(flat)
        LP = buf_logp.reshape(flat)
        ADV = adv.reshape(flat)
        ADV = (ADV - ADV.mean()) / (ADV.std() + 1e-8)
        R = ret.reshape(flat)
        for _epoch in range(args.epochs):
            order = rng.permutation(flat)
            for lo in range(0, flat, args.minibatch):
                idx = order[lo : lo + args.minibatch]
                grads = ppo_gradients(
                    net, X[idx], M[idx], A[idx], LP[idx], ADV[idx], R[idx], args.clip,
                    args.entropy, args.value_coef,
                )  # fmt: skip
                net.adam(grads, args.lr)
        if args.verbose:
            wins = np.mean(np.array(recent[-2000:]) > 0) if recent else 0.0
            minutes = (time.perf_counter() - start) / 60
            print(
                f"{steps:,} agent steps, {minutes:.1f} min, training win rate {wins:.1%}",
                file=log,
                flush=True,
            )
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - start_cpu
    report.update(
        {
            "agent_steps": steps,
            "training_minutes": round(seconds / 60, 2),
            "training_cpu_minutes": round(cpu_seconds / 60, 2),
            "training_cpu_seconds": round(cpu_seconds, 3),  # a short run rounds to 0 minutes
            "games_played": len(recent),
            "win_rate_vs_random": win_rate(net, args.players, "random", args.eval_games, 7),
            "win_rate_vs_easy": win_rate(net, args.players, "easy", args.eval_games, 8),
        }
    )
    return report


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="random", help="random, easy or medium")
    parser.add_argument("--steps", type=int, default=3_000_000, help="agent steps to train")
    parser.add_argument("--num-envs", type=int, default=256)
    parser.add_argument("--rollout", type=int, default=32, help="steps per game per update")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--minibatch", type=int, default=2048)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--value-coef", type=float, default=0.5)
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", dest="verbose", action="store_false")
    args = parser.parse_args(argv)
    if args.opponents not in ("random", "easy", "medium"):
        parser.error("--opponents must be random, easy or medium")
    for name in ("steps", "num_envs", "rollout", "hidden", "eval_games", "minibatch", "epochs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    report = train(args)
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except KeyboardInterrupt:
        sys.exit(130)
