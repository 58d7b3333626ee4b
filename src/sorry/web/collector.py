"""The garbage collector of a server process whose heap is mostly long-lived games.

Python's cyclic collector pauses the whole process (the event loop, the writer thread) for a
full collection in proportion to every object it tracks: in a server holding a few hundred
games that was 100,000 objects and 40-80 ms of CPU, several times a minute under a hint
flood, each pause a step in the latency of every move waiting meanwhile. Nearly all of those
objects live as long as their game; a full collection finds little among them.

:class:`Collector` takes the full collections over from the interpreter:

* what exists once the server has started is set aside (``gc.freeze()``), and so are the
  objects each full collection keeps: the next one looks only at what came since;
* the full collections run from the service's tick, as often as the interpreter's would (after
  every ten collections of the middle generation), but not while the server is busy (requests
  were admitted or waited since the last tick: a hint flood being answered), for at most
  ``defer`` seconds;
* every ``reclaim_every`` seconds the objects set aside are collected again once, in one full
  collection of everything (``gc.unfreeze`` then ``gc.collect``), which frees what has become
  cyclic garbage among them since (a game left, a connection closed); it too waits while the
  server is busy, at most another ``reclaim_every`` seconds.

The young generations are collected by the interpreter as before.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

#: The interpreter's own rule: a full collection after this many collections of the middle
#: generation (``gc.get_threshold()[2]``, 10); the collector keeps it.
FULL_AFTER = 10
#: With automatic full collections off, the oldest generation's threshold (never reached).
NEVER = 1 << 30


class Collector:
    """``reclaim_every``: seconds between two full collections of everything (> 0); ``busy``:
    whether the server had work waiting since the last call (the full collections wait for a
    quiet tick, at most ``defer`` seconds, the reclaim at most ``reclaim_every`` seconds)."""

    def __init__(
        self,
        reclaim_every: float,
        busy: Callable[[], bool] = lambda: False,
        defer: float = 10.0,
    ) -> None:
        if not reclaim_every > 0:
            raise ValueError("reclaim_every must be positive")
        self.reclaim_every = reclaim_every
        self.busy = busy
        self.defer = defer
        self._threshold: tuple[int, int, int] | None = None
        self._middle = 0  # collections of the middle generation at the last full one
        self._due_since: float | None = None  # when a full collection became due
        self._reclaimed = time.monotonic()
        self.collections = 0  # statistics (tests)
        self.reclaims = 0

    @staticmethod
    def _middle_collections() -> int:
        return int(gc.get_stats()[1]["collections"])

    def start(self) -> None:
        """Everything that exists now (the modules, the application, the games resumed) is set
        aside; from now on the full collections are the collector's."""
        gc.collect()
        gc.freeze()
        if self._threshold is None:
            self._threshold = gc.get_threshold()
            t0, t1, _t2 = self._threshold
            gc.set_threshold(t0, t1, NEVER)
        self._middle = self._middle_collections()
        self._reclaimed = time.monotonic()

    def stop(self) -> None:
        """The interpreter's own full collections again (the objects stay set aside)."""
        if self._threshold is not None:
            gc.set_threshold(*self._threshold)
            self._threshold = None

    def tick(self, now: float | None = None) -> None:
        """Called often (the service's tick): runs a full collection of what came since the
        last one, or of everything, when due and the server is quiet (or it is overdue)."""
        now = time.monotonic() if now is None else now
        busy = self.busy()
        since = now - self._reclaimed
        if since >= self.reclaim_every:
            if not busy or since >= 2 * self.reclaim_every:
                self.reclaim(now)
            return
        if self._middle_collections() - self._middle < FULL_AFTER:
            self._due_since = None
            return
        if self._due_since is None:
            self._due_since = now
        if busy and now - self._due_since < self.defer:
            return
        self.collect()

    def collect(self) -> int:
        """A full collection of what was not set aside, whose survivors are set aside then;
        returns how many objects were freed."""
        freed = gc.collect()
        gc.freeze()
        self._middle = self._middle_collections()
        self._due_since = None
        self.collections += 1
        return freed

    def reclaim(self, now: float | None = None) -> int:
        """One full collection of every object, the set-aside ones included; returns how many
        were freed."""
        gc.unfreeze()
        freed = self.collect()
        self._reclaimed = time.monotonic() if now is None else now
        self.reclaims += 1
        return freed
