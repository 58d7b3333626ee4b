"""The worker processes load the compiled search from numba's cache, and when it must be
compiled, have it compiled by another process (a compile in a worker held its interpreter
for minutes, and the bots' moves waiting there with it)."""

from __future__ import annotations

import importlib
import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytest.importorskip("numba")

from sorry.fast.cache import CompileNeeded
from sorry.web import workers
from sorry.web.workers import load_or_compile

TINY = '''
import os

import numba


@numba.njit(cache=True)
def double(x):
    return 2 * x


def warm(cached_only=False):
    """Like sorry.bots.rollouts.warmup, for one small function; notes which process
    compiled or loaded it."""
    if cached_only:
        from sorry.fast.cache import cache_only

        with cache_only():
            return double(21)
    result = double(21)
    with open(os.environ["TINY_LOG"], "a") as fh:
        fh.write(f"{os.getpid()} {sum(double.stats.cache_misses.values())} "
                 f"{sum(double.stats.cache_hits.values())}\\n")
    return result
'''


def test_a_compile_is_done_by_another_process_then_loaded_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "sorry_tiny_warm_" + os.urandom(4).hex()
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(TINY))
    log = tmp_path / "log"
    monkeypatch.setenv("TINY_LOG", str(log))
    monkeypatch.setattr(workers, "LOCK_FOLDER", str(tmp_path))  # not the machine's
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), *sys.path]))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        tiny = importlib.import_module(name)
        # the cache (tmp_path/__pycache__) is empty: a cache-only load refuses, compiles nothing
        with pytest.raises(CompileNeeded, match="double"):
            tiny.warm(cached_only=True)
        assert tiny.double.signatures == []

        assert load_or_compile(f"{name}:warm") is True
        lines = [line.split() for line in log.read_text().splitlines()]
        # another process compiled it (a cache miss there), then this one loaded it (a hit)
        assert len(lines) == 2
        (child, child_misses, child_hits), (here, _refused, here_hits) = lines
        assert int(child) != os.getpid() and (int(child_misses), int(child_hits)) == (1, 0)
        assert int(here) == os.getpid() and int(here_hits) == 1  # loaded, not compiled
        assert tiny.double(4) == 8

        # loaded now: nothing more to compile or load
        assert load_or_compile(f"{name}:warm") is False
        assert len(log.read_text().splitlines()) == 2
    finally:
        sys.modules.pop(name, None)


def test_a_worker_waiting_for_a_compile_loads_the_cache_whoever_wrote_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While another process holds the compile lock (a compile at the lowest priority, which
    a busy machine may starve for long), a worker waits, looking at the cache; when anyone
    else writes it (a command compiling the same code at its own priority), it loads it then,
    without compiling, and without waiting for the lock."""
    import subprocess
    import threading

    name = "sorry_tiny_poll_" + os.urandom(4).hex()
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(TINY))
    log = tmp_path / "log"
    monkeypatch.setenv("TINY_LOG", str(log))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), *sys.path]))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(workers, "LOCK_FOLDER", str(tmp_path))
    try:
        tiny = importlib.import_module(name)
        outcome: list[bool] = []
        with workers._compile_lock() as mine:  # another compile under way
            assert mine
            waiting = threading.Thread(
                target=lambda: outcome.append(load_or_compile(f"{name}:warm", poll=0.05))
            )
            waiting.start()
            waiting.join(0.5)
            assert waiting.is_alive() and not log.exists()  # it waits, compiles nothing
            subprocess.run([sys.executable, "-c", f"import {name}; {name}.warm()"], check=True)
            waiting.join(60)
            assert not waiting.is_alive() and outcome == [False]  # loaded, the lock still held
        ((child, misses, _hits),) = (line.split() for line in log.read_text().splitlines())
        assert int(child) != os.getpid() and int(misses) == 1  # the other process compiled it
        assert sum(tiny.double.stats.cache_hits.values()) == 1  # this one loaded it
        assert tiny.double(4) == 8
    finally:
        sys.modules.pop(name, None)


def test_the_analysis_warmup_loads_from_the_cache_once_compiled() -> None:
    """What the workers load beside the search: the after-game analysis' rollouts; once
    compiled (by this process or another), a cache-only load finds everything it needs."""
    from sorry.analysis.estimator import warmup

    warmup()
    warmup(cached_only=True)  # CompileNeeded if the cache lacked a function it calls


def test_an_analysis_job_is_asked_again_while_its_worker_loads_the_analysis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker's first analysis job begins its loading of the compiled analysis; until it
    is loaded a job is refused at once (it would compile in the worker, holding it for
    minutes); the server asks again."""
    import asyncio

    from sorry.web import analysis, workers

    loads: list[str] = []
    load = workers._AnalysisLoad()
    load.worker = True
    monkeypatch.setattr(load, "_load", lambda: loads.append("begun"))
    monkeypatch.setattr(workers, "_ANALYSIS", load)
    assert loads == []  # nothing loaded before an analysis is asked for
    for job, args in (
        (analysis.start_job, ("(the record: not read)", 4)),
        (analysis.chunk_job, ("(not read)", 4, 0, 1)),
        (analysis.final_job, ("(not read)", 4, None, [])),
        (analysis.ahead_job, ({}, {}, 4, 0, 1, True)),
    ):
        with pytest.raises(analysis.AnalysisLoading):  # at once, before any work
            job(*args)  # type: ignore[operator]
    deadline = time.monotonic() + 10
    while not loads and time.monotonic() < deadline:  # the loading's thread
        time.sleep(0.01)
    assert loads == ["begun"]  # by the first job, once
    load.ready.set()
    assert not workers.analysis_loading()

    asked: list[int] = []

    async def run(priority: int, fn: object, *args: object) -> str:
        asked.append(priority)
        if len(asked) < 3:
            raise analysis.AnalysisLoading("still loading")
        return "valued"

    monkeypatch.setattr(analysis, "ASK_AGAIN_AFTER", 0.01)
    assert asyncio.run(analysis._retry(run, workers.LOW, analysis.chunk_job)) == "valued"
    assert asked == [workers.LOW] * 3
