"""``sorry hint POSITION CARD``: each legal move with its estimated chance of winning."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from ..i18n import _
from . import (
    CliError,
    add_position_arguments,
    add_rules_arguments,
    game_from_args,
    prepare_rollouts,
    process_age,
    rules_from_args,
)

#: With the rollouts compiled ahead of time, the sampling ends this long after the process
#: started (the issue's 0.3 s, less 40 ms to print and exit), but lasts at least MIN_SECONDS.
COMMAND_SECONDS = 0.26
MIN_SECONDS = 0.1


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "hint",
        help=_("estimate each legal move's chance of winning from playouts"),
        description=_(
            "Play each legal move of the colour to move in the same determinised worlds (the "
            "unseen cards dealt at random), each followed by a playout to the end (the medium "
            "bot on the compiled engine with the fast extra, greedy playouts without it), until "
            "the best move is told apart from the others or 0.25 s have passed. With --seed the "
            "hint plays a fixed number of rollouts instead (those of the terminal game and the "
            "browser), so it prints the same every time. Print the moves best first: the share of "
            "worlds won, its 95 percent interval, the worlds played, and 'tied' when a move "
            "cannot be told apart from the best; a forced move or pass is printed as the only "
            "move. In the points variant give the hand with --hand instead of CARD."
        ),
    )
    add_position_arguments(p)
    p.add_argument(
        "--rollouts", "-r", type=int, default=None, help=_("at most N worlds per move (4000)")
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help=_("seed of the worlds: a fixed number of rollouts, the same hint every time"),
    )
    p.add_argument("--json", action="store_true", help=_("print JSON"))
    add_rules_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..bots import estimate
    from ..bots.estimate import HINT_DEPTHS, HINT_ROLLOUTS, HINT_SCALE, game_kind
    from ..bots.rollouts import engine_name

    rules = rules_from_args(args)
    if args.rollouts is not None and args.rollouts < 1:
        raise CliError(_("--rollouts must be at least 1"))
    seeded = args.seed is not None
    seed = args.seed if seeded else int.from_bytes(os.urandom(4), "little")
    game = game_from_args(args, rules, seed=seed)
    max_worlds = args.rollouts or 4000
    if len(game.legal_moves) == 1:
        est = estimate(game)  # forced: nothing to estimate, no rollouts
        return _print(args, game, est)
    # without the compiled engine: one line says so; with it, loaded (or compiled, said) now
    prepare_rollouts("hints")
    if seeded:
        # a fixed number of rollouts (the faces' hint, or --rollouts worlds a move): the same
        # estimate every time, whatever the machine's load
        kind = game_kind(game.view(game.to_move))
        budget = None if args.rollouts else HINT_ROLLOUTS[(engine_name(), kind)]
        est = estimate(
            game,
            seconds=None,
            max_worlds=max_worlds,
            max_rollouts=budget,
            seed=seed,
            depth=HINT_DEPTHS[kind],
            scale=HINT_SCALE,
        )
    else:
        est = _timed(game, max_worlds, seed)
    return _print(args, game, est)


def _timed(game: Any, max_worlds: int, seed: int) -> Any:
    """The hint within the command's time (unseeded: as many worlds as fit)."""
    from ..bots import estimate
    from ..bots.estimate import HINT_DEPTHS, HINT_SCALE, HINT_SECONDS, game_kind
    from ..bots.rollouts import compiled_ahead_of_time, compiled_available

    if compiled_ahead_of_time():
        # nothing to load (sorry compile): the 0.3 s count from the command's start
        seconds = max(MIN_SECONDS, COMMAND_SECONDS - process_age())
    else:
        # the compiled rollouts were loaded from numba's cache (about 0.4 s) before the hint's
        # 0.25 s start (prepare_rollouts): loaded inside them, they took all of the time
        seconds = HINT_SECONDS
        if compiled_available() and os.environ.get("SORRY_AOT") != "0" and sys.stderr.isatty():
            print(
                _("tip: 'sorry compile' makes this command about three times as fast"),
                file=sys.stderr,
            )
    kind = game_kind(game.view(game.to_move))
    return estimate(
        game,
        seconds=seconds,
        max_worlds=max_worlds,
        seed=seed,
        depth=HINT_DEPTHS[kind],
        scale=HINT_SCALE,
    )


def _print(args: argparse.Namespace, game: Any, est: Any) -> int:
    if est.forced:
        only = est.moves[0].move
        if args.json:
            out = {
                "position": game.position_string(),
                "engine": est.engine,
                "forced": True,
                "moves": [{"move": str(only), "only": True}],
            }
            print(json.dumps(out))
        else:
            print(_("{move}  the only move").format(move=only))
        return 0
    if args.json:
        out = {
            "position": game.position_string(),
            "rollouts": est.rollouts,
            "engine": est.engine,
            "forced": False,
            "separated": est.separated,
            "moves": [
                {
                    "move": str(m.move),
                    "win": m.win,
                    "low": m.low,
                    "high": m.high,
                    "worlds": m.worlds,
                    "tied": m.tied,
                }
                for m in est.moves
            ],
        }
        print(json.dumps(out))
        return 0
    width = max(len(str(m.move)) for m in est.moves)
    tied = _("tied")
    for m in est.moves:
        line = (
            f"{m.move!s:<{width}}  {100 * m.win:5.1f}%  "
            f"[{100 * m.low:5.1f}, {100 * m.high:5.1f}]  {m.worlds:5d}"
        )
        print(f"{line}  {tied}" if m.tied else line)
    return 0
