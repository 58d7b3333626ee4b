"""Plot the learning curve kept in a model trained by ``sorry train`` (and print it as a table).

    python examples/plot_learning_curve.py src/sorry/learned/data/standard.npz \\
        docs/learned-curve.png [--games-per-point 1000]

Each point of the curve is the network's share of games won, playing greedily on its
evaluation, on the same paired deals against the compiled ``medium`` and ``easy`` bots
(``sorry.learned.train.curve_point``: heads-up, in teams two against two, in the variant the
network learns); the bars are 95% Wilson intervals. Needs matplotlib.
"""

from __future__ import annotations

import argparse
import math
import sys

from sorry.errors import SorryError
from sorry.learned.model import Model


def wilson(p: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("out", help="the image to write (.png or .svg)")
    ap.add_argument("--games-per-point", type=int, default=1000)
    args = ap.parse_args()
    try:
        model = Model.load(args.model)
        meta = model.meta
    except SorryError as exc:
        print(f"plot_learning_curve: {exc}", file=sys.stderr)
        return 2
    curve = meta.get("curve") or []
    if not curve:
        print("plot_learning_curve: the model has no curve", file=sys.stderr)
        return 2
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = args.games_per_point
    fig, ax = plt.subplots(figsize=(7, 4))
    print("| self-play games | minutes | vs medium | vs easy |")
    print("|---:|---:|---:|---:|")
    for p in curve:
        print(
            f"| {p['games']:,} | {p['seconds'] / 60:.0f} | {100 * p['medium']:.1f}% "
            f"| {100 * p['easy']:.1f}% |"
        )
    xs = [p["games"] for p in curve]
    for name in ("medium", "easy"):
        ys = [100 * p[name] for p in curve]
        lo = [y - 100 * wilson(p[name], n)[0] for y, p in zip(ys, curve, strict=True)]
        hi = [100 * wilson(p[name], n)[1] - y for y, p in zip(ys, curve, strict=True)]
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", ms=3, capsize=2, label=f"vs {name}")
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("self-play games")
    table = "two against two" if model.variant == "teams" else "heads-up"
    ax.set_ylabel(f"games won (%), {n:,} {table} games a point")
    ax.set_title(f"learned evaluation, {model.variant}, greedy (seed {meta.get('seed')})")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
