"""Random 4-player standard games per second: the fast engine, the reference engine and the
``apologies`` package, on one core and on every core, printed as ratios from one run.

    .venv/bin/python benchmarks/bench_fast.py [--fast-games N] [--ref-games N] [--apologies-games N]
                                               [--repeat R]

Games/s are wall-clock (the fast engine's rows: the best of ``--repeat`` runs, as other work
on a shared machine only ever slows a run down); games/CPU-s (CPU time of this process, all
its threads) is printed too, as it is less sensitive to that other work. Also prints the fast
engine's compile (or cache load) time apart from its run time, the cost of a turn for each
engine, and, as a sense of the limit, the time one memory access per pawn takes (measured by pointer
chasing: dependent loads, from L1 and from main memory).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sorry import Game, fast


def reference_games(n: int, seed: int) -> tuple[int, int, float]:
    """(games, turns, seconds) of ``n`` random reference games (the loop of the issue)."""
    rng = random.Random(seed)
    turns = 0
    t0 = time.perf_counter()
    for k in range(n):
        g = Game(seed=seed * 1_000_003 + k)
        while not g.is_over():
            if g.is_chance():
                g.draw()
            else:
                g.push(rng.choice(g.legal_moves))
        turns += g.turn
    return n, turns, time.perf_counter() - t0


def apologies_games(n: int, seed: int) -> tuple[int, int, float]:
    from peer_apologies import play_random_games

    r = play_random_games(n, seed)
    return int(r["games"]), int(r["turns"]), float(r["seconds"])


def parallel(
    fn: Callable[[int, int], tuple[int, int, float]], n: int, workers: int
) -> tuple[int, int, float]:
    """Run ``fn(n / workers, seed)`` in ``workers`` processes; wall time of the whole."""
    per = max(1, n // workers)
    t0 = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(fn, [per] * workers, range(1, workers + 1)))
    seconds = time.perf_counter() - t0
    return sum(p[0] for p in parts), sum(p[1] for p in parts), seconds


@numba.njit(cache=True)
def _chase(nxt: np.ndarray, steps: int) -> int:
    i = 0
    for _ in range(steps):
        i = nxt[i]
    return i


def access_ns(size: int, steps: int = 2_000_000) -> float:
    """Nanoseconds per dependent load over a random cycle through ``size`` int64s."""
    order = np.random.default_rng(0).permutation(size)
    nxt = np.empty(size, dtype=np.int64)
    nxt[order[:-1]] = order[1:]
    nxt[order[-1]] = order[0]
    _chase(nxt, 1000)
    t0 = time.perf_counter()
    _chase(nxt, steps)
    return (time.perf_counter() - t0) / steps * 1e9


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fast-games", type=int, default=100_000)
    ap.add_argument("--ref-games", type=int, default=300)
    ap.add_argument("--apologies-games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="fast engine runs; the best counts")
    args = ap.parse_args()
    import peer_apologies  # noqa: F401  (before any long work: a clear error if it is missing)

    cores = fast.cpu_count()
    print(f"cores: {cores}  load average before: {os.getloadavg()[0]:.2f}")

    compile_s = fast.warmup(("random",))
    print(f"fast engine compile/cache load (warmup): {compile_s:.2f} s")

    rows: dict[str, tuple[int, int, float]] = {}
    cpu: dict[str, float] = {}

    def timed(name: str, fn: Callable[[], tuple[int, int, float]]) -> None:
        c0 = time.process_time()
        rows[name] = fn()
        cpu[name] = time.process_time() - c0

    def fast_run(threads: int) -> tuple[int, int, float]:
        r = fast.simulate(args.fast_games, 4, seed=args.seed, threads=threads)
        return r.games, int(r.turns.sum()), r.seconds

    def fast_best(name: str, threads: int) -> None:
        """The run with the least wall time (and its CPU time) of ``--repeat`` runs."""
        best: tuple[int, int, float] | None = None
        for _ in range(max(1, args.repeat)):
            c0 = time.process_time()
            row = fast_run(threads)
            used = time.process_time() - c0
            if best is None or row[2] < best[2]:
                best, rows[name], cpu[name] = row, row, used

    fast_best("fast, 1 core", 1)
    fast_best(f"fast, {cores} cores", cores)
    timed("reference, 1 core", lambda: reference_games(args.ref_games, args.seed))
    rows[f"reference, {cores} cores"] = parallel(reference_games, args.ref_games, cores)
    timed("apologies, 1 core", lambda: apologies_games(args.apologies_games, args.seed))
    rows[f"apologies, {cores} cores"] = parallel(apologies_games, args.apologies_games, cores)

    print("\n| engine | games | seconds | games/s | turns/game | µs/turn | games/CPU-s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    rate = {}
    for name, (games, turns, secs) in rows.items():
        rate[name] = games / secs
        per_cpu = f"{games / cpu[name]:,.1f}" if name in cpu else "-"
        print(
            f"| {name} | {games:,} | {secs:.2f} | {games / secs:,.1f} | {turns / games:.1f} "
            f"| {secs / turns * 1e6:.3f} | {per_cpu} |"
        )
    ref1, apo1 = rate["reference, 1 core"], rate["apologies, 1 core"]
    print("\nratios (games/s), same run:")
    for name, r in rate.items():
        print(f"  {name}: {r / ref1:,.1f}x reference (1 core), {r / apo1:,.1f}x apologies (1 core)")

    l1 = access_ns(512)
    dram = access_ns(1 << 23)
    _, t, s = rows["fast, 1 core"]
    per_turn = s / t * 1e9
    print(
        f"\nfast engine, 1 core: {per_turn:.0f} ns per turn = {per_turn / 16:.1f} ns per pawn "
        f"(16 pawns); one dependent load: {l1:.1f} ns from L1, {dram:.0f} ns from main memory "
        f"({16 * l1:.0f} ns / {16 * dram:,.0f} ns for one per pawn)"
    )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
