"""What the server does with each client message: the dispatch table, one row a message type
(its payload, declared in :mod:`sorry.web.messages`, with its cost class, and its handler),
and the handlers.

A handler gets the session's :class:`Context` and the parsed payload, and answers through
``ctx.conn``; the session has already applied the limits of the payload's cost class
(:mod:`sorry.web.session`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..board import COLOUR_LETTERS
from ..i18n import using
from . import chat
from .bots import words_of
from .conn import Conn
from .limits import RateLimit
from .live import LiveGame
from .messages import (
    Back,
    ChatRequest,
    Hello,
    HintRequest,
    Leave,
    MoveRequest,
    Payload,
    Ping,
    React,
    Reaction,
    ResignRequest,
    Resync,
    UndoRequest,
    error,
    rejected,
)
from .protocol import hint_words
from .room import acted, turn_began

if TYPE_CHECKING:
    from .accounts import Account
    from .service import GameService


@dataclass
class Context:
    """One connection's session, as its handlers see it."""

    service: GameService
    live: LiveGame
    conn: Conn
    #: this connection's allowance of whole states (besides its address's)
    states: RateLimit
    #: the account session the WebSocket's handshake carried (its cookie), if any
    session: str | None = None
    #: its account, once looked up (None: not yet, or no valid session)
    account: Account | None = None


Handler = Callable[[Context, Any], Awaitable[None]]


@dataclass(frozen=True)
class Route:
    payload: type[Payload]
    handler: Handler


async def on_hello(ctx: Context, msg: Hello) -> None:
    """A second hello (the first is the session's handshake)."""
    ctx.conn.send(error("already_hello", "hello was already sent"))


async def on_ping(ctx: Context, msg: Ping) -> None:
    ctx.conn.send({"type": "pong", "seq": ctx.live.seq})


async def on_resync(ctx: Context, msg: Resync) -> None:
    ctx.service.audience.send_state(ctx.live, ctx.conn, full=True)


async def on_chat(ctx: Context, msg: ChatRequest) -> None:
    address = ctx.service.limits.bucket(ctx.conn.address, "chat")
    chat.say(ctx.live, ctx.conn, msg, address)


def _seated(ctx: Context) -> int | None:
    """The connection's seat, or None having told a spectator it cannot play."""
    if ctx.conn.seat is None:
        ctx.conn.send(rejected("spectator", "spectators cannot play", ctx.live.seq))
    return ctx.conn.seat


async def on_back(ctx: Context, msg: Back) -> None:
    seat = _seated(ctx)
    if seat is not None and acted(ctx.live, seat):
        turn_began(ctx.live)
        ctx.service.audience.broadcast_seats(ctx.live)


async def on_leave(ctx: Context, msg: Leave) -> None:
    """The player leaves. With another person at the table their seat is away at once (a bot
    plays it, as after a turn timer ran out) until they are back, so that nobody waits for
    them. Alone with bots, the game is theirs: it waits at their turn, nothing played for
    them, until they come back (the game's link, or the lobby's list of their games)."""
    seat = _seated(ctx)
    live = ctx.live
    if seat is None or not live.room.settings.started or live.game.is_over():
        return
    if not any(s.kind == "human" for c, s in live.seats.items() if c != seat):
        if acted(live, seat):  # a turn timer that ran out before: theirs again when back
            ctx.service.audience.broadcast_seats(live)
        return
    live.room.away.add(seat)
    ctx.service.audience.broadcast_seats(live)
    ctx.service.cache.changed(live)  # the bot takes the turn if it is theirs


async def on_resign(ctx: Context, msg: ResignRequest) -> None:
    """The player resigns: committed, then everyone is told (docs/rules.md, Resigning)."""
    seat = _seated(ctx)
    if seat is None:
        return
    ctx.conn.send(await ctx.service.games.resign(ctx.live, seat))


async def on_undo(ctx: Context, msg: UndoRequest) -> None:
    """Take back the player's last move, in a casual game against bots only."""
    seat = _seated(ctx)
    if seat is None:
        return
    live = ctx.live
    reply = await ctx.service.games.undo(live, seat, msg.seq, live.room.settings.rated)
    ctx.conn.send(reply)
    if reply["type"] == "rejected" and reply["code"] == "stale":
        ctx.service.audience.send_state(live, ctx.conn)


async def on_move(ctx: Context, msg: MoveRequest) -> None:
    seat = _seated(ctx)
    if seat is None:
        return
    reply = await ctx.service.games.submit(ctx.live, seat, msg.seq, msg.move)
    ctx.conn.send(reply)
    if reply["type"] == "rejected" and reply["code"] == "stale":
        ctx.service.audience.send_state(ctx.live, ctx.conn)  # what changed since its state


async def on_hint(ctx: Context, msg: HintRequest) -> None:
    seat = _seated(ctx)
    if seat is None:
        return
    service = ctx.service
    await service.turns.turn()  # hints wait for their turn: the games' moves first
    limit = service.limits.bucket(ctx.conn.address, "hint")
    reply = await service.hints.hint_for(ctx.live, seat, msg.seq, limit)
    if reply["type"] == "hint":
        with using(ctx.conn.lang):  # the hint's words in the client's language
            reply["text"] = hint_words(ctx.live.game, reply["move"])
            reply["words"] = words_of(reply["moves"], reply["rough"])
    ctx.conn.send(reply)
    if reply["type"] == "rejected" and reply["code"] == "stale":
        service.audience.send_state(ctx.live, ctx.conn)


async def on_react(ctx: Context, msg: React) -> None:
    live, conn = ctx.live, ctx.conn
    log = live.room.chat
    if not live.room.settings.chat:
        conn.send(error("chat_off", "the host switched chat off"))
        return
    spectator = conn.seat is None
    if (
        not log.allow(conn)
        or not ctx.service.limits.allow(conn.address, "chat")
        or (spectator and not log.spectators.allow())
    ):
        conn.send(error("chat_rate", "one chat message at a time"))
        return
    out: Reaction = {
        "type": "reaction",
        "colour": None if conn.seat is None else COLOUR_LETTERS[conn.seat],
        "name": None if conn.seat is None else live.seats[conn.seat].name,
        "emoji": msg.emoji,
    }
    chat.send_to_all(live, out, chat.writer_account(live, conn))


#: Every client message: its payload (and so its cost class) and its handler.
ROUTES: dict[str, Route] = {
    r.payload.TYPE: r
    for r in (
        Route(Hello, on_hello),
        Route(MoveRequest, on_move),
        Route(HintRequest, on_hint),
        Route(Resync, on_resync),
        Route(Ping, on_ping),
        Route(ChatRequest, on_chat),
        Route(Back, on_back),
        Route(Leave, on_leave),
        Route(ResignRequest, on_resign),
        Route(UndoRequest, on_undo),
        Route(React, on_react),
    )
}
