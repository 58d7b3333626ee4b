"""``sorry admin``: the game server's accounts, for its operator (needs the ``web`` extra):
the chat lines players reported, and disabling an account."""

from __future__ import annotations

import argparse
import time

from ..i18n import _
from . import CliError, add_database_option, web_extra_missing


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "admin",
        help=_("the game server's accounts: reported chat lines, disabling an account"),
        description=_(
            "List the chat lines players reported (and close a report), disable an account "
            "(its sessions end, it cannot log in, it leaves the leaderboard) or enable it again."
        ),
    )
    p.add_argument(
        "action",
        choices=("reports", "close", "disable", "enable"),
        help=_("reports, close REPORT, disable NAME or enable NAME"),
    )
    p.add_argument("target", nargs="?", help=_("a report's number or an account's name"))
    p.add_argument("--all", action="store_true", help=_("reports: closed ones too"))
    add_database_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from ..web.accounts import AccountStore
        from ..web.db import Database
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise web_extra_missing(exc) from None
    if args.action != "reports" and not args.target:
        raise CliError(
            _("{action} needs a report's number or an account's name").format(action=args.action)
        )
    try:
        db = Database(args.database)
    except Exception as exc:
        raise CliError(str(exc).splitlines()[0]) from None
    try:
        store = AccountStore(db.engine, db.reader)
        if args.action == "reports":
            rows = store.reports(status=None if args.all else "open")
            if not rows:
                print(_("no reports"))
            for r in rows:
                when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(r.at))
                print(
                    _("#{id} {when} game {game} [{status}] {name}: {text}").format(
                        id=r.id,
                        when=when,
                        game=r.game_id,
                        status=r.status,
                        name=r.reported_name,
                        text=r.text,
                    )
                )
            return 0
        if args.action == "close":
            if not args.target.isdigit() or not store.close_report(int(args.target)):
                raise CliError(_("no report #{n}").format(n=args.target))
            print(_("report #{n} closed").format(n=args.target))
            return 0
        account = store.set_disabled(args.target, args.action == "disable")
        if account is None:
            raise CliError(_("no account has the name {name}").format(name=args.target))
        if args.action == "disable":
            print(_("{name} is disabled: its sessions ended").format(name=account.name))
        else:
            print(_("{name} is enabled").format(name=account.name))
        return 0
    finally:
        db.dispose()
