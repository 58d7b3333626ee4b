"""``sorry features``: which optional parts this installation has (:mod:`sorry.features`)."""

from __future__ import annotations

import argparse
import json

from ..i18n import _


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "features",
        help=_("which optional parts are installed, and how to install the others"),
        description=_(
            "List the optional parts of the game (the full-screen game, the compiled engine, "
            "the rollouts compiled ahead of time, the web server, plots, Ray, the RL "
            "environments): each one installed, or why not and how to install it."
        ),
    )
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..features import every_feature

    found = every_feature()
    if args.json:
        print(json.dumps({f.name: f.available for f in found}))
        return 0
    yes = _("yes")
    for f in found:
        print(f"{f.what}: {yes}" if f.available else f.reason)
    return 0
