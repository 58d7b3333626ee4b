"""One WebSocket connection, from its handshake to its close: the hello, the limits, the
dispatch of each message to its handler (:data:`sorry.web.handlers.ROUTES`), and the writer.

Limits, checked before a message is handled:

* every message counts against the connection's allowance (``Settings.rate``/``burst``);
  past it each is answered ``rate_limited``, and after :data:`MAX_VIOLATIONS` the connection
  is closed;
* a message of cost class ``state`` (a whole state) against the connection's allowance of
  whole states and its address's; ``fanout`` (sent to everyone on the game) against its
  address's chat allowance (:mod:`sorry.web.chat` adds the connection's and the game's);
* a hello with a wrong token against its address's allowance of wrong tokens: past it the
  connection is closed (1008) without the token being looked at.

What the server sends waits in the connection's queue, bounded in bytes
(:class:`sorry.web.conn.Conn`): a client that does not read is dropped, and its writer is
cancelled rather than left waiting for a socket that does not drain.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket, WebSocketDisconnect

from ..board import COLOUR_LETTERS
from .conn import Conn
from .handlers import ROUTES, Context
from .i18n import request_language
from .limits import RateLimit
from .live import LiveGame
from .messages import MAX_MESSAGE_BYTES, Cost, Hello, ProtocolError, error, parse_client_message
from .passwords import SESSION_COOKIE

if TYPE_CHECKING:
    from .accounts import Account
    from .service import GameService

HELLO_TIMEOUT = 15.0
MAX_VIOLATIONS = 40  # rate-limit violations before the connection is closed
#: a connection's whole states (resync): one every 5 s on average, bursts of 3
STATE_RATE, STATE_BURST = 0.2, 3.0


async def run(ws: WebSocket, service: GameService, live: LiveGame, address: str) -> None:
    """Serve one accepted WebSocket of ``live`` until it closes."""
    live.opening += 1  # not evicted from memory before its hello
    conn = Conn(max_bytes=service.settings.max_queued_bytes)
    conn.address = address
    conn.lang = request_language(ws)  # the page's language (cookie, else Accept-Language)
    writer = asyncio.create_task(_writer(ws, conn))
    limit = RateLimit(service.settings.rate, service.settings.burst)
    ctx = Context(service, live, conn, RateLimit(STATE_RATE, STATE_BURST))
    cookie = ws.cookies.get(SESSION_COOKIE)
    ctx.session = cookie if cookie and len(cookie) <= 100 else None
    violations = 0
    attached = False
    try:
        while not conn.closed:
            try:
                timeout = None if attached else HELLO_TIMEOUT
                msg = await asyncio.wait_for(ws.receive(), timeout)
            except TimeoutError:
                conn.send(error("timeout", "send hello first"))
                conn.close(1008, "no hello: send hello first")
                break
            if msg["type"] == "websocket.disconnect":
                break
            raw = msg.get("text")
            if raw is None:
                raw = msg.get("bytes") or b""
            if not limit.allow():
                violations += 1
                if violations == 1 or violations % 10 == 0:
                    conn.send(error("rate_limited", "too many messages: slow down"))
                if violations >= MAX_VIOLATIONS:
                    conn.close(1008, "too many messages: closed")
                    break
                continue
            try:
                payload = parse_client_message(raw)
            except ProtocolError as exc:
                conn.send(error(exc.code, exc.message))
                continue
            if not attached:
                if not isinstance(payload, Hello):
                    conn.send(error("hello_first", "the first message must be hello"))
                    continue
                attached = await _hello(ctx, payload)
                continue
            refused = _over_allowance(ctx, payload.COST)
            if refused is not None:
                conn.send(error("rate_limited", refused))
                continue
            await ROUTES[payload.TYPE].handler(ctx, payload)
    except WebSocketDisconnect:
        pass
    finally:
        if attached:
            service.audience.detach(ctx.live, conn)
        else:
            ctx.live.opening = max(0, ctx.live.opening - 1)
        service.closed_since_trim += 1
        if conn.dropped:
            writer.cancel()
        conn.close()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(writer, 10)
        with contextlib.suppress(Exception):
            await ws.close()


def _over_allowance(ctx: Context, cost: Cost) -> str | None:
    """Why a message of ``cost`` is refused now, or None."""
    limits = ctx.service.limits
    if cost is Cost.STATE:
        if not ctx.states.allow():
            return "too many whole states asked on this connection: wait a moment"
        if not limits.allow(ctx.conn.address, "state"):
            return "too many whole states asked from this address: wait a moment"
    return None


async def _hello(ctx: Context, hello: Hello) -> bool:
    """The handshake: a seat's token checked (wrong ones limited per address), the welcome,
    the whole state. Returns whether the connection is now attached to the game."""
    service, conn = ctx.service, ctx.conn
    if hello.seat is not None:
        wrong = service.limits.bucket(conn.address, "token")
        if wrong.empty:  # refused before the token is even looked at
            conn.send(error("rate_limited", "too many wrong tokens from this address"))
            conn.close(1008, "too many wrong tokens from this address")
            return False
        if hello.token is None:  # the seat of the account whose session this is
            account = await _account(ctx)
            held = service.people.holds(ctx.live, hello.seat, account)
        else:
            held = await service.games.seat_token(ctx.live, hello.seat, hello.token)
        if not held:
            conn.send(error("bad_token", "wrong seat or token"))
            wrong.allow()
            return False
        conn.seat = hello.seat
    account = await _account(ctx)
    if account is not None:  # whom it blocked: their chat is not sent to this connection
        conn.account = account.id
        conn.hidden = await service.people.hidden_from(account.id)
    await service.turns.turn()  # the full state waits for its turn (moves first)
    fresh = await service.cache.get(ctx.live.id)  # the game object in memory now
    if fresh is not None and fresh is not ctx.live:
        ctx.live.opening = max(0, ctx.live.opening - 1)
        ctx.live = fresh
        ctx.live.opening += 1
    conn.send(
        {
            "type": "welcome",
            "game": ctx.live.id,
            "seat": COLOUR_LETTERS[conn.seat] if conn.seat is not None else None,
            "role": "player" if conn.seat is not None else "spectator",
            "max_message_bytes": MAX_MESSAGE_BYTES,
        }
    )
    service.audience.attach(ctx.live, conn)
    return True


async def _account(ctx: Context) -> Account | None:
    """The account of the session the WebSocket's handshake carried (looked up once)."""
    if ctx.session is None:
        return None
    if ctx.account is None:
        ctx.account = await ctx.service.people.account(ctx.session)
    return ctx.account


async def _writer(ws: WebSocket, conn: Conn) -> None:
    try:
        while True:
            text = await conn.next()
            if text is None:
                break
            await ws.send_text(text)
    except Exception:
        conn.closed = True
    finally:
        if not conn.closed:
            conn.closed = True
        with contextlib.suppress(Exception):
            await ws.close(code=conn.close_code, reason=conn.close_reason[:120])
