"""The ``sorry`` command line. Each subcommand lives in a module ``sorry.cli.cmd_<name>`` that
defines ``register(subparsers)``; modules are discovered, so adding a command touches no other
file. Bad input prints one line ``sorry: error: ...`` on stderr and exits with status 2."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from ..errors import SorryError
from ..rules import Rules


class CliError(Exception):
    """A user error the command line reports in one line (exit status 2)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sorry", description="Sorry!: play, analyse and simulate the board game."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("cmd_"):
            module = importlib.import_module(f"{__name__}.{info.name}")
            module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        result = args.func(args)
    except (SorryError, CliError) as exc:
        print(f"sorry: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return int(result or 0)


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """``--rules standard|teams|points`` and repeatable ``--option key=value``."""
    parser.add_argument(
        "--rules",
        default="standard",
        choices=("standard", "teams", "points"),
        help="variant (default: standard)",
    )
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="rule option, e.g. --option deck=44 (repeatable)",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    return Rules.from_options(args.rules, args.option)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
