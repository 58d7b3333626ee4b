"""``sorry tui``: the full-screen terminal game (needs the ``tui`` extra: Textual).

The options are ``sorry play``'s. With none it opens the new-game screen; with ``--players``,
``--seats``, ``--bot``, ``--rules``, ``--seed``, ``--games`` or ``--target`` it starts that game
at once; ``--load FILE`` resumes a saved game; ``--learn`` plays the guided first game. When
standard input or output is not a terminal (or with ``--plain``, or without Textual, said in
one line) it plays line by line, as ``sorry play`` does.
"""

from __future__ import annotations

import argparse

from ..i18n import _
from .cmd_play import add_game_arguments, learn, run_game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "tui",
        help=_("the full-screen terminal game"),
        description=_(
            "Play {game} full screen: the board, bots, hints, undo, save and matches."
        ).format(game=_("Sorry!")),
    )
    add_game_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.learn:
        return learn()
    # without Textual: one line says so, and the game is played line by line
    return run_game(args, new_game_screen=True)
