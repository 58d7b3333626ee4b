"""``sorry verify FILE``: re-play a game record and check it was not rigged.

Prints ``OK: ...`` and exits 0 when the commitment matches the revealed seed, deck and nonce,
the seed gives that deck, every card drawn is the deck's (reshuffles included), every move is
legal and the result is right; otherwise prints the first problem and exits 1. A file that
cannot be read as a record exits 2 (``sorry: error: ...``).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..i18n import _
from ..record import GameRecord, verify


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "verify",
        help=_("check a game record: commitment, deck, every card and move, the result"),
        description=_(
            "Re-play a game record and report the first illegal or inconsistent step, "
            "or confirm it. Exit status: 0 OK, 1 a problem found, 2 unreadable input."
        ),
    )
    p.add_argument(
        "file", metavar="FILE", help=_("a game record (sorry record / play --save); - for stdin")
    )
    p.add_argument("--json", action="store_true", help=_("print the result as JSON"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    record = (
        GameRecord.from_json(sys.stdin.read()) if args.file == "-" else GameRecord.load(args.file)
    )
    result = verify(record)
    if args.json:
        print(
            json.dumps(
                {
                    "ok": result.ok,
                    "step": result.step,
                    "problem": result.problem or None,
                    "expected": result.expected,
                    "found": result.found,
                    "steps_checked": result.steps_checked,
                    "commitment": record.commitment,
                }
            )
        )
    elif result.ok:
        print(result)
    else:
        print(_("FAILED at {result}").format(result=result))
    return 0 if result.ok else 1
