"""The after-game analysis: how long a game takes to analyse, and whether the estimator is
calibrated (docs/analysis.md, docs/benchmarks.md).

    .venv/bin/python benchmarks/bench_analysis.py speed [--engine compiled|python|both]
        [--rollouts N] [--turns 180] [--repeat R] [--record FILE] [--factors 16/6,32/12]
    .venv/bin/python benchmarks/bench_analysis.py calibration --out FILE.jsonl
        [--games 2000] [--variant standard] [--players 2] [--every 36]
        [--engine compiled|python] [--rollouts N] [--seed S]
    .venv/bin/python benchmarks/bench_analysis.py table FILE.jsonl [FILE.jsonl ...]
    .venv/bin/python benchmarks/bench_analysis.py noise [--turns 180] [--seeds 4]
        [--games FILE.jsonl --count N] [--out FILE.jsonl] [--factors 16/6,32/12]
    .venv/bin/python benchmarks/bench_analysis.py games --pair hard-easy --out FILE.jsonl
        [--games 200] [--first 0]
    .venv/bin/python benchmarks/bench_analysis.py skill --games FILE.jsonl --out FILE.jsonl
        [--count 200] [--skip 0]
    .venv/bin/python benchmarks/bench_analysis.py skill-table FILE.jsonl [FILE.jsonl ...]
    .venv/bin/python benchmarks/bench_analysis.py calibrate --games FILE.jsonl --model easy
        --out FILE.jsonl [--every 36] [--rollouts 64] [--count N]
    .venv/bin/python benchmarks/bench_analysis.py model-table FILE.jsonl [FILE.jsonl ...]
        [--bootstrap N] [--all] [--strength POWER [--scale S]]
    .venv/bin/python benchmarks/bench_analysis.py strength-fit FILE.jsonl [...] [--powers P ...]
    .venv/bin/python benchmarks/bench_analysis.py map-fit --train FILE.jsonl --test FILE.jsonl
        [--skill FILE.jsonl ...]
    .venv/bin/python benchmarks/bench_analysis.py ready [--games 3] [--level medium]
        [--think 1.0] [--bots] [--server-src OTHER/src]
    .venv/bin/python benchmarks/bench_analysis.py tui-ready [--games 3] [--level medium]
        [--think 1.0] [--first 1] [--seed 1]
    .venv/bin/python benchmarks/bench_analysis.py luck-control --games FILE.jsonl
        [--count 1] [--skip 0] [--positions 3] [--pairs 40]

``speed`` finds the first two-player standard game of medium bots (seeds 1, 2, ...) whose
length is within 5 turns of ``--turns`` and times ``sorry.analysis.analyse`` on it (the best
of ``--repeat`` runs, CPU seconds of this process and wall seconds; loading the compiled
rollouts is timed apart); ``--engine both`` times both engines with the same rollouts and
gives the ratio. ``--factors A/T,...`` times the analysis with other rollouts on the account's
terms (``sorry.analysis.account.ACCOUNT_FACTOR`` / ``TIE_FACTOR``), one after the other in
each repeat, so a before/after ratio comes from one run; ``noise`` takes it too.

``calibration`` plays ``--games`` self-play games of the estimator's own policy (game ``i``
has seed ``derive_seed(seed, i)``), values each chance node with probability ``1 / --every``
(seeded, whatever the game's length) with the analysis's estimator and with the naive
progress estimate, and appends one JSON line per game to ``--out`` (an interrupted run resumes
where it stopped: games already in the file are skipped). It runs on one core: start it with
``nice -n 10`` on a shared machine.
``table`` prints the reliability table by deciles and the Brier scores of such files.

``noise`` analyses the ``speed`` game (or the first ``--count`` games of a ``games`` file)
with ``--seeds`` seeds of the rollouts and prints each player's totals: their mean and standard
deviation over the seeds, the standard error the analysis reports, and how many pairs of seeds
agree within the 95% interval of their difference.

``games`` records games between two bot levels (one JSON line a game, resumable); ``skill``
analyses them once each and ``skill-table`` says how often the first level's own moves did
better than the second's (with a 95% interval), or, for equal levels, the mean difference
against its standard error. ``calibrate`` values sampled chance nodes of such games with a
model (the analysis's estimator with the rollouts of the compiled ``medium`` bot, the default
model, or of the ``easy`` bot) and ``model-table`` prints the reliability table and the
calibration slope (each sample also carries its colour's progress, so ``--strength POWER``
can adjust the predictions for the levels' strengths, ``sorry.analysis.calibration.
with_strengths``: the log-odds moved by the strengths' difference times the game left to
that power; ``strength-fit`` finds the scale of the strengths that fits files best, for each
power). ``speed``, ``noise``, ``skill`` and ``calibration`` take ``--policy
medium|easybot`` (the rollouts' policy; ``speed``, ``noise`` and ``skill`` default to the
analysis's own, medium, ``calibration`` to easybot); ``speed``, ``noise`` and ``skill`` analyse
with the model of each game's players, as a player's analysis does (``game_model``: the
log-odds tempered, the seats' strengths), or with ``--bare`` with the rollouts' own values.

``luck-control`` measures a variance reduction that is not used: a control variate for the
luck of every draw of a rollout (the learned network's value after the medium bot's move with
each card that could come), on decisions of a ``games`` file where the move played is not the
medium bot's, against plain rollouts: how much less variance, at how much more CPU.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sorry import Rules
from sorry.analysis import account, analyse
from sorry.analysis.account import chance_values
from sorry.analysis.calibration import MODEL_TEMPER, brier, game_model, reliability, samples
from sorry.analysis.estimator import (
    CompiledEstimator,
    Estimator,
    PlayoutEstimator,
    compiled_available,
    reference_level,
)
from sorry.bots import make_bot, play_game
from sorry.record import GameRecord


def estimator_of(engine: str, policy: str = "medium", against: str | None = None) -> Estimator:
    """The estimator of ``engine`` with the rollouts of ``policy`` (compiled), its moves
    judged against the ``against`` bot's (by default the policy's own)."""
    if engine == "python":
        return PlayoutEstimator(reference=against)
    if not compiled_available():
        sys.exit("bench_analysis: the compiled estimator needs the fast extra (sorry.fast)")
    return CompiledEstimator(policy, reference=against)


def model_of(args: argparse.Namespace, est: Estimator, record: GameRecord) -> Estimator:
    """The estimator a player's analysis of ``record`` uses on the rollouts ``est``
    (``game_model``: log-odds tempered, the seats' strengths), or with ``--bare`` the
    rollouts' own values (the model before)."""
    return est if getattr(args, "bare", False) else game_model(record, est)


def game_of_length(turns: int) -> tuple[int, GameRecord]:
    for seed in range(1, 10_000):
        g = play_game(Rules(), [make_bot("medium"), make_bot("medium")], seed=seed)
        if abs(g.turn - turns) <= 5:
            return seed, GameRecord.from_game(g, ["medium", "medium"])
    raise SystemExit("no game of that length")


Factors = tuple[int, int]


def parse_factors(text: str | None) -> list[Factors]:
    """``--factors 16/6,32/12``: the account's rollout factors to run, in order (default:
    the analysis's own)."""
    if not text:
        return [(account.ACCOUNT_FACTOR, account.TIE_FACTOR)]
    out = []
    for part in text.split(","):
        a, _slash, t = part.partition("/")
        try:
            pair = (int(a), int(t))
        except ValueError:
            raise SystemExit(f"--factors: {part!r} is not ACCOUNT/TIE, e.g. 32/12") from None
        if min(pair) < 1:
            raise SystemExit(f"--factors: {part!r}: each factor is at least 1")
        out.append(pair)
    return out


@contextlib.contextmanager
def account_factors(f: Factors) -> Iterator[None]:
    """The analysis run with the account's rollout factors ``f`` (ACCOUNT_FACTOR, TIE_FACTOR)."""
    old = (account.ACCOUNT_FACTOR, account.TIE_FACTOR)
    setattr(account, "ACCOUNT_FACTOR", f[0])  # noqa: B010 - a Final the benchmark varies
    setattr(account, "TIE_FACTOR", f[1])  # noqa: B010
    try:
        yield
    finally:
        setattr(account, "ACCOUNT_FACTOR", old[0])  # noqa: B010
        setattr(account, "TIE_FACTOR", old[1])  # noqa: B010


def speed(args: argparse.Namespace) -> None:
    if args.record:
        record = GameRecord.load(args.record)
        name = f"{args.record} ({len(record.colours)} players)"
    else:
        seed, record = game_of_length(args.turns)
        name = f"game seed {seed} (medium bots)"
    print(
        f"{name}: {record.result.turns} turns, {len(record.steps)} steps; "
        f"load before {os.getloadavg()[0]:.1f}"
    )
    engines = ["compiled", "python"] if args.engine == "both" else [args.engine]
    factors = args.factors
    cpus: dict[str, float] = {}
    for name in engines:
        t0 = time.perf_counter()
        est = estimator_of(name, args.policy, args.against)
        est.values([record.start()], 1, 0)  # compile or load the rollouts before the clock
        load = time.perf_counter() - t0
        best = dict.fromkeys(factors, float("inf"))
        cpu = dict.fromkeys(factors, 0.0)
        for _ in range(args.repeat):
            for f in factors:
                with account_factors(f):
                    c0, w0 = time.process_time(), time.perf_counter()
                    analyse(record, estimator=model_of(args, est, record), rollouts=args.rollouts)
                    wall = time.perf_counter() - w0
                if wall < best[f]:
                    best[f], cpu[f] = wall, time.process_time() - c0
        cpus[name] = cpu[factors[0]]
        for f in factors:
            print(
                f"engine {est.engine}, policy {est.policy}, against {reference_level(est)}, "
                f"rollouts per card {args.rollouts or 'default'}, account factors "
                f"{f[0]}/{f[1]}: {cpu[f]:.2f} s CPU, {best[f]:.2f} s wall (best of "
                f"{args.repeat}; loaded in {load:.1f} s); load {os.getloadavg()[0]:.1f}"
            )
        if len(factors) > 1:
            print(
                "CPU against the first factors: "
                + ", ".join(f"{f[0]}/{f[1]} {cpu[f] / cpu[factors[0]]:.2f}" for f in factors[1:])
            )
    if len(cpus) == 2:
        print(f"compiled / python CPU time: 1 / {cpus['python'] / cpus['compiled']:.1f}")


def _records(path: str | None, count: int, turns: int) -> list[tuple[str, GameRecord]]:
    """Recorded games (``games``: the first ``count`` of the file, or the speed game)."""
    if path is None:
        seed, record = game_of_length(turns)
        return [(f"medium-medium seed {seed}", record)]
    out = []
    for line in Path(path).read_text().splitlines()[:count]:
        item = json.loads(line)
        out.append((f"{item['pair']} game {item['game']}", GameRecord.from_json(item["record"])))
    return out


def noise(args: argparse.Namespace) -> None:
    """Each game analysed with ``--seeds`` seeds of the rollouts: each player's totals under
    each seed, their standard deviation over the seeds, and the standard error the analysis
    reports (an honest interval has the two about equal)."""
    est = estimator_of(args.engine, args.policy, args.against)
    for name, record in _records(args.games, args.count, args.turns):
        for f in args.factors:
            _noise_of(args, est, name, record, f)


def _noise_of(
    args: argparse.Namespace, est: Estimator, name: str, record: GameRecord, f: Factors
) -> None:
    """One game of :func:`noise` with the account's rollout factors ``f``."""
    rows: dict[str, list[tuple[float, ...]]] = {}
    cpu = 0.0
    for k in range(args.seeds):
        c0 = time.process_time()
        with account_factors(f):
            a = analyse(
                record, estimator=model_of(args, est, record), rollouts=args.rollouts, seed=k
            )
        cpu += time.process_time() - c0
        for p in a.players:
            rows.setdefault(f"{'RBYG'[p.colour]} ({p.name})", []).append(
                (
                    float(p.own_decisions),
                    p.own_decisions_se,
                    float(p.luck),
                    p.luck_se,
                    float(p.others_decisions),
                    float(p.start),
                    p.others_decisions_se,
                )
            )
    print(
        f"{name}: {record.result.turns} turns; engine {est.engine}, policy {est.policy}, "
        f"against {reference_level(est)}; account factors {f[0]}/{f[1]}; "
        f"{cpu / args.seeds:.1f} s CPU an analysis; load {os.getloadavg()[0]:.1f}"
    )
    out: dict[str, Any] = {
        "game": name,
        "turns": record.result.turns,
        "factors": list(f),
        "cpu": cpu / args.seeds,
        "players": {},
    }
    for who, vals in rows.items():
        line = [who]
        stats = {}
        for label, i, se_i in (
            ("own moves", 0, 1),
            ("luck", 2, 3),
            ("others", 4, 6),
        ):
            xs = [v[i] * 100 for v in vals]
            mean = sum(xs) / len(xs)
            sd = (sum((x - mean) ** 2 for x in xs) / max(1, len(xs) - 1)) ** 0.5
            ses = [v[se_i] * 100 for v in vals]
            se = sum(ses) / len(ses)
            agree, pairs = _agreeing_pairs(xs, ses)
            text = (
                f"{label} {mean:+.1f} sd {sd:.2f} (reported se {se:.2f}; "
                f"{agree}/{pairs} pairs of seeds within their 95% interval)"
            )
            stats[label] = {
                "mean": mean,
                "sd": sd,
                "se": se,
                "values": xs,
                "agree": agree,
                "pairs": pairs,
            }
            line.append(text)
        out["players"][who] = stats
        print("  " + "; ".join(line))
    if args.out:
        with open(args.out, "a") as fh:
            fh.write(json.dumps(out) + "\n")


def _agreeing_pairs(xs: list[float], ses: list[float]) -> tuple[int, int]:
    """Of every two analyses of one game (other seeds), how many differ by less than the 95%
    interval of their difference (1.96 times the root of the sum of their squared standard
    errors): do the verdicts agree within what they say of themselves?"""
    agree = pairs = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            pairs += 1
            if abs(xs[i] - xs[j]) <= 1.959964 * (ses[i] ** 2 + ses[j] ** 2) ** 0.5:
                agree += 1
    return agree, pairs


def _wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (95%)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) + z * z / (4 * n)) / n) ** 0.5 / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def _regret(a: Any, colour: int) -> float:
    """A player's moves against the best move as first measured, every real decision (the
    reference player's own moves too, unlike the equity lost, where they cost nothing)."""
    total = 0.0
    for d in a.decisions:
        if d.colour == colour and d.real:
            total += max(o.value[colour] for o in d.options) - d.judged(d.move)
    return total


def _tie_gains(a: Any, est: Estimator) -> dict[int, float]:
    """Each player's choices among the reference player's ties, valued: over the decisions
    where the move played is one of the moves the reference player finds equally good (a
    ``free`` move: the account counts it as the reference move, so its effect is in the
    luck) but not the one it would have drawn, the move played against that one, as first
    measured (every legal move in the same worlds), for the mover."""
    from sorry.cards import parse_card
    from sorry.moves import Move

    gains = dict.fromkeys(a.record.colours, 0.0)
    game = a.record.start()
    decisions = iter(a.decisions)
    for step in a.record.steps:
        if step.is_draw:
            game.draw(parse_card(str(step.draw)))
            continue
        d = next(decisions)
        if d.free and d.real:
            pick = est.reference_move(game)
            if pick != d.move:
                gains[d.colour] += d.judged(d.move) - d.judged(pick)
        game.push(Move.parse(str(step.move)))
    return gains


def skill(args: argparse.Namespace) -> None:
    """Recorded games analysed once each: for two levels, how often the first one's own moves
    did better than the second's; for equal levels, the mean of the difference (the first
    seat's minus the second's) against its standard error. One JSON line a game in ``--out``
    (resumable)."""
    est = estimator_of(args.engine, args.policy, args.against)
    out = Path(args.out)
    done = _done_games(out)
    lines = [json.loads(x) for x in Path(args.games).read_text().splitlines() if x.strip()]
    todo = [x for x in lines[args.skip : args.count] if x["game"] not in done]
    t0 = time.perf_counter()
    with out.open("a") as fh:
        for n, item in enumerate(todo, 1):
            record = GameRecord.from_json(item["record"])
            c0 = time.process_time()
            model = model_of(args, est, record)
            a = analyse(record, estimator=model, rollouts=args.rollouts, seed=args.seed)
            cpu = time.process_time() - c0
            ties = _tie_gains(a, est)
            fh.write(
                json.dumps(
                    {
                        "game": item["game"],
                        "pair": item["pair"],
                        "levels": item["levels"],
                        "turns": record.result.turns,
                        "cpu": round(cpu, 2),
                        "policy": est.policy,
                        "against": a.baseline,
                        "model": "bare" if args.bare else f"x{MODEL_TEMPER} and strengths",
                        "load": round(os.getloadavg()[0], 1),
                        "players": [
                            {
                                "colour": "RBYG"[p.colour],
                                "level": p.name,
                                "own": float(p.own_decisions),
                                "own_se": p.own_decisions_se,
                                "luck": float(p.luck),
                                "luck_se": p.luck_se,
                                "start": float(p.start),
                                "won": float(p.result),
                                "equity_lost": p.equity_lost,
                                "regret": _regret(a, p.colour),
                                "tie_gain": ties[p.colour],
                                "real": p.real_decisions,
                                "errors": sum(p.labels.values()),
                                "moved": sum(
                                    1
                                    for d in a.decisions
                                    if d.colour == p.colour and d.move != d.reference
                                ),
                            }
                            for p in a.players
                        ],
                    }
                )
                + "\n"
            )
            fh.flush()
            left = (time.perf_counter() - t0) / n * (len(todo) - n)
            print(
                f"\rgame {n}/{len(todo)}, {cpu:.1f} s CPU, load {os.getloadavg()[0]:.1f}, "
                f"{left:.0f} s left  ",
                end="",
                file=sys.stderr,
            )
    print(file=sys.stderr)
    skill_table(argparse.Namespace(files=[str(out)]))


def skill_table(args: argparse.Namespace) -> None:
    """The skill figures of ``skill`` files: for each measure of a player's play in one game
    (the account's own moves; the equity lost against the best move, in all and per real
    decision), how often the first level did better than the second (with a 95% interval),
    or, for equal levels, the mean of the first seat's minus the second's against its
    standard error. For two levels also how often the table *shows* the difference (own moves
    apart by more than the 95% interval of their difference), the first level's win rate and
    its mean start: in a two-player game where the second level's moves are the model's own,
    the first one's own moves are its result less its start and its luck, so over many games
    they average its win rate less its start."""
    items = []
    for name in args.files:
        items += [json.loads(x) for x in Path(name).read_text().splitlines() if x.strip()]
    if not items:
        print("no games")
        return
    first, second = items[0]["pair"].split("-")
    equal = first == second

    def el_rate(p: dict[str, Any]) -> float:
        return float(p["equity_lost"]) / max(1, int(p["real"]))

    measures: dict[str, list[float]] = {
        "own moves": [],
        "equity lost": [],
        "lost a decision": [],
        "regret": [],
        "regret a decision": [],
        "own moves, the ties' choices left out": [],
        "own moves and the ties' choices (first measure)": [],
    }
    shown = shown_wrong = 0
    wins = 0
    starts = []
    for it in items:
        if equal:  # the first seat's minus the second's
            a, b = it["players"][0], it["players"][1]
        else:
            by = {p["level"]: p for p in it["players"]}
            a, b = by[first], by[second]
        diff = a["own"] - b["own"]
        measures["own moves"].append(diff)
        if "equity_lost" in a:
            measures["equity lost"].append(b["equity_lost"] - a["equity_lost"])
            measures["lost a decision"].append(el_rate(b) - el_rate(a))
        if "tie_gain" in a:
            measures["own moves and the ties' choices (first measure)"].append(
                diff + a["tie_gain"] - b["tie_gain"]
            )
        if "own_ties" in a:  # rows of an account that counted them as the player's own
            measures["own moves, the ties' choices left out"].append(
                diff - a["own_ties"] + b["own_ties"]
            )
        if "regret" in a:
            measures["regret"].append(b["regret"] - a["regret"])
            measures["regret a decision"].append(
                b["regret"] / max(1, b["real"]) - a["regret"] / max(1, a["real"])
            )
        half = 1.959964 * (a["own_se"] ** 2 + b["own_se"] ** 2) ** 0.5
        shown += diff > half
        shown_wrong += diff < -half
        wins += a["won"] > 0.5
        starts.append(a.get("start", 0.5))
    n = len(items)
    cpu = sorted(it["cpu"] for it in items)
    loads = [it["load"] for it in items if "load" in it]
    load = f", load {min(loads):.0f}-{max(loads):.0f}" if loads else ""
    print(
        f"{items[0]['pair']}: {n} games, model {items[0]['policy']}, moves against "
        f"{items[0].get('against', items[0]['policy'])}; CPU an analysis median "
        f"{cpu[n // 2]:.1f} s{load}"
    )
    for label, diffs in measures.items():
        if not diffs:
            continue
        k = len(diffs)
        mean = sum(diffs) / k
        sd = (sum((d - mean) ** 2 for d in diffs) / max(1, k - 1)) ** 0.5
        se = sd / k**0.5
        better = sum(1 for d in diffs if d > 0)
        low, high = _wilson(better, k)
        unit = 1000 if label.endswith("a decision") else 100
        what = "points" if unit == 100 else "tenths of a point"
        who = "the first seat" if equal else first
        print(
            f"  {label} ({who} better by): mean {unit * mean:+.2f} {what}, sd {unit * sd:.2f}, "
            f"se {unit * se:.2f}; better in {better}/{k} ({100 * better / k:.1f}%, 95% interval "
            f"{100 * low:.0f}-{100 * high:.0f}%)"
        )
    if not equal:
        low, high = _wilson(wins, n)
        print(
            f"  own moves apart by more than their 95% interval: {first} better in {shown}/{n} "
            f"({100 * shown / n:.1f}%), worse in {shown_wrong}/{n}; {first} won {wins}/{n} "
            f"({100 * wins / n:.1f}%, 95% interval {100 * low:.0f}-{100 * high:.0f}%), mean start "
            f"{100 * sum(starts) / n:.1f}%"
        )
    _by_colour(items, first, equal)


def _by_colour(items: list[dict[str, Any]], first: str, equal: bool) -> None:
    """Each colour's own moves (for two levels: the first level's own moves minus the
    second's, by the first level's colour): a seat the analysis treats differently shows
    here. Mean, its standard error and the games."""
    by: dict[str, list[float]] = {}
    for it in items:
        players = it["players"]
        if equal:
            for p in players:
                by.setdefault(f"{p['colour']}'s own moves", []).append(p["own"])
            continue
        a = next(p for p in players if p["level"] == first)
        b = next(p for p in players if p is not a)
        by.setdefault(f"{first} as {a['colour']}, minus {b['level']}", []).append(
            a["own"] - b["own"]
        )
    parts = []
    for label, xs in sorted(by.items()):
        k = len(xs)
        mean = sum(xs) / k
        sd = (sum((x - mean) ** 2 for x in xs) / max(1, k - 1)) ** 0.5
        parts.append(f"{label} {100 * mean:+.2f} (se {100 * sd / k**0.5:.2f}, {k} games)")
    print("  by colour: " + "; ".join(parts))


def _game_lines(path: Path) -> list[dict[str, Any]]:
    """The games of a ``games`` file; a last line still being written (a run of ``games``
    appending to it) is left for the next time."""
    out = []
    for line in path.read_text().splitlines():
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                break
    return out


def _done_games(path: Path) -> set[int]:
    if not path.exists():
        return set()
    out = set()
    for line in path.read_text().splitlines():
        if line.strip():
            out.add(int(json.loads(line)["game"]))
    return out


def calibration(args: argparse.Namespace) -> None:
    est = estimator_of(args.engine, args.policy)
    rules = Rules(variant=args.variant)
    players = 4 if args.variant == "teams" else args.players
    out = Path(args.out)
    done = _done_games(out)
    rollouts = args.rollouts or (64 if est.engine == "compiled" else 8)

    def estimate(nodes: Any, seed: int) -> list[Any]:
        return [v.value for v in chance_values(est, nodes, rollouts, seed)]

    t0 = time.perf_counter()
    todo = [i for i in range(args.games) if i not in done]
    with out.open("a") as fh:
        for n, i in enumerate(todo, 1):
            rows = samples(estimate, rules, players, est.policy, [i], args.every, args.seed)
            fh.write(
                json.dumps(
                    {
                        "game": i,
                        "variant": args.variant,
                        "players": players,
                        "engine": est.engine,
                        "policy": est.policy,
                        "rollouts": rollouts,
                        "samples": [[r.turn, r.side, r.estimate, r.naive, r.won] for r in rows],
                    }
                )
                + "\n"
            )
            fh.flush()
            left = (time.perf_counter() - t0) / n * (len(todo) - n)
            print(f"\rgame {i + 1}/{args.games}, {left:.0f} s left  ", end="", file=sys.stderr)
    print(file=sys.stderr)
    table(argparse.Namespace(files=[str(out)]))


def table(args: argparse.Namespace) -> None:
    rows: list[tuple[float, float, int]] = []
    meta: dict[str, Any] = {}
    games = 0
    for name in args.files:
        for line in Path(name).read_text().splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            games += 1
            meta = {k: item[k] for k in ("variant", "players", "engine", "policy", "rollouts")}
            rows += [(float(s[2]), float(s[3]), int(s[4])) for s in item["samples"]]
    est = [(p, o) for p, _n, o in rows]
    naive = [(n, o) for _p, n, o in rows]
    print(
        f"{meta.get('variant')} {meta.get('players')} players, {games} games, {len(rows)} "
        f"predictions (sides x positions); estimator {meta.get('engine')}/{meta.get('policy')}, "
        f"{meta.get('rollouts')} rollouts per card"
    )
    print(
        "| predicted | n | mean predicted | observed | gap (points) | naive: n | "
        "naive: predicted | naive: observed |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for b, c in zip(reliability(est), reliability(naive), strict=True):
        gap = f"{b.gap * 100:+.1f}" if b.count else "-"
        print(
            f"| {b.low:.1f}-{b.high:.1f} | {b.count} | {b.predicted * 100:.1f} | "
            f"{b.observed * 100:.1f} | {gap} | {c.count} | {c.predicted * 100:.1f} | "
            f"{c.observed * 100:.1f} |"
        )
    worst = max((abs(b.gap) for b in reliability(est) if b.count), default=0.0)
    print(
        f"Brier score: estimator {brier(est):.4f}, naive progress estimate {brier(naive):.4f}, "
        f"always 1/n {brier([(1 / (meta.get('players') or 2), o) for _p, o in est]):.4f}; "
        f"largest decile gap {worst * 100:.1f} points"
    )


def bot_games(args: argparse.Namespace) -> None:
    """Play and record games between two bot levels (one JSON line per game, resumable):
    game ``i`` has seed ``derive_seed(seed, i)``, the first level in the first seat when
    ``i`` is even, in the second when odd."""
    from sorry.rng import derive_seed

    first, second = args.pair.split("-")
    rules = Rules(variant=args.variant)
    out = Path(args.out)
    done = _done_games(out)
    todo = [i for i in range(args.first, args.first + args.games) if i not in done]
    t0 = time.perf_counter()
    with out.open("a") as fh:
        for n, i in enumerate(todo, 1):
            levels = [first, second] if i % 2 == 0 else [second, first]
            seed = derive_seed(args.seed, i)
            g = play_game(rules, [make_bot(level) for level in levels], seed=seed)
            record = GameRecord.from_game(g, levels)
            fh.write(
                json.dumps(
                    {
                        "game": i,
                        "pair": args.pair,
                        "seed": seed,
                        "levels": levels,
                        "turns": g.turn,
                        "record": record.to_json(),
                    }
                )
                + "\n"
            )
            fh.flush()
            left = (time.perf_counter() - t0) / n * (len(todo) - n)
            print(f"\rgame {n}/{len(todo)}, {left:.0f} s left  ", end="", file=sys.stderr)
    print(file=sys.stderr)


def model_values(model: str, rollouts: int) -> Any:
    """A function (nodes, seed) -> values of chance nodes under ``model``: the analysis's
    own estimator (``chance_values``) with the rollouts of the easy bot or the medium bot."""
    est = estimator_of("compiled", "medium" if model == "medium" else "easybot")

    def value(nodes: Any, seed: int) -> list[Any]:
        return [v.value for v in chance_values(est, nodes, rollouts, seed)]

    return value


def calibrate(args: argparse.Namespace) -> None:
    """Chance nodes of recorded bot games (``games``) valued by a model, against who won."""
    from sorry.analysis.calibration import chance_nodes, side_progress
    from sorry.rng import Rng, derive_seed

    value = model_values(args.model, args.rollouts)
    out = Path(args.out)
    done = _done_games(out)
    lines = _game_lines(Path(args.games))
    lines = [x for x in lines if x["game"] not in done][: args.count]
    t0 = time.perf_counter()
    with out.open("a") as fh:
        for n, item in enumerate(lines, 1):
            record = GameRecord.from_json(item["record"])
            game = record.replay()
            rng = Rng(derive_seed(args.seed, item["game"]))
            chosen = [node for node in chance_nodes(game) if rng.below(args.every) == 0]
            rows = []
            if chosen:
                values = value(chosen, derive_seed(args.seed, 10**6 + item["game"]))
                levels = {s.colour: s.kind if s.kind != "bot" else s.level for s in record.seats}
                won = set(game.winners)
                for node, v in zip(chosen, values, strict=True):
                    for c in game.colours:
                        rows.append(
                            [
                                node.turn,
                                c,
                                levels.get(c),
                                float(v[c]),
                                int(c in won),
                                side_progress(node, (c,)),
                            ]
                        )
            fh.write(
                json.dumps(
                    {
                        "game": item["game"],
                        "pair": item["pair"],
                        "model": args.model,
                        "rollouts": args.rollouts,
                        "samples": rows,
                    }
                )
                + "\n"
            )
            fh.flush()
            left = (time.perf_counter() - t0) / n * (len(lines) - n)
            print(f"\rgame {n}/{len(lines)}, {left:.0f} s left  ", end="", file=sys.stderr)
    print(file=sys.stderr)


def _calibrate_items(files: list[str]) -> list[dict[str, Any]]:
    """The games of ``calibrate`` files (one JSON object a game)."""
    out = []
    for name in files:
        out += [json.loads(x) for x in Path(name).read_text().splitlines() if x.strip()]
    return out


def _predictions(
    item: dict[str, Any], power: float | None, scale: float = 1.0, temper: float = 1.0
) -> list[tuple[str, float, int]]:
    """(level, prediction, won) of every sampled side of one ``calibrate`` game; with
    ``power``, the prediction adjusted for the levels' strengths
    (:func:`sorry.analysis.calibration.with_strengths`, ``scale`` times
    :data:`~sorry.analysis.calibration.LEVEL_STRENGTH`; ``temper``: the log-odds multiplied
    by it too), the game left from the progress the samples carry (each colour a side: two-
    or more-player games, not teams)."""
    from sorry.analysis.calibration import LEVEL_STRENGTH, with_strengths

    rows = item["samples"]
    if power is None:
        return [(str(r[2]), float(r[3]), int(r[4])) for r in rows]
    out = []
    k = 0
    while k < len(rows):  # the rows of one node: consecutive, the same turn
        j = k
        while j < len(rows) and rows[j][0] == rows[k][0]:
            j += 1
        node = rows[k:j]
        colours = [int(r[1]) for r in node]
        shares = [0.0] * 4
        strengths = [0.0] * 4
        for r in node:
            shares[int(r[1])] = float(r[3])
            strengths[int(r[1])] = scale * LEVEL_STRENGTH.get(str(r[2]), 0.0)
        left = 1.0 - max(float(r[5]) for r in node) / 260
        adjusted = with_strengths(shares, left, strengths, [(c,) for c in colours], power, temper)
        out += [(str(r[2]), adjusted[int(r[1])], int(r[4])) for r in node]
        k = j
    return out


def strength_fit(args: argparse.Namespace) -> None:
    """The scale of the levels' strengths that fits ``calibrate`` files best (maximum
    likelihood, the model's log-odds kept as they are), for each power of the game left;
    then the slope, the Brier score and the largest decile gap with it."""
    import math

    from sorry.analysis.calibration import calibration_slope

    items = _calibrate_items(args.files)

    def loglik(power: float, scale: float) -> float:
        total = 0.0
        for it in items:
            for _l, p, o in _predictions(it, power, scale):
                q = min(1 - 1e-9, max(1e-9, p))
                total += math.log(q if o else 1 - q)
        return total

    for power in args.powers:
        lo, hi = 0.0, 3.0
        for _ in range(30):  # the log-likelihood is concave in the scale: ternary search
            a, b = lo + (hi - lo) / 3, hi - (hi - lo) / 3
            if loglik(power, a) < loglik(power, b):
                lo = a
            else:
                hi = b
        scale = (lo + hi) / 2
        pairs = [(p, o) for it in items for _l, p, o in _predictions(it, power, scale)]
        worst = max((abs(b.gap) for b in reliability(pairs) if b.count >= 30), default=0.0)
        print(
            f"power {power:g}: scale {scale:.3f}; slope {calibration_slope(pairs):.3f}, "
            f"Brier {brier(pairs):.4f}, largest decile gap {100 * worst:.1f} points"
        )


def model_table(args: argparse.Namespace) -> None:
    """The reliability table (pooled over both sides, and by the side's level) and the
    calibration slope of ``calibrate`` files."""
    from sorry.analysis.calibration import calibration_slope

    pairs: list[tuple[float, int]] = []
    by_level: dict[str, list[tuple[float, int]]] = {}
    by_game: list[list[tuple[float, int]]] = []
    games = 0
    meta: dict[str, Any] = {}
    for item in _calibrate_items(args.files):
        games += 1
        meta = {k: item[k] for k in ("pair", "model", "rollouts")}
        by_game.append([])
        power, scale = args.strength, args.scale
        if power is None and args.temper != 1.0:  # the log-odds alone: no strengths
            power, scale = 1.0, 0.0
        for level, p, won in _predictions(item, power, scale, args.temper):
            pairs.append((p, won))
            by_level.setdefault(str(level), []).append((p, won))
            by_game[-1].append((p, won))
    strength = (
        f", with the levels' strengths (power {args.strength:g}, scale {args.scale:g})"
        if args.strength is not None
        else ""
    )
    if args.temper != 1.0:
        strength += f", the log-odds times {args.temper:g}"
    print(
        f"{meta.get('pair')}: {games} games, {len(pairs)} predictions; model "
        f"{meta.get('model')}, {meta.get('rollouts')} rollouts per card{strength}"
    )
    intervals: dict[str, Any] = {}
    if args.bootstrap:  # 95% intervals, the games resampled (a game's nodes together)
        intervals = _bootstrap(by_game, args.bootstrap)
        low, high = intervals["slope"]
        print(
            f"slope {calibration_slope(pairs):.3f}, 95% interval {low:.2f}-{high:.2f} "
            f"({args.bootstrap} resamples of the games)"
        )
    groups = [("pooled", pairs)]
    if len(by_level) > 1:
        groups += sorted(by_level.items())
    for name, group in groups:
        bins = reliability(group)
        worst = max((abs(b.gap) for b in bins if b.count >= 30), default=0.0)
        print(
            f"{name}: n {len(group)}, Brier {brier(group):.4f}, slope "
            f"{calibration_slope(group):.3f}, largest decile gap {100 * worst:.1f} points"
        )
        if name == "pooled" or args.all:
            ci = intervals.get("gaps") if name == "pooled" else None
            extra = " gap 95% interval |" if ci else ""
            print(f"| predicted | n | mean predicted % | observed % | gap (points) |{extra}")
            print("|---|---:|---:|---:|---:|" + ("---|" if ci else ""))
            for k, b in enumerate(bins):
                gap = f"{b.gap * 100:+.1f}" if b.count else "-"
                more = f" {100 * ci[k][0]:+.1f} to {100 * ci[k][1]:+.1f} |" if ci else ""
                print(
                    f"| {b.low:.1f}-{b.high:.1f} | {b.count} | {b.predicted * 100:.1f} | "
                    f"{b.observed * 100:.1f} | {gap} |{more}"
                )


def _bootstrap(by_game: list[list[tuple[float, int]]], resamples: int) -> dict[str, Any]:
    """95% intervals of the calibration slope and of each decile's gap, the games resampled
    with replacement (a game's predictions together: they share its outcome), numpy."""
    import numpy as np

    p = np.array([x for g in by_game for x, _o in g], dtype=float)
    o = np.array([y for g in by_game for _x, y in g], dtype=float)
    game = np.repeat(np.arange(len(by_game)), [len(g) for g in by_game])
    q = np.clip(p, 0.005, 0.995)
    x = np.log(q / (1 - q))
    bin_of = np.minimum(9, np.maximum(0, (p * 10).astype(int)))
    rng = np.random.default_rng(29)
    slopes = []
    gaps = []
    for _r in range(resamples):
        w = np.bincount(rng.integers(0, len(by_game), len(by_game)), minlength=len(by_game))[
            game
        ].astype(float)
        a = b = 0.0
        b = 1.0
        for _step in range(50):  # weighted logistic regression of o on x, Newton's method
            m = 1 / (1 + np.exp(-(a + b * x)))
            r = w * (o - m)
            h = w * m * (1 - m)
            ga, gb = r.sum(), (r * x).sum()
            haa, hab, hbb = h.sum(), (h * x).sum(), (h * x * x).sum()
            det = haa * hbb - hab * hab
            if det <= 0:
                break
            da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
            a, b = a + da, b + db
            if abs(da) + abs(db) < 1e-10:
                break
        slopes.append(b)
        n = np.bincount(bin_of, weights=w, minlength=10)
        gap = (np.bincount(bin_of, weights=w * (o - p), minlength=10)) / np.maximum(n, 1e-9)
        gaps.append(gap)
    lo, hi = np.percentile(np.array(slopes), [2.5, 97.5])
    g_lo, g_hi = np.percentile(np.array(gaps), [2.5, 97.5], axis=0)
    return {
        "slope": (float(lo), float(hi)),
        "gaps": [(float(u), float(v)) for u, v in zip(g_lo, g_hi, strict=True)],
    }


def _logistic_fit(xs: list[list[float]], ys: list[int]) -> list[float]:
    """The coefficients of ``P(y = 1) = 1 / (1 + exp(-w . x))`` (no intercept unless a column
    of ones is given) by Newton's method."""
    import math

    k = len(xs[0])
    w = [0.0] * k
    for _step in range(60):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in zip(xs, ys, strict=True):
            z = sum(a * b for a, b in zip(w, x, strict=True))
            m = 1 / (1 + math.exp(-z)) if z > -700 else 0.0
            for i in range(k):
                grad[i] += (y - m) * x[i]
                for j in range(k):
                    hess[i][j] += m * (1 - m) * x[i] * x[j]
        # solve hess . step = grad (Gaussian elimination; k is 1 to 3)
        a = [[*row, g] for row, g in zip(hess, grad, strict=True)]
        for i in range(k):
            piv = max(range(i, k), key=lambda r: abs(a[r][i]))
            a[i], a[piv] = a[piv], a[i]
            if abs(a[i][i]) < 1e-12:
                return w
            for r in range(k):
                if r != i:
                    f = a[r][i] / a[i][i]
                    a[r] = [u - f * v for u, v in zip(a[r], a[i], strict=True)]
        step = [a[i][k] / a[i][i] for i in range(k)]
        w = [u + v for u, v in zip(w, step, strict=True)]
        if sum(abs(v) for v in step) < 1e-10:
            break
    return w


def _map_rows(
    cal_files: list[str], skill_files: list[str], feature: str
) -> list[tuple[str, float, float, int]]:
    """(pair, prediction, the side's strength minus the other's, won) for every sampled node of
    two-player ``calibrate`` files; the strength of a side, from the ``skill`` files of the
    same games (with them, only the games they have), is its own moves per real decision
    (``feature`` ``own``) or minus its regret per real decision (``regret``)."""
    strength: dict[tuple[str, int], dict[str, float]] = {}
    for name in skill_files:
        for line in Path(name).read_text().splitlines():
            if line.strip():
                it = json.loads(line)
                strength[(it["pair"], int(it["game"]))] = {
                    p["colour"]: (
                        float(p["own"]) if feature == "own" else -float(p.get("regret", 0.0))
                    )
                    / max(1, int(p["real"]))
                    for p in it["players"]
                }
    rows = []
    for name in cal_files:
        for line in Path(name).read_text().splitlines():
            if not line.strip():
                continue
            it = json.loads(line)
            st = strength.get((it["pair"], int(it["game"])))
            if skill_files and st is None:  # only the games with strengths
                continue
            for _turn, c, _level, p, won, *_rest in it["samples"]:
                d = 0.0
                if st is not None:
                    mine = st["RBYG"[c]]
                    d = mine - sum(v for k, v in st.items() if k != "RBYG"[c])
                rows.append((it["pair"], float(p), 100 * d, int(won)))
    return rows


def map_fit(args: argparse.Namespace) -> None:
    """A calibration map fitted on some games and tried on others: the prediction's log-odds
    scaled (``p' = 1 / (1 + exp(-b logit p))``, the same for every player: it keeps a game
    between equals at one half), and with ``--skill`` files also the sides' strengths in the
    game (``b logit p + c (strength - other's)``, the strength from the game's own moves:
    ``--feature``). Prints the fitted map and, for each pairing of
    the test files, the calibration slope, the Brier score and the largest decile gap before
    and after."""
    import math

    from sorry.analysis.calibration import calibration_slope

    def logit(p: float) -> float:
        q = min(0.995, max(0.005, p))
        return math.log(q / (1 - q))

    train = _map_rows(args.train, args.skill or [], args.feature)
    test = _map_rows(args.test, args.skill or [], args.feature)
    outcomes = [o for *_r, o in train]
    maps = {"log-odds scaled": _logistic_fit([[logit(p)] for _k, p, _d, _o in train], outcomes)}
    if args.skill:
        maps["scaled + strength"] = _logistic_fit(
            [[logit(p), d] for _k, p, d, _o in train], outcomes
        )
    pairs = sorted({k for k, *_r in train})
    print(f"fitted on {len(train)} predictions ({', '.join(pairs)}):")
    for name, w in maps.items():
        print(f"  {name}: " + ", ".join(f"{v:.3f}" for v in w))

    def squash(z: float) -> float:
        return 1 / (1 + math.exp(-z))

    def worst(group: list[tuple[float, int]]) -> float:
        return max((abs(b.gap) for b in reliability(group) if b.count >= 30), default=0.0)

    for pair in sorted({k for k, *_r in test}):
        rows = [r for r in test if r[0] == pair]
        variants = {"model": [(p, o) for _k, p, _d, o in rows]}
        variants["log-odds scaled"] = [
            (squash(maps["log-odds scaled"][0] * logit(p)), o) for _k, p, _d, o in rows
        ]
        if "scaled + strength" in maps:
            b, c = maps["scaled + strength"]
            variants["scaled + strength"] = [
                (squash(b * logit(p) + c * d), o) for _k, p, d, o in rows
            ]
        for name, group in variants.items():
            print(
                f"{pair} ({len(group)} predictions), {name}: slope "
                f"{calibration_slope(group):.3f}, Brier {brier(group):.4f}, largest decile gap "
                f"{100 * worst(group):.1f} points"
            )


def ready(args: argparse.Namespace) -> None:
    """How long after a game's end the browser's analysis is ready: ``sorry serve`` in a
    subprocess (SQLite in a temporary folder, bots with no delay; ``--server-src``: the
    server of another checkout's ``src``), a game of a person (Red: a WebSocket client on
    127.0.0.1 that thinks ``--think`` seconds, then plays a random legal move, as a seated
    page's player does) against a ``--level`` bot, created over HTTP; at its end the
    analysis is asked for at once, as the end screen does, with ``?wait=5`` (the page's
    ask: the server answers as soon as it is ready; a server that does not hold asks
    answers at once and is asked again every 0.2 s). ``--games`` games one after the
    other on one server: the first one's analysis includes the worker's loading of the
    compiled rollouts. ``--bots``: both seats bots (the game nobody plays: not analysed
    ahead)."""
    import random

    from websockets.sync.client import connect

    from sorry.web.protocol import apply_delta

    port = args.port
    rng = random.Random(args.seed)
    get, stop = serve(port, args.server_src)

    def play(gid: str, token: str | None) -> None:
        """Watch the game (and play Red's moves, with ``token``) until it is over."""
        hello: dict[str, Any] = {"type": "hello"}
        if token is not None:
            hello.update(seat="R", token=token)
        state: dict[str, Any] | None = None
        sent = -1
        with connect(f"ws://127.0.0.1:{port}/ws/{gid}", open_timeout=10, max_size=2**24) as ws:
            ws.send(json.dumps(hello))
            while True:
                msg = json.loads(ws.recv(timeout=600))
                if msg["type"] == "delta" and state is not None:
                    msg = apply_delta(state, msg)
                if msg["type"] != "state":
                    continue
                state = msg
                if state["status"] not in ("playing", "waiting"):
                    return
                view = state["view"]
                mine = token is not None and view["to_move"] == "R" and view["legal_moves"]
                if mine and state["seq"] > sent:
                    sent = state["seq"]
                    time.sleep(args.think)
                    move = rng.choice(view["legal_moves"])["move"]
                    ws.send(json.dumps({"type": "move", "seq": sent, "move": move}))

    try:
        print(
            f"server on 127.0.0.1:{port} ({args.server_src or 'this checkout'}); load "
            f"{os.getloadavg()[0]:.1f}",
            flush=True,
        )
        red = (
            {"colour": "R", "kind": "bot", "level": args.level}
            if args.bots
            else {"colour": "R", "kind": "invite"}
        )
        seats = [red, {"colour": "Y", "kind": "bot", "level": args.level}]
        for k in range(args.games):
            status, made = get("/api/games", {"variant": "standard", "seats": seats})
            if status != 201:
                raise SystemExit(f"bench_analysis: the game was not created ({status})")
            gid = made["id"]
            token = next((s["token"] for s in made["seats"] if "token" in s), None)
            began = time.perf_counter()
            play(gid, token)
            end = time.perf_counter()
            asks = 0
            while True:
                asked = time.perf_counter()
                status, _body = get(f"/api/games/{gid}/analysis?wait=5")
                asks += 1
                if status == 200:
                    break
                if status not in (202, 429) or time.perf_counter() - end > 1200:
                    raise SystemExit(f"bench_analysis: the analysis answered {status}")
                if time.perf_counter() - asked < 1.0:  # not held: ask again in a moment
                    time.sleep(0.2)
            took = time.perf_counter() - end
            polled = 1.5 * -(-took // 1.5)
            _s, summary = get(f"/api/games/{gid}")
            print(
                f"game {k + 1}: {summary['turn']} turns in {end - began:.0f} s, analysis ready "
                f"{took:.1f} s after the end ({asks} asks; a page polling every 1.5 s would "
                f"show it at {polled:.1f} s); load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
    finally:
        stop()


def serve(port: int, server_src: str | None, *extra: str) -> tuple[Any, Any]:
    """``sorry serve`` in a subprocess on 127.0.0.1 (SQLite in a temporary folder, bot games
    allowed, bots with no delay unless ``extra`` says, moves not held for show; ``server_src``:
    the server of another checkout's ``src``), once it answers: ``get(path, body=None)`` ->
    (HTTP status, JSON or None), and ``stop()``."""
    import subprocess
    import tempfile
    import urllib.error
    import urllib.request

    if server_src and not (Path(server_src) / "sorry" / "__init__.py").is_file():
        raise SystemExit(f"bench_analysis: --server-src {server_src}: not a checkout's src folder")
    base = f"http://127.0.0.1:{port}"
    folder = tempfile.mkdtemp(prefix="bench-serve-")
    cmd = [sys.executable, "-m", "sorry", "serve", "--port", str(port)]
    cmd += ["--database", f"sqlite:///{folder}/serve.db", "--allow-bot-games"]
    cmd += ["--show-moves", "0", "--games-per-minute", "10000"]
    if "--bot-delay" not in extra:
        cmd += ["--bot-delay", "0"]
    cmd += extra
    env = dict(os.environ)
    if server_src:
        env["PYTHONPATH"] = os.path.abspath(server_src)
    log = Path(folder) / "server.log"  # said when it answers 500
    with log.open("w") as fh:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=fh, env=env)

    def get(path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            base + path, data=data, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            if exc.code >= 500:
                print(f"the server answered {exc.code}; its log ends:", file=sys.stderr)
                print(log.read_text()[-3000:], file=sys.stderr)
            return exc.code, None

    def stop() -> None:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()

    deadline = time.monotonic() + 60
    while True:
        try:
            get("/api/meta")
            return get, stop
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                stop()
                raise SystemExit("bench_analysis: the server did not start") from None
            time.sleep(0.2)


def bot_wait(args: argparse.Namespace) -> None:
    """How long bots wait while a finished game is analysed on the same server: ``sorry serve
    --workers N`` (``--server-src``: another checkout's server), a game of two random bots
    played to its end (nobody plays it: not analysed ahead), then its analysis asked for as
    the end screen asks; meanwhile games of two ``--level`` bots are played one after another
    and watched over a WebSocket. Prints the gaps between their moves while the analysis
    runs (median, 95th percentile, longest), the same before it was asked for, and when it
    was ready."""
    import threading
    from statistics import median

    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from sorry.web.protocol import apply_delta

    port = args.port
    extra = ("--workers", str(args.workers), "--bot-delay", str(args.bot_delay))
    get, stop = serve(port, args.server_src, *extra)
    seats = [{"colour": c, "kind": "bot", "level": args.level} for c in "RY"]
    gaps: list[tuple[float, float]] = []  # (when it ended, the gap)
    done = threading.Event()

    def beside() -> None:
        with contextlib.suppress(ConnectionClosed):  # the server stopping at the end
            play_beside()

    def play_beside() -> None:
        while not done.is_set():
            status, made = get("/api/games", {"variant": "standard", "seats": seats})
            if status != 201:
                raise SystemExit(f"bench_analysis: the game was not created ({status})")
            url = f"ws://127.0.0.1:{port}/ws/{made['id']}"
            last = None
            state: dict[str, Any] | None = None
            with connect(url, open_timeout=10, max_size=2**24) as ws:
                ws.send(json.dumps({"type": "hello"}))
                while not done.is_set():
                    msg = json.loads(ws.recv(timeout=600))
                    if msg["type"] == "delta" and state is not None:
                        msg = apply_delta(state, msg)
                    if msg["type"] != "state":
                        continue
                    if state is not None and msg["seq"] != state["seq"]:  # a move
                        now = time.monotonic()
                        if last is not None:
                            gaps.append((now, now - last))
                        last = now
                    state = msg
                    if state["status"] not in ("playing", "waiting"):
                        break

    def figures(xs: list[float]) -> str:
        if not xs:
            return "no move"
        xs = sorted(xs)
        p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
        return (
            f"{len(xs)} moves, gap median {median(xs):.2f} s, 95th percentile {p95:.2f} s, "
            f"longest {xs[-1]:.2f} s"
        )

    try:
        status, made = get(
            "/api/games",
            {"variant": "standard", "seats": [dict(s, level="random") for s in seats]},
        )
        if status != 201:
            raise SystemExit(f"bench_analysis: the game was not created ({status})")
        gid = made["id"]
        watcher = threading.Thread(target=beside, daemon=True)
        watcher.start()
        while get(f"/api/games/{gid}")[1]["status"] == "playing":
            time.sleep(0.5)
        asked = time.monotonic()
        while True:
            status, _body = get(f"/api/games/{gid}/analysis?wait=5")
            if status == 200:
                break
            if status not in (202, 429) or time.monotonic() - asked > 1200:
                raise SystemExit(f"bench_analysis: the analysis answered {status}")
            time.sleep(0.2)
        ready = time.monotonic()
        done.set()
        turns = get(f"/api/games/{gid}")[1]["turn"]
        before = [g for t, g in gaps if t < asked]
        during = [g for t, g in gaps if asked <= t <= ready]
        print(
            f"{args.server_src or 'this checkout'}, {args.workers} worker(s), bot delay "
            f"{args.bot_delay} s: the analysis of {turns} turns ready {ready - asked:.1f} s "
            f"after it was asked for; the {args.level} bots beside it: before, "
            f"{figures(before)}; during, {figures(during)}; load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    finally:
        done.set()
        stop()


def tui_ready(args: argparse.Namespace) -> None:
    """How long after a game's end the terminal game's analysis is ready: a person (Red:
    thinks ``--think`` seconds, then plays a random legal move) against a ``--level`` bot
    (no delay), each move given to :class:`sorry.tui.ahead.AheadAnalysis` as the game screen
    does; at the end what it valued is taken and the rest valued as the game-over panel does
    (:func:`sorry.analysis.pieces.finish`). The same game analysed in one go after its end (the
    terminal game before it analysed ahead) is timed in the same run."""
    import random

    from sorry import Game, Rules
    from sorry.analysis import analyse, pieces
    from sorry.analysis.account import checked
    from sorry.analysis.calibration import game_model
    from sorry.analysis.estimator import default_estimator
    from sorry.bots import make_bot
    from sorry.record import GameRecord
    from sorry.rng import Rng
    from sorry.tui.ahead import AheadAnalysis

    rng = random.Random(args.seed)
    seats = ["human", f"bot:{args.level}"]
    bot = make_bot(args.level)
    bot_rng = Rng(args.seed)
    print("game  turns  valued ahead  ready after the end  in one go  one go / ready")
    for n in range(args.games):
        game = Game(Rules(), 2, seed=args.first + n)
        ahead = AheadAnalysis()
        try:
            while not game.is_over():
                if game.is_chance():
                    game.draw()
                    continue
                if game.to_move == 0:
                    time.sleep(args.think)
                    move = rng.choice(game.legal_moves)
                else:
                    move = bot.choose(game.view(game.to_move), bot_rng)
                game.push(move)
                ahead.played(game, seats)
            t0 = time.perf_counter()
            start, valued = ahead.take(game)
            record = checked(GameRecord.from_game(game, seats))
            est = game_model(record, default_estimator())
            a = pieces.finish(record, est, None, start, valued)
            ready = time.perf_counter() - t0
            t1 = time.perf_counter()
            whole = analyse(record, estimator=est)
            one_go = time.perf_counter() - t1
        finally:
            ahead.close()
        assert a is not None and a.decisions == whole.decisions
        total = len(whole.decisions)
        print(
            f"{args.first + n:4d}  {game.turn:5d}  {len(valued):5d} of {total:<4d}"
            f"  {ready:17.2f} s  {one_go:7.2f} s  {one_go / max(ready, 1e-9):9.1f}x",
            flush=True,
        )


def _luck_rollout(node: Any, colour: int, seed: int, control: bool) -> tuple[float, float, int]:
    """One rollout of the medium bot from ``node`` to the end: ``colour``'s result (1 or 0),
    and, with ``control``, the sum over its draws of ``h(the card drawn) - E[h]`` (``h``: the
    learned network's value for ``colour`` after the medium bot's move with a card; the
    expectation over every card that could come, exactly), which has expectation 0 whatever
    ``h``: a control variate. The draws follow one uniform number each (seeded), so two
    rollouts of one seed from two nodes see the same cards while their piles agree."""
    import random

    from sorry.learned import evaluator
    from sorry.rng import Rng

    bot = make_bot("medium")
    g = node.copy(stack=False)
    uniform = random.Random(seed)
    cv = 0.0
    steps = 0

    def move(child: Any) -> None:
        child.push(bot.choose(child.view(child.to_move), Rng(seed * 31 + steps)))

    while not g.is_over():
        fractions = g.chance_fractions()
        x, acc, card = uniform.random(), 0.0, fractions[-1][0]
        for c, p in fractions:
            acc += float(p)
            if x < acc:
                card = c
                break
        if control:
            ev = evaluator(g.view(colour))
            kids = []
            for c, p in fractions:
                child = g.copy(stack=False)
                child.draw(c)
                move(child)
                kids.append((c, float(p), child))
            live = [(c, k) for c, _p, k in kids if not k.is_over()]
            h = {c: float(k.winner == colour) for c, _p, k in kids if k.is_over()}
            if live:
                rows = ev.seat_values(
                    [k.state for _c, k in live],
                    [k.to_move for _c, k in live],
                    colour,
                    drawn=[c for c, _k in live],
                )
                for (c, _k), row in zip(live, rows, strict=True):
                    h[c] = ev.value_for(row, colour, colour)
            cv += h[card] - sum(p * h[c] for c, p, _k in kids)
        g.draw(card)
        move(g)
        steps += 1
    return float(g.winner == colour), cv, steps


def luck_control(args: argparse.Namespace) -> None:
    """A decision's term (the move played against the medium bot's, rollouts of the medium
    bot from both, paired by seed) with and without the luck control variate
    (:func:`_luck_rollout`): the variance of one pair's difference each way, their ratio (how
    many times fewer rollouts the control would need), and the CPU of each kind of rollout.
    The first ``--positions`` decisions after turn 20 of each game where the move played is
    not the medium bot's."""
    from sorry.analysis.estimator import default_estimator
    from sorry.cards import parse_card
    from sorry.moves import Move

    est = default_estimator()

    def variance(xs: list[float]) -> float:
        m = sum(xs) / len(xs)
        return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)

    for name, record in _records(args.games, args.count, 0)[args.skip :]:
        game = record.start()
        found = 0
        for step in record.steps:
            if step.is_draw:
                game.draw(parse_card(step.draw or ""))
                continue
            chosen = Move.parse(step.move or "")
            reference = est.reference_move(game)
            if found < args.positions and game.turn > 20 and chosen != reference:
                found += 1
                colour = game.to_move
                a, b = game.copy(stack=False), game.copy(stack=False)
                a.push(chosen)
                b.push(reference)
                plain: list[float] = []
                adjusted: list[float] = []
                cpu = {True: 0.0, False: 0.0}
                moves = {True: 0, False: 0}
                for k in range(args.pairs):
                    for control in (False, True):
                        c0 = time.process_time()
                        wa, ca, na = _luck_rollout(a, colour, 1000 + k, control)
                        wb, cb, nb = _luck_rollout(b, colour, 1000 + k, control)
                        cpu[control] += time.process_time() - c0
                        moves[control] += na + nb
                        if control:
                            adjusted.append((wa - ca) - (wb - cb))
                        else:
                            plain.append(wa - wb)
                vp, va = variance(plain), variance(adjusted)
                print(
                    f"{name}, turn {game.turn + 1}: term {sum(plain) / len(plain) * 100:+.1f} "
                    f"(with the control {sum(adjusted) / len(adjusted) * 100:+.1f}) points; "
                    f"variance of a pair {vp:.3f}, with the control {va:.3f}: "
                    f"{vp / max(va, 1e-12):.1f} times less; "
                    f"CPU a move {cpu[False] / moves[False] * 1e6:.0f} µs, "
                    f"with the control {cpu[True] / moves[True] * 1e6:.0f} µs "
                    f"({cpu[True] / moves[True] / (cpu[False] / moves[False]):.0f} times)",
                    flush=True,
                )
            game.push(chosen)
            if found >= args.positions:
                break


def add_against(parser: argparse.ArgumentParser) -> None:
    """``--against LEVEL``: the bot whose moves the decisions are judged against."""
    parser.add_argument(
        "--against",
        metavar="LEVEL",
        help="the bot whose moves the decisions are judged against (sorry analyse --against)",
    )


FACTORS = "the account's rollout factors ACCOUNT/TIE to run, comma-separated (e.g. 16/6,32/12)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("speed")
    add_against(s)
    s.add_argument(
        "--policy",
        choices=("easybot", "medium"),
        default="medium",
        help="the rollouts' policy (compiled)",
    )
    s.add_argument("--engine", choices=("compiled", "python", "both"), default="compiled")
    s.add_argument("--rollouts", type=int)
    s.add_argument("--bare", action="store_true", help="the rollouts' values alone")
    s.add_argument("--turns", type=int, default=180)
    s.add_argument("--repeat", type=int, default=1)
    s.add_argument("--record", help="a record file to time instead (e.g. a four-player game)")
    s.add_argument("--factors", type=parse_factors, default=parse_factors(None), help=FACTORS)
    s.set_defaults(func=speed)
    c = sub.add_parser("calibration")
    c.add_argument(
        "--policy",
        choices=("easybot", "medium"),
        default="easybot",
        help="the rollouts' policy (compiled)",
    )
    c.add_argument("--out", required=True)
    c.add_argument("--games", type=int, default=2000)
    c.add_argument("--variant", choices=("standard", "teams", "points"), default="standard")
    c.add_argument("--players", type=int, default=2)
    c.add_argument("--every", type=int, default=36)
    c.add_argument("--engine", choices=("compiled", "python"), default="compiled")
    c.add_argument("--rollouts", type=int)
    c.add_argument("--seed", type=int, default=1)
    c.set_defaults(func=calibration)
    n = sub.add_parser("noise")
    add_against(n)
    n.add_argument(
        "--policy",
        choices=("easybot", "medium"),
        default="medium",
        help="the rollouts' policy (compiled)",
    )
    n.add_argument("--engine", choices=("compiled", "python"), default="compiled")
    n.add_argument("--turns", type=int, default=180)
    n.add_argument("--seeds", type=int, default=4)
    n.add_argument("--games", help="a file of recorded games (games); else the speed game")
    n.add_argument("--count", type=int, default=1)
    n.add_argument("--rollouts", type=int)
    n.add_argument("--bare", action="store_true", help="the rollouts' values alone")
    n.add_argument("--out", help="append one JSON line a game")
    n.add_argument("--factors", type=parse_factors, default=parse_factors(None), help=FACTORS)
    n.set_defaults(func=noise)
    k = sub.add_parser("skill")
    add_against(k)
    k.add_argument(
        "--policy",
        choices=("easybot", "medium"),
        default="medium",
        help="the rollouts' policy (compiled)",
    )
    k.add_argument("--games", required=True, help="a file of recorded games (games)")
    k.add_argument("--out", required=True)
    k.add_argument("--count", type=int, default=200)
    k.add_argument("--skip", type=int, default=0, help="start at this game of the file")
    k.add_argument("--engine", choices=("compiled", "python"), default="compiled")
    k.add_argument("--rollouts", type=int)
    k.add_argument("--bare", action="store_true", help="the rollouts' values alone")
    k.add_argument("--seed", type=int, default=0)
    k.set_defaults(func=skill)
    kt = sub.add_parser("skill-table")
    kt.add_argument("files", nargs="+")
    kt.set_defaults(func=skill_table)
    b = sub.add_parser("games")
    b.add_argument("--pair", required=True, help="two levels, e.g. hard-hard or expert-medium")
    b.add_argument("--out", required=True)
    b.add_argument("--games", type=int, default=2000)
    b.add_argument("--first", type=int, default=0)
    b.add_argument("--seed", type=int, default=2929)
    b.add_argument("--variant", choices=("standard", "teams", "points"), default="standard")
    b.set_defaults(func=bot_games)
    m = sub.add_parser("calibrate")
    m.add_argument("--games", required=True, help="a file of recorded games (games)")
    m.add_argument("--model", choices=("easy", "medium"), default="medium")
    m.add_argument("--out", required=True)
    m.add_argument("--rollouts", type=int, default=64)
    m.add_argument("--every", type=int, default=36)
    m.add_argument("--count", type=int, default=1_000_000)
    m.add_argument("--seed", type=int, default=29)
    m.set_defaults(func=calibrate)
    mt = sub.add_parser("model-table")
    mt.add_argument("files", nargs="+")
    mt.add_argument("--all", action="store_true", help="a table for each level too")
    mt.add_argument("--bootstrap", type=int, default=0, help="resamples for the slope's interval")
    mt.add_argument(
        "--strength",
        type=float,
        metavar="POWER",
        help="adjust for the levels' strengths, times the game left to this power",
    )
    mt.add_argument("--scale", type=float, default=1.0, help="times the levels' strengths")
    mt.add_argument("--temper", type=float, default=1.0, help="times the model's log-odds")
    sf = sub.add_parser("strength-fit")
    sf.add_argument("files", nargs="+")
    sf.add_argument("--powers", type=float, nargs="+", default=[0.5, 1.0, 1.5, 2.0])
    sf.set_defaults(func=strength_fit)
    mt.set_defaults(func=model_table)
    mf = sub.add_parser("map-fit")
    mf.add_argument("--train", nargs="+", required=True, help="calibrate files to fit on")
    mf.add_argument("--test", nargs="+", required=True, help="calibrate files to try it on")
    mf.add_argument("--skill", nargs="*", help="skill files of the same games (strengths)")
    mf.add_argument("--feature", choices=("own", "regret"), default="own")
    mf.set_defaults(func=map_fit)
    r = sub.add_parser("ready")
    r.add_argument("--games", type=int, default=3)
    r.add_argument("--level", default="medium")
    r.add_argument("--port", type=int, default=18329)
    r.add_argument("--think", type=float, default=1.0, help="the person's seconds a move")
    r.add_argument("--seed", type=int, default=1, help="the person's moves")
    r.add_argument("--bots", action="store_true", help="two bots, nobody playing")
    r.add_argument("--server-src", help="another checkout's src folder to run the server of")
    r.set_defaults(func=ready)
    bw = sub.add_parser("bot-wait")
    bw.add_argument("--workers", type=int, default=1)
    bw.add_argument("--level", default="medium", help="the bots of the games beside")
    bw.add_argument("--bot-delay", type=float, default=0.05)
    bw.add_argument("--port", type=int, default=18330)
    bw.add_argument("--server-src", help="another checkout's src folder to run the server of")
    bw.set_defaults(func=bot_wait)
    tr = sub.add_parser("tui-ready")
    tr.add_argument("--games", type=int, default=3)
    tr.add_argument("--first", type=int, default=1, help="the first game's seed")
    tr.add_argument("--level", default="medium")
    tr.add_argument("--think", type=float, default=1.0, help="the person's seconds a move")
    tr.add_argument("--seed", type=int, default=1, help="the person's moves")
    tr.set_defaults(func=tui_ready)
    t = sub.add_parser("table")
    t.add_argument("files", nargs="+")
    t.set_defaults(func=table)
    lc = sub.add_parser("luck-control")
    lc.add_argument("--games", required=True, help="a file of recorded games (games)")
    lc.add_argument("--count", type=int, default=1)
    lc.add_argument("--skip", type=int, default=0, help="start at this game of the file")
    lc.add_argument("--positions", type=int, default=3, help="decisions a game")
    lc.add_argument("--pairs", type=int, default=40, help="pairs of rollouts a decision")
    lc.set_defaults(func=luck_control)
    args = ap.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
