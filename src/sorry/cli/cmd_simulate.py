"""``sorry simulate``: many games between bots in fixed seats, with statistics."""

from __future__ import annotations

import argparse
import json
import sys

from ..i18n import _
from ..sim.runner import BACKENDS, ENGINES
from . import (
    CliError,
    add_rules_arguments,
    check_backend,
    check_output,
    players_for,
    prepare_rollouts,
    process_age,
    rules_from_args,
    uses_expert,
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "simulate",
        help=_("play many games between bots and report statistics"),
        description=_(
            "Play N complete games (game i uses a seed derived from the master seed, so every "
            "backend plays the same games) and print each seat's win rate with a {level} "
            "confidence interval, the first player's win rate, the game length (moves) and "
            "the speed. Bots stay in their seats (see 'sorry tournament' to rotate them)."
        ).format(level="95%"),  # a placeholder: a bare "%" reads as a format directive
    )
    p.add_argument("--games", "-n", type=int, default=1000, help=_("number of games (1000)"))
    p.add_argument(
        "--players", type=int, choices=(2, 3, 4), help=_("players (default: 4, or one per bot)")
    )
    p.add_argument("--seed", type=int, default=0, help=_("master seed (0)"))
    p.add_argument("--jobs", "-j", type=int, default=1, help=_("worker processes (1)"))
    p.add_argument(
        "--bots",
        default="random",
        help=_(
            "comma-separated bot per seat in colour order, or one for every seat "
            "(random easy medium hard learned expert; parameters as expert:simulations=100)"
        ),
    )
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
    p.add_argument("--json", metavar="FILE", help=_("write the results as JSON ('-': stdout)"))
    p.add_argument("--plot", metavar="FILE.png", help=_("draw win rates and game lengths"))
    p.add_argument("--no-progress", action="store_true", help=_("no progress bar"))
    add_rules_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..sim import plot, simulate, simulate_text, write_json

    rules = rules_from_args(args)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots:
        raise CliError(_("--bots needs at least one bot"))
    players = players_for(args.players, bots, "--bots", rules, one_for_all=True)
    if args.games < 1:
        raise CliError(_("--games must be at least 1"))
    if args.jobs < 1:
        raise CliError(_("--jobs must be at least 1"))
    check_output(args.json)
    check_output(args.plot, png=True)
    check_backend(args.backend, args.address)
    if uses_expert(bots):
        prepare_rollouts("expert")
    res = simulate(
        args.games,
        players=players,
        rules=rules,
        bots=bots,
        seed=args.seed,
        jobs=args.jobs,
        backend=args.backend,
        address=args.address,
        progress=not args.no_progress and sys.stderr.isatty(),
        engine=args.engine,
    )
    res["total_seconds"] = process_age()  # the whole command, start-up and loading in it
    if args.json == "-":
        json.dump(res, sys.stdout, indent=2, default=str)
        print()
    else:
        print(simulate_text(res))
        if args.json:
            write_json(res, args.json)
    if args.plot and res["games"]:
        plot(res, args.plot)
    return 130 if res["interrupted"] else 0
