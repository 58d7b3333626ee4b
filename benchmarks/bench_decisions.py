"""Decision times of a bot on a fixed set of positions: the median and 95th percentile of the
wall-clock and processor time of ``choose()``, with the load average before and after.

    python benchmarks/bench_decisions.py --variant standard --count 200 \\
        --bots expert,expert:engine=python,hard [--seed 18]

The positions are decisions with a choice (two or more legal moves, not all discards) sampled
from games of hard against medium (about one in six such decisions, ``derive_seed(seed, k)``
for game ``k``), the same for every bot spec. One warm-up decision per bot is not counted (the
compiled rollouts load from numba's cache). Every search is single-threaded: on a machine that
is otherwise idle this is the time on one core; on a shared machine the processor time is the
steadier figure.
"""

from __future__ import annotations

import argparse
import os
import time
from statistics import median
from typing import Any

from sorry import Game, Rules
from sorry.bots import make_bot
from sorry.moves import DISCARD
from sorry.rng import Rng, derive_seed
from sorry.sim.runner import build_bot


def sample_positions(variant: str, count: int, seed: int) -> list[Any]:
    """``count`` views of the player to move, with a real choice, from hard-vs-medium games."""
    rules = Rules(variant=variant)
    players = 4 if variant == "teams" else 2
    views: list[Any] = []
    k = 0
    while len(views) < count:
        g = Game(rules, players, seed=derive_seed(seed, k))
        bots = {
            c: make_bot("hard" if i % 2 == k % 2 else "medium") for i, c in enumerate(g.colours)
        }
        rng = Rng(derive_seed(seed, 10_000 + k))
        k += 1
        while not g.is_over() and len(views) < count:
            if g.is_chance():
                g.draw()
                continue
            v = g.view(g.to_move)
            real = len(v.legal_moves) > 1 and any(m.kind != DISCARD for m in v.legal_moves)
            if real and rng.below(6) == 0:
                views.append(v)
            g.push(bots[g.to_move].choose(v, rng))
    return views


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def time_bot(spec: str, views: list[Any]) -> dict[str, Any]:
    bot = build_bot(spec)
    bot.choose(views[0], Rng(0))  # warm-up: not counted
    load0 = os.getloadavg()[0]
    walls: list[float] = []
    cpus: list[float] = []
    for k, v in enumerate(views):
        t0 = time.perf_counter()
        c0 = time.process_time()
        bot.choose(v, Rng(derive_seed(7, k)))
        cpus.append(time.process_time() - c0)
        walls.append(time.perf_counter() - t0)
    return {
        "bot": spec,
        "decisions": len(views),
        "wall_median_ms": 1000 * median(walls),
        "wall_p95_ms": 1000 * percentile(walls, 0.95),
        "cpu_median_ms": 1000 * median(cpus),
        "cpu_p95_ms": 1000 * percentile(cpus, 0.95),
        "cpu_max_ms": 1000 * max(cpus),
        "load": (load0, os.getloadavg()[0]),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="standard")
    p.add_argument("--count", type=int, default=200, help="positions")
    p.add_argument("--bots", default="expert,expert:engine=python")
    p.add_argument("--seed", type=int, default=18)
    args = p.parse_args(argv)
    if args.count < 1:
        p.error("--count must be at least 1")
    views = sample_positions(args.variant, args.count, args.seed)
    print(
        "| variant | bot | decisions | wall ms (median / p95) | cpu ms (median / p95 / max) "
        "| load (before, after) |"
    )
    print("|---|---|---:|---|---|---|")
    for spec in args.bots.split(","):
        r = time_bot(spec, views)
        print(
            f"| {args.variant} | {spec} | {r['decisions']} | {r['wall_median_ms']:.0f} / "
            f"{r['wall_p95_ms']:.0f} | {r['cpu_median_ms']:.0f} / {r['cpu_p95_ms']:.0f} / "
            f"{r['cpu_max_ms']:.0f} | {r['load'][0]:.1f}, {r['load'][1]:.1f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
