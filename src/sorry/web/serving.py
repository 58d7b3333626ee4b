"""The HTTP server's side of the limits: uvicorn's HTTP protocol with a time limit on a request's
headers; neither it nor its WebSocket protocol leaves a garbage cycle behind a closed
WebSocket.

uvicorn waits for a request's headers as long as the client takes: a client that opens a
connection and sends half a request line, or a header a minute, holds a connection and its
buffers for ever (a thousand of them were held for 40 s, and would have been for hours). With
:func:`protocol_with_header_timeout`, a connection must send the whole of a request's headers
within ``seconds`` of its first byte (or of its opening): past that it is closed. The time a
request's body may take is the application's (:class:`sorry.web.limits.Guard`); an idle
connection between two requests is uvicorn's keep-alive timeout's.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .config import Settings


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """How ``sorry serve`` runs uvicorn (besides the address and the log level)."""
    return {
        "ws_max_size": 16 * 1024,
        "http": protocol_with_header_timeout(settings.header_timeout),
        "ws": websocket_protocol(),
        # messages are small deltas: compressing each costs more CPU (and a compressor's
        # memory per connection) than the bytes it saves
        "ws_per_message_deflate": False,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        "timeout_graceful_shutdown": 3,
    }


def protocol_with_header_timeout(seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools or h11, as uvicorn chooses) closing a connection
    whose request headers take longer than ``seconds``."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    base: Any = AutoHTTPProtocol

    class HeaderTimeout(base):  # type: ignore[misc]
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            if not self._in_request():
                self._arm()  # the first bytes of a request: its headers' time starts now
            super().data_received(data)
            if self.transport.get_protocol() is not self:
                self._upgraded()
            elif self._in_request():
                self._disarm()

        def _upgraded(self) -> None:
            """Upgraded to a WebSocket: this protocol is done with. httptools' parser calls it
            back through bound methods (a cycle, left to the garbage collector, which kept
            every closed WebSocket's transport and buffers for minutes): let it go."""
            self._disarm()
            if getattr(self, "parser", None) is not None:
                self.parser = None

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _in_request(self) -> bool:
            """A request's headers are in, and its response is not finished."""
            cycle = getattr(self, "cycle", None)
            return cycle is not None and not cycle.response_complete

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(seconds, self._expired)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _expired(self) -> None:
            self._header_timer = None
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return  # closed, or upgraded to a WebSocket
            if not self._in_request():
                transport.close()

    return HeaderTimeout


def websocket_protocol() -> type[asyncio.Protocol]:
    """uvicorn's WebSocket protocol (as uvicorn chooses) whose connection, once lost, is freed
    at once by reference counting.

    The ``websockets`` library's sans-I/O connection holds its parser, a generator whose frame
    holds the connection: a cycle, left to the garbage collector. A connection that lived a few
    seconds has been moved to the oldest generation by then, which the server collects rarely
    (:mod:`sorry.web.collector`): every closed connection's buffers, handshake and frames stayed
    in memory for up to ten minutes, and a thousand connections opened and closed added 5-8 MB
    each time. Closing the finished parser breaks the cycle."""
    from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

    base: Any = AutoWebSocketsProtocol

    class Uncycled(base):  # type: ignore[misc]
        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            parser = getattr(getattr(self, "conn", None), "parser", None)
            close = getattr(parser, "close", None)
            if close is not None:
                close()  # no more bytes come: its frame (and the cycle through it) goes

    return Uncycled
