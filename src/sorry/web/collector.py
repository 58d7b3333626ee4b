"""The garbage collector of a server process whose heap is mostly long-lived games.

Python's cyclic collector pauses the whole process (the event loop, the writer thread) for a
full collection in proportion to every object it tracks: in a server holding a few hundred
games that was 100,000 objects and 40-80 ms of CPU, several times a minute under a hint
flood, each pause a step in the latency of every move waiting meanwhile. Nearly all of those
objects live as long as their game; a full collection finds little among them.

:class:`Collector` sets the survivors aside instead: what exists once the server has started
(``gc.freeze()``), and after each full collection the objects it kept, so that the next full
collection looks only at what came since (a few milliseconds). Every ``reclaim_every``
seconds the set-aside objects are collected again once, in one full collection (``gc.unfreeze``
then ``gc.collect``), which frees what has become cyclic garbage among them since (a game
left, a connection closed); that pause waits, up to another ``reclaim_every`` seconds,
while the server has requests waiting (a flood being answered).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable


class Collector:
    """``reclaim_every``: seconds between two full collections of everything (> 0);
    ``busy``: whether the server has work waiting now (the reclaim waits for a quiet moment,
    at most ``reclaim_every`` seconds more)."""

    def __init__(self, reclaim_every: float, busy: Callable[[], bool] = lambda: False) -> None:
        if not reclaim_every > 0:
            raise ValueError("reclaim_every must be positive")
        self.reclaim_every = reclaim_every
        self.busy = busy
        self._full = 0  # full collections seen (gc.get_stats)
        self._reclaimed = time.monotonic()
        self.freezes = 0  # statistics (tests)
        self.reclaims = 0

    @staticmethod
    def _full_collections() -> int:
        return int(gc.get_stats()[2]["collections"])

    def start(self) -> None:
        """Everything that exists now (the modules, the application, the games resumed) is set
        aside."""
        gc.collect()
        self._freeze()
        self._reclaimed = time.monotonic()

    def _freeze(self) -> None:
        gc.freeze()
        self._full = self._full_collections()
        self.freezes += 1

    def tick(self, now: float | None = None) -> None:
        """Called often (the service's tick): sets aside the survivors of a full collection
        that ran since the last call; runs the periodic full collection of everything when
        it is due (and the server is quiet, or it is overdue)."""
        now = time.monotonic() if now is None else now
        since = now - self._reclaimed
        if since >= self.reclaim_every and (since >= 2 * self.reclaim_every or not self.busy()):
            self.reclaim(now)
        elif self._full_collections() != self._full:
            self._freeze()

    def reclaim(self, now: float | None = None) -> int:
        """One full collection of every object, the set-aside ones included; returns how many
        were freed."""
        gc.unfreeze()
        freed = gc.collect()
        self._freeze()
        self._reclaimed = time.monotonic() if now is None else now
        self.reclaims += 1
        return freed
