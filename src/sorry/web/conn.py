"""One WebSocket client as the game side sees it: who it is, what it was told, and its queue of
messages waiting to be written.

The queue is bounded in **bytes**, not in messages (a full state with its log may be 100 KB, a
delta 200 bytes): a client that does not read what it is sent is dropped when more than
``max_bytes`` wait for it, its queue emptied at once (the memory goes back, not when the
socket's writer gives up) and the writer told to stop (:attr:`dropped`).
"""

from __future__ import annotations

import asyncio
import collections
import secrets
from typing import Any

from .protocol import dumps

#: Bytes that may wait in one connection's queue (a slow reader beyond this is dropped).
MAX_QUEUED_BYTES = 1 << 20


class Conn:
    """One WebSocket client. Messages are queued; a writer task sends them in order."""

    def __init__(self, ident: str = "", max_bytes: int = MAX_QUEUED_BYTES) -> None:
        self.ident = ident or secrets.token_hex(4)
        self.seat: int | None = None
        self.lang = "en"  # the client's language (sorry.web.i18n): words of moves and log
        self.address = ""  # the client's address (per-address limits)
        #: the account of the session the client's hello carried (None: a guest), and the
        #: accounts it blocked: their chat lines and reactions are not sent to it
        self.account: int | None = None
        self.hidden: frozenset[int] = frozenset()
        self.max_bytes = max_bytes
        self.queued_bytes = 0  # what waits in the queue now
        self._queue: collections.deque[str | None] = collections.deque()
        self._ready = asyncio.Event()
        self.closed = False
        self.dropped = False  # closed for not reading: the writer stops at once
        self.close_code, self.close_reason = 1000, ""  # the WebSocket's, when it closes
        # the state this client has (the last full state with the deltas since applied,
        # without the log): what the next delta is computed against
        self.state: dict[str, Any] | None = None

    def send(self, message: Any) -> None:
        self.send_text(dumps(message))

    def send_text(self, text: str) -> None:
        """Queue a message already in JSON (a client over its byte allowance is dropped)."""
        if self.closed:
            return
        size = len(text)
        if self.queued_bytes + size > self.max_bytes:
            self.drop("too many messages waiting: the client does not read them")
            return
        self.queued_bytes += size
        self._queue.append(text)
        self._ready.set()

    async def next(self) -> str | None:
        """The next message to write (None: close the socket now)."""
        while not self._queue:
            self._ready.clear()
            await self._ready.wait()
        return self.take()

    def take(self) -> str | None:
        """The next message waiting, at once (tests; there must be one)."""
        text = self._queue.popleft()
        if text is not None:
            self.queued_bytes -= len(text)
        return text

    @property
    def waiting(self) -> int:
        """Messages waiting to be written."""
        return len(self._queue)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close once the messages queued are sent, with ``code`` and ``reason``."""
        if not self.closed:
            self.closed = True
            self.close_code, self.close_reason = code, reason
            self._queue.append(None)
            self._ready.set()

    def drop(self, reason: str) -> None:
        """Close at once, what waits thrown away (the client does not read)."""
        self._queue.clear()
        self.queued_bytes = 0
        self.dropped = True
        self.state = None
        if not self.closed:
            self.closed = True
            self.close_code, self.close_reason = 1008, reason
        self._queue.append(None)
        self._ready.set()
