"""The strength ladder: bot levels against each other on paired deals, in the standard game,
the points variant and teams. Records win rates with 95% Wilson intervals and the first bot's
decision time (median and 95th percentile of the decisions with a choice, wall clock and
processor time) and the load average.

    python benchmarks/bench_strength.py --variants standard --games 2000 \\
        --pairs expert-hard,expert-medium [--seed 2026] [--json results.jsonl] \\
        [--max-minutes 120] [--every 100]

Every deal is played twice with the seats swapped (the same shuffled deck and first seat;
``derive_seed(seed, deal)``, the deals of ``sorry tournament``): heads-up, the two bots take
each seat once; in teams (four seats, partners opposite) one bot plays Red and Yellow, the
other Blue and Green, then they change sides. Each seat's bot gets the stream
``derive_seed(game seed, 1000 + colour)``. ``a-b`` pairs bot spec ``a`` against ``b``; a spec
may carry parameters (``expert:simulations=400``).

Long runs: a progress line goes to stderr, and with ``--json`` a JSON line is appended every
``--every`` deals (``"partial": true``) and at the end, so a stopped run still counts;
``--max-minutes`` ends a pairing cleanly after that long (the row says how many games it
got); Ctrl-C ends the run after writing what it has.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from statistics import median
from typing import Any

from sorry.rules import Rules
from sorry.sim.runner import RunSpec, build_bot, play_one

LADDER = ("easy-random", "medium-easy", "hard-medium", "expert-hard", "expert-medium")


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return centre - half, centre + half


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


class CpuTimed:
    """A bot that records the processor time of its decisions with a choice."""

    def __init__(self, bot: Any, cpu: list[float]) -> None:
        self.bot = bot
        self.name = bot.name
        self.cpu = cpu

    def choose(self, view: Any, rng: Any) -> Any:
        if len(view.legal_moves) < 2:
            return self.bot.choose(view, rng)
        c0 = time.process_time()
        move = self.bot.choose(view, rng)
        self.cpu.append(time.process_time() - c0)
        return move


class Pairing:
    """One row: bot ``a`` against bot ``b`` on paired deals."""

    def __init__(self, a: str, b: str, variant: str, seed: int) -> None:
        self.a, self.b, self.variant, self.seed = a, b, variant, seed
        self.rules = Rules(variant=variant)
        teams = self.rules.teams
        colours = (0, 1, 2, 3) if teams else (0, 2)
        bots = (a, b, a, b) if teams else (a, b)
        self.spec = RunSpec(self.rules, colours, bots, seed, rotate=True, timings=True)
        self.wins = 0.0
        self.games = 0
        self.deals = 0
        self.turns = 0
        self.times: list[float] = []
        self.cpu: list[float] = []
        self.players = [
            CpuTimed(build_bot(x), self.cpu) if k % 2 == 0 else build_bot(x)
            for k, x in enumerate(bots)
        ]
        self.t0 = time.perf_counter()

    def play_deal(self, deal: int) -> None:
        n = len(self.spec.colours)
        for r in (0, 1):  # rotation 0: a in seat 0 (and 2); rotation 1: b there
            index = n * deal + r
            rec = play_one(self.spec, index, self.players)
            mine = [k for k, e in enumerate(rec.seats) if e % 2 == 0]  # entrants 0, 2: a
            if rec.winners:
                self.wins += len([k for k in rec.winners if k in mine]) / len(rec.winners)
            self.games += 1
            self.turns += rec.turns
            for k in mine:
                self.times.extend(rec.times[k])
        self.deals += 1

    def row(self, partial: bool) -> dict[str, Any]:
        lo, hi = wilson(self.wins, self.games)
        return {
            "variant": self.variant,
            "pair": [self.a, self.b],
            "seed": self.seed,
            "games": self.games,
            "wins": self.wins,
            "rate": self.wins / self.games if self.games else 0.0,
            "ci_low": lo,
            "ci_high": hi,
            "decision_median_ms": 1000 * median(self.times) if self.times else None,
            "decision_p95_ms": 1000 * percentile(self.times, 0.95) if self.times else None,
            "decisions": len(self.times),
            "cpu_median_ms": 1000 * median(self.cpu) if self.cpu else None,
            "cpu_p95_ms": 1000 * percentile(self.cpu, 0.95) if self.cpu else None,
            "mean_length": self.turns / self.games if self.games else 0.0,
            "seconds": time.perf_counter() - self.t0,
            "load": _load(),
            "partial": partial,
        }


def _load() -> float:
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except OSError:  # pragma: no cover - not Linux
        return -1.0


def _markdown(row: dict[str, Any]) -> str:
    ms = (
        f"{row['decision_median_ms']:.2f} / {row['decision_p95_ms']:.2f} "
        f"(cpu {row['cpu_median_ms']:.2f} / {row['cpu_p95_ms']:.2f})"
        if row["decision_median_ms"] is not None
        else "-"
    )
    a, b = row["pair"]
    return (
        f"| {row['variant']} | {a} vs {b} | {row['games']} | {100 * row['rate']:.1f}% | "
        f"[{100 * row['ci_low']:.1f}, {100 * row['ci_high']:.1f}] | {ms} | "
        f"{row['seconds']:.0f} | {row['load']:.1f} |"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=2000, help="games per pairing (2 per deal)")
    p.add_argument("--variants", default="standard,points,teams")
    p.add_argument("--pairs", default=",".join(LADDER), help="a-b: bot a against bot b")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--first-deal", type=int, default=0, help="start at this deal (resume)")
    p.add_argument("--json", help="append JSON lines (partial and final) to this file")
    p.add_argument("--every", type=int, default=100, help="deals between partial JSON lines")
    p.add_argument("--max-minutes", type=float, help="end each pairing after this long")
    args = p.parse_args(argv)
    if args.games < 2:
        p.error("--games must be at least 2")
    print(
        "| variant | pairing | games | win rate of the first | 95% CI | decision ms of the "
        "first (median / p95) | seconds | load |"
    )
    print("|---|---|---:|---:|---|---|---:|---:|")
    try:
        for variant in args.variants.split(","):
            for pair in args.pairs.split(","):
                a, b = pair.split("-")
                run(a, b, variant, args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


def run(a: str, b: str, variant: str, args: argparse.Namespace) -> None:
    pairing = Pairing(a, b, variant, args.seed)
    deals = args.games // 2
    limit = None if args.max_minutes is None else 60 * args.max_minutes
    interrupted = False

    def write(partial: bool) -> None:
        if args.json:
            with open(args.json, "a", encoding="utf-8") as f:
                f.write(json.dumps(pairing.row(partial)) + "\n")

    try:
        for deal in range(args.first_deal, args.first_deal + deals):
            pairing.play_deal(deal)
            row = pairing.row(True)
            print(
                f"\r{variant} {a} vs {b}: {row['games']}/{2 * deals} games, "
                f"{100 * row['rate']:.1f}% [{100 * row['ci_low']:.1f}, "
                f"{100 * row['ci_high']:.1f}], {row['seconds']:.0f} s ",
                end="",
                file=sys.stderr,
                flush=True,
            )
            if pairing.deals % args.every == 0 and pairing.deals < deals:
                write(True)
            if limit is not None and time.perf_counter() - pairing.t0 > limit:
                break
    except KeyboardInterrupt:
        interrupted = True
    print(file=sys.stderr)
    if pairing.games:
        write(interrupted)
        print(_markdown(pairing.row(interrupted)), flush=True)
    if interrupted:
        raise KeyboardInterrupt


if __name__ == "__main__":
    raise SystemExit(main())
