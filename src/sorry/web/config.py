"""The settings of one server process (``sorry serve``'s options)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .limits import LimitSettings
from .mail import SmtpConfig


@dataclass
class Settings:
    bot_delay: float = 0.6  # seconds a bot waits before moving (so people can follow)
    #: a person's turn with no legal move passes by itself (after bot_delay); off, the
    #: player passes it (tests that play every move of a seat themselves)
    auto_pass: bool = True
    #: seconds the page gives each move of another player (the pawns walk, a line says what
    #: happened) before it shows the next; each player's speed setting multiplies it
    show_moves: float = 1.0
    takeover_after: float = 60.0  # seconds a player may be away before a bot plays for them
    takeover_level: str | None = None  # bot level that plays for an absent player
    tick: float = 0.5
    allowed_origins: tuple[str, ...] = ()
    listen: bool = True  # PostgreSQL: LISTEN for moves committed by other processes
    evict_after: float = 600.0  # seconds an unwatched game with nothing to do stays in memory
    max_games: int = 1000  # unfinished games in memory at most (new games refused beyond)
    rate: float = 10.0  # messages per second a WebSocket client may send on average
    burst: float = 30.0  # and in a burst
    workers: int = 1  # worker processes that play the bots and compute hints
    bot_time_limit: float | None = 0.5  # the longest a searching bot thinks about one move
    hint_rate: float = 0.5  # hints a seat may have computed per second on average
    hint_burst: float = 3.0  # and in a burst
    allow_bot_games: bool = False  # games with no human seat (nor anybody there)
    timer_scale: float = 1.0  # turn timers are multiplied by this (tests, quick demos)
    allowed_hosts: tuple[str, ...] = ()  # Host names served besides localhost and bind_host
    bind_host: str = "127.0.0.1"  # the address the server listens on
    limits: LimitSettings = field(default_factory=LimitSettings)  # per client address
    #: seconds between two full collections of every object (sorry.web.collector; the
    #: survivors of the others are set aside); None: the interpreter's collector as it is
    gc_reclaim_every: float | None = None
    #: bytes that may wait to be written to one connection (a slower reader is dropped)
    max_queued_bytes: int = 1 << 20
    #: seconds an HTTP request may take to send its headers, and its body
    header_timeout: float = 10.0
    body_timeout: float = 10.0
    #: public games of one creating address the lobby shows at most
    lobby_per_address: int = 3
    #: argon2id's cost for account passwords (OWASP's minimum; the tests use less)
    password_memory_cost: int = 19456
    password_time_cost: int = 2
    #: failed logins in 15 minutes before logins are refused: per name from one address, and
    #: per name from the addresses it never logged in from (sorry.web.passwords.LoginLimits);
    #: per address on any names
    login_per_name: int = 10
    login_per_address: int = 30
    #: networks a notification webhook may reach although they are not public (``127.0.0.1/32``)
    webhook_allow: tuple[str, ...] = ()
    #: the SMTP server e-mail notifications go through (None: no e-mail)
    smtp: SmtpConfig | None = None
    #: seconds between two rounds of the notifications' sender
    notify_interval: float = 2.0
    #: seconds between two looks for correspondence moves whose time ran out
    clock_sweep: float = 30.0
    #: analyse each finished game an account played (the profile's luck over many games)
    analyse_account_games: bool = True
    #: the address players reach the server at (the links in notifications)
    public_url: str = "http://127.0.0.1:8000"
