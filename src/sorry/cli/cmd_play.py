"""``sorry play``: play a game in the terminal against computer players.

The full-screen game (``sorry.tui``, needs Textual) starts when it is installed and the terminal
is interactive; ``--plain`` (or no Textual, or no terminal) plays line by line: the board, the
card drawn (your hand in the points variant), numbered legal moves to choose from, and the bots'
moves in words.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable
from typing import Any

from ..board import COLOUR_LETTERS, COLOUR_NAMES
from ..cards import card_name
from ..describe import describe
from ..game import Game
from ..moves import Move
from ..rng import Rng
from ..textboard import legend, render
from . import CliError, add_rules_arguments, rules_from_args

Chooser = Callable[[Game], Move]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("play", help="play a game against computer players")
    p.add_argument("--players", type=int, default=None, help="2, 3 or 4 (default 4)")
    p.add_argument(
        "--seats",
        help="who plays each colour in seat order, e.g. human,easy,random,easy "
        "(default: you play Red, bots play the others)",
    )
    p.add_argument("--bot", default="easy", help="level of the default bots (default: easy)")
    p.add_argument("--seed", type=int, default=None, help="seed of the game (default: random)")
    p.add_argument("--save", metavar="FILE", help="write the game record to FILE at the end")
    p.add_argument("--plain", action="store_true", help="line-by-line play, no full screen")
    p.add_argument("--colour", choices=("auto", "always", "never"), default="auto")
    add_rules_arguments(p)
    p.set_defaults(func=run)


def _optional(name: str) -> Any:
    """A sibling module that may not be installed (bots, tui, record), or None."""
    try:
        return importlib.import_module(f"sorry.{name}")
    except ImportError:
        return None


def _bot_levels() -> tuple[str, ...]:
    bots = _optional("bots")
    return tuple(bots.LEVELS) if bots is not None else ("random", "easy")


def make_chooser(level: str, seed: int) -> Chooser:
    """A computer player of ``level`` that sees only its view."""
    rng = Rng(seed)
    bots = _optional("bots")
    if bots is not None:
        bot = bots.make_bot(level)
        return lambda game: bot.choose(game.view(game.to_move), rng)
    if level != "random" and level != "easy":
        raise CliError(f"unknown bot level {level!r}")

    def choose(game: Game) -> Move:
        moves = game.view(game.to_move).legal_moves
        return moves[rng.below(len(moves))]

    return choose


def parse_seats(text: str | None, colours: tuple[int, ...], default_bot: str) -> list[str]:
    levels = _bot_levels()
    if text is None:
        return ["human"] + [default_bot] * (len(colours) - 1)
    seats = [s.strip().lower() for s in text.split(",")]
    if len(seats) != len(colours):
        raise CliError(f"--seats names {len(seats)} players but {len(colours)} are playing")
    for s in seats:
        if s != "human" and s not in levels:
            raise CliError(f"unknown seat {s!r} (human or a bot level: {', '.join(levels)})")
    return seats


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    players = args.players if args.players is not None else 4
    if rules.teams and players != 4:
        raise CliError("the teams variant is for four players")
    game = Game(rules, players=players, seed=args.seed)
    seats = parse_seats(args.seats, game.colours, args.bot)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if interactive and not args.plain:
        tui = _optional("tui")
        if tui is not None:
            return int(tui.run_app(rules=rules, game=game, seats=seats, save=args.save) or 0)
    colour = args.colour == "always" or (
        args.colour == "auto" and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    )
    return play_plain(game, seats, colour, args.save)


def play_plain(game: Game, seats: list[str], colour: bool, save: str | None) -> int:
    seat_of = dict(zip(game.colours, seats, strict=True))
    commitment = None
    if save:
        # Commit to the seed and deck before the first card (revealed in the saved record),
        # so the players can check afterwards that the game was not rigged.
        from ..record import Commitment

        commitment = Commitment.for_game(game)
        print(f"Deck commitment (SHA-256): {commitment.sha256}")
    choosers = {
        c: make_chooser(level, game.seed + 1 + c)
        for c, level in seat_of.items() if level != "human"
    }
    names = ", ".join(f"{COLOUR_NAMES[c]}: {seat_of[c]}" for c in game.colours)
    print(f"Sorry! {game.rules.variant} game, seed {game.seed}. {names}")
    print(f"{COLOUR_NAMES[game.first]} starts.")
    humans = [c for c in game.colours if seat_of[c] == "human"]
    while not game.is_over():
        if game.is_chance():
            game.draw()
            continue
        mover = game.to_move
        if seat_of[mover] != "human":
            move = choosers[mover](game)
            prefix = f"[{COLOUR_LETTERS[mover]}] "
            drawn = f"drew {card_name(game.card)}, " if game.card is not None else ""
            print(prefix + drawn + describe(game, move))
            game.push(move)
            continue
        move_or_quit = ask_human(game, colour, len(humans) > 1)
        if move_or_quit is None:
            print("Game abandoned.")
            break
        print(describe(game, move_or_quit))
        game.push(move_or_quit)
    if game.is_over():
        print(render(game.position(), colour=colour))
        if game.winners:
            team = " and ".join(COLOUR_NAMES[c] for c in game.winners)
            print(f"{team} {'win' if len(game.winners) > 1 else 'wins'} after {game.turn} turns!")
        else:
            print(f"The game stopped unfinished after {game.turn} turns (turn limit).")
        if game.scores:
            print("Scores: " + ", ".join(
                f"{COLOUR_NAMES[c]} {s}" for c, s in sorted(game.scores.items())))
    if save:
        from ..record import save_record

        save_record(game, seats, save, commitment=commitment)
        print(f"Saved to {save}; check it with: sorry verify {save}")
    return 0


def ask_human(game: Game, colour: bool, hotseat: bool) -> Move | None:
    """Show the board and the numbered legal moves; read a choice. None: the player quits."""
    view = game.view(game.to_move)
    print()
    print(render(view.position(), colour=colour))
    print(legend())
    who = COLOUR_NAMES[view.to_move]
    if view.card is not None:
        print(f"{who}, you drew {card_name(view.card)}.")
    else:
        print(f"{who}, your hand: {' '.join(card_name(c) for c in view.hand)}")
    moves = list(view.legal_moves)
    for i, m in enumerate(moves, 1):
        print(f"  {i:2d}. {m}   {describe(game, m)}")
    while True:
        try:
            answer = input("Your move (number or notation, q to quit): ").strip()
        except EOFError:
            return None
        if answer.lower() in ("q", "quit"):
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(moves):
            return moves[int(answer) - 1]
        try:
            move = Move.parse(answer)
        except ValueError as exc:
            print(f"  {exc}")
            continue
        if game.is_legal(move):
            return move
        print("  That move is not legal now.")
