"""Small statistics: Wilson intervals, Elo from a win rate, a Plackett-Luce (winner-of-many)
rating fit with bootstrap intervals. Standard library only."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``(0, 1)`` when ``n`` is 0).

    >>> lo, hi = wilson(84, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.756, 0.899)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_from_rate(p: float) -> float:
    """The Elo difference that predicts win rate ``p`` heads-up (clamped at ±800).

    >>> round(elo_from_rate(0.76))
    200
    """
    p = min(max(p, 0.01), 0.99)
    return -400.0 * math.log10(1.0 / p - 1.0)


def median(values: Sequence[float]) -> float:
    s = sorted(values)
    n = len(s)
    if not n:
        return 0.0
    return float(s[n // 2]) if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by nearest rank."""
    s = sorted(values)
    if not s:
        return 0.0
    k = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return float(s[k])


def plackett_luce(
    games: Mapping[tuple[tuple[int, ...], int], float], n: int, iterations: int = 200
) -> list[float]:
    """Ratings (Elo scale, mean 0) of ``n`` entrants from weighted game outcomes
    ``{(entrants at the table, winner): count}``, under the model P(i wins) = g_i / sum of g_j
    over the table (Hunter's MM algorithm; a prior of half a win and half a loss against an
    average field keeps every rating finite). Heads-up it is the Elo of the win rate.

    >>> r = plackett_luce({((0, 1), 0): 76, ((0, 1), 1): 24}, 2)
    >>> round(r[0] - r[1])
    199
    """
    gamma = [1.0] * n
    wins = [0.5] * n
    for (_players, w), k in games.items():
        wins[w] += k
    for _ in range(iterations):
        denom = [1.0 / (gamma[i] + 1.0) for i in range(n)]
        for (players, _w), k in games.items():
            s = sum(gamma[j] for j in players)
            for j in players:
                denom[j] += k / s
        new = [wins[i] / denom[i] for i in range(n)]
        mean_log = sum(math.log(g) for g in new) / n
        gamma = [g / math.exp(mean_log) for g in new]
    return [400.0 * math.log10(g) for g in gamma]


def bootstrap_ratings(
    groups: Sequence[Mapping[tuple[tuple[int, ...], int], float]],
    n: int,
    samples: int = 200,
    seed: int = 1,
) -> list[tuple[float, float]]:
    """95% intervals of :func:`plackett_luce` ratings, resampling ``groups`` (the outcomes of
    each paired deal) with replacement."""
    from ..rng import Rng

    if not groups:
        return [(0.0, 0.0)] * n
    rng = Rng(seed)
    draws: list[list[float]] = [[] for _ in range(n)]
    for _ in range(samples):
        total: dict[tuple[tuple[int, ...], int], float] = {}
        for _ in range(len(groups)):
            for key, k in groups[rng.below(len(groups))].items():
                total[key] = total.get(key, 0.0) + k
        for i, r in enumerate(plackett_luce(total, n, iterations=60)):
            draws[i].append(r)
    return [(percentile(d, 0.025), percentile(d, 0.975)) for d in draws]
