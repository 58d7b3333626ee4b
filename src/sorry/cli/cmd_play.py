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

from ..board import COLOUR_LETTERS, colour_name
from ..cards import card_label, card_name
from ..describe import describe
from ..game import Game
from ..i18n import N_, _, ngettext
from ..moves import Move
from ..rng import Rng
from ..textboard import legend, render
from . import CliError, add_rules_arguments, check_output, rules_from_args

Chooser = Callable[[Game], Move]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("play", help=_("play a game against computer players"))
    p.add_argument("--players", type=int, default=None, help=_("2, 3 or 4 (default 4)"))
    p.add_argument(
        "--seats",
        help=_(
            "who plays each colour in seat order, e.g. human,easy,random,easy "
            "(default: you play Red, bots play the others)"
        ),
    )
    p.add_argument("--bot", default="easy", help=_("level of the default bots (default: easy)"))
    p.add_argument("--seed", type=int, default=None, help=_("seed of the game (default: random)"))
    p.add_argument("--save", metavar="FILE", help=_("write the game record to FILE at the end"))
    p.add_argument("--plain", action="store_true", help=_("line-by-line play, no full screen"))
    p.add_argument(
        "--colour",
        choices=("auto", "always", "never"),
        default="auto",
        help=_("ANSI colours (default: when writing to a terminal and NO_COLOR is unset)"),
    )
    add_rules_arguments(p)
    p.set_defaults(func=run)


def _optional(name: str) -> Any:
    """A sibling module that may not be installed (bots, tui, record), or None."""
    try:
        return importlib.import_module(f"sorry.{name}")
    except ImportError:
        return None


#: Variant and seat names as players read them.
VARIANT_NAMES = {"standard": N_("standard"), "teams": N_("teams"), "points": N_("points")}
SEAT_NAMES = {
    "human": N_("human"),
    "random": N_("random"),
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
}


def variant_name(variant: str) -> str:
    return _(VARIANT_NAMES[variant]) if variant in VARIANT_NAMES else variant


def seat_name(seat: str) -> str:
    return _(SEAT_NAMES[seat]) if seat in SEAT_NAMES else seat


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
        raise CliError(_("unknown bot level {level!r}").format(level=level))

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
        raise CliError(
            ngettext(
                "--seats names {n} players but {playing} is playing",
                "--seats names {n} players but {playing} are playing",
                len(colours),
            ).format(n=len(seats), playing=len(colours))
        )
    for s in seats:
        if s != "human" and s not in levels:
            raise CliError(
                _("unknown seat {seat!r} (human or a bot level: {levels})").format(
                    seat=s, levels=", ".join(levels)
                )
            )
    return seats


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    check_output(args.save)
    players = args.players if args.players is not None else 4
    if rules.teams and players != 4:
        raise CliError(_("the teams variant is for four players"))
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
        print(_("Deck commitment (SHA-256): {digest}").format(digest=commitment.sha256))
    choosers = {
        c: make_chooser(level, game.seed + 1 + c)
        for c, level in seat_of.items()
        if level != "human"
    }
    names = ", ".join(f"{colour_name(c)}: {seat_name(seat_of[c])}" for c in game.colours)
    print(
        _("{game} {variant} game, seed {seed}. {players}").format(
            game=_("Sorry!"),
            variant=variant_name(game.rules.variant),
            seed=game.seed,
            players=names,
        )
    )
    print(_("{player} starts.").format(player=colour_name(game.first)))
    humans = [c for c in game.colours if seat_of[c] == "human"]
    while not game.is_over():
        if game.is_chance():
            game.draw()
            continue
        mover = game.to_move
        if seat_of[mover] != "human":
            move = choosers[mover](game)
            prefix = f"[{COLOUR_LETTERS[mover]}] "
            if game.card is not None:
                line = _("drew {card}, {move}").format(
                    card=card_label(game.card), move=describe(game, move)
                )
            else:
                line = describe(game, move)
            print(prefix + line)
            game.push(move)
            continue
        move_or_quit = ask_human(game, colour, len(humans) > 1)
        if move_or_quit is None:
            print(_("Game abandoned."))
            break
        print(describe(game, move_or_quit))
        game.push(move_or_quit)
    if game.is_over():
        print(render(game.position(), colour=colour))
        if game.winners:
            if len(game.winners) > 1:
                text = ngettext(
                    "{team} win after {n} turn!", "{team} win after {n} turns!", game.turn
                )
                team = _("{first} and {second}").format(
                    first=colour_name(game.winners[0]), second=colour_name(game.winners[1])
                )
            else:
                text = ngettext(
                    "{team} wins after {n} turn!", "{team} wins after {n} turns!", game.turn
                )
                team = colour_name(game.winners[0])
            print(text.format(team=team, n=game.turn))
        else:
            print(
                ngettext(
                    "The game stopped unfinished after {n} turn (turn limit).",
                    "The game stopped unfinished after {n} turns (turn limit).",
                    game.turn,
                ).format(n=game.turn)
            )
        if game.scores:
            print(
                _("Scores: {scores}").format(
                    scores=", ".join(
                        f"{colour_name(c)} {s}" for c, s in sorted(game.scores.items())
                    )
                )
            )
    if save:
        from ..record import save_record

        save_record(game, seats, save, commitment=commitment)
        print(_("Saved to {file}; check it with: sorry verify {file}").format(file=save))
    return 0


def ask_human(game: Game, colour: bool, hotseat: bool) -> Move | None:
    """Show the board and the numbered legal moves; read a choice. None: the player quits."""
    view = game.view(game.to_move)
    print()
    print(render(view.position(), colour=colour))
    print(legend())
    who = colour_name(view.to_move)
    if view.card is not None:
        print(_("{player}, you drew: {card}").format(player=who, card=card_label(view.card)))
    else:
        print(
            _("{player}, your hand: {cards}").format(
                player=who, cards=" ".join(card_name(c) for c in view.hand)
            )
        )
    moves = list(view.legal_moves)
    for i, m in enumerate(moves, 1):
        print(f"  {i:2d}. {m}   {describe(game, m)}")
    while True:
        try:
            answer = input(_("Your move (number or notation, q to quit): ")).strip()
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
        print("  " + _("That move is not legal now."))
