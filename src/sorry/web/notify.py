"""Fan-out between server processes sharing one PostgreSQL database: LISTEN/NOTIFY.

:meth:`sorry.web.db.Database.commit_move` sends ``NOTIFY sorry_moves, 'GAME:SEQ'`` inside the
transaction that commits a move, so PostgreSQL delivers it only once the move is durable. Each
server process runs one :class:`Listener` (a thread with its own connection) that calls back
for every notification; the service then reloads the game from the database and pushes the new
state to its own WebSocket clients. A lost connection is re-established, and after
reconnecting every loaded game is checked (a notification sent meanwhile is not replayed).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import psycopg

from .db import Database

log = logging.getLogger("sorry.web")


def libpq_url(sqlalchemy_url: str) -> str:
    return sqlalchemy_url.replace("postgresql+psycopg://", "postgresql://", 1)


class Listener:
    def __init__(
        self,
        db: Database,
        callback: Callable[[str], None],
        on_reconnect: Callable[[], None] | None = None,
    ) -> None:
        self.url = libpq_url(db.engine.url.render_as_string(hide_password=False))
        self.channel = db.channel
        self.callback = callback
        self.on_reconnect = on_reconnect
        self._stop = threading.Event()
        self.ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sorry-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()
        self.ready.wait(10)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {self.channel}")
                    self.ready.set()
                    if not first and self.on_reconnect is not None:
                        self.on_reconnect()
                    first = False
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            try:
                                self.callback(note.payload)
                            except Exception:  # pragma: no cover
                                log.exception("notification handler failed")
            except psycopg.Error:
                log.warning("LISTEN connection lost; reconnecting")
                time.sleep(1.0)
