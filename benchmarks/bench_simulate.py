"""``sorry simulate`` as a whole process against the ``apologies`` package's fastest loop, in
one run.

    python benchmarks/bench_simulate.py [--games 2000] [--peer-games 20] [--rounds 3]
                                        [--clock wall|cpu] [-- EXTRA SIMULATE ARGS]

Each round times, in turn: apologies' two loops (random 4-player games through ``next_turn`` /
``construct_legal_moves`` / ``execute_move``, in this process: its public route, whose views
are deep copies, and its fastest loop, with views around the live objects:
``peer_apologies.play_random_games(copy_view=True/False)``), then the command
``sorry simulate --games N --players 4 --no-progress`` started as a new process (interpreter
start, imports, the engine's choice and load, the games and the report). The figure of each
side is its best round; ``--clock cpu`` counts CPU seconds (this process's for apologies, the
child's user+system for the command), which a busy machine disturbs less than the wall clock.
The ratio is (N / the command's seconds) / apologies' games per second. The command says which
engine it used (its last line); run it in an environment without the ``fast`` extra to measure
the playouts.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def command_seconds(argv: list[str], clock: str) -> tuple[float, str]:
    """The seconds one run of ``argv`` took (wall, or the child's CPU) and its last line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (cpu if clock == "cpu" else wall), done.stdout.strip().splitlines()[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--peer-games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    ap.add_argument("extra", nargs="*", help="more arguments for sorry simulate (after --)")
    args = ap.parse_args()

    import peer_apologies

    if args.clock == "cpu":
        peer_apologies.CLOCK[0] = time.process_time
    sorry = os.path.join(os.path.dirname(sys.executable), "sorry")
    argv = [sorry, "simulate", "--games", str(args.games), "--players", "4", "--no-progress"]
    argv += args.extra
    public: list[float] = []
    fastest: list[float] = []
    ours: list[float] = []
    last = ""
    for _round in range(args.rounds):
        for copy_view, rates in ((True, public), (False, fastest)):
            peer = peer_apologies.play_random_games(args.peer_games, seed=1, copy_view=copy_view)
            rates.append(peer["games_per_second"])
        seconds, last = command_seconds(argv, args.clock)
        ours.append(seconds)
        print(
            f"round {_round + 1}: apologies {public[-1]:.2f} / {fastest[-1]:.2f} games/s; "
            f"sorry simulate {seconds:.2f} s = {args.games / seconds:.1f} games/s",
            file=sys.stderr,
        )
    our_best = min(ours)
    rate = args.games / our_best
    print(f"{platform.python_implementation()} {platform.python_version()}, clock {args.clock}")
    print(f"load average before the last round: {os.getloadavg()}")
    print(f"command: {' '.join(['sorry', *argv[1:]])}")
    print(f"its last line: {last}")
    print()
    print("| side | games | best seconds | games/s | sorry simulate's ratio to it |")
    print("|---|---|---|---|---|")
    for label, rates in (("public route (copied views)", public), ("fastest loop", fastest)):
        best = max(rates)
        print(
            f"| apologies, {label}, in process | {args.peer_games} | "
            f"{args.peer_games / best:.2f} | {best:.2f} | **{rate / best:.1f}x** |"
        )
    print(f"| `sorry simulate` (whole process) | {args.games} | {our_best:.2f} | {rate:.1f} | - |")


if __name__ == "__main__":
    main()
