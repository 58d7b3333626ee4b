"""The hints' cost and quality on the positions of ``bench_decisions.py``: the hint every face
shows (``sorry.bots.hint_estimate``: the terminal game, the browser, ``sorry hint --seed``; a
fixed number of rollouts, so the same numbers on every machine) and the server's reply built
from it.

    python benchmarks/bench_hints.py --variant standard --count 100

Prints the hint's processor time (median, 95th percentile, max), how often the best move was
told apart from every other one, how many moves were told apart from the best, and the worlds
the best move got; then the server's processor time per hint (the worker's job and the reply
with every move's estimate), computed and asked again (cached), with the load average. The
compiled rollouts are loaded first (``warmup``: not counted).
"""

from __future__ import annotations

import argparse
import os
import time
from statistics import median

from bench_decisions import percentile, sample_positions
from sorry.bots import hint_estimate
from sorry.bots.estimate import _cache
from sorry.bots.rollouts import warmup
from sorry.web.service import hint_reply
from sorry.web.workers import hint_move


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="standard")
    p.add_argument("--count", type=int, default=100, help="positions")
    p.add_argument("--seed", type=int, default=18)
    args = p.parse_args(argv)
    if args.count < 1:
        p.error("--count must be at least 1")
    views = sample_positions(args.variant, args.count, args.seed)
    warmup()
    load0 = os.getloadavg()[0]
    cpus: list[float] = []
    worlds: list[int] = []
    separated = 0
    apart = 0
    others = 0
    for v in views:
        c0 = time.process_time()
        est = hint_estimate(v, seed=1)
        cpus.append(time.process_time() - c0)
        separated += est.separated
        worlds.append(est.best.worlds)
        others += len(est.moves) - 1
        apart += sum(1 for m in est.moves[1:] if not m.tied)
    print(
        f"{args.variant}: hint_estimate: processor ms median {1000 * median(cpus):.0f}, "
        f"p95 {1000 * percentile(cpus, 0.95):.0f}, max {1000 * max(cpus):.0f}; best move "
        f"separated in {separated}/{len(views)}; {apart} of {others} other moves told apart "
        f"from the best; worlds of the best move median {median(worlds):.0f}"
    )
    first: list[float] = []
    again: list[float] = []
    _cache.clear()
    for v in views:
        # what a worker computes and the reply built from it (each move's estimate)
        c0 = time.process_time()
        hint_reply(1, hint_move(v, 1))
        first.append(time.process_time() - c0)
        c0 = time.process_time()
        hint_reply(1, hint_move(v, 2))
        again.append(time.process_time() - c0)
    print(
        f"{args.variant}: server hint, processor ms: median {1000 * median(first):.1f}, "
        f"p95 {1000 * percentile(first, 0.95):.1f}, max {1000 * max(first):.1f}; "
        f"cached {1000 * median(again):.2f}; load {load0:.1f}, {os.getloadavg()[0]:.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
