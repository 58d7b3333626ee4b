"""The ``sorry`` command line. Each subcommand lives in a module ``sorry.cli.cmd_<name>`` that
defines ``register(subparsers)``; modules are discovered, so adding a command touches no other
file. Bad input prints one line ``sorry: error: ...`` on stderr and exits with status 2.

Everything the command prints is in the player's language: ``--lang CODE`` before the
subcommand, else ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG`` (:mod:`sorry.i18n`)."""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import time
from collections.abc import Sequence

from .. import __version__
from ..cards import parse_card
from ..errors import SorryError
from ..game import Game
from ..i18n import LANGUAGES, N_, _, get_language, gettext, ngettext, set_language
from ..position import Position
from ..rules import Rules

#: when the command line was loaded (sorry hint's clock where /proc is missing)
STARTED = time.perf_counter()

#: argparse's own messages, translated in our catalogs (argparse looks them up through its
#: module-level ``_``, which :func:`main` points at :func:`sorry.i18n.gettext`).
ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
)


def process_age() -> float:
    """Seconds since this process started (Linux: /proc; elsewhere since sorry.cli loaded)."""
    try:
        with open("/proc/self/stat") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return max(0.0, uptime - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError, AttributeError):
        return time.perf_counter() - STARTED


class CliError(Exception):
    """A user error the command line reports in one line (exit status 2)."""


def add_database_option(p: argparse.ArgumentParser) -> None:
    """``--database URL``: the server's database (``serve``, ``db``, ``admin``)."""
    p.add_argument(
        "--database",
        metavar="URL",
        help=_(
            "sqlite:///PATH or postgresql://USER@HOST/DB "
            "(default: SQLite in $XDG_DATA_HOME/sorry/server.db)"
        ),
    )


def web_extra_missing(exc: ImportError) -> CliError:
    """The one-line error of a command that needs the web extra."""
    return CliError(
        _("the web server needs the web extra: pip install 'sorry-engine[web]' ({error})").format(
            error=exc
        )
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sorry",
        description=_("{game}: play, analyse and simulate the board game.").format(
            game=_("Sorry!")
        ),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {__version__}",
        help=_("show the version and exit"),
    )
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help=_("language of everything printed: {codes} (default: from LANG/LC_ALL)").format(
            codes=" ".join(LANGUAGES)
        ),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("cmd_"):
            module = importlib.import_module(f"{__name__}.{info.name}")
            module.register(sub)
    return parser


def _language_asked(argv: Sequence[str]) -> str | None:
    """The value of a global ``--lang`` (before the subcommand), or None."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--lang")
    known, _rest = pre.parse_known_args(argv)
    return str(known.lang) if known.lang else None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    previous = get_language()
    try:
        set_language(_language_asked(argv))
    except ValueError as exc:
        print(f"sorry: error: {exc}", file=sys.stderr)
        return 2
    saved_gettext = argparse._  # type: ignore[attr-defined]
    argparse._ = gettext  # type: ignore[attr-defined]
    try:
        return _main(argv)
    finally:
        argparse._ = saved_gettext  # type: ignore[attr-defined]
        set_language(previous)


def parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """``argv`` parsed with options anywhere after the subcommand (``moves POS --rules teams
    7``: argparse alone gives an optional positional up at the first option), and the
    subcommand's own usage in its error messages."""
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    i = 0
    while i < len(argv) and argv[i].startswith("-"):  # the global options
        i += 2 if argv[i] == "--lang" else 1
    if i >= len(argv) or argv[i] not in commands:
        return parser.parse_args(argv)  # help, version, or argparse's own error
    args = parser.parse_args(argv[:i])
    args.command = argv[i]
    sub = commands[argv[i]]
    # parse_intermixed_args cuts len("usage: ") off the usage line: give it the line without
    # the prefix in the player's language instead.
    prefix = argparse._("usage: ")  # type: ignore[attr-defined]
    sub.usage = sub.format_usage().removeprefix(prefix).rstrip("\n")
    try:
        sub.parse_intermixed_args(argv[i + 1 :], namespace=args)
        return args
    finally:
        sub.usage = None


def _main(argv: list[str]) -> int:
    parser = build_parser()
    args = parse(parser, argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        result = args.func(args)
    except (SorryError, CliError) as exc:
        print(_("sorry: error: {message}").format(message=exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a file that went away or filled the disk during the run
        name = f"{exc.filename}: " if exc.filename else ""
        print(
            _("sorry: error: {message}").format(message=f"{name}{exc.strerror or exc}"),
            file=sys.stderr,
        )
        return 2
    return int(result or 0)


#: The files ``--plot`` writes (matplotlib), by extension.
PLOT_FORMATS = (".png", ".svg", ".pdf")


def check_backend(backend: str, address: str | None) -> None:
    """Before a run: ``--address`` goes with ``--backend ray``, Ray is installed, and the
    cluster's address answers (a few seconds at most; :class:`SorryError` otherwise)."""
    if address and backend != "ray":
        raise CliError(_("--address needs --backend ray"))
    if backend == "ray":
        from ..sim.ray_backend import check_address, ray_installed

        ray_installed()
        if address:
            check_address(address)


def check_output(path: str | None, png: bool = False) -> None:
    """:class:`CliError` at once, before any work, unless ``path`` can be written: its folder
    exists and is writable and it is not a folder (``None`` and ``-``, standard output, pass).
    ``png``: the file is a matplotlib plot, so matplotlib must be installed."""
    if path is None or path == "-":
        return
    folder = os.path.dirname(os.path.abspath(path))
    problem = None
    if os.path.isdir(path):
        problem = _("it is a folder")
    elif not os.path.isdir(folder):
        problem = _("there is no folder {folder}").format(folder=folder)
    elif not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        problem = _("the folder is not writable")
    if problem is not None:
        raise CliError(_("cannot write {file}: {error}").format(file=path, error=problem))
    if png:
        if os.path.splitext(path)[1].lower() not in PLOT_FORMATS:
            raise CliError(
                _("cannot write {file}: a plot is {formats}").format(
                    file=path, formats=", ".join(PLOT_FORMATS)
                )
            )
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise CliError(_("--plot needs matplotlib: pip install 'sorry-engine[sim]'")) from None


def players_for(
    players: int | None, named: Sequence[str] | None, option: str, rules: Rules, one_for_all: bool
) -> int:
    """How many play, for every command that seats players (play, tui, record, simulate):
    ``--players`` when given, else one per seat or bot ``named`` by ``option`` (when it names
    more than one), else 4. ``one_for_all``: one name may stand for every seat (``--bots``).
    One wording for every mismatch."""
    n = len(named) if named else 0
    if players is None and n > 4:
        raise CliError(
            _("{option} names {n} players: 2, 3 or 4 can play").format(option=option, n=n)
        )
    if players is None:
        players = 4 if rules.teams or n < 2 else n
    if players not in (2, 3, 4):
        raise CliError(_("--players is 2, 3 or 4, not {n}").format(n=players))
    if rules.teams and players != 4:
        raise CliError(_("the teams variant is for four players"))
    if n and n != players and not (one_for_all and n == 1):
        raise CliError(
            ngettext(
                "{option} names {n} player but {players} are playing",
                "{option} names {n} players but {players} are playing",
                n,
            ).format(option=option, n=n, players=players)
        )
    return players


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """``--rules standard|teams|points`` and repeatable ``--option key=value``."""
    parser.add_argument(
        "--rules",
        default="standard",
        choices=("standard", "teams", "points"),
        help=_("variant (default: standard)"),
    )
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=_("rule option, e.g. --option deck=44 (repeatable)"),
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    return Rules.from_options(args.rules, args.option)


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    """``POSITION [CARD] [--hand 1,4,7,11,S]``: a position and the card drawn (or the hand of
    the colour to move in the points variant)."""
    parser.add_argument("position", help=_("position string, e.g. 'R:S,S,4,s2 Y:12,33,40,H R'"))
    parser.add_argument("card", nargs="?", help=_("the card drawn: 1 2 3 4 5 7 8 10 11 12 S"))
    parser.add_argument("--hand", help=_("points variant: the hand, e.g. 1,4,7,11,S"))


def check_not_over(pos: Position, rules: Rules) -> tuple[int, ...] | None:
    """The side that has already won in ``pos`` (all its pawns HOME: a colour, or a team of
    two in the teams variant), or None; :class:`CliError` when more than one side has (no game
    gets there: it ends when the first one does)."""
    from ..board import HOME

    done = [
        side
        for side in rules.book.sides(pos.colours)
        if all(loc == HOME for c in side for loc in pos.pawns[c] or ())
    ]
    if len(done) > 1:
        names = [_names(side) for side in done]
        raise CliError(
            _(
                "impossible position: {sides} have all their pawns home "
                "(the game ends when the first one does)"
            ).format(sides=_("{first} and {second}").format(first=names[0], second=names[1]))
        )
    return done[0] if done else None


def _names(side: Sequence[int]) -> str:
    from ..board import colour_name

    if len(side) == 2:
        return _("{first} and {second}").format(
            first=colour_name(side[0]), second=colour_name(side[1])
        )
    return colour_name(side[0])


def won_text(side: Sequence[int]) -> str:
    """``Red has won`` / ``Red and Yellow have won``."""
    if len(side) == 2:
        return _("{team} have won").format(team=_names(side))
    return _("{player} has won").format(player=_names(side))


def game_from_args(args: argparse.Namespace, rules: Rules, seed: int = 0) -> Game:
    """The game at ``args.position`` with ``args.card`` drawn, or in the points variant with
    ``args.hand`` in the hand of the colour to move (the other hands dealt from the deck)."""
    pos = Position.parse(args.position)
    won = check_not_over(pos, rules)
    if won is not None:
        raise CliError(
            _("the game is over in this position: {result}").format(result=won_text(won))
        )
    if rules.points:
        if args.hand is None:
            raise CliError(_("the points variant needs --hand (e.g. --hand 1,4,7,11,S)"))
        if args.card is not None:
            raise CliError(_("in the points variant give the hand with --hand, not a card"))
        hand = [parse_card(x) for x in args.hand.split(",") if x.strip()]
        if len(hand) != 5:
            raise CliError(_("a hand holds five cards, not {n}").format(n=len(hand)))
        game = Game.from_position(pos, rules, hands={pos.to_move: hand}, seed=seed)
        while game.is_chance():
            game.draw()
        return game
    if args.hand is not None:
        raise CliError(_("--hand is for the points variant (--rules points)"))
    if args.card is None:
        raise CliError(_("give the card drawn (1 2 3 4 5 7 8 10 11 12 S)"))
    return Game.from_position(pos, rules, card=parse_card(args.card), seed=seed)


def note(line: str) -> None:
    """A one-line note on stderr (``sorry: note: ...``): what an optional part that is missing
    means for this command, or a wait that is about to start."""
    print(_("sorry: note: {message}").format(message=line), file=sys.stderr, flush=True)


def uses_expert(bots: Sequence[str]) -> bool:
    """Whether any of the bot specs (``expert``, ``expert:simulations=100``) is the expert."""
    return any(b.strip().lower().split(":")[0] == "expert" for b in bots)


def prepare_rollouts(use: str) -> None:
    """Before a command's rollouts (``use``: ``expert`` or ``hints``) start: without the
    compiled engine, one line says what the pure-Python stand-in means; with it, the rollouts
    are loaded now, and when numba must compile them first (the first run without ``sorry
    compile``: minutes) a line says so before the wait and another how long it took."""
    from ..features import compiled_rollouts, python_engine_note, rollouts_ahead_of_time

    if not compiled_rollouts():
        note(python_engine_note(use))
        return
    if rollouts_ahead_of_time():
        return
    from ..bots.rollouts import warmup
    from ..fast.cache import on_compile

    started: list[float] = []

    def compiling() -> None:
        started.append(time.perf_counter())
        note(
            _(
                "compiling the compiled engine's rollouts (numba, the first run only: one to "
                "five minutes; 'sorry compile' builds them once for every command)…"
            )
        )

    with on_compile(compiling):
        warmup()
    if started:
        note(_("compiled in {seconds} s").format(seconds=f"{time.perf_counter() - started[0]:.0f}"))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
