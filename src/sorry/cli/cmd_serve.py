"""``sorry serve``: the game server for playing in the browser (needs the ``web`` extra)."""

from __future__ import annotations

import argparse
import errno
import gc
import os
import socket

from ..features import python_engine_note
from ..i18n import _
from . import CliError, add_database_option, note, web_extra_missing


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "serve",
        help=_("run the game server for play in the browser"),
        description=_(
            "Run the authoritative game server. Friends open http://HOST:PORT/ in a "
            "browser. Games are stored in SQLite (the per-user data folder) or PostgreSQL."
        ),
    )
    p.add_argument(
        "--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1)")
    )
    p.add_argument("--port", type=int, default=8000, help=_("port (default 8000)"))
    add_database_option(p)
    p.add_argument(
        "--bot-delay", type=float, default=0.6, help=_("seconds a bot waits before moving")
    )
    p.add_argument(
        "--auto-pass",
        action=argparse.BooleanOptionalAction,
        default=True,
        help=_("a turn with no legal move passes by itself (default: on)"),
    )
    p.add_argument(
        "--show-moves",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help=_("seconds the page shows each other player's move before the next (0: at once)"),
    )
    p.add_argument(
        "--takeover-after",
        type=float,
        default=60.0,
        help=_("seconds a player may be away on their turn before a bot plays for them"),
    )
    p.add_argument(
        "--timer-scale",
        type=float,
        default=1.0,
        help=_("multiply the games' turn timers by this (e.g. 0.1 for a quick demo)"),
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help=_("another Origin allowed to open WebSockets (e.g. https://example.org)"),
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help=_("worker processes that play the bots and compute hints (default 1)"),
    )
    p.add_argument(
        "--bot-time-limit",
        type=float,
        default=0.5,
        metavar="S",
        help=_("the longest a searching bot may think about one move, in seconds (0.5)"),
    )
    p.add_argument(
        "--allow-bot-games",
        action="store_true",
        help=_("allow games with no human seat (off by default: they only cost CPU)"),
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help=_(
            "a Host name this server answers to besides localhost and the --host address "
            "(repeatable; the name a reverse proxy forwards; * for any)"
        ),
    )
    p.add_argument(
        "--max-games",
        type=int,
        default=1000,
        metavar="N",
        help=_("unfinished games kept in memory at most; beyond, new games are refused (1000)"),
    )
    p.add_argument(
        "--evict-after",
        type=float,
        default=600.0,
        metavar="S",
        help=_("seconds a game nobody has open stays in memory (600)"),
    )
    p.add_argument(
        "--max-connections-per-address",
        type=int,
        default=64,
        metavar="N",
        help=_("open WebSocket connections from one client address at most (64)"),
    )
    p.add_argument(
        "--games-per-minute",
        type=float,
        default=10.0,
        metavar="N",
        help=_("games one client address may create per minute (10)"),
    )
    p.add_argument(
        "--gc-reclaim-every",
        type=float,
        default=600.0,
        metavar="S",
        help=_(
            "seconds between two full garbage collections of every object; the survivors "
            "of the others are set aside (600; 0: off)"
        ),
    )
    p.add_argument(
        "--request-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help=_("seconds an HTTP request may take to send its headers, and its body (10)"),
    )
    p.add_argument(
        "--public-url",
        metavar="URL",
        help=_(
            "the address players reach the server at, for the links in notifications "
            "(default: http://HOST:PORT)"
        ),
    )
    p.add_argument(
        "--webhook-allow",
        action="append",
        default=[],
        metavar="NETWORK",
        help=_(
            "a network notification webhooks may reach although it is not public "
            "(127.0.0.1/32, 10.0.0.0/8; repeatable; default: only public addresses)"
        ),
    )
    p.add_argument(
        "--smtp-host", metavar="HOST", help=_("send e-mail notifications through this SMTP server")
    )
    p.add_argument(
        "--smtp-port", type=int, default=587, metavar="N", help=_("the SMTP server's port (587)")
    )
    p.add_argument("--smtp-from", metavar="ADDRESS", help=_("the notifications' sender address"))
    p.add_argument(
        "--smtp-user",
        metavar="NAME",
        help=_("the SMTP user (the password from the environment: SORRY_SMTP_PASSWORD)"),
    )
    p.add_argument(
        "--smtp-security",
        choices=("starttls", "tls", "none"),
        default="starttls",
        help=_("starttls (port 587), tls (port 465) or none (a relay on this machine)"),
    )
    p.add_argument("--log-level", default="warning", help=_("uvicorn log level"))
    p.set_defaults(func=run)


def check_port(host: str, port: int) -> None:
    """:class:`CliError` at once when ``host:port`` cannot be listened on (taken by another
    server, or an address this machine does not have), before anything says "serving on"."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise CliError(
                    _(
                        "port {port} on {host} is already in use (another server?): choose "
                        "another with --port"
                    ).format(port=port, host=host)
                ) from None
            raise CliError(
                _("cannot listen on {host}:{port}: {error}").format(
                    host=host, port=port, error=exc.strerror or exc
                )
            ) from None


def check_database(url: str | None) -> None:
    """:class:`CliError` at once when a SQLite database's folder does not exist."""
    if url is None or not url.startswith("sqlite:///"):
        return
    path = url[len("sqlite:///") :].split("?", 1)[0]
    if not path or path == ":memory:":
        return
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CliError(
            _("cannot open the database {url}: there is no folder {folder}").format(
                url=url, folder=folder
            )
        )


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web import Settings, create_app
        from ..web.limits import LimitSettings
        from ..web.serving import uvicorn_options
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise web_extra_missing(exc) from None
    if not 0 < args.port < 65536:
        raise CliError(_("port must be 1-65535"))
    if args.show_moves < 0 or args.show_moves > 10:
        raise CliError(_("--show-moves must be 0 to 10 seconds"))
    if args.bot_delay < 0 or args.takeover_after < 0 or args.timer_scale <= 0:
        raise CliError(_("delays must not be negative"))
    if not 1 <= args.workers <= 64:
        raise CliError(_("--workers must be 1-64"))
    if not args.bot_time_limit > 0:
        raise CliError(_("--bot-time-limit must be positive"))
    if args.max_games < 1 or args.max_connections_per_address < 1:
        raise CliError(_("--max-games and --max-connections-per-address must be at least 1"))
    if not args.games_per_minute > 0 or args.evict_after < 0:
        raise CliError(_("--games-per-minute must be positive, --evict-after not negative"))
    if not args.request_timeout > 0:
        raise CliError(_("--request-timeout must be positive"))
    if not args.gc_reclaim_every >= 0:
        raise CliError(_("--gc-reclaim-every must be 0 or more seconds"))
    smtp = None
    if args.smtp_host:
        from ..web.mail import SmtpConfig, valid_address

        if not args.smtp_from or not valid_address(args.smtp_from):
            raise CliError(_("--smtp-host needs --smtp-from, an e-mail address"))
        if not 0 < args.smtp_port < 65536:
            raise CliError(_("--smtp-port must be 1-65535"))
        smtp = SmtpConfig(
            host=args.smtp_host,
            port=args.smtp_port,
            sender=args.smtp_from,
            security=args.smtp_security,
            user=args.smtp_user,
            password=os.environ.get("SORRY_SMTP_PASSWORD"),
        )
    try:
        from ..web.webhooks import parse_networks

        parse_networks(args.webhook_allow)
    except ValueError as exc:
        raise CliError(_("--webhook-allow: {error}").format(error=exc)) from None
    public_url = args.public_url or f"http://{args.host}:{args.port}"
    if not public_url.startswith(("http://", "https://")):
        raise CliError(_("--public-url must start with http:// or https://"))
    limits = LimitSettings(
        connections=args.max_connections_per_address,
        create_rate=args.games_per_minute / 60,
        create_burst=max(1.0, args.games_per_minute),
    )
    settings = Settings(
        bot_delay=args.bot_delay,
        auto_pass=args.auto_pass,
        show_moves=args.show_moves,
        takeover_after=args.takeover_after,
        timer_scale=args.timer_scale,
        allowed_origins=tuple(args.allow_origin),
        workers=args.workers,
        bot_time_limit=args.bot_time_limit,
        allow_bot_games=args.allow_bot_games,
        allowed_hosts=tuple(args.allowed_host),
        bind_host=args.host,
        max_games=args.max_games,
        evict_after=args.evict_after,
        limits=limits,
        gc_reclaim_every=args.gc_reclaim_every or None,
        header_timeout=args.request_timeout,
        body_timeout=args.request_timeout,
        smtp=smtp,
        webhook_allow=tuple(args.webhook_allow),
        public_url=public_url,
    )
    check_port(args.host, args.port)
    check_database(args.database)
    import sqlalchemy.exc

    try:
        app = create_app(args.database, settings)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    except sqlalchemy.exc.SQLAlchemyError as exc:  # cannot connect, cannot open, ...
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise CliError(
            _("cannot open the database {url}: {error}").format(
                url=args.database or _("in the data folder"), error=reason
            )
        ) from None
    from ..features import compiled_engine, compiled_rollouts, rollouts_ahead_of_time

    if not compiled_rollouts():
        note(python_engine_note("expert"))
    elif compiled_engine() and not rollouts_ahead_of_time():
        note(
            _(
                "the workers load the bots' compiled search in the background ('sorry compile' "
                "builds it once; without it the first start compiles it: minutes); meanwhile "
                "the expert plays as the hard bot and a hint is the medium bot's choice"
            )
        )
    where = app.state.db.engine.url.render_as_string(hide_password=True)
    print(_("sorry: games are stored in {where}").format(where=where), flush=True)
    before, after = app.state.db.upgraded
    if before != after:
        print(
            _("sorry: upgraded the database from revision {before} to {after}").format(
                before=before or "-", after=after
            ),
            flush=True,
        )
    print(
        _("sorry: serving on {url} (Ctrl-C to stop)").format(
            url=f"http://{args.host}:{args.port}/"
        ),
        flush=True,
    )
    # what exists now (the modules, the app, the database's tables) lives as long as the
    # process: out of the garbage collector's sight, its full collections scan only the
    # games (one took 75-100 ms of CPU in a flood benchmark, 48-68 ms so)
    gc.collect()
    gc.freeze()
    uvicorn.run(
        app, host=args.host, port=args.port, log_level=args.log_level, **uvicorn_options(settings)
    )
    return 0
