"""The game service of one server process: its parts, built once and wired together, and
their lifecycle (start, the tick, stop).

=========================  ================================================================
:mod:`sorry.web.cache`     the games in memory: loading, catching up, letting go
:mod:`sorry.web.audience`  who is on a game and what each is told (states, deltas, seats)
:mod:`sorry.web.games`     creating games, judging and committing moves, seats, matches
:mod:`sorry.web.hosting`   the waiting room: start, ready, the host's actions
:mod:`sorry.web.room`      a game's room settings, turn timers and away seats
:mod:`sorry.web.bots`      bots, hints, replays and records: the worker pool's jobs
:mod:`sorry.web.chat`      a game's chat
:mod:`sorry.web.db`        the storage (and its migrations, :mod:`sorry.web.migrations`)
=========================  ================================================================

The protocol's messages are declared in :mod:`sorry.web.messages`, dispatched by
:mod:`sorry.web.handlers` and carried by :mod:`sorry.web.session`; the HTTP routes are
:mod:`sorry.web.app`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import logging
from typing import Any

from .audience import Audience
from .bots import Bots, FinishedGames, Hints
from .cache import GameCache
from .clocks import Clocks
from .collector import Collector
from .config import Settings
from .db import Database
from .games import Games
from .hosting import Hosting
from .limits import AddressLimits, Turns
from .live import LiveGame
from .people import People
from .results import Results
from .room import timed_out
from .workers import WorkerPool

log = logging.getLogger("sorry.web")


def _malloc_trim() -> Any:
    """glibc's ``malloc_trim``, or None: gives the C heap's free pages back to the system."""
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None


class GameService:
    """Every game this process serves, backed by one :class:`Database`."""

    def __init__(self, db: Database, settings: Settings | None = None) -> None:
        self.db = db
        self.settings = settings or Settings()
        self.pool = WorkerPool(self.settings.workers)
        self.limits = AddressLimits(self.settings.limits)  # per client address
        self.turns = Turns()  # hints and new connections' states: one a turn of the loop
        self.audience = Audience(self.settings)
        self.cache = GameCache(db, self.settings, self.audience)
        self.hosting = Hosting(self.cache)
        self.games = Games(self.cache, self.hosting)
        self.bots = Bots(self.cache, self.games, self.pool)
        self.hints = Hints(self.settings, self.pool)
        self.finished = FinishedGames(self.pool)
        self.people = People(self.cache, self.games, self.settings)
        self.results = Results(self.cache, self.people, self.settings)
        self.results.service = self
        self.clocks = Clocks(self.cache, self.people, self.settings)
        self.collector: Collector | None = None
        self._admitted = 0  # Turns.admitted at the last tick (_busy)
        if self.settings.gc_reclaim_every is not None:
            self.collector = Collector(self.settings.gc_reclaim_every, self._busy)
        self._ticker: asyncio.Task[None] | None = None
        self._listener: Any = None
        self._trim = _malloc_trim()
        self.closed_since_trim = 0  # connections closed since the heap was last trimmed

    @property
    def live(self) -> dict[str, LiveGame]:
        """The games in memory, by id."""
        return self.cache.live

    async def get(self, game_id: str) -> LiveGame | None:
        return await self.cache.get(game_id)

    async def start(self) -> None:
        """Resume the games that play by themselves (all bots, if allowed) and start the
        background work; every other game is loaded when somebody opens it."""
        self.cache.loop = asyncio.get_running_loop()
        if self.settings.allow_bot_games:
            ids = await asyncio.to_thread(self.db.bot_game_ids, self.settings.max_games)
            for gid in ids:
                await self.cache.get(gid)
        self._ticker = asyncio.create_task(self._tick_loop())
        self.cache.spawn(self.results.sweep())  # games a stopped process left unsettled
        self.clocks.start()  # correspondence clocks, the notifications' sender
        if self.collector is not None:
            self.collector.start()
        if self.settings.listen and not self.db.is_sqlite:
            from .notify import Listener

            self._listener = Listener(self.db, self.cache.notified, self.cache.reconnected)
            self._listener.start()

    async def stop(self) -> None:
        await self.clocks.stop()
        if self.collector is not None:
            self.collector.stop()
        if self._listener is not None:
            self._listener.stop()
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(BaseException):
                await self._ticker
        await self.cache.stop()
        await self.bots.stop()
        await asyncio.to_thread(self.pool.stop)
        for g in self.live.values():
            for c in list(g.conns):
                c.close()

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.tick)
            try:
                self.tick()
            except Exception:  # pragma: no cover - keep ticking whatever happens
                log.exception("tick failed")

    def _busy(self) -> bool:
        """Requests came since the last call (hints or new connections admitted), or are
        waiting (for their turn, searches for a worker)."""
        admitted, self._admitted = self._admitted, self.turns.admitted
        return admitted != self._admitted or self.turns.waiting > 0 or self.pool.waiting > 0

    def tick(self) -> None:
        """Turn timers run out; bots take over absent players; a stalled bot seat is
        restarted; games nobody watches and that have nothing to do leave memory (they are
        loaded again on demand); the garbage collector's survivors are set aside
        (sorry.web.collector); after many connections closed, the C heap's free pages go back
        to the system."""
        self.cache.evict()
        if self.collector is not None:
            self.collector.tick()
        if self.closed_since_trim >= 100 and self._trim is not None:
            self.closed_since_trim = 0
            self._trim(0)
        for live in list(self.live.values()):
            if live.game.is_over():
                continue
            if timed_out(live):
                self.audience.broadcast_seats(live)
            if self.bots.tick(live):
                self.audience.broadcast_seats(live)

    # -- what other parts ask of the whole ------------------------------------------------
    async def finished_json(self, live: LiveGame, what: str) -> bytes:
        """A finished game's replay or record (:class:`sorry.web.bots.FinishedGames`)."""
        return await self.finished.json(live, what)
