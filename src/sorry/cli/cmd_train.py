"""``sorry train``: train the learned evaluation by self-play (:mod:`sorry.learned.train`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..i18n import _
from . import CliError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "train",
        help=_("train the learned bot's evaluation by self-play (fast extra)"),
        description=_(
            "Train the network of the learned bot by self-play on the compiled engine "
            "(TD(lambda)). The run is reproducible from its seed, shows its progress, measures "
            "the network against the medium and easy bots as it goes (the learning curve) and "
            "writes a checkpoint that a second run with the same file resumes; Ctrl-C saves it."
        ),
    )
    p.add_argument("model", help=_("the model file to write (.npz); resumed if it exists"))
    p.add_argument("--games", type=int, default=100_000, help=_("self-play games in all"))
    p.add_argument("--seed", type=int, default=1, help=_("seed of the games and the weights"))
    p.add_argument("--minutes", type=float, help=_("stop after this many minutes"))
    p.add_argument("--hidden", type=int, default=128, help=_("hidden units (a new model)"))
    p.add_argument("--lam", type=float, default=0.7, help=_("lambda of TD(lambda)"))
    p.add_argument("--lr", type=float, default=0.01, help=_("learning rate"))
    p.add_argument(
        "--rules",
        choices=("standard", "teams", "points"),
        default="standard",
        help=_("the variant the network learns (one network per variant)"),
    )
    p.add_argument(
        "--players",
        default="",
        help=_(
            "player counts of the games and their weights (N:WEIGHT,...; "
            "default 2:7,3:1,4:2, in teams 4:1)"
        ),
    )
    p.add_argument(
        "--eval-every", type=int, default=5_000, help=_("games between points of the curve")
    )
    p.add_argument(
        "--eval-deals", type=int, default=500, help=_("paired deals per point of the curve")
    )
    p.add_argument("--restart", action="store_true", help=_("start afresh even if the file exists"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..features import compiled_engine

    compiled_engine().require()
    from ..learned.train import TrainConfig, train

    for name in ("games", "hidden", "eval_every", "eval_deals"):
        if getattr(args, name) < 1:
            raise CliError(_("--{name} must be at least 1").format(name=name.replace("_", "-")))
    if not 0.0 <= args.lam <= 1.0:
        raise CliError(_("--lam must be between 0 and 1"))
    if args.lr <= 0:
        raise CliError(_("--lr must be positive"))
    path = Path(args.model)
    if path.suffix != ".npz":
        raise CliError(_("the model file must end in .npz: {path}").format(path=path))
    if not path.parent.is_dir():
        raise CliError(_("no such directory: {path}").format(path=path.parent))
    cfg = TrainConfig(
        games=args.games,
        seed=args.seed,
        hidden=args.hidden,
        lam=args.lam,
        lr=args.lr,
        eval_every=args.eval_every,
        eval_deals=args.eval_deals,
        minutes=args.minutes,
        players=args.players,
        rules=args.rules,
    )
    cfg.player_weights()
    try:
        train(
            path,
            cfg,
            progress=lambda line: print(line, file=sys.stderr, flush=True),
            resume=not args.restart,
        )
    except KeyboardInterrupt:
        return 130
    return 0
