"""The strength ladder: each bot level against the one below it (and the expert against random
and easy), heads-up, on paired deals (every deal played twice with the seats swapped), in the
standard game and the points variant. Records win rates with 95% Wilson intervals and each
level's decision time (median and 95th percentile).

    python benchmarks/bench_strength.py [--games 400] [--expert-games 400] [--jobs 1]
        [--variants standard,points] [--pairs easy-random,medium-easy,...] [--seed 2026]
        [--json results.jsonl]

Prints one Markdown table row per pairing as it finishes (and appends JSON lines with
``--json``), so a long background run can be read while it goes. Results go in
``docs/strength.md`` with the command that produced them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from sorry.rules import Rules
from sorry.sim import tournament

LADDER = (
    "easy-random",
    "medium-easy",
    "hard-medium",
    "expert-hard",
    "expert-random",
    "expert-easy",
)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=400, help="games per pairing without expert")
    p.add_argument("--expert-games", type=int, default=400, help="games per expert pairing")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--variants", default="standard,points")
    p.add_argument("--pairs", default=",".join(LADDER), help="a-b: bot a against bot b")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--json", help="append one JSON line per pairing to this file")
    args = p.parse_args(argv)
    print(
        "| variant | pairing | games | win rate of the first | 95% CI | decision ms "
        "(median / p95), first | second | seconds |"
    )
    print("|---|---|---:|---:|---|---|---|---:|")
    for variant in args.variants.split(","):
        for pair in args.pairs.split(","):
            a, b = pair.split("-")
            games = (
                args.expert_games if "expert" in (a.split(":")[0], b.split(":")[0]) else args.games
            )
            t0 = time.perf_counter()
            res = tournament(
                [a, b],
                games,
                rules=Rules(variant=variant),
                seed=args.seed,
                jobs=args.jobs,
                timings=True,
                progress=sys.stderr.isatty(),
                rating_samples=50,
            )
            ea, eb = res["entrants"]
            secs = time.perf_counter() - t0

            def ms(e: dict[str, float]) -> str:
                if "decision_median_ms" not in e:
                    return "-"
                return f"{e['decision_median_ms']:.2f} / {e['decision_p95_ms']:.2f}"

            print(
                f"| {variant} | {a} vs {b} | {res['games']} | {100 * ea['rate']:.1f}% | "
                f"[{100 * ea['ci_low']:.1f}, {100 * ea['ci_high']:.1f}] | {ms(ea)} | {ms(eb)} | "
                f"{secs:.0f} |",
                flush=True,
            )
            if args.json:
                row = {
                    "variant": variant,
                    "pair": [a, b],
                    "games": res["games"],
                    "seed": args.seed,
                    "entrants": ea | {"opponent": b},
                    "opponent": eb,
                    "mean_length": res["length"]["mean"],
                    "seconds": secs,
                }
                with open(args.json, "a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
