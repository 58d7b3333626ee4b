"""``sorry moves POSITION CARD``: every distinct legal move with its result."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..cards import card_name, parse_card
from ..errors import PositionError
from ..game import Game
from ..i18n import _
from ..moves import DISCARD, PASS
from ..position import Position
from ..state import PawnState
from . import CliError, add_rules_arguments, rules_from_args


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "moves",
        help=_("list the legal moves of a card in a position"),
        description=_(
            "List every distinct legal move for the colour to move, one per line as "
            "'MOVE => RESULT' (RESULT: the position string of the result without its to-move "
            "field), then 'pass' when declining is allowed or no move exists. In the points "
            "variant give the hand with --hand instead of CARD."
        ),
    )
    p.add_argument("position", help=_("position string, e.g. 'R:S,S,4,s2 Y:12,33,40,H R'"))
    p.add_argument("card", nargs="?", help=_("the card drawn: 1 2 3 4 5 7 8 10 11 12 S"))
    p.add_argument("--hand", help=_("points variant: the hand, e.g. 1,4,7,11,S"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    add_rules_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    pos = Position.parse(args.position)
    if rules.points:
        if args.hand is None:
            raise CliError(_("the points variant needs --hand (e.g. --hand 1,4,7,11,S)"))
        if args.card is not None:
            raise CliError(_("in the points variant give the hand with --hand, not a card"))
        hand = [parse_card(x) for x in args.hand.split(",") if x.strip()]
        if len(hand) != 5:
            raise CliError(_("a hand holds five cards, not {n}").format(n=len(hand)))
        game = Game.from_position(pos, rules, hands={pos.to_move: hand})
        # Others' hands are irrelevant to the listing: deal them from the deck.
        while game.is_chance():
            game.draw()
        card_text = None
    else:
        if args.hand is not None:
            raise CliError(_("--hand is for the points variant (--rules points)"))
        if args.card is None:
            raise CliError(_("give the card drawn (1 2 3 4 5 7 8 10 11 12 S)"))
        card = parse_card(args.card)
        game = Game.from_position(pos, rules, card=card)
        card_text = card_name(card)
    entries: list[dict[str, Any]] = []
    may_pass = False
    for move in game.legal_moves:
        if move.kind == PASS:
            may_pass = True
            continue
        if move.kind == DISCARD:
            result = pos.board_text()
        else:
            state = PawnState(pos.pawns, rules.slide_on, rules.swap_slides)
            state.apply(move, [])
            result = Position(state.sorted_pawns(), pos.to_move).board_text()
        entries.append({"move": str(move), "result": result})
    if args.json:
        out: dict[str, Any] = {"position": str(pos), "card": card_text, "moves": entries,
                               "may_pass": may_pass}
        if rules.points:
            out["hand"] = [card_name(c) for c in game.hands[pos.to_move]]
            out["may_discard"] = any(e["move"].startswith("discard:") for e in entries)
        json.dump(out, sys.stdout)
        print()
        return 0
    for e in entries:
        print(f"{e['move']} => {e['result']}")
    if may_pass:
        print("pass")
    return 0


__all__ = ["PositionError", "register", "run"]
