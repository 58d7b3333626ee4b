"""``sorry play``: play a game in the terminal against computer players.

The full-screen game (``sorry.tui``, needs Textual) starts when it is installed and the terminal
is interactive; ``--plain`` (or no Textual, or no terminal) plays line by line: the board, the
card drawn (your hand in the points variant), numbered legal moves to choose from, and the bots'
moves in words.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import textwrap
import time
from collections.abc import Callable
from typing import Any

from ..board import COLOUR_LETTERS, colour_name, colour_names
from ..cards import card_label, card_name
from ..describe import card_help, describe, where_words
from ..errors import SorryError
from ..features import terminal_game
from ..game import Game
from ..howto import blocks as rules_blocks, card_rule
from ..i18n import N_, _, ngettext
from ..match import Match, numbered_path
from ..moves import Move
from ..rng import Rng
from ..textboard import legend, render
from ..tui.describe import is_forced_pass, pass_words
from ..tui.pace import DEFAULT_SPEED, pace
from . import (
    CliError,
    add_rules_arguments,
    check_output,
    note,
    players_for,
    prepare_rollouts,
    rules_from_args,
    uses_expert,
)

Chooser = Callable[[Game], Move]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play",
        help=_("play a game against computer players"),
        description=_(
            "Play a game (or a match) against computer players, or with friends at one "
            "keyboard: full screen when the terminal game is installed and this is a terminal, "
            "else (or with --plain) line by line. 'sorry tui' takes the same options and opens "
            "the new-game screen when given none."
        ),
    )
    add_game_arguments(p)
    p.set_defaults(func=run)


def add_game_arguments(p: argparse.ArgumentParser) -> None:
    """The options of a game to play, the same for ``sorry play`` and ``sorry tui``."""
    p.add_argument(
        "--learn",
        action="store_true",
        help=_("play the guided first game: each kind of move once, explained"),
    )
    p.add_argument(
        "--players", type=int, default=None, help=_("2, 3 or 4 (default: one per seat, or 4)")
    )
    p.add_argument(
        "--seats",
        help=_(
            "who plays each colour in seat order, e.g. human,easy,random,easy "
            "(default: you play Red, bots play the others)"
        ),
    )
    p.add_argument("--bot", default=None, help=_("level of the default bots (default: easy)"))
    p.add_argument("--seed", type=int, default=None, help=_("seed of the game (default: random)"))
    p.add_argument("--games", type=int, default=1, help=_("games in the match (default 1)"))
    p.add_argument("--target", type=int, default=None, help=_("match target score"))
    p.add_argument("--speed", type=int, default=None, help=_("animation 0 (instant) to 5"))
    p.add_argument("--load", metavar="FILE", help=_("resume a saved game"))
    p.add_argument(
        "--save",
        metavar="FILE",
        help=_(
            "write the game record to FILE at the end (a match: each game, to FILE-1, FILE-2 "
            "and so on before the extension)"
        ),
    )
    p.add_argument("--setup", action="store_true", help=_("open the new-game screen first"))
    p.add_argument("--plain", action="store_true", help=_("line-by-line play, no full screen"))
    p.add_argument(
        "--colour",
        choices=("auto", "always", "never"),
        default="auto",
        help=_("ANSI colours (default: when writing to a terminal and NO_COLOR is unset)"),
    )
    add_rules_arguments(p)


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


def parse_seats(text: str | None, players: int, default_bot: str) -> list[str]:
    """One seat per player: ``human`` or a bot level (``text`` in seat order; None: you, then
    bots of ``default_bot``)."""
    levels = _bot_levels()
    if text is None:
        seats = ["human"] + [default_bot] * (players - 1)
    else:
        seats = [s.strip().lower() for s in text.split(",")]
    for s in seats:
        if s != "human" and s not in levels:
            raise CliError(
                _("unknown seat {seat!r} (human or a bot level: {levels})").format(
                    seat=s, levels=", ".join(levels)
                )
            )
    return seats


def run(args: argparse.Namespace) -> int:
    if args.learn:
        return learn()
    return run_game(args, new_game_screen=False)


def learn() -> int:
    """The guided first game, full screen (it needs the terminal game and a terminal)."""
    full_screen = terminal_game()
    if not full_screen:
        raise CliError(full_screen.reason)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError(_("--learn needs a terminal (standard input and output)"))
    from ..tui import run_app

    return run_app(learn=True)


def run_game(args: argparse.Namespace, new_game_screen: bool) -> int:
    """``sorry play`` and ``sorry tui``: the full-screen game on a terminal (with Textual),
    else line by line. ``new_game_screen``: with no game described, open the new-game screen
    (``sorry tui``) rather than start a game at once."""
    rules = rules_from_args(args)
    check_output(args.save)
    if args.games < 1:
        raise CliError(_("--games must be at least 1"))
    if args.target is not None and args.target < 1:
        raise CliError(_("--target must be at least 1"))
    if args.speed is not None and not 0 <= args.speed <= 5:
        raise CliError(_("--speed is 0 (instant) to 5"))
    if args.load is not None and not os.path.isfile(args.load):
        raise CliError(_("cannot read {file}: no such file").format(file=args.load))
    if args.load is not None:
        result = finished_game(args.load)
        if result is not None:
            raise CliError(
                _(
                    "{file} holds a finished game ({result}): nothing to resume; step through "
                    "it with: sorry replay {file}"
                ).format(file=args.load, result=result)
            )
    named = [x.strip().lower() for x in args.seats.split(",")] if args.seats else None
    players = players_for(args.players, named, "--seats", rules, one_for_all=False)
    bot = (args.bot or "easy").lower()
    seats = parse_seats(args.seats, players, bot)
    match = args.games != 1 or args.target is not None
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    full_screen = terminal_game()
    if interactive and not args.plain and not full_screen:
        note(_("{reason}; playing line by line").format(reason=full_screen.reason))
    if interactive and not args.plain and full_screen:
        tui = _optional("tui")
        if tui is not None:
            described = (
                args.players is not None
                or args.seats is not None
                or args.bot is not None
                or args.seed is not None
                or match
                or args.rules != "standard"
                or bool(args.option)
            )
            setup = args.setup or (new_game_screen and not described and args.load is None)
            game = None
            if not setup and args.load is None and not match:
                game = Game(rules, players=players, seed=args.seed)
            return int(
                tui.run_app(
                    rules if described or not setup else None,
                    players if described else None,
                    seats if described else None,
                    args.seed,
                    games=args.games,
                    target=args.target,
                    speed=args.speed,
                    load=args.load,
                    save=args.save,
                    setup=setup,
                    game=game,
                )
                or 0
            )
    colour = args.colour == "always" or (
        args.colour == "auto" and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    )
    speed = DEFAULT_SPEED if args.speed is None else args.speed
    if args.load is not None:
        return play_loaded(args.load, colour, args.save, speed)
    if uses_expert(seats):
        prepare_rollouts("expert")
    if not match:
        game = Game(rules, players=players, seed=args.seed)
        return play_plain(game, seats, colour, args.save, speed)
    m = Match(rules, players, games=args.games, target=args.target, seed=args.seed)
    return play_match(m, seats, colour, args.save, speed=speed)


def finished_game(path: str) -> str | None:
    """The result in words when ``path`` holds a finished game's record (``sorry record``,
    ``play --save``, a game saved after its end) with no match going on; None otherwise (a
    game to resume, the next game of a match, or a file the loading will say is wrong)."""
    from ..record import GameRecord

    try:
        record = GameRecord.load(path)
        info = json.loads(dict(record.meta).get("tui", "{}") or "{}")
    except (SorryError, ValueError):
        return None
    if not isinstance(info, dict) or info.get("games", 1) != 1 or info.get("target") is not None:
        return None  # a match: the next game is played
    if not record.replay().is_over():
        return None
    return record.result.describe()


def play_loaded(path: str, colour: bool, save: str | None, speed: int = DEFAULT_SPEED) -> int:
    """Resume a saved game (and its match) line by line."""
    try:
        from ..tui.session import Session
    except ImportError:
        raise CliError(
            _("resuming a saved game needs the terminal game: pip install 'sorry-engine[tui]'")
        ) from None
    session = Session.load(path)
    seats = [_seat_level(session.seats[c].spec()) for c in session.colours]
    if session.game.is_over():
        if session.match_over():
            print(_("That game is over."))
            return 0
        session.next_game()
    return play_match(session.match, seats, colour, save, first=session.game, speed=speed)


def _seat_level(spec: str) -> str:
    """``human`` or the level of a saved seat (``bot:easy``, ``human:Ann``)."""
    head, _sep, rest = spec.partition(":")
    return rest if head == "bot" else "human"


def play_match(
    match: Match,
    seats: list[str],
    colour: bool,
    save: str | None,
    first: Game | None = None,
    speed: int = DEFAULT_SPEED,
) -> int:
    """The games of ``match`` one after the other (``first``: the game to play first), with the
    standings after each; ``save`` gets each game's record (numbered in a match)."""
    game = first or match.new_game()
    numbered = match.games != 1 or match.target is not None
    while True:
        path = numbered_path(save, match.games_played + 1) if save and numbered else save
        if play_plain(game, seats, colour, path, speed) != 0 or not game.is_over():
            return 0
        match.record_result(game)
        if numbered:
            standings = "  ".join(f"{colour_name(c)} {s}" for c, s in match.standings())
            print(
                ngettext(
                    "Match after {n} game: {scores}",
                    "Match after {n} games: {scores}",
                    match.games_played,
                ).format(n=match.games_played, scores=standings)
            )
        if match.is_over():
            if numbered:
                print(_match_result(match))
            return 0
        game = match.new_game()


def save_plain(game: Game, seats: list[str], path: str, saved_to: str | None) -> str | None:
    """Save the game so far to ``path`` (asking first when that file exists and is not where
    this game was saved); returns the file the game is now saved in."""
    from ..record import save_record

    if os.path.exists(path) and os.path.abspath(path) != os.path.abspath(saved_to or ""):
        try:
            answer = input(_("{file} exists: replace it? [y/N] ").format(file=path))
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            print("  " + _("Not saved."))
            return saved_to
    try:
        check_output(path)
        save_record(game, seats, path)
    except (CliError, SorryError, OSError) as exc:
        print("  " + str(exc))
        return saved_to
    print("  " + _("Saved to {file}; resume it with: sorry play --load {file}").format(file=path))
    return path


def _match_result(match: Match) -> str:
    winners = match.winners
    if not winners:
        return _("The match ends in a tie.")
    if len(winners) > 1:
        return _("{team} win the match!").format(team=colour_names(winners))
    return _("{team} wins the match!").format(team=colour_name(winners[0]))


def say(line: str) -> None:
    """A line of the table's talk, wrapped to 80 columns under its ``[R]``."""
    print(textwrap.fill(line, 80, subsequent_indent="    "))


def pause(seconds: float) -> None:
    """Hold the game for a person to read the line just written (on a terminal only)."""
    if seconds > 0 and sys.stdout.isatty():
        sys.stdout.flush()
        time.sleep(seconds)


def play_plain(
    game: Game, seats: list[str], colour: bool, save: str | None, speed: int = DEFAULT_SPEED
) -> int:
    """Play ``game`` line by line: the person chooses from numbered moves; a turn with no
    legal move passes by itself; the others' moves are said, one every so often at ``speed``
    (on a terminal: :mod:`sorry.tui.pace`)."""
    paced = pace(speed)
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
    print(  # two lines: a seed of 20 digits and four seats would not fit 80 columns
        _("{game} {variant} game, seed {seed}.").format(
            game=_("Sorry!"), variant=variant_name(game.rules.variant), seed=game.seed
        )
    )
    print(names)
    print(_("{player} starts.").format(player=colour_name(game.first)))
    humans = [c for c in game.colours if seat_of[c] == "human"]
    viewer = humans[0] if len(humans) == 1 else None  # "your" squares: the one person's
    decisions: list[int] = []  # the history's length at each of the person's choices (undo)
    saved_to = save  # the file the game was saved to (asked before replacing another)
    while not game.is_over():
        if game.is_chance():
            game.draw()
            continue
        mover = game.to_move
        prefix = f"[{COLOUR_LETTERS[mover]}] "
        moves = game.view(mover).legal_moves
        if is_forced_pass(game):  # no legal move: the turn passes by itself, said in words
            say(prefix + pass_words(game, seat_of[mover] == "human"))
            game.push(moves[0])
            pause(paced.passing if seat_of[mover] == "human" else paced.read)
            continue
        if seat_of[mover] != "human":
            move = choosers[mover](game)
            line = describe(game, move)
            where = where_words(move, game.effects(move), viewer)
            if where:  # where its pawns went, as the person sees the board
                line = _("{move} ({where})").format(move=line, where=where)
            if game.card is not None:
                line = _("drew {card}, {move}").format(card=card_label(game.card), move=line)
            say(prefix + line)
            game.push(move)
            pause(paced.read)
            continue
        if len(moves) == 1:  # nothing to choose: played at once, and said
            line = describe(game, moves[0])
            if game.card is not None:
                line = _("drew {card}, {move}").format(card=card_label(game.card), move=line)
            say(prefix + _("{move} (the only move)").format(move=line))
            game.push(moves[0])
            pause(paced.read)
            continue
        answer = ask_human(game, colour, len(humans) > 1)
        if answer is None:
            print(_("Game abandoned."))
            break
        if answer == "resign":
            game.resign(mover)
            say(prefix + _("{colour} resigns").format(colour=colour_name(mover)))
            decisions.clear()  # a resignation is not taken back
            continue
        if answer == "undo":
            if len(humans) != 1:
                print("  " + _("Undo is only for games with one person."))
            elif not decisions:
                print("  " + _("Nothing of yours to undo."))
            else:
                back_to = decisions.pop()
                while len(game.history) > back_to:
                    game.pop()
                print("  " + _("Your last move was taken back."))
            continue
        if isinstance(answer, str):  # save [FILE]
            saved_to = save_plain(
                game, seats, answer[5:] or saved_to or "sorry-save.json", saved_to
            )
            continue
        decisions.append(len(game.history))
        print(describe(game, answer))
        game.push(answer)
    if game.is_over():
        print(render(game.position(), colour=colour))
        if game.winners:
            if len(game.winners) > 1:
                text = ngettext(
                    "{team} win after {n} turn!", "{team} win after {n} turns!", game.turn
                )
                team = colour_names(game.winners)
            else:
                text = ngettext(
                    "{team} wins after {n} turn!", "{team} wins after {n} turns!", game.turn
                )
                team = colour_name(game.winners[0])
            print(text.format(team=team, n=game.turn))
            if game.resigned:
                print(_("Resigned: {players}.").format(players=colour_names(game.resigned)))
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


#: What a person may type at the line-by-line game's prompt, besides a move.
PLAIN_HELP = N_(
    "Type a move's number, or the move in notation (R12+5, RS>4, R12<>B40, pass).\n"
    "  h      hint: each move's chance of winning\n"
    "  u      undo your last move (a game with one person)\n"
    "  s      save the game (s FILE: to FILE); resume it with: sorry play --load FILE\n"
    "  r      the rules\n"
    "  ?      this help\n"
    "  q      quit"
)
#: The resign key, said after PLAIN_HELP.
PLAIN_RESIGN = N_("  x      resign (it asks first)")


def rules_plain(width: int = 78) -> str:
    """The rules for players (:mod:`sorry.howto`, the browser's rules page) as plain text in
    lines of at most ``width`` characters: headings underlined, list items indented."""
    out: list[str] = []
    for kind, text in rules_blocks():
        if kind == "h":
            out += ["", text, "-" * len(text)]
        elif kind == "li":
            out += textwrap.wrap(text, width, initial_indent="  - ", subsequent_indent="    ")
        else:
            out += textwrap.wrap(text, width)
    return "\n".join(out).lstrip("\n")


def _rule_lines(card_or_rule: int | str) -> str:
    """A card's sentence of the rules (:func:`sorry.howto.card_rule`), indented under the card
    and wrapped to an 80-column terminal."""
    rule = card_rule(card_or_rule) if isinstance(card_or_rule, int) else card_or_rule
    return textwrap.fill(rule, 79, initial_indent="    ", subsequent_indent="    ")


def show_choices(game: Game, moves: list[Move]) -> None:
    """The card drawn (or the hand) with what each card does, and the numbered moves."""
    view = game.view(game.to_move)
    who = colour_name(view.to_move)
    if view.card is not None:
        print(
            _("{player}, you drew: {card} ({help})").format(
                player=who, card=card_label(view.card), help=card_help(view.card)
            )
        )
        print(_rule_lines(view.card))
    else:
        print(
            _("{player}, your hand: {cards}").format(
                player=who, cards=" ".join(card_name(c) for c in view.hand)
            )
        )
        # what each card does, in its sentence of the rules, once
        for rule in dict.fromkeys(card_rule(card) for card in sorted(view.hand)):
            print(_rule_lines(rule))
    for i, m in enumerate(moves, 1):
        print(f"  {i:2d}. {m}   {describe(game, m)}")


def ask_human(game: Game, colour: bool, hotseat: bool) -> Move | str | None:
    """Show the board and the numbered legal moves; read a choice: a move, ``undo``,
    ``resign`` (confirmed), ``save`` or ``save FILE``, or None (the player quits). Help and
    hints are answered here."""
    view = game.view(game.to_move)
    print()
    print(render(view.position(), colour=colour))
    print(legend())
    moves = list(view.legal_moves)
    show_choices(game, moves)
    while True:
        try:
            answer = input(
                _("Your move (number or notation; h hint, r rules, ? help, q quit): ")
            ).strip()
        except EOFError:
            return None
        word = answer.lower()
        if word in ("q", "quit"):
            return None
        if word in ("?", "help"):
            print(_(PLAIN_HELP))
            print(_(PLAIN_RESIGN))
            continue
        if word in ("r", "rules"):
            print(rules_plain())
            print()
            show_choices(game, moves)  # the rules took the screen: the choice again
            continue
        if word in ("h", "hint"):
            print_hint(game, moves)
            continue
        if word in ("u", "undo"):
            return "undo"
        if word in ("x", "resign"):
            try:
                sure = input(_("Resign? (y/n) ")).strip().lower()
            except EOFError:
                return None
            if sure in ("y", "yes"):
                return "resign"
            continue
        if word == "s" or word.startswith("s "):
            return "save " + answer[1:].strip()
        if answer.isdigit():
            if 1 <= int(answer) <= len(moves):
                return moves[int(answer) - 1]
            print("  " + _("Choose a number from 1 to {n}.").format(n=len(moves)))
            continue
        try:
            move = Move.parse(answer)
        except ValueError as exc:
            print(f"  {exc}")
            continue
        if game.is_legal(move):
            return move
        print("  " + _("That move is not legal now."))


def print_hint(game: Game, moves: list[Move]) -> None:
    """The hint in the terminal game's words (:mod:`sorry.hintwords`): the headline, then the
    best moves by their number, each with its tag (best, as good, not as good), its words and
    its chance of winning with the 95% interval (``sorry hint``'s estimate; from Python
    playouts, said to be rough, without the compiled engine). A forced move is the only move."""
    from ..bots.estimate import hint_estimate
    from ..features import compiled_rollouts
    from ..hintwords import hint_words

    if compiled_rollouts():
        prepare_rollouts("hints")  # the first time without 'sorry compile': says it compiles
    est = hint_estimate(game)  # the full-screen game's and the browser's hint
    if est.forced:
        only = est.moves[0].move
        print("  " + _("Hint: the only move"))
        print(f"  {moves.index(only) + 1:2d}. {describe(game, only)}")
        return
    rough = not compiled_rollouts()
    words = hint_words(est.moves, rough)
    print("  " + (_("Rough hint: {text}").format(text=words.say) if rough else words.say))
    shown = est.moves[:5]
    width = max(len(words.tags[k]) for k in range(len(shown)))
    for k, m in enumerate(shown):
        print(
            f"  {moves.index(m.move) + 1:2d}. {words.tags[k]:<{width}}  {describe(game, m.move)}"
            f"  ({words.figures[k]})"
        )
