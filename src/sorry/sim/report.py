"""What the runs report: :func:`simulate` (self-play statistics) and :func:`tournament`
(entrants rotated through the seats on paired deals, win rates, ratings), their text tables,
JSON and CSV output, and the plot."""

from __future__ import annotations

import csv
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..board import COLOUR_NAMES
from ..errors import SorryError
from ..i18n import _, ngettext
from ..rulebook import colours_for as rulebook_colours
from ..rules import Rules
from .runner import (
    ENGINE_NAMES,
    GameRecord,
    RunInterrupted,
    RunSpec,
    choose_engine,
    prepare,
    run_games,
)
from .stats import bootstrap_ratings, median, percentile, plackett_luce, wilson

#: With ``engine="auto"``, the compiled engine is compiled (when numba's cache lacks it: minutes,
#: once) only for runs of at least this many games, which would take the playouts minutes too;
#: a shorter run takes the next fastest engine and its report says why.
COMPILE_PAYS = 100_000


def colours_for(rules: Rules, players: int) -> tuple[int, ...]:
    """The default colours of ``players`` players (``sorry.rulebook.colours_for``)."""
    return rulebook_colours(players, rules)


def _interval(wins: float, n: int) -> dict[str, float]:
    lo, hi = wilson(wins, n)
    return {"rate": wins / n if n else 0.0, "ci_low": lo, "ci_high": hi}


def _lengths(records: Sequence[GameRecord]) -> dict[str, Any]:
    turns = [r.turns for r in records] or [0]
    return {
        "mean": sum(turns) / len(turns),
        "median": median(turns),
        "p5": percentile(turns, 0.05),
        "p95": percentile(turns, 0.95),
        "histogram": dict(sorted(Counter(turns).items())),
    }


def simulate(
    games: int,
    players: int = 4,
    rules: Rules | None = None,
    bots: Sequence[str] | None = None,
    seed: int = 0,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: bool = False,
    engine: str = "python",
) -> dict[str, Any]:
    """Play ``games`` games with ``bots`` (one spec per seat, default all random) in fixed
    seats and report seat win rates, the first player's advantage and the game length.
    ``engine``: ``python``, ``playout``, ``fast`` or ``auto`` (the fastest that plays these
    bots: :func:`~sorry.sim.runner.choose_engine`); every engine plays the same games. After
    Ctrl-C the report covers the games finished, with ``interrupted`` true."""
    rules = rules or Rules()
    if bots is not None and len(bots) not in (1, players):
        raise SorryError(f"give one bot or {players} bots (one per seat), not {len(bots)}")
    specs = tuple(bots) if bots else ("random",)
    if len(specs) == 1:
        specs = specs * players
    colours = colours_for(rules, players)
    chosen = choose_engine(rules, specs, engine)
    spec = RunSpec(rules, colours, specs, seed, engine=chosen)
    notify = progress or sys.stderr.isatty()
    spec, load = prepare(spec, notify, may_compile=engine != "auto" or games >= COMPILE_PAYS)
    engine = spec.engine
    t0 = time.perf_counter()
    interrupted = False
    try:
        records = run_games(spec, games, jobs, backend, address, progress)
    except RunInterrupted as stop:
        records, interrupted = stop.records, True
    elapsed = time.perf_counter() - t0
    n = len(records)
    finished = [r for r in records if r.winners]
    seats = []
    for k, c in enumerate(colours):
        wins = sum(1 for r in records if k in r.winners)
        seats.append(
            {"colour": COLOUR_NAMES[c], "bot": specs[k], "wins": wins, **_interval(wins, n)}
        )
    first_wins = sum(1 for r in records if r.first in r.winners)
    fair = (2 if rules.teams else 1) / players
    out: dict[str, Any] = {
        "kind": "simulate",
        "games": n,
        "players": players,
        "rules": rules.to_dict(),
        "seed": seed,
        "bots": list(specs),
        "seats": seats,
        "unfinished": n - len(finished),
        "first_player": {"wins": first_wins, "fair_share": fair, **_interval(first_wins, n)},
        "length": _lengths(records),
        "seconds": elapsed,
        "games_per_second": n / elapsed if elapsed > 0 else 0.0,
        "backend": backend,
        "engine": engine,
        "engine_note": spec.note,
        "load_seconds": load,
        "jobs": jobs,
        "requested": games,
        "interrupted": interrupted,
    }
    if rules.points:
        out["mean_points"] = {
            COLOUR_NAMES[c]: sum(r.scores[k] for r in records if r.scores) / max(1, n)
            for k, c in enumerate(colours)
        }
    return out


def tournament(
    bots: Sequence[str],
    games: int,
    rules: Rules | None = None,
    seed: int = 0,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: bool = False,
    timings: bool = False,
    rating_samples: int = 200,
    engine: str = "python",
) -> dict[str, Any]:
    """Entrants ``bots`` (2-4 bot specs; one per seat) play ``games`` games (rounded up to
    whole deals): each deal is played once per rotation of the entrants through the seats,
    with the same deck, so every entrant plays every seat with every deal. ``engine`` as in
    :func:`simulate` (``--timings`` needs the bot objects: ``python``). After Ctrl-C the
    report covers the deals finished in every seating, with ``interrupted`` true."""
    rules = rules or Rules()
    n = len(bots)
    colours = colours_for(rules, n)
    deals = -(-games // n)
    chosen = "python" if timings and engine == "auto" else choose_engine(rules, bots, engine)
    spec = RunSpec(rules, colours, tuple(bots), seed, rotate=True, timings=timings, engine=chosen)
    notify = progress or sys.stderr.isatty()
    spec, load = prepare(spec, notify, may_compile=engine != "auto" or games >= COMPILE_PAYS)
    engine = spec.engine
    t0 = time.perf_counter()
    interrupted = False
    try:
        records = run_games(spec, deals * n, jobs, backend, address, progress)
    except RunInterrupted as stop:
        interrupted = True
        done = Counter(r.index // n for r in stop.records)
        records = [r for r in stop.records if done[r.index // n] == n]
    elapsed = time.perf_counter() - t0
    out = tournament_report(spec, records, elapsed, backend, jobs, rating_samples)
    out.update(
        engine=engine,
        engine_note=spec.note,
        load_seconds=load,
        requested=deals * n,
        interrupted=interrupted,
    )
    return out


def entrant_labels(bots: Sequence[str]) -> list[str]:
    """Names of the entrants, numbered when a spec repeats (``random``, ``random#2``)."""
    seen: Counter[str] = Counter()
    out = []
    for b in bots:
        seen[b] += 1
        out.append(b if seen[b] == 1 else f"{b}#{seen[b]}")
    return out


def tournament_report(
    spec: RunSpec,
    records: Sequence[GameRecord],
    elapsed: float,
    backend: str = "process",
    jobs: int = 1,
    rating_samples: int = 200,
) -> dict[str, Any]:
    n = len(spec.bots)
    rules = spec.rules
    games = len(records)
    labels = entrant_labels(spec.bots)
    wins = [0.0] * n
    points = [0.0] * n
    times: list[list[float]] = [[] for _ in range(n)]
    outcomes: list[dict[tuple[tuple[int, ...], int], float]] = []
    table = tuple(range(n))
    for r in records:
        deal = r.index // n
        while len(outcomes) <= deal:
            outcomes.append({})
        for k, e in enumerate(r.seats):
            if k in r.winners:
                wins[e] += 1.0
                key = (table, e)
                outcomes[deal][key] = outcomes[deal].get(key, 0.0) + 1.0 / len(r.winners)
            if r.scores is not None:
                points[e] += r.scores[k]
            if r.times:
                times[e].extend(r.times[k])
    total: dict[tuple[tuple[int, ...], int], float] = {}
    for o in outcomes:
        for key, count in o.items():
            total[key] = total.get(key, 0.0) + count
    ratings = plackett_luce(total, n)
    intervals = bootstrap_ratings(outcomes, n, samples=rating_samples)
    entrants = []
    for e in range(n):
        row: dict[str, Any] = {
            "name": labels[e],
            "bot": spec.bots[e],
            "games": games,
            "wins": wins[e],
            **_interval(wins[e], games),
            "rating": ratings[e],
            "rating_low": intervals[e][0],
            "rating_high": intervals[e][1],
        }
        if rules.points:
            row["mean_points"] = points[e] / games if games else 0.0
        if times[e]:
            row["decision_median_ms"] = 1000 * median(times[e])
            row["decision_p95_ms"] = 1000 * percentile(times[e], 0.95)
            row["decisions"] = len(times[e])
        entrants.append(row)
    return {
        "kind": "tournament",
        "games": games,
        "deals": len(outcomes),
        "rules": rules.to_dict(),
        "seed": spec.seed,
        "bots": list(spec.bots),
        "entrants": entrants,
        "unfinished": sum(1 for r in records if not r.winners),
        "length": _lengths(records),
        "seconds": elapsed,
        "games_per_second": games / elapsed if elapsed > 0 else 0.0,
        "backend": backend,
        "jobs": jobs,
    }


# -- output ---------------------------------------------------------------------------------
def _pct(row: dict[str, Any]) -> str:
    return f"{100 * row['rate']:5.1f}%  [{100 * row['ci_low']:5.1f}, {100 * row['ci_high']:5.1f}]"


def simulate_text(res: dict[str, Any]) -> str:
    nothing = _nothing_finished(res)
    if nothing is not None:
        return nothing
    rules = Rules.from_dict(res["rules"])
    opts = rules.options_text()
    variant = rules.variant + (f" ({opts})" if opts else "")
    lines = [
        _("{games} games, {players} players, {variant}, seed {seed}").format(
            games=res["games"], players=res["players"], variant=variant, seed=res["seed"]
        ),
        _("seat     bot              wins   win rate [95% CI]"),
    ]
    for s in res["seats"]:
        lines.append(f"{_(s['colour']):<8} {s['bot']:<16} {s['wins']:>5}   {_pct(s)}")
    fp = res["first_player"]
    lines.append(
        _("first player wins {rate}  (fair share {share}%)").format(
            rate=_pct(fp), share=f"{100 * fp['fair_share']:.1f}"
        )
    )
    ln = res["length"]
    lines.append(
        _("game length (moves): mean {mean}, median {median}, 5-95% {low}-{high}").format(
            mean=f"{ln['mean']:.1f}",
            median=f"{ln['median']:g}",
            low=f"{ln['p5']:g}",
            high=f"{ln['p95']:g}",
        )
    )
    if res.get("mean_points"):
        points = ", ".join(f"{_(k)} {v:.1f}" for k, v in res["mean_points"].items())
        lines.append(_("mean points: {points}").format(points=points))
    if res["unfinished"]:
        lines.append(_("unfinished games: {n}").format(n=res["unfinished"]))
    lines.append(_speed_text(res, 2) + _engine_text(res))
    lines.extend(_interrupted_text(res))
    return "\n".join(lines)


def _speed_text(res: dict[str, Any], digits: int) -> str:
    """``795.7 games/s (1.26 s)``: the games over the time they took to play; with the whole
    command's time (``total_seconds``, set by the command line: start-up and loading in it),
    both, named: ``(1.26 s of play; 2.10 s in all)``."""
    rate = f"{res['games_per_second']:,.1f}"
    seconds = _seconds_text(res["seconds"], digits)
    total = res.get("total_seconds")
    if total is None:
        return _("{rate} games/s ({seconds} s)").format(rate=rate, seconds=seconds)
    return _("{rate} games/s ({seconds} s of play; {total} s in all)").format(
        rate=rate, seconds=seconds, total=_seconds_text(total, digits)
    )


def _seconds_text(seconds: float, digits: int) -> str:
    """``seconds`` with ``digits`` decimals, more below one second so that three significant
    digits remain (the rate beside it is then the games over the time shown: ``0.0227``, not
    ``0.02``)."""
    if 0 < seconds < 1:
        digits = max(digits, 2 - math.floor(math.log10(seconds)))
    return f"{seconds:.{digits}f}"


def _nothing_finished(res: dict[str, Any]) -> str | None:
    """After Ctrl-C before any game ended: the one line said instead of a table of zeros."""
    if res["games"] or not res.get("interrupted"):
        return None
    return _("interrupted before any game ended: nothing to report ({requested} asked)").format(
        requested=res["requested"]
    )


def _engine_text(res: dict[str, Any]) -> str:
    engine = res.get("engine")
    if engine not in ENGINE_NAMES:
        return ""
    text = "; " + _("engine: {engine}").format(engine=_(ENGINE_NAMES[engine]))
    load = res.get("load_seconds", 0.0)
    if res.get("engine_note") == "not-compiled":
        text += " " + _(
            "(the compiled engine is not compiled yet: --engine fast compiles it, minutes once)"
        )
    elif load >= 0.05:
        text += " " + _("(loaded in {seconds} s)").format(seconds=f"{load:.1f}")
    return text


def _interrupted_text(res: dict[str, Any]) -> list[str]:
    if not res.get("interrupted"):
        return []
    return [
        _("interrupted: {done} of {requested} games played").format(
            done=res["games"], requested=res["requested"]
        )
    ]


def tournament_text(res: dict[str, Any]) -> str:
    nothing = _nothing_finished(res)
    if nothing is not None:
        return nothing
    rules = Rules.from_dict(res["rules"])
    opts = rules.options_text()
    variant = rules.variant + (f" ({opts})" if opts else "")
    lines = [
        ngettext(
            "{games} games ({deals} paired deal x {seatings} seatings), {variant}, seed {seed}",
            "{games} games ({deals} paired deals x {seatings} seatings), {variant}, seed {seed}",
            res["deals"],
        ).format(
            games=res["games"],
            deals=res["deals"],
            seatings=len(res["bots"]),
            variant=variant,
            seed=res["seed"],
        ),
        _("bot                         wins   win rate [95% CI]        rating [95% CI]"),
    ]
    for e in res["entrants"]:
        line = (
            f"{e['name']:<24} {e['wins']:>7g}   {_pct(e)}   {e['rating']:+6.0f} "
            f"[{e['rating_low']:+.0f}, {e['rating_high']:+.0f}]"
        )
        if "mean_points" in e:
            line += f"   {e['mean_points']:.1f} pts"
        if "decision_median_ms" in e:
            line += f"   {e['decision_median_ms']:.2f}/{e['decision_p95_ms']:.2f} ms"
        lines.append(line)
    ln = res["length"]
    text = _("game length (moves): mean {mean}, median {median}").format(
        mean=f"{ln['mean']:.1f}", median=f"{ln['median']:g}"
    )
    if res["unfinished"]:
        text += "; " + _("unfinished games: {n}").format(n=res["unfinished"])
    lines.append(text)
    lines.append(_speed_text(res, 1) + _engine_text(res))
    lines.extend(_interrupted_text(res))
    return "\n".join(lines)


def write_json(res: dict[str, Any], path: str) -> None:
    data = dict(res)
    data["length"] = dict(res["length"])
    data["length"]["histogram"] = {str(k): v for k, v in res["length"]["histogram"].items()}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")


def write_csv(res: dict[str, Any], path: str) -> None:
    rows = res["entrants"] if res["kind"] == "tournament" else res["seats"]
    fields: list[str] = []
    for row in rows:
        fields.extend(k for k in row if k not in fields)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


def plot(res: dict[str, Any], path: str) -> None:
    """Win rates with 95% error bars and the distribution of game lengths (matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SorryError(_("--plot needs matplotlib: pip install 'sorry-engine[sim]'")) from None
    rows = res["entrants"] if res["kind"] == "tournament" else res["seats"]
    names = [r.get("name") or f"{_(r['colour'])} ({r['bot']})" for r in rows]
    rates = [100 * r["rate"] for r in rows]
    err = [
        [max(0.0, 100 * (r["rate"] - r["ci_low"])) for r in rows],
        [max(0.0, 100 * (r["ci_high"] - r["rate"])) for r in rows],
    ]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    ax1.bar(range(len(rows)), rates, yerr=err, capsize=6, color="#4a78b5")
    ax1.set_xticks(range(len(rows)), names, rotation=20, ha="right")
    ax1.set_ylabel(_("win rate (%) with 95% CI"))
    ax1.set_ylim(0, 100)
    ax1.set_title(
        _("{games} games, {variant}").format(games=res["games"], variant=res["rules"]["variant"])
    )
    hist = {int(k): v for k, v in res["length"]["histogram"].items()}
    if hist:
        width = max(1, (max(hist) - min(hist)) // 40)
        binned: Counter[int] = Counter()
        for k, v in hist.items():
            binned[k // width * width] += v
        ax2.bar(list(binned), list(binned.values()), width=width, color="#b5634a")
    ax2.set_xlabel(_("game length (moves)"))
    ax2.set_ylabel(_("games"))
    ax2.set_title(_("mean {mean} moves").format(mean=f"{res['length']['mean']:.1f}"))
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
