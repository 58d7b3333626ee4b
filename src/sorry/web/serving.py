"""The HTTP server's side of the limits: uvicorn's HTTP protocol with a time limit on a request's
headers.

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
from typing import Any


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
            if self._in_request():
                self._disarm()

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
