"""``sorry show POSITION``: the board drawn in the terminal."""

from __future__ import annotations

import argparse
import os
import sys

from ..board import colour_name
from ..i18n import _
from ..position import Position
from ..textboard import legend, render
from . import add_rules_arguments, check_not_over, rules_from_args, won_text


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "show",
        help=_("draw a position in the terminal"),
        description=_(
            "Draw the board of a position string (each colour's four pawns, e.g. "
            "'R:S,S,4,s2 Y:12,33,40,H R', the last letter the colour to move) with a legend, "
            "and say who is to move, or who has won."
        ),
    )
    p.add_argument("position", help=_("position string, e.g. 'R:S,S,4,s2 Y:12,33,40,H R'"))
    p.add_argument(
        "--colour",
        choices=("auto", "always", "never"),
        default="auto",
        help=_("ANSI colours (default: when writing to a terminal and NO_COLOR is unset)"),
    )
    add_rules_arguments(p)
    p.set_defaults(func=run)


def use_colour(choice: str) -> bool:
    if choice == "auto":
        return sys.stdout.isatty() and "NO_COLOR" not in os.environ
    return choice == "always"


def run(args: argparse.Namespace) -> int:
    pos = Position.parse(args.position)
    won = check_not_over(pos, rules_from_args(args))
    print(render(pos, colour=use_colour(args.colour)))
    print(legend())
    if won is not None:
        print(_("{position}   (game over: {result})").format(position=pos, result=won_text(won)))
        return 0
    print(
        _("{position}   (to move: {player})").format(position=pos, player=colour_name(pos.to_move))
    )
    return 0
