"""``sorry db``: the game server's database (needs the ``web`` extra)."""

from __future__ import annotations

import argparse

from ..i18n import _
from . import CliError, add_database_option, web_extra_missing


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "db",
        help=_("the game server's database: bring its schema up to date"),
        description=_(
            "Apply the game server's schema migrations to its database (sorry serve does it "
            "at start-up too)."
        ),
    )
    p.add_argument("action", choices=("upgrade", "current"), help=_("upgrade or current"))
    add_database_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from ..web.db import Database, default_database_url
        from ..web.migrations import HEAD
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise web_extra_missing(exc) from None
    url = args.database or default_database_url()
    if args.action == "current":
        try:
            from sqlalchemy import create_engine, inspect

            from ..web.db import normalise_url

            engine = create_engine(normalise_url(url))
            with engine.connect() as conn:
                has = inspect(conn).has_table("alembic_version")
                now = (
                    conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
                    if has
                    else None
                )
            engine.dispose()
        except Exception as exc:
            raise CliError(str(exc).splitlines()[0]) from None
        print(_("revision {now} (newest {head})").format(now=now or "-", head=HEAD))
        return 0
    try:
        db = Database(url)
    except Exception as exc:
        raise CliError(str(exc).splitlines()[0]) from None
    before, after = db.upgraded
    db.dispose()
    if before == after:
        print(_("the database is up to date (revision {now})").format(now=after))
    else:
        print(
            _("upgraded the database from revision {before} to {after}").format(
                before=before or "-", after=after
            )
        )
    return 0
