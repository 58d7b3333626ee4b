"""Speed of the RL interfaces (sorry.rl) against the raw engine, in one process run.

    python benchmarks/bench_rl.py [--games 20] [--players 4] [--variant standard] [--rounds 3]
    python benchmarks/bench_rl.py --pettingzoo       # PettingZoo's own performance_benchmark
    python benchmarks/bench_rl.py --vector [--num-envs 1024] [--steps 300] [--rounds 5]

Every interface plays the same kind of game with uniformly random legal decisions, and a
*step* is one player decision (card draws are not counted as steps, but their cost is
included). Measured, on one core:

* ``engine``: ``Game.draw`` / ``Game.legal_moves`` / ``Game.push`` (the baseline);
* ``engine+actions``: the same through integer actions (``legal_actions`` / ``decode``);
* ``openspiel``: ``state.legal_actions()`` / ``apply_action`` on ``python_sorry`` (chance
  outcomes sampled from ``chance_outcomes()``), and the same with the current player's
  ``observation_tensor`` read at every decision;
* ``pettingzoo``: the AEC loop ``env.last()`` (observation and mask built) / ``env.step``;
* ``gymnasium``: ``SorryEnv.step`` with ``action_masks()``; its other seats are ``random``
  bots, whose decisions are counted as steps too (the agent's share is 1/players).

Each figure is the best of ``--rounds`` rounds. Prints a Markdown table: steps per second,
microseconds per step and the overhead over the raw engine per step.

``--pettingzoo`` runs ``pettingzoo.test.performance_benchmark`` (5 seconds of random legal
moves through ``sorry_v0.env()``, wrappers included) in each variant and prints its turns and
cycles per second.

``--vector`` times the batched environment (``sorry.rl.vector.SorryVectorEnv``, compiled, one
thread): ``--num-envs`` games, uniformly random legal actions (``sample_actions``), the
observations, masks and rewards of every step written (fresh arrays, ``copy=True``), in
several settings. An *agent step* is one decision of the agent (the opponents' decisions
inside the batch are not counted; a next-step reset is not a step). Reports the best of
``--rounds`` rounds of ``--steps`` steps, by wall clock and by the process's CPU time (the
figure least sensitive to other load on the machine), with the load average before and after.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable

import numpy as np
import pyspiel

import sorry.rl.openspiel_game  # noqa: F401  (registers python_sorry)
from sorry.actions import decode, legal_actions
from sorry.game import Game
from sorry.rl.gym_env import SorryEnv
from sorry.rl.observation import make_rules
from sorry.rl.pettingzoo_env import SorryAECEnv
from sorry.rng import Rng

Bench = Callable[[int, int], int]  # (games, seed) -> decisions


def engine(args: argparse.Namespace) -> Bench:
    rules = make_rules(args.variant).replace(turn_limit=1000)

    def run(games: int, seed: int) -> int:
        steps = 0
        for i in range(games):
            g = Game(rules, players=args.players, seed=seed + i)
            rng = Rng(seed + i)
            while not g.is_over():
                if g.is_chance():
                    g.draw()
                else:
                    moves = g.legal_moves
                    g.push(moves[rng.below(len(moves))])
                    steps += 1
        return steps

    return run


def engine_actions(args: argparse.Namespace) -> Bench:
    rules = make_rules(args.variant).replace(turn_limit=1000)

    def run(games: int, seed: int) -> int:
        steps = 0
        for i in range(games):
            g = Game(rules, players=args.players, seed=seed + i)
            rng = Rng(seed + i)
            while not g.is_over():
                if g.is_chance():
                    g.draw()
                else:
                    acts = legal_actions(g)
                    g.push(decode(g, acts[rng.below(len(acts))]))
                    steps += 1
        return steps

    return run


def openspiel(args: argparse.Namespace, observe: bool) -> Bench:
    game = pyspiel.load_game("python_sorry", {"players": args.players, "variant": args.variant})

    def run(games: int, seed: int) -> int:
        steps = 0
        rng = np.random.default_rng(seed)
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    k = int(np.searchsorted(np.cumsum(probs), rng.random() * sum(probs)))
                    state.apply_action(actions[min(k, len(actions) - 1)])
                else:
                    if observe:
                        state.observation_tensor(state.current_player())
                    acts = state.legal_actions()
                    state.apply_action(acts[int(rng.integers(len(acts)))])
                    steps += 1
        return steps

    return run


def pettingzoo(args: argparse.Namespace) -> Bench:
    env = SorryAECEnv(players=args.players, variant=args.variant)

    def run(games: int, seed: int) -> int:
        steps = 0
        rng = np.random.default_rng(seed)
        for i in range(games):
            env.reset(seed=seed + i)
            for _agent in env.agent_iter():
                obs, _r, terminated, truncated, _info = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[int(rng.integers(len(legal)))]))
                steps += 1
        return steps

    return run


def gymnasium(args: argparse.Namespace) -> Bench:
    env = SorryEnv(players=args.players, variant=args.variant, opponents="random")

    def run(games: int, seed: int) -> int:
        steps = 0
        rng = np.random.default_rng(seed)
        for i in range(games):
            env.reset(seed=seed + i)
            done = False
            while not done:
                legal = np.flatnonzero(env.action_masks())
                _o, _r, terminated, truncated, _i = env.step(
                    int(legal[int(rng.integers(len(legal)))])
                )
                done = terminated or truncated
            assert env.game is not None
            steps += len(env.game.move_stack)
        return steps

    return run


VECTOR_SETTINGS: tuple[tuple[str, dict[str, object]], ...] = (
    ("2 players, agent vs random", {"players": 2}),
    ("4 players, agent vs 3 random", {"players": 4}),
    ("4 players, agent vs 3 easy", {"players": 4, "opponents": "easy"}),
    ("2 players, agent vs medium", {"players": 2, "opponents": "medium"}),
    ("4 players, agent vs 3 medium", {"players": 4, "opponents": "medium"}),
    ("teams, agent + random partner vs random", {"players": 4, "variant": "teams"}),
    ("4 players, self-play", {"players": 4, "opponents": "self"}),
    ("2 players, points, agent vs random", {"players": 2, "variant": "points"}),
)


def vector(args: argparse.Namespace) -> None:
    import os

    from sorry.rl.vector import SorryVectorEnv

    load0 = os.getloadavg()[0]
    rows = []
    for name, kw in VECTOR_SETTINGS:
        env = SorryVectorEnv(num_envs=args.num_envs, **kw)  # type: ignore[arg-type]
        env.reset(seed=args.seed)
        rng = np.random.default_rng(args.seed)
        for _ in range(20):  # compile or load the kernels, fill the caches
            env.step(env.sample_actions(rng))
        wall = cpu = 0.0
        for _ in range(args.rounds):
            s0 = env.agent_steps
            t0, c0 = time.perf_counter(), time.process_time()
            for _ in range(args.steps):
                env.step(env.sample_actions(rng))
            steps = env.agent_steps - s0
            wall = max(wall, steps / (time.perf_counter() - t0))
            cpu = max(cpu, steps / (time.process_time() - c0))
        rows.append((name, wall, cpu))
    load1 = os.getloadavg()[0]
    print(
        f"SorryVectorEnv, {args.num_envs} games, {args.steps} steps a round, best of "
        f"{args.rounds}; random legal actions, observations included; one thread; load "
        f"average {load0:.1f} before, {load1:.1f} after; Python {platform.python_version()}\n"
    )
    print("| setting | agent steps/s (wall) | agent steps per CPU-second |")
    print("|---|---:|---:|")
    for name, wall, cpu in rows:
        print(f"| {name} | {wall:,.0f} | {cpu:,.0f} |")


def pettingzoo_benchmark() -> None:
    import contextlib
    import io
    import os

    from pettingzoo.test import performance_benchmark

    from sorry.rl import sorry_v0

    load0 = os.getloadavg()[0]
    rows = []
    for name, kw in (
        ("2 players", {"players": 2}),
        ("4 players", {"players": 4}),
        ("teams", {"players": 4, "variant": "teams"}),
        ("points, 4 players", {"players": 4, "variant": "points"}),
    ):
        out = io.StringIO()
        env = sorry_v0.env(**kw)
        t0, c0 = time.perf_counter(), time.process_time()
        with contextlib.redirect_stdout(out):
            performance_benchmark(env)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        lines = out.getvalue().splitlines()
        turns = float(next(x for x in lines if "turns per second" in x).split()[0])
        cycles = float(next(x for x in lines if "cycles per second" in x).split()[0])
        # its figures are by the clock (about 5 s of play); per CPU-second: the same turns
        # over the process's CPU time (the figure least sensitive to the machine's load)
        rows.append((name, turns, cycles, turns * wall / cpu))
    load1 = os.getloadavg()[0]
    print(
        f"PettingZoo performance_benchmark, sorry_v0.env(); load average {load0:.1f} before, "
        f"{load1:.1f} after; Python {platform.python_version()}\n"
    )
    print("| sorry_v0.env() | turns/s (wall) | cycles/s (wall) | turns per CPU-second |")
    print("|---|---:|---:|---:|")
    for name, turns, cycles, per_cpu in rows:
        print(f"| {name} | {turns:,.0f} | {cycles:,.0f} | {per_cpu:,.0f} |")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", default="standard", choices=("standard", "teams", "points"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pettingzoo", action="store_true", help="performance_benchmark")
    parser.add_argument("--vector", action="store_true", help="the batched environment")
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args(argv)
    if args.pettingzoo:
        pettingzoo_benchmark()
        return
    if args.vector:
        vector(args)
        return
    benches: list[tuple[str, Bench]] = [
        ("engine (Game.legal_moves / push)", engine(args)),
        ("engine + integer actions", engine_actions(args)),
        ("OpenSpiel python_sorry", openspiel(args, observe=False)),
        ("OpenSpiel + observation_tensor", openspiel(args, observe=True)),
        ("PettingZoo AEC (last + step)", pettingzoo(args)),
        ("Gymnasium SorryEnv vs random bots", gymnasium(args)),
    ]
    best: dict[str, float] = {}
    for r in range(args.rounds):
        for name, bench in benches:
            start = time.perf_counter()
            steps = bench(args.games, args.seed + 1000 * r)
            per_step = (time.perf_counter() - start) / steps
            best[name] = min(best.get(name, per_step), per_step)
    base = best[benches[0][0]]
    print(
        f"{args.players} players, {args.variant}, {args.games} random games per round, "
        f"best of {args.rounds}; Python {platform.python_version()} on {platform.machine()}\n"
    )
    print("| interface | steps/s | µs/step | overhead over the engine |")
    print("|---|---:|---:|---:|")
    for name, _ in benches:
        us = best[name] * 1e6
        extra = (best[name] - base) * 1e6
        over = "—" if name == benches[0][0] else f"+{extra:.0f} µs ({best[name] / base:.1f}×)"
        print(f"| {name} | {1 / best[name]:,.0f} | {us:.0f} | {over} |")


if __name__ == "__main__":
    main(sys.argv[1:])
