"""A game's chat: free text and quick phrases, from players and spectators.

* Text is plain: at most :data:`MAX_CHAT_CHARS` characters, printable, whitespace collapsed.
  The page shows it with ``textContent`` (never as HTML), so nothing in it can run.
* Quick phrases travel as an id from :data:`PHRASES`; each page says them in its own language.
* Each connection may send one message every two seconds on average (bursts of four), each
  client address one a second (bursts of six, whatever its connections), and the spectators of
  a game together :data:`SPECTATOR_RATE` a second (the players' lines are not held up by
  them); the host may switch the chat off for everyone (:mod:`sorry.web.room`). Muting a
  player is the reader's choice, kept by the page. **Blocking** is an account's: the lines
  (and reactions) of an account it blocked are never sent to its connections
  (:attr:`Conn.hidden <sorry.web.conn.Conn.hidden>`), the history included.
* A spectator's name may not be a seat's colour, a reserved word, or a player's name
  (:func:`sorry.web.tokens.spectator_name`).
* The last :data:`HISTORY` messages stay with the game in memory and are sent to whoever
  opens the page; they are not written to the database (a restarted server starts a fresh
  chat) and they are not shared between server processes.
"""

from __future__ import annotations

import time
import weakref
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..board import COLOUR_LETTERS
from .limits import RateLimit
from .protocol import dumps
from .tokens import BadValue, spectator_name

if TYPE_CHECKING:
    from .conn import Conn
    from .live import LiveGame
    from .messages import ChatRequest

HISTORY = 100
RATE = 0.5  # messages per second a connection may send on average
BURST = 4.0
SPECTATOR_RATE = 1.0  # lines per second the spectators of one game may send together
SPECTATOR_BURST = 5.0


@dataclass(frozen=True)
class ChatMessage:
    n: int
    colour: str | None  # the seat of the writer, None for a spectator
    who: str  # the writer's connection (spectators are muted by it)
    name: str
    text: str | None
    phrase: str | None
    at: float
    account: int | None = None  # the writer's account (never sent): who blocked it does not see it

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "colour": self.colour,
            "who": self.who,
            "name": self.name,
            "text": self.text,
            "phrase": self.phrase,
            "at": round(self.at, 3),
        }


class _Bucket:
    def __init__(self) -> None:
        self.tokens = BURST
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class ChatLog:
    """The recent messages of one game and each connection's allowance."""

    def __init__(self) -> None:
        self.messages: deque[ChatMessage] = deque(maxlen=HISTORY)
        self.count = 0
        self._limits: weakref.WeakKeyDictionary[Conn, _Bucket] = weakref.WeakKeyDictionary()
        self.spectators = RateLimit(SPECTATOR_RATE, SPECTATOR_BURST)

    def allow(self, conn: Conn) -> bool:
        bucket = self._limits.get(conn)
        if bucket is None:
            bucket = self._limits[conn] = _Bucket()
        return bucket.allow()

    def add(
        self,
        colour: str | None,
        who: str,
        name: str,
        text: str | None,
        phrase: str | None,
        account: int | None = None,
    ) -> ChatMessage:
        self.count += 1
        msg = ChatMessage(self.count, colour, who, name, text, phrase, time.time(), account)
        self.messages.append(msg)
        return msg

    def history_message(self, hidden: frozenset[int] = frozenset()) -> dict[str, Any]:
        """The recent lines, without those of the accounts in ``hidden`` (the reader's blocks)."""
        return {
            "type": "chat_history",
            "messages": [m.to_json() for m in self.messages if m.account not in hidden],
        }


def writer_account(live: LiveGame, conn: Conn) -> int | None:
    """The account a line or reaction from ``conn`` comes from: its seat's, or the session's of
    a spectator."""
    if conn.seat is not None:
        return live.seats[conn.seat].account_id
    return conn.account


def send_to_all(live: LiveGame, message: object, account: int | None) -> None:
    """``message`` to every connection on the game but those that blocked ``account``."""
    text = dumps(message)
    for c in list(live.conns):
        if account is None or account not in c.hidden:
            c.send_text(text)


def say(live: LiveGame, conn: Conn, request: ChatRequest, address: RateLimit) -> None:
    """A chat message from ``conn``: refused with a reason, or sent to everyone. ``address``:
    the allowance of the connection's client address."""
    room = live.room
    if not room.settings.chat:
        conn.send({"type": "error", "code": "chat_off", "error": "the host switched chat off"})
        return
    name = request.name
    if conn.seat is None:
        try:
            name = spectator_name(name, [s.name for s in live.seats.values()])
        except BadValue as exc:
            conn.send({"type": "error", "code": "bad_field", "error": str(exc)})
            return
    refused = not room.chat.allow(conn) or not address.allow()
    if not refused and conn.seat is None:
        refused = not room.chat.spectators.allow()
    if refused:
        conn.send({"type": "error", "code": "chat_rate", "error": "one chat message at a time"})
        return
    if conn.seat is not None:
        colour: str | None = COLOUR_LETTERS[conn.seat]
        name = live.seats[conn.seat].name
    else:
        colour = None
        name = name or "Spectator"
    account = writer_account(live, conn)
    msg = room.chat.add(colour, conn.ident, name, request.text, request.phrase, account)
    send_to_all(live, {"type": "chat", "message": msg.to_json()}, account)
