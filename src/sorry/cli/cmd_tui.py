"""``sorry tui``: the full-screen terminal game (needs the ``tui`` extra: Textual).

With no options it opens the new-game screen; with ``--players``, ``--seats``, ``--rules`` or
``--seed`` it starts that game at once; ``--load FILE`` resumes a saved game.
"""

from __future__ import annotations

import argparse

from ..i18n import _
from . import CliError, add_rules_arguments, check_output, rules_from_args


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "tui",
        help=_("the full-screen terminal game"),
        description=_(
            "Play {game} full screen: the board, bots, hints, undo, save and matches."
        ).format(game=_("Sorry!")),
    )
    p.add_argument("--players", type=int, default=None, help=_("2, 3 or 4"))
    p.add_argument(
        "--seats",
        help=_("who plays each colour in seat order: human or a bot level, e.g. human,medium"),
    )
    p.add_argument("--seed", type=int, default=None, help=_("seed of the (first) game"))
    p.add_argument("--games", type=int, default=1, help=_("games in the match (default 1)"))
    p.add_argument("--target", type=int, default=None, help=_("match target score"))
    p.add_argument("--speed", type=int, default=None, help=_("animation 0 (instant) to 5"))
    p.add_argument("--load", metavar="FILE", help=_("resume a saved game"))
    p.add_argument("--save", metavar="FILE", help=_("write the game record to FILE at the end"))
    p.add_argument("--setup", action="store_true", help=_("open the new-game screen first"))
    add_rules_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        import textual  # noqa: F401
    except ImportError:  # pragma: no cover - depends on the installed extras
        raise CliError(
            _("the terminal game needs Textual: pip install 'sorry-engine[tui]'")
        ) from None
    from ..tui import run_app

    described = (
        args.players is not None
        or args.seats is not None
        or args.seed is not None
        or args.rules != "standard"
        or bool(args.option)
    )
    rules = rules_from_args(args)
    check_output(args.save)
    players = args.players
    if rules.teams:
        if players not in (None, 4):
            raise CliError(_("the teams variant is for four players"))
        players = 4
    if args.speed is not None and not 0 <= args.speed <= 5:
        raise CliError(_("--speed is 0 (instant) to 5"))
    return run_app(
        rules if described else None,
        players,
        args.seats,
        args.seed,
        games=args.games,
        target=args.target,
        speed=args.speed,
        load=args.load,
        save=args.save,
        setup=True if args.setup else None,
    )
