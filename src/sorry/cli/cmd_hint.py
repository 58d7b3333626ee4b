"""``sorry hint POSITION CARD``: each legal move with its estimated chance of winning."""

from __future__ import annotations

import argparse
import json

from ..i18n import _
from . import CliError, add_position_arguments, add_rules_arguments, game_from_args, rules_from_args


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "hint",
        help=_("estimate each legal move's chance of winning from playouts"),
        description=_(
            "Play each legal move of the colour to move in the same N determinised worlds, "
            "each followed by a greedy playout to the end, and print the moves best first with "
            "the share of worlds won. In the points variant give the hand with --hand instead "
            "of CARD."
        ),
    )
    add_position_arguments(p)
    p.add_argument("--rollouts", "-r", type=int, default=200, help=_("worlds per move (200)"))
    p.add_argument("--seed", type=int, default=0, help=_("seed of the worlds (0)"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    add_rules_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..bots import hint

    rules = rules_from_args(args)
    if args.rollouts < 1:
        raise CliError(_("--rollouts must be at least 1"))
    game = game_from_args(args, rules, seed=args.seed)
    ranked = hint(game, rollouts=args.rollouts, seed=args.seed)
    if args.json:
        out = {
            "position": game.position_string(),
            "rollouts": args.rollouts,
            "moves": [{"move": str(m), "win": p} for m, p in ranked],
        }
        print(json.dumps(out))
        return 0
    width = max(len(str(m)) for m, _p in ranked)
    for m, p in ranked:
        print(f"{m!s:<{width}}  {100 * p:5.1f}%")
    return 0
