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

    python benchmarks/bench_hints.py --variant points --count 30 --depths 12,24,40 --scales 40,80

compares rollouts cut after each depth (the position's evaluation squashed into a chance of
winning with each scale) with games played to the end (300 worlds, the truth): the mean and
root mean square difference of each move's estimate, the spread of the difference between
two moves' scores in one world (what decides how soon moves are told apart), how much the
move picked loses under the truth, and the cost of a rollout.

    python benchmarks/bench_hints.py --variant points --count 60 --compare 24:1600,12:2800

plays the faces' hint (a fixed number of rollouts, seed 1) with each ``depth:rollouts`` given
(played ``depth`` moves, then the evaluation squashed with HINT_SCALE) on the same positions,
against games played to the end (300 worlds a move, the truth): how often the best move is told
apart, how many other moves are, how often a move shown as told apart is in truth not worse
than the pick (the truth's paired difference more than two standard errors the other way),
what the pick loses under the truth, and the processor time.

    python benchmarks/bench_hints.py --equal 200

re-runs the hint of positions whose two moves are worth the same (within 0.2 points over
24,000 worlds) with seeds 0 to N-1, under the estimator's rule for dropping a move and under
the older one (3 standard errors from the first round): how often the two were shown as told
apart, how often one was dropped before the budget, and the largest gap shown.
"""

from __future__ import annotations

import argparse
import importlib
import os
import time
from statistics import median

from bench_decisions import percentile, sample_positions
from sorry import Game
from sorry.bots import hint_estimate
from sorry.bots.estimate import _cache
from sorry.bots.rollouts import warmup
from sorry.web.bots import hint_reply
from sorry.web.workers import hint_move


def depths(views: list[object], depth_list: list[int], scales: list[float]) -> None:
    """Cut rollouts against full games (see the module doc)."""
    import numpy as np

    from sorry.bots.rollouts import root_of

    truth_worlds, worlds = list(range(1, 301)), list(range(1001, 1201))
    truths = []
    for v in views:
        k = len(v.legal_moves)  # type: ignore[attr-defined]
        truths.append(np.asarray(root_of(v).scores(list(range(k)), truth_worlds, 100_000)))  # type: ignore[arg-type]
    for depth in depth_list:
        for scale in scales:
            bias, sds, loss, spent, n = [], [], 0.0, 0.0, 0
            for v, full in zip(views, truths, strict=True):
                k = len(v.legal_moves)  # type: ignore[attr-defined]
                root = root_of(v, scale=scale)  # type: ignore[arg-type]
                c0 = time.process_time()
                sc = np.asarray(root.scores(list(range(k)), worlds, depth))
                spent += time.process_time() - c0
                n += len(worlds) * k
                bias.append(float(np.mean(sc.mean(0) - full.mean(0))))
                best = int(np.argmax(sc.mean(0)))
                diff = sc - sc[:, [best]]
                if k > 1:
                    sds.append(float(np.median(diff.std(0, ddof=1)[np.arange(k) != best])))
                loss += float(full.mean(0).max() - full.mean(0)[best])
            print(
                f"depth {depth}, scale {scale:g}: difference from full games mean "
                f"{100 * np.mean(bias):+.1f}, rms {100 * np.sqrt(np.mean(np.square(bias))):.1f} "
                f"points; paired spread {np.median(sds):.3f}; the pick loses "
                f"{100 * loss / len(views):.2f} points; {1e6 * spent / n:.0f} us a rollout"
            )
    sds = []
    for full in truths:
        k = full.shape[1]
        best = int(np.argmax(full.mean(0)))
        if k > 1:
            sds.append(
                float(np.median((full - full[:, [best]]).std(0, ddof=1)[np.arange(k) != best]))
            )
    print(f"full games: paired spread {np.median(sds):.3f}")


def compare(views: list[object], configs: list[tuple[int, int]]) -> None:
    """The faces' hint with each (depth, rollouts) against full games (see the module doc)."""
    import numpy as np

    from sorry.bots.estimate import HINT_SCALE
    from sorry.bots.rollouts import root_of

    load0 = os.getloadavg()[0]
    truths = []
    for n, v in enumerate(views):
        k = len(v.legal_moves)  # type: ignore[attr-defined]
        full = root_of(v).scores(list(range(k)), list(range(5001, 5301)), 100_000)  # type: ignore[arg-type]
        truths.append(np.asarray(full))
        print(f"truth {n + 1}/{len(views)}", end="\r", flush=True)
    for depth, rollouts in configs:
        cpus: list[float] = []
        separated = apart = others = wrong = 0
        loss = 0.0
        for v, full in zip(views, truths, strict=True):
            moves = list(v.legal_moves)  # type: ignore[attr-defined]
            c0 = time.process_time()
            est = estimate_module.estimate(
                v,  # type: ignore[arg-type]
                seconds=None,
                max_rollouts=rollouts,
                seed=1,
                depth=depth,
                scale=HINT_SCALE,
                cache=False,
            )
            cpus.append(time.process_time() - c0)
            means = full.mean(0)
            pick = moves.index(est.best.move)
            loss += float(means.max() - means[pick])
            separated += est.separated
            others += len(est.moves) - 1
            for m in est.moves[1:]:
                if m.tied:
                    continue
                apart += 1
                d = full[:, moves.index(m.move)] - full[:, pick]
                if d.mean() > 2 * d.std(ddof=1) / np.sqrt(len(d)):
                    wrong += 1
        print(
            f"depth {depth}, {rollouts} rollouts: best move told apart {separated}/{len(views)}; "
            f"{apart} of {others} other moves told apart, {wrong} of them in truth better; "
            f"the pick loses {100 * loss / len(views):.2f} points; processor ms median "
            f"{1000 * median(cpus):.0f}, p95 {1000 * percentile(cpus, 0.95):.0f}; "
            f"load {load0:.1f}, {os.getloadavg()[0]:.1f}"
        )


#: The module (``sorry.bots.estimate`` is also the name of its function).
estimate_module = importlib.import_module("sorry.bots.estimate")
#: Two moves of equal worth (their chances within 0.2 points over 24,000 worlds).
EQUAL = (("R:H,H,S,s4 Y:20,30,40,S R", 1), ("R:4,51,H,H Y:27,49,H,H R", 1))


def equal_moves(seeds: int) -> None:
    """The hint of EQUAL's positions over seeds, under today's rule and the older one."""
    rules = {
        "today": (
            estimate_module.DROP_Z,
            estimate_module.MIN_DROP_WORLDS,
            estimate_module.LOOK_GROWTH,
        ),
        "older (3 SE after every round)": (3.0, 0, 0),
    }
    for name, (z, min_worlds, growth) in rules.items():
        shown = dropped = 0
        gap = 0.0
        t0 = time.process_time()
        old = estimate_module.MIN_DROP_WORLDS, estimate_module.LOOK_GROWTH
        estimate_module.MIN_DROP_WORLDS, estimate_module.LOOK_GROWTH = min_worlds, growth
        try:
            for position, card in EQUAL:
                g = Game.from_position(position, card=card)
                for seed in range(seeds):
                    est = estimate_module.estimate(
                        g,
                        seconds=None,
                        max_rollouts=6000,
                        seed=seed,
                        drop_z=z,
                        cache=False,
                    )
                    if est.separated:
                        shown += 1
                        gap = max(gap, est.moves[0].win - est.moves[1].win)
                    dropped += est.best.worlds < 6000 // len(est.moves)  # one move left: stopped
        finally:
            estimate_module.MIN_DROP_WORLDS, estimate_module.LOOK_GROWTH = old
        n = seeds * len(EQUAL)
        print(
            f"{name}: shown as told apart {shown}/{n}, a move dropped early {dropped}/{n}, "
            f"largest gap shown {100 * gap:.1f} points; {time.process_time() - t0:.1f} s "
            f"processor; load {os.getloadavg()[0]:.1f}"
        )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="standard")
    p.add_argument("--count", type=int, default=100, help="positions")
    p.add_argument("--seed", type=int, default=18)
    p.add_argument("--depths", help="compare rollouts cut at these depths with full games")
    p.add_argument("--scales", default="40,80", help="the evaluation's scales (with --depths)")
    p.add_argument("--equal", type=int, metavar="N", help="re-run equal moves' hints, N seeds")
    p.add_argument("--compare", help="depth:rollouts,... against full games (see the doc)")
    args = p.parse_args(argv)
    if args.count < 1:
        p.error("--count must be at least 1")
    if args.equal is not None:
        if args.equal < 1:
            p.error("--equal must be at least 1")
        warmup()
        equal_moves(args.equal)
        return 0
    views = sample_positions(args.variant, args.count, args.seed)
    warmup()
    if args.compare:
        configs = [tuple(int(x) for x in c.split(":")) for c in args.compare.split(",")]
        compare(views, [(d, r) for d, r in configs])
        return 0
    if args.depths:
        depths(
            views,
            [int(x) for x in args.depths.split(",")],
            [float(x) for x in args.scales.split(",")],
        )
        return 0
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
