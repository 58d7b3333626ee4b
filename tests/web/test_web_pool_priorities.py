"""The worker pool's order (sorry.web.workers.WorkerPool): bots first, then hints and
replays, last the analysis of games still played (AHEAD), which never takes the last free
worker when there are two or more. A stand-in executor records what is handed to the
workers, and when each job ends is the test's to say."""

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


def _pool(workers: int) -> tuple[WorkerPool, Executor]:
    pool = WorkerPool(workers)
    executor = Executor()
    pool._pool = lambda: executor  # type: ignore[method-assign]
    return pool, executor


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_with_one_worker_the_advance_analysis_waits_for_bots_and_hints() -> None:
    async def scenario() -> list[str]:
        pool, executor = _pool(1)
        busy = asyncio.ensure_future(pool.run(BOT, _job, "busy"))
        await _settle()
        order = []
        jobs = [
            asyncio.ensure_future(pool.run(priority, _job, name))
            for priority, name in ((AHEAD, "ahead"), (LOW, "hint"), (BOT, "bot"))
        ]
        for done in ("busy", "bot", "hint", "ahead"):
            assert executor.running() == [done]  # one at a time, in this order
            executor.finish(done)
            await _settle()
            order.append(done)
        await asyncio.gather(busy, *jobs)
        return order

    assert asyncio.run(scenario()) == ["busy", "bot", "hint", "ahead"]


def test_with_two_workers_one_is_always_free_for_a_bot() -> None:
    async def scenario() -> None:
        pool, executor = _pool(2)
        ahead = [asyncio.ensure_future(pool.run(AHEAD, _job, f"a{k}")) for k in range(3)]
        await _settle()
        assert executor.running() == ["a0"]  # not a second one: the other worker waits
        bot = asyncio.ensure_future(pool.run(BOT, _job, "bot"))
        await _settle()
        assert executor.running() == ["a0", "bot"]  # at once
        executor.finish("a0")
        await _settle()
        assert executor.running() == ["bot", "a1"]
        executor.finish("bot")
        executor.finish("a1")
        await _settle()
        assert executor.running() == ["a2"]
        executor.finish("a2")
        await asyncio.gather(bot, *ahead)
        assert pool.waiting == 0

    asyncio.run(scenario())
