"""``sorry record --out FILE``: play a game between computer players and write its record.

The commitment to the seed and deck is printed before the first card is drawn (as a dealer
would publish it); the record reveals the seed, deck and nonce at the end (docs/records.md).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from ..board import colour_name
from ..game import Game
from ..i18n import _, ngettext
from ..moves import Move
from ..record import Commitment, GameRecord, Seat
from ..rng import Rng, derive_seed
from ..view import PlayerView
from . import (
    CliError,
    add_rules_arguments,
    check_output,
    players_for,
    prepare_rollouts,
    rules_from_args,
    uses_expert,
)

Chooser = Callable[[PlayerView], Move]
MAX_STEPS = 100_000


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "record",
        help=_("play a game between bots and write its auditable record"),
        description=_(
            "Play a game between computer players and write its record (JSON, "
            "docs/records.md). The commitment to the deal is printed before play."
        ),
    )
    p.add_argument(
        "--players", type=int, default=None, help=_("2, 3 or 4 (default: one per bot, or 4)")
    )
    p.add_argument("--seed", type=int, default=None, help=_("seed of the game (default: random)"))
    p.add_argument(
        "--bots",
        default="random",
        help=_(
            "bot level per seat in seat order, comma-separated, or one level for all "
            "(default: random)"
        ),
    )
    p.add_argument("--nonce", help=_("the commitment's nonce, 32 hex digits (default: random)"))
    p.add_argument(
        "--out",
        "-O",
        required=True,
        metavar="FILE",
        help=_("where to write the record (- for stdout)"),
    )
    p.add_argument("--quiet", "-q", action="store_true", help=_("print nothing but errors"))
    add_rules_arguments(p)
    p.set_defaults(func=run)


def make_chooser(level: str, seed: int) -> Chooser:
    """A computer player that sees only its view: a :mod:`sorry.bots` level when that package
    is installed, else (``random``) a uniformly random legal move."""
    rng = Rng(seed)
    try:
        from ..bots import make_bot
    except ImportError:  # pragma: no cover - the bots ship with the package
        if level != "random":
            raise CliError(
                _("unknown bot level {level!r} (only random without sorry.bots)").format(
                    level=level
                )
            ) from None

        def choose(view: PlayerView) -> Move:
            return view.legal_moves[rng.below(len(view.legal_moves))]

        return choose
    bot = make_bot(level)
    return lambda view: bot.choose(view, rng)


def parse_bots(text: str, n: int) -> list[str]:
    levels = [s.strip().lower() for s in text.split(",") if s.strip()]
    return levels * n if len(levels) == 1 else levels


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    check_output(args.out)
    named = [s.strip().lower() for s in args.bots.split(",") if s.strip()]
    players = players_for(args.players, named, "--bots", rules, one_for_all=True)
    if args.nonce is not None and (
        len(args.nonce) != 32 or any(ch not in "0123456789abcdef" for ch in args.nonce)
    ):
        raise CliError(_("--nonce is 32 lowercase hex digits"))
    if uses_expert(named):
        prepare_rollouts("expert")
    game = Game(rules, players=players, seed=args.seed)
    levels = parse_bots(args.bots, len(game.colours))
    bots = {
        c: make_chooser(level, derive_seed(game.seed, 1000 + c))
        for c, level in zip(game.colours, levels, strict=True)
    }
    commitment = Commitment.for_game(game, args.nonce)

    def say(text: str) -> None:  # messages go to stderr when the record goes to stdout
        print(text, file=sys.stderr if args.out == "-" else sys.stdout, flush=True)

    if not args.quiet:
        say(_("commitment (sha256): {digest}").format(digest=commitment.sha256))
    for _step in range(MAX_STEPS):
        if game.is_over():
            break
        if game.is_chance():
            game.draw()
            continue
        move = bots[game.to_move](game.view(game.to_move))
        game.push(move)
    else:  # pragma: no cover - every game ends long before
        raise CliError(_("the game did not end within {n} steps").format(n=MAX_STEPS))
    seats = [Seat(c, "bot", level, level) for c, level in zip(game.colours, levels, strict=True)]
    record = GameRecord.from_game(game, seats, commitment=commitment)
    if args.out == "-":
        sys.stdout.write(record.to_json())
    else:
        try:
            record.save(args.out)
        except OSError as exc:
            raise CliError(
                _("cannot write {file}: {error}").format(
                    file=os.fspath(args.out), error=exc.strerror
                )
            ) from None
    if not args.quiet:
        first = colour_name(game.first)
        say(
            _("seed {seed}, {player} started; {result}").format(
                seed=game.seed, player=first, result=record.result.describe()
            )
        )
        where = _("standard output") if args.out == "-" else args.out
        n = len(record.steps)
        say(
            ngettext(
                "record written to {file} ({n} step)", "record written to {file} ({n} steps)", n
            ).format(file=where, n=n)
        )
    return 0


__all__ = ["make_chooser", "parse_bots", "register", "run"]
