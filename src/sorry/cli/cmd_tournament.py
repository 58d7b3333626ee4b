"""``sorry tournament``: bots rotated through the seats on paired deals."""

from __future__ import annotations

import argparse
import sys

from ..i18n import _
from ..sim.runner import BACKENDS, ENGINES
from . import (
    CliError,
    add_rules_arguments,
    check_backend,
    check_output,
    prepare_rollouts,
    process_age,
    rules_from_args,
    uses_expert,
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "tournament",
        help=_("rank bots: seats rotated, paired deals, win rates and ratings"),
        description=_(
            "The bots (2-4, one per seat) play paired deals: each shuffled deck is replayed "
            "once per rotation of the bots through the seats, so every bot plays every seat "
            "with every deal. Prints win rates with {level} confidence intervals, Elo-style "
            "ratings (Plackett-Luce, bootstrap {level} intervals), mean game length and, in the "
            "points variant, mean points."
        ).format(level="95%"),  # a placeholder: a bare "%" reads as a format directive
    )
    p.add_argument(
        "--bots",
        required=True,
        help=_(
            "comma-separated entrants, e.g. expert,medium,random,random "
            "(parameters as expert:simulations=100)"
        ),
    )
    p.add_argument("--games", "-n", type=int, default=1000, help=_("games (rounded up to deals)"))
    p.add_argument("--seed", type=int, default=0, help=_("master seed (0)"))
    p.add_argument("--jobs", "-j", type=int, default=1, help=_("worker processes (1)"))
    p.add_argument("--backend", choices=BACKENDS, default="process", help=_("process or ray"))
    p.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help=_(
            "auto (default: the fastest that plays these bots), fast (the compiled engine, "
            "extra 'fast': random, easy or medium bots; --jobs is its thread count), playout "
            "(random bots) or python (any bots); all play the same games"
        ),
    )
    p.add_argument("--address", help=_("Ray cluster address (with --backend ray)"))
    p.add_argument("--out", metavar="PREFIX", help=_("write PREFIX.json and PREFIX.csv"))
    p.add_argument("--plot", metavar="FILE.png", help=_("draw win rates and game lengths"))
    p.add_argument("--timings", action="store_true", help=_("measure each bot's decision time"))
    p.add_argument("--no-progress", action="store_true", help=_("no progress bar"))
    add_rules_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..sim import plot, tournament, tournament_text, write_csv, write_json

    rules = rules_from_args(args)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not 2 <= len(bots) <= 4:
        raise CliError(_("a tournament needs 2, 3 or 4 bots (one per seat)"))
    if args.games < 1:
        raise CliError(_("--games must be at least 1"))
    if args.jobs < 1:
        raise CliError(_("--jobs must be at least 1"))
    if args.out:
        check_output(args.out + ".json")
        check_output(args.out + ".csv")
    check_output(args.plot, png=True)
    check_backend(args.backend, args.address)
    if uses_expert(bots):
        prepare_rollouts("expert")
    res = tournament(
        bots,
        args.games,
        rules=rules,
        seed=args.seed,
        jobs=args.jobs,
        backend=args.backend,
        address=args.address,
        progress=not args.no_progress and sys.stderr.isatty(),
        timings=args.timings,
        engine=args.engine,
    )
    res["total_seconds"] = process_age()  # the whole command, start-up and loading in it
    print(tournament_text(res))
    if args.out:
        write_json(res, args.out + ".json")
        write_csv(res, args.out + ".csv")
    if args.plot and res["games"]:
        plot(res, args.plot)
    return 130 if res["interrupted"] else 0
