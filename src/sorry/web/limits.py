"""Limits per client address, the Host allow-list and the security headers.

* :class:`AddressLimits`: per client address, token buckets for new connections, game
  creation, hints and the finished games' replays and records, and a cap on open WebSocket
  connections. Addresses nobody has used for a while are forgotten (the table stays small).
* :class:`Guard`: ASGI middleware in front of the whole application. It refuses a request
  whose ``Host`` is not allowed (DNS rebinding: a page of ``evil.example`` whose name was made
  to resolve to this server sends ``Host: evil.example``), and adds the security headers to
  every HTTP response.

The client address is the peer's, or the one a trusted proxy forwarded (uvicorn's
``--forwarded-allow-ips``, 127.0.0.1 by default: a proxy on this machine must set
``X-Forwarded-For``).
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import json
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The page's scripts and styles are files of /static (no inline script, no inline style
#: element); the board is SVG drawn by the script; nothing comes from another origin.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self' {ws}; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


class RateLimit:
    """A token bucket: ``rate`` per second on average, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self, cost: float = 1.0) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    @property
    def empty(self) -> bool:
        """Nothing left to allow now (nothing is taken by asking)."""
        return self.tokens + (time.monotonic() - self.stamp) * self.rate < 1.0

    @property
    def full(self) -> bool:
        """Back to a whole burst (nothing to remember any more)."""
        return self.tokens + (time.monotonic() - self.stamp) * self.rate >= self.burst


class Turns:
    """Admits the requests that can wait (hints, the full state of a new connection) one per
    turn of the event loop, in their order of arrival, so that whatever else is ready runs
    between two of them: the games' moves, their commits coming back. A hundred connections
    asking hints, each as soon as the last was answered, kept a hundred handlers in every
    turn of the loop, and a move's commit waited behind them (tens of milliseconds a turn);
    admitted one a turn, they wait for their answers instead, and the flood slows itself."""

    def __init__(self) -> None:
        self._waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        self._scheduled = False
        self.admitted = 0  # requests admitted so far (whether the server was busy lately)

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    async def turn(self) -> None:
        """Wait for this request's turn (at once, but not in this turn of the loop, when
        nobody else waits)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._waiting.append(fut)
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._admit)
        await fut

    def _admit(self) -> None:
        while self._waiting:
            fut = self._waiting.popleft()
            if not fut.done():  # else its connection has gone
                fut.set_result(None)
                self.admitted += 1
                break
        if self._waiting:
            asyncio.get_running_loop().call_soon(self._admit)
        else:
            self._scheduled = False


@dataclass
class LimitSettings:
    """Per-address limits (``sorry serve`` options); rates are per second, with bursts."""

    connections: int = 64  # open WebSocket connections at once
    connect_rate: float = 2.0  # new WebSocket connections
    connect_burst: float = 40.0
    create_rate: float = 10 / 60  # games created (10 a minute)
    create_burst: float = 10.0
    hint_rate: float = 2.0  # hints computed
    hint_burst: float = 10.0
    replay_rate: float = 1.0  # finished games' replays and records
    replay_burst: float = 10.0
    state_rate: float = 1.0  # whole states asked again (resync), all connections together
    state_burst: float = 10.0
    chat_rate: float = 1.0  # chat lines, all connections together
    chat_burst: float = 6.0
    token_rate: float = 0.5  # wrong seat tokens (hello, join)
    token_burst: float = 10.0


@dataclass
class _Address:
    buckets: dict[str, RateLimit] = field(default_factory=dict)
    connections: int = 0
    seen: float = field(default_factory=time.monotonic)


class AddressLimits:
    FORGET_AFTER = 600.0  # seconds an address with nothing open is remembered

    def __init__(self, settings: LimitSettings | None = None) -> None:
        self.settings = settings or LimitSettings()
        self._table: dict[str, _Address] = {}
        self._pruned = time.monotonic()

    def _get(self, address: str) -> _Address:
        now = time.monotonic()
        if now - self._pruned > 60.0:
            self._prune(now)
        entry = self._table.get(address)
        if entry is None:
            entry = self._table[address] = _Address()
        entry.seen = now
        return entry

    def _prune(self, now: float) -> None:
        self._pruned = now
        stale = [
            a
            for a, e in self._table.items()
            if e.connections == 0 and now - e.seen > self.FORGET_AFTER
        ]
        for a in stale:
            del self._table[a]

    def bucket(self, address: str, what: str) -> RateLimit:
        """The token bucket of ``what`` (connect, create, hint, replay, state, chat, token)
        for ``address``."""
        entry = self._get(address)
        limit = entry.buckets.get(what)
        if limit is None:
            s = self.settings
            rate, burst = {
                "connect": (s.connect_rate, s.connect_burst),
                "create": (s.create_rate, s.create_burst),
                "hint": (s.hint_rate, s.hint_burst),
                "replay": (s.replay_rate, s.replay_burst),
                "state": (s.state_rate, s.state_burst),
                "chat": (s.chat_rate, s.chat_burst),
                "token": (s.token_rate, s.token_burst),
            }[what]
            limit = entry.buckets[what] = RateLimit(rate, burst)
        return limit

    def allow(self, address: str, what: str) -> bool:
        return self.bucket(address, what).allow()

    def open_connection(self, address: str) -> str | None:
        """Count a new WebSocket connection; the reason it is refused, or None."""
        entry = self._get(address)
        if entry.connections >= self.settings.connections:
            return f"too many connections from this address (at most {self.settings.connections})"
        if not self.bucket(address, "connect").allow():
            return "too many new connections from this address: wait a moment"
        entry.connections += 1
        return None

    def close_connection(self, address: str) -> None:
        entry = self._table.get(address)
        if entry is not None and entry.connections > 0:
            entry.connections -= 1
            entry.seen = time.monotonic()


# -- Host allow-list ------------------------------------------------------------------------
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
HOST_VALUE = re.compile(r"^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")
WILDCARDS = ("0.0.0.0", "::", "")


def split_host(value: str) -> str:
    """The host name of a ``Host`` header (``name``, ``name:port``, ``[v6]:port``), lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].split("]", 1)[0]
    if value.count(":") == 1:
        return value.split(":", 1)[0]
    return value


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class HostPolicy:
    """Which ``Host`` values are served: ``localhost`` and the loopback addresses, the address
    the server is bound to, and the names given with ``--allowed-host`` (``*``: any). Bound to
    every address (``0.0.0.0``), any IP address is served too: a rebinding attack needs a
    name, and a page whose origin is an IP address of this server is this server's own."""

    def __init__(self, bound: str = "127.0.0.1", allowed: tuple[str, ...] = ()) -> None:
        self.any = "*" in allowed
        self.names = {split_host(n) for n in (*LOCAL_NAMES, bound, *allowed) if n and n != "*"}
        self.any_ip = split_host(bound) in WILDCARDS

    def allows(self, host: str | None) -> bool:
        if self.any:
            return True
        if not host or not HOST_VALUE.match(host):
            return False
        name = split_host(host)
        return name in self.names or (self.any_ip and is_ip(name))


class Guard:
    """ASGI middleware: the Host check, the security headers, and the time a request's body
    may take to arrive (``body_timeout`` seconds from the request's start: past it the
    application hears that the client went away, and answers 400). The time the headers may
    take is the HTTP server's (:mod:`sorry.web.serving`)."""

    def __init__(self, app: ASGIApp, hosts: HostPolicy, body_timeout: float = 10.0) -> None:
        self.app = app
        self.hosts = hosts
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = None
        for k, v in scope.get("headers", ()):
            if k == b"host":
                host = v.decode("latin-1")
                break
        if not self.hosts.allows(host):
            reason = "Host not allowed (DNS rebinding?): start the server with --allowed-host"
            if kind == "websocket":
                # accepted only to close it with the reason (a refused handshake has none)
                await receive()  # websocket.connect
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": 1008, "reason": reason[:120]})
                return
            await _json_response(send, 403, {"error": reason})
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        ws_origin = f"ws://{host} wss://{host}" if host else ""
        security = [
            (b"content-security-policy", CSP.format(ws=ws_origin).encode("latin-1")),
            (b"x-content-type-options", b"nosniff"),
            (b"x-frame-options", b"DENY"),
            (b"referrer-policy", b"no-referrer"),
            (b"cross-origin-opener-policy", b"same-origin"),
        ]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *security]
            await send(message)

        deadline = time.monotonic() + self.body_timeout

        async def receive_in_time() -> Message:
            try:
                return await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                return {"type": "http.disconnect", "timed_out": True}

        await self.app(scope, receive_in_time, send_with_headers)


async def _json_response(send: Send, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                (b"x-content-type-options", b"nosniff"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})
