"""A game's chat: free text and quick phrases, from players and spectators.

* Text is plain: at most :data:`MAX_CHAT_CHARS` characters, printable, whitespace collapsed.
  The page shows it with ``textContent`` (never as HTML), so nothing in it can run.
* Quick phrases travel as an id from :data:`PHRASES`; each page says them in its own language.
* Each connection may send one message every two seconds on average (bursts of four); the
  host may switch the chat off for everyone (:mod:`sorry.web.room`). Muting a player is the
  reader's choice, kept by the page.
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

if TYPE_CHECKING:
    from .protocol import ClientMessage
    from .service import Conn, GameService, LiveGame

MAX_CHAT_CHARS = 200
HISTORY = 100
RATE = 0.5  # messages per second a connection may send on average
BURST = 4.0
#: Quick phrases, by id (the page translates them).
PHRASES = ("hello", "good_luck", "nice_move", "oops", "sorry", "well_played", "thanks", "bye")


def clean_text(text: object) -> str:
    """A chat line: printable, trimmed, at most 200 characters (ValueError otherwise)."""
    if not isinstance(text, str):
        raise ValueError("chat text must be a string")
    line = " ".join(text.split())
    if not line:
        raise ValueError("chat text is empty")
    if len(line) > MAX_CHAT_CHARS:
        raise ValueError(f"chat text must be at most {MAX_CHAT_CHARS} characters")
    if any(not ch.isprintable() for ch in line):
        raise ValueError("chat text must be printable")
    return line


@dataclass(frozen=True)
class ChatMessage:
    n: int
    colour: str | None  # the seat of the writer, None for a spectator
    who: str  # the writer's connection (spectators are muted by it)
    name: str
    text: str | None
    phrase: str | None
    at: float

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

    def allow(self, conn: Conn) -> bool:
        bucket = self._limits.get(conn)
        if bucket is None:
            bucket = self._limits[conn] = _Bucket()
        return bucket.allow()

    def add(
        self, colour: str | None, who: str, name: str, text: str | None, phrase: str | None
    ) -> ChatMessage:
        self.count += 1
        msg = ChatMessage(self.count, colour, who, name, text, phrase, time.time())
        self.messages.append(msg)
        return msg

    def history_message(self) -> dict[str, Any]:
        return {"type": "chat_history", "messages": [m.to_json() for m in self.messages]}


def handle(service: GameService, live: LiveGame, conn: Conn, cm: ClientMessage) -> None:
    """A chat message from ``conn``: refused with a reason, or sent to everyone."""
    room = live.room
    if not room.settings.chat:
        conn.send({"type": "error", "code": "chat_off", "error": "the host switched chat off"})
        return
    if not room.chat.allow(conn):
        conn.send({"type": "error", "code": "chat_rate", "error": "one chat message at a time"})
        return
    if conn.seat is not None:
        colour: str | None = COLOUR_LETTERS[conn.seat]
        name = live.seats[conn.seat].name
    else:
        colour = None
        name = cm.name or "Spectator"
    msg = room.chat.add(colour, conn.ident, name, cm.text, cm.phrase)
    out = {"type": "chat", "message": msg.to_json()}
    for c in list(live.conns):
        c.send(out)
