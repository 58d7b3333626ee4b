"""The worker pool's order (sorry.web.workers.WorkerPool): bots first, then hints and
replays; the analysis of games still played (AHEAD) goes to a process of its own, one job at
a time, so that no bot or hint ever waits behind it. Stand-in executors record what is handed
to the workers and to the background process, and when each job ends is the test's to say."""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from typing import Any

from sorry.web.workers import AHEAD, BOT, LOW, WorkerPool


class Executor:
    """Takes jobs and holds them until the test finishes them."""

    def __init__(self) -> None:
        self.jobs: list[tuple[str, Future[Any]]] = []

    def submit(self, fn: Any, *args: Any) -> Future[Any]:
        fut: Future[Any] = Future()
        self.jobs.append((args[0], fut))
        return fut

    def running(self) -> list[str]:
        return [name for name, fut in self.jobs if not fut.done()]

    def finish(self, name: str) -> None:
        fut = next(f for n, f in self.jobs if n == name and not f.done())
        fut.set_result(name)


def _job(name: str) -> str:
    return name


def _pool(workers: int) -> tuple[WorkerPool, Executor, Executor]:
    pool = WorkerPool(workers)
    workers_, background = Executor(), Executor()
    pool._pool = lambda: workers_  # type: ignore[method-assign]
    pool._background_pool = lambda: background  # type: ignore[method-assign]
    return pool, workers_, background


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_bots_come_first_then_hints_and_the_analysis_ahead_never_takes_a_worker() -> None:
    async def scenario() -> None:
        pool, workers, background = _pool(1)
        busy = asyncio.ensure_future(pool.run(BOT, _job, "busy"))
        await _settle()
        jobs = [
            asyncio.ensure_future(pool.run(priority, _job, name))
            for priority, name in ((AHEAD, "a0"), (AHEAD, "a1"), (LOW, "hint"), (BOT, "bot"))
        ]
        await _settle()
        assert background.running() == ["a0"]  # at once, beside the busy worker
        for done in ("busy", "bot", "hint"):
            assert workers.running() == [done]  # one at a time, bots first
            workers.finish(done)
            await _settle()
        assert workers.running() == [] and background.running() == ["a0"]
        bot = asyncio.ensure_future(pool.run(BOT, _job, "bot2"))
        await _settle()
        assert workers.running() == ["bot2"]  # the worker is free: the analysis is not there
        background.finish("a0")
        await _settle()
        assert background.running() == ["a1"]  # one job at a time
        background.finish("a1")
        workers.finish("bot2")
        await asyncio.gather(busy, bot, *jobs)
        assert pool.waiting == 0 and not workers.running() and not background.running()

    asyncio.run(scenario())


def test_with_two_workers_hints_and_analyses_leave_one_for_the_bots() -> None:
    """Long low-priority jobs (a finished game's analysis, minutes while numba compiles it)
    take at most all workers but one: a bot's move starts at once; the waiting hints go on
    one at a time, and the worker they leave free serves the bots."""

    async def scenario() -> None:
        pool, workers, _background = _pool(2)
        low = [asyncio.ensure_future(pool.run(LOW, _job, f"analysis{i}")) for i in range(3)]
        await _settle()
        assert workers.running() == ["analysis0"]  # not the second worker
        bot = asyncio.ensure_future(pool.run(BOT, _job, "bot"))
        await _settle()
        assert workers.running() == ["analysis0", "bot"]
        workers.finish("bot")
        await _settle()
        assert workers.running() == ["analysis0"]  # still one: the other is the bots'
        workers.finish("analysis0")
        await _settle()
        assert workers.running() == ["analysis1"]
        workers.finish("analysis1")
        await _settle()
        workers.finish("analysis2")
        await asyncio.gather(bot, *low)
        assert pool.waiting == 0 and not workers.running()

    asyncio.run(scenario())


def test_with_one_worker_a_hint_may_take_it() -> None:
    async def scenario() -> None:
        pool, workers, _background = _pool(1)
        hint = asyncio.ensure_future(pool.run(LOW, _job, "hint"))
        await _settle()
        assert workers.running() == ["hint"]  # nobody else to run it
        workers.finish("hint")
        await hint

    asyncio.run(scenario())
