"""``sorry moves POSITION CARD``: every distinct legal move with its result."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..cards import card_name
from ..errors import PositionError
from ..i18n import _
from ..moves import DISCARD, PASS
from ..position import Position
from ..state import PawnState
from . import add_position_arguments, add_rules_arguments, game_from_args, rules_from_args


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
    add_position_arguments(p)
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    add_rules_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    game = game_from_args(args, rules)
    pos = game.position()
    card_text = card_name(game.card) if game.card is not None else None
    entries: list[dict[str, Any]] = []
    may_pass = False
    for move in game.legal_moves:
        if move.kind == PASS:
            may_pass = True
            continue
        if move.kind == DISCARD:
            result = pos.board_text()
        else:
            state = PawnState.of(pos.pawns, rules)
            state.apply(move, [])
            result = Position(state.sorted_pawns(), pos.to_move).board_text()
        entries.append({"move": str(move), "result": result})
    if args.json:
        out: dict[str, Any] = {
            "position": str(pos),
            "card": card_text,
            "moves": entries,
            "may_pass": may_pass,
        }
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
