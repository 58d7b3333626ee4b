"""``sorry hint POSITION CARD``: each legal move with its estimated chance of winning."""

from __future__ import annotations

import argparse
import json

from ..cards import parse_card
from ..game import Game
from ..i18n import _
from ..position import Position
from . import CliError, add_rules_arguments, rules_from_args


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
    p.add_argument("position", help=_("position string, e.g. 'R:S,S,4,s2 Y:12,33,40,H R'"))
    p.add_argument("card", nargs="?", help=_("the card drawn: 1 2 3 4 5 7 8 10 11 12 S"))
    p.add_argument("--hand", help=_("points variant: the hand, e.g. 1,4,7,11,S"))
    p.add_argument("--rollouts", "-r", type=int, default=200, help=_("worlds per move (200)"))
    p.add_argument("--seed", type=int, default=0, help=_("seed of the worlds (0)"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    add_rules_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..bots import hint

    rules = rules_from_args(args)
    pos = Position.parse(args.position)
    if args.rollouts < 1:
        raise CliError(_("--rollouts must be at least 1"))
    if rules.points:
        if args.hand is None:
            raise CliError(_("the points variant needs --hand (e.g. --hand 1,4,7,11,S)"))
        if args.card is not None:
            raise CliError(_("in the points variant give the hand with --hand, not a card"))
        hand = [parse_card(x) for x in args.hand.split(",") if x.strip()]
        if len(hand) != 5:
            raise CliError(_("a hand holds five cards, not {n}").format(n=len(hand)))
        game = Game.from_position(pos, rules, hands={pos.to_move: hand}, seed=args.seed)
        while game.is_chance():
            game.draw()
    else:
        if args.card is None:
            raise CliError(_("give the card drawn (1 2 3 4 5 7 8 10 11 12 S)"))
        if args.hand is not None:
            raise CliError(_("--hand is for the points variant (--rules points)"))
        game = Game.from_position(pos, rules, card=parse_card(args.card), seed=args.seed)
    ranked = hint(game, rollouts=args.rollouts, seed=args.seed)
    if args.json:
        out = {
            "position": str(pos),
            "rollouts": args.rollouts,
            "moves": [{"move": str(m), "win": p} for m, p in ranked],
        }
        print(json.dumps(out))
        return 0
    width = max(len(str(m)) for m, _p in ranked)
    for m, p in ranked:
        print(f"{m!s:<{width}}  {100 * p:5.1f}%")
    return 0
