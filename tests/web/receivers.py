"""Local receivers for the notification tests: an HTTP server on 127.0.0.1 that records each
POST (a webhook's receiver) and an SMTP server (aiosmtpd) that records each message. Both are
started by the test and stopped after it."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from server_helpers import free_port


class Receiver:
    """A small HTTP server on 127.0.0.1 that records each POST; ``mode`` chooses its answer."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, dict[str, str], bytes]] = []
        self.mode = "ok"
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args: Any) -> None:
                pass

            def do_POST(self) -> None:
                n = int(self.headers.get("Content-Length", "0"))
                receiver.posts.append((self.path, dict(self.headers), self.rfile.read(n)))
                if receiver.mode == "redirect":
                    self.send_response(302)
                    self.send_header("Location", "http://10.0.0.1/steal")
                    self.end_headers()
                elif receiver.mode == "slow":
                    time.sleep(2.0)
                    self.send_response(200)
                    self.end_headers()
                elif receiver.mode == "error":
                    self.send_response(503)
                    self.end_headers()
                elif receiver.mode == "huge":
                    self.send_response(200)
                    self.send_header("Content-Length", str(50_000_000))
                    self.end_headers()
                    with contextlib.suppress(OSError):
                        self.wfile.write(b"x" * 1_000_000)
                else:
                    self.send_response(204)
                    self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook?topic=sorry"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@contextlib.contextmanager
def smtp_receiver() -> Iterator[tuple[int, list[Any]]]:
    """An SMTP server on 127.0.0.1: (its port, the envelopes it received)."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.handlers import Sink

    got: list[Any] = []

    class Handler(Sink):
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
            got.append(envelope)
            return "250 OK"

    port = free_port()
    ctl = Controller(Handler(), hostname="127.0.0.1", port=port)
    ctl.start()
    try:
        yield port, got
    finally:
        ctl.stop()
