"""The fast engine's results in the shape of :func:`sorry.sim.simulate`'s report, so that
``sorry simulate --engine fast`` prints, plots and writes JSON like the Python engine.

>>> from sorry.sim.fast_report import simulate_report
>>> res = simulate_report(50, players=2, seed=3)
>>> res["games"], res["engine"], sum(s["wins"] for s in res["seats"])
(50, 'fast', 50)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..board import COLOUR_NAMES
from ..errors import SorryError
from ..fast import FastResult, simulate
from ..rulebook import PARTNER
from ..rules import Rules
from .report import colours_for, tournament_report
from .runner import GameRecord, RunSpec
from .stats import median, percentile, wilson

#: sorry.sim bot specs that the fast engine plays exactly (same games, game for game).
FAST_BOTS = {"random": "random", "easy": "easybot", "medium": "medium"}


def _interval(wins: float, n: int) -> dict[str, float]:
    lo, hi = wilson(wins, n)
    return {"rate": wins / n if n else 0.0, "ci_low": lo, "ci_high": hi}


def report(res: FastResult, seed: int, bots: Sequence[str]) -> dict[str, Any]:
    """A :class:`FastResult` as the dict of :func:`sorry.sim.simulate`."""
    n = res.games
    colours = res.colours
    teams = res.rules.teams
    winners = res.winner
    seats = []
    for k, c in enumerate(colours):
        won = (winners == c) | ((winners >= 0) & (winners == PARTNER[c])) if teams else winners == c
        wins = int(won.sum())
        seats.append(
            {"colour": COLOUR_NAMES[c], "bot": bots[k], "wins": wins, **_interval(wins, n)}
        )
    first_won = (winners == res.first) | (teams & (winners == np.array(PARTNER)[res.first]))
    first_wins = int((first_won & (winners >= 0)).sum())
    turns = [int(t) for t in res.turns]
    out: dict[str, Any] = {
        "kind": "simulate",
        "games": n,
        "players": len(colours),
        "rules": res.rules.to_dict(),
        "seed": seed,
        "bots": list(bots),
        "seats": seats,
        "unfinished": int((winners < 0).sum()),
        "first_player": {
            "wins": first_wins,
            "fair_share": (2 if teams else 1) / len(colours),
            **_interval(first_wins, n),
        },
        "length": {
            "mean": float(np.mean(res.turns)) if n else 0.0,
            "median": median(turns),
            "p5": percentile(turns, 0.05),
            "p95": percentile(turns, 0.95),
            "histogram": dict(sorted(Counter(turns).items())),
        },
        "seconds": res.seconds,
        "games_per_second": n / res.seconds if res.seconds > 0 else 0.0,
        "backend": "fast",
        "engine": "fast",
        "jobs": res.threads,
    }
    if res.rules.points:
        out["mean_points"] = {
            COLOUR_NAMES[c]: float(res.scores[:, c].mean()) if n else 0.0 for c in colours
        }
    return out


def simulate_report(
    games: int,
    players: int = 4,
    rules: Rules | None = None,
    bots: Sequence[str] | None = None,
    seed: int = 0,
    threads: int | None = None,
) -> dict[str, Any]:
    """:func:`sorry.sim.simulate` on the fast engine: the same games and the same report for
    the bots it has (``random``, ``easy``); ``threads`` defaults to every core."""
    specs = list(bots) if bots else ["random"]
    if len(specs) not in (1, players):
        raise SorryError(f"give one bot or {players} bots (one per seat), not {len(specs)}")
    if len(specs) == 1:
        specs = specs * players
    _check_bots(specs)
    policies = [FAST_BOTS[b] for b in specs]
    res = simulate(games, players, seed=seed, policy=policies, threads=threads, rules=rules)
    return report(res, seed, specs)


def _check_bots(specs: Sequence[str]) -> None:
    unknown = sorted({b for b in specs if b not in FAST_BOTS})
    if unknown:
        raise SorryError(
            f"the fast engine has these bots: {', '.join(FAST_BOTS)} (not {', '.join(unknown)})"
        )


def tournament_fast(
    bots: Sequence[str],
    games: int,
    rules: Rules | None = None,
    seed: int = 0,
    threads: int | None = None,
    rating_samples: int = 200,
) -> dict[str, Any]:
    """:func:`sorry.sim.tournament` on the fast engine: entrants rotated through the seats on
    paired deals, the same games and the same report for the fast bots (random, easy)."""
    rules = rules or Rules()
    _check_bots(bots)
    n = len(bots)
    colours = colours_for(rules, n)
    deals = -(-games // n)
    spec = RunSpec(rules, colours, tuple(bots), seed, rotate=True)
    records: list[GameRecord | None] = [None] * (deals * n)
    elapsed = 0.0
    used = 1
    for r in range(n):  # one batch per seating
        indices = [d * n + r for d in range(deals)]
        seating = spec.seating(r)
        policies = [FAST_BOTS[bots[seating[k]]] for k in range(n)]
        seeds = [spec.game_seed(i) for i in indices]
        res = simulate(deals, colours, policy=policies, threads=threads, rules=rules, seeds=seeds)
        elapsed += res.seconds
        used = res.threads
        for j, i in enumerate(indices):
            w = int(res.winner[j])
            won = () if w < 0 else rules.book.movers[w]
            records[i] = GameRecord(
                index=i,
                seed=seeds[j],
                seats=seating,
                winners=tuple(sorted(colours.index(c) for c in won)),
                first=colours.index(int(res.first[j])),
                turns=int(res.turns[j]),
                scores=tuple(int(res.scores[j, c]) for c in colours) if rules.points else None,
            )
    done = [rec for rec in records if rec is not None]
    out = tournament_report(spec, done, elapsed, "fast", used, rating_samples)
    out["engine"] = "fast"
    return out
