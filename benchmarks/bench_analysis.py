"""The after-game analysis: how long a game takes to analyse, and whether the estimator is
calibrated (docs/analysis.md, docs/benchmarks.md).

    .venv/bin/python benchmarks/bench_analysis.py speed [--engine compiled|python|both]
        [--rollouts N] [--turns 180] [--repeat R]
    .venv/bin/python benchmarks/bench_analysis.py calibration --out FILE.jsonl
        [--games 2000] [--variant standard] [--players 2] [--every 36]
        [--engine compiled|python] [--rollouts N] [--seed S]
    .venv/bin/python benchmarks/bench_analysis.py table FILE.jsonl [FILE.jsonl ...]
    .venv/bin/python benchmarks/bench_analysis.py noise [--turns 180] [--seeds 4]
        [--games FILE.jsonl --count N] [--out FILE.jsonl]
    .venv/bin/python benchmarks/bench_analysis.py games --pair hard-easy --out FILE.jsonl
        [--games 200] [--first 0]
    .venv/bin/python benchmarks/bench_analysis.py skill --games FILE.jsonl --out FILE.jsonl
        [--count 200]
    .venv/bin/python benchmarks/bench_analysis.py skill-table FILE.jsonl [FILE.jsonl ...]
    .venv/bin/python benchmarks/bench_analysis.py calibrate --games FILE.jsonl --model easy
        --out FILE.jsonl
    .venv/bin/python benchmarks/bench_analysis.py model-table FILE.jsonl [FILE.jsonl ...]

``speed`` finds the first two-player standard game of medium bots (seeds 1, 2, ...) whose
length is within 5 turns of ``--turns`` and times ``sorry.analysis.analyse`` on it (the best
of ``--repeat`` runs, CPU seconds of this process and wall seconds; loading the compiled
rollouts is timed apart); ``--engine both`` times both engines with the same rollouts and
gives the ratio.

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
model (``easy``: the analysis's estimator; ``medium``: rollouts by the compiled medium bot) and
``model-table`` prints the reliability table and the calibration slope.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from sorry import Rules
from sorry.analysis import analyse
from sorry.analysis.account import chance_values
from sorry.analysis.calibration import brier, reliability, samples
from sorry.analysis.estimator import (
    CompiledEstimator,
    Estimator,
    PlayoutEstimator,
    compiled_available,
)
from sorry.bots import make_bot, play_game
from sorry.record import GameRecord


def estimator_of(engine: str) -> Estimator:
    if engine == "python":
        return PlayoutEstimator()
    if not compiled_available():
        sys.exit("bench_analysis: the compiled estimator needs the fast extra (sorry.fast)")
    return CompiledEstimator()


def game_of_length(turns: int) -> tuple[int, GameRecord]:
    for seed in range(1, 10_000):
        g = play_game(Rules(), [make_bot("medium"), make_bot("medium")], seed=seed)
        if abs(g.turn - turns) <= 5:
            return seed, GameRecord.from_game(g, ["medium", "medium"])
    raise SystemExit("no game of that length")


def speed(args: argparse.Namespace) -> None:
    seed, record = game_of_length(args.turns)
    print(
        f"game seed {seed} (medium bots): {record.result.turns} turns, {len(record.steps)} steps; "
        f"load before {os.getloadavg()[0]:.1f}"
    )
    engines = ["compiled", "python"] if args.engine == "both" else [args.engine]
    cpus: dict[str, float] = {}
    for name in engines:
        t0 = time.perf_counter()
        est = estimator_of(name)
        est.values([record.start()], 1, 0)  # compile or load the rollouts before the clock
        load = time.perf_counter() - t0
        best, cpu = float("inf"), 0.0
        for _ in range(args.repeat):
            c0, w0 = time.process_time(), time.perf_counter()
            analyse(record, estimator=est, rollouts=args.rollouts)
            wall = time.perf_counter() - w0
            if wall < best:
                best, cpu = wall, time.process_time() - c0
        cpus[name] = cpu
        print(
            f"engine {est.engine}, policy {est.policy}, rollouts per card "
            f"{args.rollouts or 'default'}: {cpu:.2f} s CPU, {best:.2f} s wall (best of "
            f"{args.repeat}; loaded in {load:.1f} s); load {os.getloadavg()[0]:.1f}"
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
    est = estimator_of(args.engine)
    for name, record in _records(args.games, args.count, args.turns):
        rows: dict[str, list[tuple[float, ...]]] = {}
        cpu = 0.0
        for k in range(args.seeds):
            c0 = time.process_time()
            a = analyse(record, estimator=est, rollouts=args.rollouts, seed=k)
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
            f"{name}: {record.result.turns} turns; engine {est.engine}, policy {est.policy}; "
            f"{cpu / args.seeds:.1f} s CPU an analysis; load {os.getloadavg()[0]:.1f}"
        )
        out: dict[str, Any] = {"game": name, "turns": record.result.turns, "players": {}}
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
    return mid - half, mid + half


def skill(args: argparse.Namespace) -> None:
    """Recorded games analysed once each: for two levels, how often the first one's own moves
    did better than the second's; for equal levels, the mean of the difference (the first
    seat's minus the second's) against its standard error. One JSON line a game in ``--out``
    (resumable)."""
    est = estimator_of(args.engine)
    out = Path(args.out)
    done = _done_games(out)
    lines = [json.loads(x) for x in Path(args.games).read_text().splitlines() if x.strip()]
    todo = [x for x in lines[: args.count] if x["game"] not in done]
    t0 = time.perf_counter()
    with out.open("a") as fh:
        for n, item in enumerate(todo, 1):
            record = GameRecord.from_json(item["record"])
            c0 = time.process_time()
            a = analyse(record, estimator=est, rollouts=args.rollouts, seed=args.seed)
            cpu = time.process_time() - c0
            fh.write(
                json.dumps(
                    {
                        "game": item["game"],
                        "pair": item["pair"],
                        "levels": item["levels"],
                        "turns": record.result.turns,
                        "cpu": round(cpu, 2),
                        "policy": est.policy,
                        "players": [
                            {
                                "colour": "RBYG"[p.colour],
                                "level": p.name,
                                "own": float(p.own_decisions),
                                "own_se": p.own_decisions_se,
                                "luck": float(p.luck),
                                "luck_se": p.luck_se,
                                "won": float(p.result),
                            }
                            for p in a.players
                        ],
                    }
                )
                + "\n"
            )
            fh.flush()
            left = (time.perf_counter() - t0) / n * (len(todo) - n)
            print(f"\rgame {n}/{len(todo)}, {left:.0f} s left  ", end="", file=sys.stderr)
    print(file=sys.stderr)
    skill_table(argparse.Namespace(files=[str(out)]))


def skill_table(args: argparse.Namespace) -> None:
    """The skill figures of ``skill`` files."""
    items = []
    for name in args.files:
        items += [json.loads(x) for x in Path(name).read_text().splitlines() if x.strip()]
    if not items:
        print("no games")
        return
    first, second = items[0]["pair"].split("-")
    diffs = []
    for it in items:
        by = {p["level"]: p for p in it["players"]}
        if first != second:
            diffs.append(by[first]["own"] - by[second]["own"])
        else:  # the first seat's minus the second's
            p, q = it["players"][0], it["players"][1]
            diffs.append(p["own"] - q["own"])
    n = len(diffs)
    mean = sum(diffs) / n
    sd = (sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)) ** 0.5
    se = sd / n**0.5
    better = sum(1 for d in diffs if d > 0)
    low, high = _wilson(better, n)
    cpu = sorted(it["cpu"] for it in items)
    print(
        f"{items[0]['pair']}: {n} games, model {items[0]['policy']}; {first} own moves minus "
        f"{second if first != second else 'the other seat'}'s: mean {100 * mean:+.2f} points, "
        f"sd {100 * sd:.2f}, se {100 * se:.2f}; better in {better}/{n} "
        f"({100 * better / n:.1f}%, 95% interval {100 * low:.0f}-{100 * high:.0f}%); "
        f"CPU an analysis median {cpu[n // 2]:.1f} s"
    )


def _done_games(path: Path) -> set[int]:
    if not path.exists():
        return set()
    out = set()
    for line in path.read_text().splitlines():
        if line.strip():
            out.add(int(json.loads(line)["game"]))
    return out


def calibration(args: argparse.Namespace) -> None:
    est = estimator_of(args.engine)
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


def _chance_value_medium(node: Any, rollouts: int, seed: int) -> list[float]:
    """V of a chance node of a two-player standard game with the compiled medium bot as the
    model: each card that can come, the medium bot's move with it, then ``rollouts`` games
    played out by the medium bot for every seat (:class:`sorry.fast.search.ViewRoot`)."""
    from sorry.fast.search import ViewRoot
    from sorry.rng import Rng, derive_seed

    bot = make_bot("medium")
    out = [0.0, 0.0, 0.0, 0.0]
    if node.is_over():
        for c in node.winners:
            out[c] = 1.0
        return out
    for card, p in node.chance_fractions():
        d = node.copy(stack=False)
        d.draw(card)
        view = d.view(d.to_move)
        ref = bot.choose(view, Rng(derive_seed(d.turn, 0x5EF)))
        idx = view.legal_moves.index(ref)
        worlds = [derive_seed(seed, 0xCA4D + card) ^ k for k in range(1, rollouts + 1)]
        win = float(ViewRoot(view).scores([idx], worlds, 100_000).mean())
        mover = d.to_move
        for c in d.colours:
            out[c] += float(p) * (win if c == mover else 1.0 - win)
    return out


def model_values(model: str, rollouts: int) -> Any:
    """A function (nodes, seed) -> values of chance nodes under ``model``."""
    if model == "medium":

        def medium(nodes: Any, seed: int) -> list[Any]:
            return [_chance_value_medium(n, rollouts, seed) for n in nodes]

        return medium
    est = estimator_of("compiled")

    def easy(nodes: Any, seed: int) -> list[Any]:
        return [v.value for v in chance_values(est, nodes, rollouts, seed)]

    return easy


def calibrate(args: argparse.Namespace) -> None:
    """Chance nodes of recorded bot games (``games``) valued by a model, against who won."""
    from sorry.analysis.calibration import chance_nodes
    from sorry.rng import Rng, derive_seed

    value = model_values(args.model, args.rollouts)
    out = Path(args.out)
    done = _done_games(out)
    lines = [json.loads(x) for x in Path(args.games).read_text().splitlines() if x.strip()]
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
                        rows.append([node.turn, c, levels.get(c), float(v[c]), int(c in won)])
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


def model_table(args: argparse.Namespace) -> None:
    """The reliability table (pooled over both sides, and by the side's level) and the
    calibration slope of ``calibrate`` files."""
    from sorry.analysis.calibration import calibration_slope

    pairs: list[tuple[float, int]] = []
    by_level: dict[str, list[tuple[float, int]]] = {}
    games = 0
    meta: dict[str, Any] = {}
    for name in args.files:
        for line in Path(name).read_text().splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            games += 1
            meta = {k: item[k] for k in ("pair", "model", "rollouts")}
            for _turn, _c, level, p, won in item["samples"]:
                pairs.append((p, won))
                by_level.setdefault(str(level), []).append((p, won))
    print(
        f"{meta.get('pair')}: {games} games, {len(pairs)} predictions; model "
        f"{meta.get('model')}, {meta.get('rollouts')} rollouts per card"
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
            print("| predicted | n | mean predicted % | observed % | gap (points) |")
            print("|---|---:|---:|---:|---:|")
            for b in bins:
                gap = f"{b.gap * 100:+.1f}" if b.count else "-"
                print(
                    f"| {b.low:.1f}-{b.high:.1f} | {b.count} | {b.predicted * 100:.1f} | "
                    f"{b.observed * 100:.1f} | {gap} |"
                )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--engine", choices=("compiled", "python", "both"), default="compiled")
    s.add_argument("--rollouts", type=int)
    s.add_argument("--turns", type=int, default=180)
    s.add_argument("--repeat", type=int, default=1)
    s.set_defaults(func=speed)
    c = sub.add_parser("calibration")
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
    n.add_argument("--engine", choices=("compiled", "python"), default="compiled")
    n.add_argument("--turns", type=int, default=180)
    n.add_argument("--seeds", type=int, default=4)
    n.add_argument("--games", help="a file of recorded games (games); else the speed game")
    n.add_argument("--count", type=int, default=1)
    n.add_argument("--rollouts", type=int)
    n.add_argument("--out", help="append one JSON line a game")
    n.set_defaults(func=noise)
    k = sub.add_parser("skill")
    k.add_argument("--games", required=True, help="a file of recorded games (games)")
    k.add_argument("--out", required=True)
    k.add_argument("--count", type=int, default=200)
    k.add_argument("--engine", choices=("compiled", "python"), default="compiled")
    k.add_argument("--rollouts", type=int)
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
    mt.set_defaults(func=model_table)
    t = sub.add_parser("table")
    t.add_argument("files", nargs="+")
    t.set_defaults(func=table)
    args = ap.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
