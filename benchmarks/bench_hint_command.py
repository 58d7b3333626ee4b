"""A fresh ``sorry hint`` process, whole: with the rollouts compiled ahead of time (``sorry
compile``) against the same command with them turned off (``SORRY_AOT=0``: numba imported and
the kernels loaded from its cache), in the same run, alternating.

    python benchmarks/bench_hint_command.py --runs 10

Prints, for each position and way, the wall-clock time of the whole process (median and max
over the runs), its processor time, the worlds the best move got and whether the process
imported numba; then the ratio of the medians. The issue's target is 0.3 s of wall-clock time
with the ``fast`` extra. Build the module first (``sorry compile``); numba's cache must be warm
(one ``sorry hint`` with ``SORRY_AOT=0`` before the run).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from statistics import median

from sorry.compiled import aot

POSITIONS = {
    "standard": ["R:S,S,10,s1 Y:20,30,40,S R", "5"],
    "points": ["R:S,S,10,s1 Y:20,30,40,S R", "--rules", "points", "--hand", "1,4,7,11,S"],
}
#: run in the child: the command, then whether numba was imported (one JSON line each)
CHILD = (
    "import sys, json\n"
    "from sorry.cli import main\n"
    "rc = main(['hint', *sys.argv[1:], '--json'])\n"
    "print(json.dumps({'rc': rc, 'numba': 'numba' in sys.modules}))\n"
)


def run_once(args: list[str], ahead: bool) -> tuple[float, float, int, bool]:
    """(wall s, processor s, worlds of the best move, numba imported) of one fresh process."""
    env = dict(os.environ)
    env["SORRY_AOT"] = "1" if ahead else "0"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *args], capture_output=True, text=True, env=env, timeout=300
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"bench_hint_command: the hint failed: {done.stderr.strip()[-300:]}")
    hint, status = (json.loads(line) for line in done.stdout.strip().splitlines())
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, int(hint["moves"][0]["worlds"]), bool(status["numba"])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=10, help="processes per position and way")
    args = p.parse_args(argv)
    if args.runs < 1:
        p.error("--runs must be at least 1")
    if aot.status() != "ready":
        p.error(f"the ahead-of-time module is {aot.status()}: run 'sorry compile' first")
    print(f"load {os.getloadavg()[0]:.1f}")
    print("| position | way | wall s: median / max | cpu s: median | best move's worlds | numba |")
    print("|---|---|---|---|---|---|")
    try:
        for name, position in POSITIONS.items():
            for ahead in (True, False):  # warm both (page cache, numba's cache)
                run_once(position, ahead)
            rows: dict[bool, list[tuple[float, float, int, bool]]] = {True: [], False: []}
            for k in range(args.runs):
                for ahead in (True, False):
                    rows[ahead].append(run_once(position, ahead))
                print(f"{name}: {k + 1}/{args.runs}", file=sys.stderr, end="\r")
            for ahead in (True, False):
                r = rows[ahead]
                way = "compiled ahead of time" if ahead else "numba (SORRY_AOT=0)"
                print(
                    f"| {name} | {way} | {median(x[0] for x in r):.2f} / {max(x[0] for x in r):.2f}"
                    f" | {median(x[1] for x in r):.2f} | {int(median(x[2] for x in r))}"
                    f" | {'yes' if any(x[3] for x in r) else 'no'} |"
                )
            ratio = median(x[0] for x in rows[False]) / median(x[0] for x in rows[True])
            print(f"| {name} | numba / ahead of time (wall, medians) | {ratio:.2f} | | | |")
    except KeyboardInterrupt:
        print("\nbench_hint_command: interrupted", file=sys.stderr)
        return 130
    print(f"load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
