"""Tuning the searching levels cheaply: the regret of each bot's decisions on a fixed set of
positions, against reference values from many rollouts (the fast extra is needed).

    python benchmarks/tune_search.py positions --variant standard --count 150 --out pos.pkl
    python benchmarks/tune_search.py reference pos.pkl --worlds 4000
    python benchmarks/tune_search.py regret pos.pkl hard medium expert expert:depth=40 ...

``positions`` samples decisions with a choice from games of hard against medium; ``reference``
plays each position's candidate moves (the hard bot's best ``--cands``, every move if fewer, and
the medium bot's choice) in ``--worlds`` common worlds to the end with the compiled medium bot at
every seat, and stores each move's share of worlds won; ``regret`` has each bot decide every
position and prints its mean regret (the reference value of the best candidate minus that of
the move chosen, 0 when the move chosen is not a candidate... counted as the worst candidate)
with its standard error, and the processor time per decision. A lower regret is a stronger
decision-maker against players like the rollout policy; the real test is still the games of
``bench_strength.py``.
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
import time
from typing import Any

from sorry import Game, Rules
from sorry.bots import make_bot
from sorry.rng import Rng, derive_seed
from sorry.sim.runner import build_bot


def sample_positions(variant: str, count: int, seed: int) -> list[Any]:
    rules = Rules(variant=variant)
    players = 4 if variant == "teams" else 2
    views = []
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
            if len(v.legal_moves) > 1 and rng.below(6) == 0:
                views.append(v)
            g.push(bots[g.to_move].choose(v, rng))
    return views


def reference(views: list[Any], worlds: int, cands: int) -> list[dict[Any, float]]:
    from sorry.fast.search import ViewRoot

    hard = make_bot("hard")
    medium = make_bot("medium")
    out = []
    t0 = time.perf_counter()
    for n, v in enumerate(views):
        ranked = [m for m, _s in hard.ranked(v)][:cands]  # type: ignore[attr-defined]
        mc = medium.choose(v, Rng(1))
        if mc not in ranked:
            ranked.append(mc)
        legal = list(v.legal_moves)
        root = ViewRoot(v)
        seeds = [derive_seed(99, w) for w in range(worlds)]
        table = root.scores([legal.index(m) for m in ranked], seeds, 100_000)
        out.append({m: float(table[:, j].mean()) for j, m in enumerate(ranked)})
        print(
            f"\r{n + 1}/{len(views)} {time.perf_counter() - t0:.0f} s",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    return out


def regret(views: list[Any], refs: list[dict[Any, float]], spec: str) -> tuple[float, float, float]:
    bot = build_bot(spec)
    regrets = []
    cpu = 0.0
    for k, (v, ref) in enumerate(zip(views, refs, strict=True)):
        c0 = time.process_time()
        m = bot.choose(v, Rng(derive_seed(5, k)))
        cpu += time.process_time() - c0
        best = max(ref.values())
        regrets.append(best - ref.get(m, min(ref.values())))
    n = len(regrets)
    mean = sum(regrets) / n
    sd = math.sqrt(sum((r - mean) ** 2 for r in regrets) / max(1, n - 1))
    return mean, sd / math.sqrt(n), cpu / n


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("positions")
    a.add_argument("--variant", default="standard")
    a.add_argument("--count", type=int, default=150)
    a.add_argument("--seed", type=int, default=18)
    a.add_argument("--out", required=True)
    b = sub.add_parser("reference")
    b.add_argument("file")
    b.add_argument("--worlds", type=int, default=4000)
    b.add_argument("--cands", type=int, default=8, help="the hard bot's best N moves")
    b.add_argument("--limit", type=int, help="only the first N positions")
    c = sub.add_parser("regret")
    c.add_argument("file")
    c.add_argument("bots", nargs="+")
    args = p.parse_args(argv)
    if args.cmd == "positions":
        views = sample_positions(args.variant, args.count, args.seed)
        with open(args.out, "wb") as f:
            pickle.dump({"views": views, "refs": None}, f)
        return 0
    with open(args.file, "rb") as f:
        data = pickle.load(f)
    if args.cmd == "reference":
        if args.limit:
            data["views"] = data["views"][: args.limit]
        data["refs"] = reference(data["views"], args.worlds, args.cands)
        with open(args.file, "wb") as f:
            pickle.dump(data, f)
        return 0
    for spec in args.bots:
        mean, se, cpu = regret(data["views"], data["refs"], spec)
        print(
            f"{spec:50s} regret {100 * mean:6.3f} ± {100 * se:5.3f} points  "
            f"{1000 * cpu:7.1f} ms cpu"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
