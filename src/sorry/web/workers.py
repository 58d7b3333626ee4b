"""CPU work off the hot path: bots and hints run in a bounded pool of worker processes.

The event loop only judges, commits and sends; the database writes have their own thread
(:class:`sorry.web.db.GroupWriter`). Everything that searches (a bot choosing its move, a
hint, the frames of a replay) is sent to :class:`WorkerPool`: ``workers`` processes started
with a lower scheduling priority (``nice``), so that a flood of searches can slow the searches
but not the games. The pool keeps at most one job per process in flight and queues the rest
itself, by priority: bots first (a game waits for them), then hints and replays. The
low-priority queue is bounded: beyond ``queue_limit`` waiting jobs a new one is refused with
:class:`PoolBusy` (the client is told to try again).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..rng import Rng
from ..view import PlayerView
from .players import Chooser, hint, make_bot

log = logging.getLogger("sorry.web")

#: Scheduling priority added to the worker processes (``os.nice``).
WORKER_NICE = 10
BOT, LOW = 0, 1  # job priorities: a game waits for its bot; hints and replays can wait


class PoolBusy(Exception):
    """Too many hints and replays are waiting already."""


# -- what runs in the worker processes ------------------------------------------------------
_bots: dict[tuple[str, float | None], Chooser] = {}


def _init_worker(server_pid: int) -> None:
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the server, which stops us
    threading.Thread(target=_watch_server, args=(server_pid,), daemon=True).start()


def _server_alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:  # Linux: a killed server may linger as a zombie
            return fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def _watch_server(pid: int) -> None:
    """A worker leaves as soon as its server is gone, even SIGKILLed (nothing else tells it:
    it holds both ends of its own job queue)."""
    while True:
        time.sleep(0.5)
        if not _server_alive(pid):
            os._exit(0)


def bot_move(level: str, time_limit: float | None, view: PlayerView, seed: int) -> str:
    """The move the bot of ``level`` chooses on ``view`` with the generator ``seed``."""
    key = (level, time_limit)
    bot = _bots.get(key)
    if bot is None:
        bot = _bots[key] = make_bot(level, time_limit)
    return str(bot.choose(view, Rng(seed)))


def hint_move(view: PlayerView, seed: int) -> str:
    """A suggested move for the viewer (``sorry.bots.hint``)."""
    return str(hint(view, Rng(seed)))


def _noop() -> None:
    return None


# -- the pool, seen from the event loop -------------------------------------------------------
class WorkerPool:
    def __init__(self, workers: int = 1, queue_limit: int = 64) -> None:
        if workers < 1:
            raise ValueError("the worker pool needs at least one process")
        self.workers = workers
        self.queue_limit = queue_limit
        self._executor: ProcessPoolExecutor | None = None
        self._queues: tuple[collections.deque[Any], collections.deque[Any]] = (
            collections.deque(),
            collections.deque(),
        )
        self._busy = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self.done = 0  # jobs finished (statistics)

    def _context(self) -> Any:
        # forkserver: workers fork from a clean process (the server has threads), and the
        # modules they need are imported once there; spawn where forkserver is missing
        try:
            ctx = multiprocessing.get_context("forkserver")
        except ValueError:  # pragma: no cover - platforms without forkserver
            return multiprocessing.get_context("spawn")
        ctx.set_forkserver_preload(["sorry.web.workers", "sorry.bots"])
        return ctx

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=self._context(),
                initializer=_init_worker,
                initargs=(os.getpid(),),
            )
        return self._executor

    async def start(self) -> None:
        """Start the processes now (else they start with the first job)."""
        await self.run(BOT, _noop)

    def stop(self) -> None:
        for q in self._queues:
            while q:
                _fn, _args, fut = q.popleft()
                if not fut.done():
                    fut.cancel()
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    @property
    def waiting(self) -> int:
        return len(self._queues[BOT]) + len(self._queues[LOW])

    async def run(self, priority: int, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker process (``fn`` and its arguments must pickle)."""
        loop = asyncio.get_running_loop()
        self._loop = loop
        if priority == LOW and len(self._queues[LOW]) >= self.queue_limit:
            raise PoolBusy("the server is busy: try again in a moment")
        fut: asyncio.Future[Any] = loop.create_future()
        self._queues[priority].append((fn, args, fut))
        self._dispatch()
        return await fut

    async def bot_move(
        self, level: str, time_limit: float | None, view: PlayerView, seed: int
    ) -> str:
        return str(await self.run(BOT, bot_move, level, time_limit, view, seed))

    async def hint(self, view: PlayerView, seed: int) -> str:
        return str(await self.run(LOW, hint_move, view, seed))

    def _dispatch(self) -> None:
        while self._busy < self.workers:
            item = None
            for q in self._queues:
                while q and item is None:
                    candidate = q.popleft()
                    if not candidate[2].done():  # skip jobs whose caller gave up
                        item = candidate
                if item is not None:
                    break
            if item is None:
                return
            fn, args, fut = item
            try:
                cf = self._pool().submit(fn, *args)
            except (BrokenProcessPool, RuntimeError) as exc:
                self._broken(exc)
                fut.set_exception(exc)
                continue
            self._busy += 1
            cf.add_done_callback(self._on_done(fut))

    def _on_done(self, fut: asyncio.Future[Any]) -> Callable[[Future[Any]], None]:
        loop = self._loop
        assert loop is not None

        def done(cf: Future[Any]) -> None:  # in the executor's thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(self._finished, cf, fut)

        return done

    def _finished(self, cf: Future[Any], fut: asyncio.Future[Any]) -> None:
        self._busy -= 1
        self.done += 1
        exc = cf.exception() if not cf.cancelled() else asyncio.CancelledError()
        if isinstance(exc, BrokenProcessPool):
            self._broken(exc)
        if not fut.done():
            if exc is not None:
                fut.set_exception(exc)
            else:
                fut.set_result(cf.result())
        self._dispatch()

    def _broken(self, exc: BaseException) -> None:
        """A worker died (killed, out of memory): start a fresh pool for the next jobs."""
        log.error("a worker process died (%s); starting new ones", exc)
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
