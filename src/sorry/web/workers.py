"""CPU work off the hot path: bots, hints, replays and records run in a bounded pool of worker
processes.

The event loop only judges, commits and sends; the database writes have their own thread
(:class:`sorry.web.db.GroupWriter`). Everything that searches or replays a whole game (a bot
choosing its move, a hint, a finished game's replay and record) is sent to
:class:`WorkerPool`: ``workers`` processes started with a lower scheduling priority (``nice``),
so that a flood of searches can slow the searches but not the games. The pool keeps at most
one trip per process in flight and queues the rest itself, by priority: bots first (a game
waits for them), then hints, replays and records. The analysis of games still played
(:data:`AHEAD`) has a process of its own, at a lower priority still (:data:`BACKGROUND_NICE`),
one job at a time: no bot or hint ever queues behind it, and the system gives it only the CPU
the workers leave. The moves of quick bots
(no search) waiting together travel in one trip, so that a busy server does not pay a trip
per move. With two workers or more, hints, replays, records and finished games' analyses
never hold the last one: a bot's move always finds a worker within one bot's move, however
long the low-priority work takes. The low-priority queue is
bounded: beyond ``queue_limit`` waiting jobs a new one is refused with :class:`PoolBusy` (the
client is told to try again).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import importlib
import logging
import multiprocessing
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..board import COLOUR_LETTERS
from ..cards import card_name, parse_card
from ..effects import effects_json
from ..game import Game, Resign
from ..moves import Move
from ..record import Commitment, GameRecord, Seat, initial_deck
from ..rng import MASK64, Rng
from ..view import PlayerView
from .players import Chooser, HintResult, hint_estimates, make_bot
from .protocol import dumps, paths_of, public_view, view_json

log = logging.getLogger("sorry.web")

#: Scheduling priority added to the worker processes (``os.nice``).
WORKER_NICE = 10
#: And to the process that analyses games still played (:data:`AHEAD`): below the workers, so
#: that a bot's search or a hint always comes first, above the lowest (19) that a machine's
#: batch work may use.
BACKGROUND_NICE = 15
#: job priorities: a game waits for its bot; hints and replays can wait; the analysis of a
#: game still played (sorry.web.analysis) goes to the background process
BOT, LOW, AHEAD = 0, 1, 2


class PoolBusy(Exception):
    """Too many hints and replays are waiting already."""


# -- what runs in the worker processes ------------------------------------------------------
_bots: dict[tuple[str, float | None], Chooser] = {}


def _init_worker(server_pid: int, nice: int = WORKER_NICE) -> None:
    with contextlib.suppress(OSError):
        os.nice(nice)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the server, which stops us
    threading.Thread(target=_watch_server, args=(server_pid,), daemon=True).start()
    # beside the jobs, not before them: compiling takes minutes on a busy machine when
    # numba's cache is cold, and the quick bots need none of it (a search that does waits
    # for numba's compiler lock)
    _WARMING.set()
    _ANALYSIS.worker = True
    threading.Thread(target=_warmup, name="sorry-warmup", daemon=True).start()


#: Set while a worker loads the compiled search: meanwhile no job waits for it (a hint is the
#: medium bot's choice, the expert plays as the hard bot), so that a search never holds the
#: worker, and the bots' moves queued behind it, for the minutes a cold compile can take.
_WARMING = threading.Event()


class _AnalysisLoad:
    """A worker's loading of the after-game analysis' compiled rollouts: begun by its first
    analysis job (a worker that never analyses pays nothing), beside its jobs; until it is
    done analysis jobs are refused (:class:`sorry.web.analysis.AnalysisLoading`, asked again a
    moment later) rather than compile in the worker, which would hold it, and any bot queued
    there, for minutes on a cold cache."""

    def __init__(self) -> None:
        self.worker = False  # set in the worker processes (elsewhere a job loads as it goes)
        self.ready = threading.Event()
        self._begun = threading.Lock()
        self._started = False

    def pending(self) -> bool:
        if not self.worker or self.ready.is_set():
            return False
        with self._begun:
            if not self._started:
                self._started = True
                threading.Thread(target=self._load, name="sorry-analysis-load", daemon=True).start()
        return True

    def _load(self) -> None:
        try:
            load_or_compile(ANALYSIS_WARMUP)
        except Exception:  # pragma: no cover - an analysis job then compiles what it needs
            log.exception("the compiled analysis could not be loaded")
        finally:
            self.ready.set()


_ANALYSIS = _AnalysisLoad()


def _warmup() -> None:
    """Load the compiled search now (the first hint or expert move would pay for it)."""
    try:
        load_or_compile()
    except Exception:  # pragma: no cover - the searches fall back to Python then
        log.exception("the compiled search could not be loaded")
    finally:
        _WARMING.clear()


def analysis_loading() -> bool:
    """Whether this process, a worker, must still load the compiled analysis before it
    analyses (the first time it is asked, the loading begins)."""
    return _ANALYSIS.pending()


#: What loads (or compiles) the compiled search: ``module:function``, called with
#: ``cached_only=True`` to load from numba's cache only, or with no argument to compile.
WARMUP = "sorry.bots.rollouts:warmup"
#: And the after-game analysis' compiled rollouts.
ANALYSIS_WARMUP = "sorry.analysis.estimator:warmup"


def _target(spec: str) -> Callable[..., Any]:
    module, _, name = spec.partition(":")
    fn: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return fn


#: Seconds between looks at numba's cache while a compile is under way.
CACHE_POLL = 1.0
#: The folder of the machine's compile lock (None: the system's temporary folder).
LOCK_FOLDER: str | None = None


def load_or_compile(spec: str = WARMUP, poll: float = CACHE_POLL) -> bool:
    """Load the compiled search from numba's cache into this process; if the cache lacks it
    (a new version, a first start), have it compiled by a process of its own at the lowest
    priority, then load it. Compiling in a worker itself (minutes of CPU, holding its
    interpreter lock) made the bots' moves queued there wait up to a second; and every worker
    compiled the same code. One compile at a time on the machine (a lock file): the other
    workers wait for it. Meanwhile every one of them looks at the cache every ``poll`` seconds
    and loads it as soon as it is there, whoever wrote it (at the lowest priority a compile can
    take very long on a busy machine, while a command or a test compiles the same code at its
    own); a compile no longer needed is stopped. Returns whether this process had it
    compiled."""
    warm = _target(spec)
    try:
        from ..fast.cache import CompileNeeded
    except ImportError:  # no fast extra: nothing is compiled
        warm()
        return False

    def cached() -> bool:
        try:
            warm(cached_only=True)
            return True
        except CompileNeeded:
            return False

    if cached():
        return False
    while True:
        with _compile_lock() as mine:
            if mine:
                if cached():  # written meanwhile
                    return False
                _compile_elsewhere(spec, cached, poll)
                break
        time.sleep(poll)  # another process compiles it
        if cached():
            return False
    warm()  # from the cache now (it compiles here only if numba could not write its cache)
    return True


def _compile_elsewhere(spec: str, cached: Callable[[], bool], poll: float) -> None:
    """Compile ``spec`` in a process of its own (:func:`_compile`) until it is done or the
    cache has what it needs (another process wrote it)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", f"from sorry.web.workers import _compile; _compile({spec!r})"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )
    try:
        while True:
            try:
                proc.wait(poll)
                return
            except subprocess.TimeoutExpired:
                if cached():
                    return
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(10)


@contextlib.contextmanager
def _compile_lock() -> Iterator[bool]:
    """The machine's compile lock, if free: whether it was taken."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        yield True
        return
    folder = LOCK_FOLDER or tempfile.gettempdir()
    path = os.path.join(folder, f"sorry-compile-{os.getuid()}.lock")
    with open(path, "a") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _compile(spec: str) -> None:
    """The compiling process (see :func:`load_or_compile`): lowest priority, and it leaves
    as soon as the worker that started it is gone."""
    with contextlib.suppress(OSError):
        os.nice(19)
    threading.Thread(target=_watch_server, args=(os.getppid(),), daemon=True).start()
    _target(spec)()


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
    if level == "expert" and _WARMING.is_set():
        level = "hard"  # the expert's search needs the compiled rollouts still loading
    key = (level, time_limit)
    bot = _bots.get(key)
    if bot is None:
        bot = _bots[key] = make_bot(level, time_limit)
    return str(bot.choose(view, Rng(seed)))


def hint_move(view: PlayerView, seed: int) -> HintResult:
    """A suggested move for the viewer and each move's chance of winning
    (``sorry.web.players.hint_estimates``); while the compiled search loads, the medium bot's
    move with no estimates."""
    if _WARMING.is_set():
        move = bot_move("medium", None, view, seed)
        return {"move": move, "moves": [], "separated": False, "provisional": True}
    return hint_estimates(view, Rng(seed))


def replay_json(game_id: str, data: dict[str, Any], log: list[dict[str, Any]]) -> str:
    """The replay of a finished game (``Game.to_dict()``) as JSON: its frames, the public
    view after each decision with the log entry that led there (with its paths and
    effects), and in the points variant every hand (revealed: the game is over)."""
    start = dict(data, steps=[], current=data["initial"], winners=[], scores=None)
    game = Game.from_dict(start)
    points = game.rules.points

    def hands(g: Game) -> dict[str, list[str]] | None:
        if not points:
            return None
        return {COLOUR_LETTERS[c]: [card_name(x) for x in g.hands[c]] for c in g.colours}

    frames = [{"seq": 0, "entry": None, "view": view_json(public_view(game)), "hands": hands(game)}]
    entries = iter(log)
    for step in data["steps"]:
        if step.startswith("draw:"):
            game.draw(parse_card(step[5:]))
            continue
        if step.startswith("resign:"):  # a frame of its own: nothing moves, or pawns leave
            game.resign(Resign.parse(step).colour)
            done = []
        else:
            move = Move.parse(step)
            done = game.effects(move)
            game.push(move)
        entry = next(entries, None)
        if entry is not None:
            entry = dict(entry, paths=paths_of(done), effects=effects_json(done))
        frames.append(
            {
                "seq": entry["seq"] if entry else len(frames),
                "entry": entry,
                "view": view_json(public_view(game)),
                "hands": hands(game),
            }
        )
    return dumps({"id": game_id, "frames": frames})


def record_json(
    data: dict[str, Any], seats: dict[int, Seat], nonce: str | None, meta: dict[str, Any]
) -> str:
    """The game record of a finished game (``sorry.record``: seats, every draw and move, the
    result, and the revealed seed, deck and nonce of the commitment published at the start)
    as JSON."""
    game = Game.from_dict(data)
    commitment = None
    if nonce is not None:
        commitment = Commitment(game.seed & MASK64, initial_deck(game), nonce)
    return GameRecord.from_game(game, seats, commitment=commitment, meta=meta).to_json()


def _noop() -> None:
    return None


def run_many(jobs: list[tuple[Callable[..., Any], tuple[Any, ...]]]) -> list[tuple[bool, Any]]:
    """Several quick jobs in one trip to a worker: ``(True, result)`` or ``(False, error)``
    for each."""
    out: list[tuple[bool, Any]] = []
    for fn, args in jobs:
        try:
            out.append((True, fn(*args)))
        except Exception as exc:  # reported to that job's caller only
            out.append((False, exc))
    return out


#: Bot levels that choose in well under a millisecond (no search; the learned network's one
#: ply: 0.1-0.3 ms): their moves travel to the workers together, up to :data:`BATCH` at a
#: time, instead of one trip each.
QUICK_LEVELS = frozenset({"random", "easy", "medium", "learned"})
BATCH = 32


# -- the pool, seen from the event loop -------------------------------------------------------
class WorkerPool:
    def __init__(self, workers: int = 1, queue_limit: int = 64) -> None:
        if workers < 1:
            raise ValueError("the worker pool needs at least one process")
        self.workers = workers
        self.queue_limit = queue_limit
        self._executor: ProcessPoolExecutor | None = None
        self._queues: tuple[collections.deque[Any], ...] = (
            collections.deque(),
            collections.deque(),
            collections.deque(),
        )
        self._busy = 0
        self._low_busy = 0  # of which hints, replays, records and analyses (LOW)
        self._background: ProcessPoolExecutor | None = None  # the AHEAD jobs' process
        self._ahead_busy = 0  # AHEAD jobs in the background process now (0 or 1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.done = 0  # jobs finished (statistics)
        self.trips = 0  # trips to a worker (statistics: quick jobs share them)

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

    def _background_pool(self) -> ProcessPoolExecutor:
        if self._background is None:
            self._background = ProcessPoolExecutor(
                max_workers=1,
                mp_context=self._context(),
                initializer=_init_worker,
                initargs=(os.getpid(), BACKGROUND_NICE),
            )
        return self._background

    async def start(self) -> None:
        """Start the processes now (else they start with the first job)."""
        await self.run(BOT, _noop)

    def stop(self) -> None:
        for q in self._queues:
            while q:
                fut = q.popleft()[2]
                if not fut.done():
                    fut.cancel()
        for executor in (self._executor, self._background):
            if executor is not None:
                _shut(executor)
        self._executor = self._background = None

    @property
    def waiting(self) -> int:
        """Jobs waiting for a worker (the analysis of games still played, in a process of
        its own, not counted)."""
        return len(self._queues[BOT]) + len(self._queues[LOW])

    async def run(
        self, priority: int, fn: Callable[..., Any], *args: Any, quick: bool = False
    ) -> Any:
        """``fn(*args)`` in a worker process (``fn`` and its arguments must pickle). ``quick``
        jobs (well under a millisecond) may share a trip to a worker with others."""
        loop = asyncio.get_running_loop()
        self._loop = loop
        if priority == LOW and len(self._queues[LOW]) >= self.queue_limit:
            raise PoolBusy("the server is busy: try again in a moment")
        fut: asyncio.Future[Any] = loop.create_future()
        self._queues[priority].append((fn, args, fut, quick))
        self._dispatch()
        return await fut

    async def bot_move(
        self, level: str, time_limit: float | None, view: PlayerView, seed: int
    ) -> str:
        quick = level in QUICK_LEVELS
        return str(await self.run(BOT, bot_move, level, time_limit, view, seed, quick=quick))

    async def hint(self, view: PlayerView, seed: int) -> HintResult:
        result: HintResult = await self.run(LOW, hint_move, view, seed)
        return result

    def _take(self, priorities: tuple[int, ...] = (BOT, LOW)) -> tuple[int, list[Any]]:
        """The next jobs for a free worker and their priority: the first waiting (bots
        first), and the quick jobs waiting behind it when it is quick itself."""
        for priority in priorities:
            q = self._queues[priority]
            taken: list[Any] = []
            while q:
                candidate = q[0]
                if candidate[2].done():  # its caller gave up
                    q.popleft()
                    continue
                if (taken and not (candidate[3] and taken[0][3])) or len(taken) >= BATCH:
                    break
                taken.append(q.popleft())
            if taken:
                return priority, taken
        return BOT, []

    def _dispatch(self) -> None:
        while self._ahead_busy == 0:  # the background process: one job at a time
            _priority, jobs = self._take((AHEAD,))
            if not jobs:
                break
            self._submit(AHEAD, jobs)
        while self._busy < self.workers:
            priority, jobs = self._take((BOT, LOW) if self._low_may_start() else (BOT,))
            if not jobs:
                return
            self._submit(priority, jobs)

    def _low_may_start(self) -> bool:
        """Whether a LOW job may take a worker now: always with one worker, else while one
        worker is left for the bots."""
        return self.workers == 1 or self._low_busy < self.workers - 1

    def _submit(self, priority: int, jobs: list[Any]) -> None:
        futs = [fut for _fn, _args, fut, _quick in jobs]
        pool = self._background_pool if priority == AHEAD else self._pool
        try:
            if len(jobs) == 1:
                fn, args, _fut, _quick = jobs[0]
                cf = pool().submit(fn, *args)
            else:
                cf = pool().submit(run_many, [(fn, args) for fn, args, *_ in jobs])
        except (BrokenProcessPool, RuntimeError) as exc:
            self._broken(exc, priority)
            for fut in futs:
                fut.set_exception(exc)
            return
        if priority == AHEAD:
            self._ahead_busy += 1
        else:
            self._busy += 1
            self._low_busy += priority == LOW
        self.trips += 1
        cf.add_done_callback(self._on_done(futs, priority))

    def _on_done(
        self, futs: list[asyncio.Future[Any]], priority: int
    ) -> Callable[[Future[Any]], None]:
        loop = self._loop
        assert loop is not None

        def done(cf: Future[Any]) -> None:  # in the executor's thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(self._finished, cf, futs, priority)

        return done

    def _finished(
        self, cf: Future[Any], futs: list[asyncio.Future[Any]], priority: int = BOT
    ) -> None:
        if priority == AHEAD:
            self._ahead_busy -= 1
        else:
            self._busy -= 1
            self._low_busy -= priority == LOW
        self.done += len(futs)
        exc = cf.exception() if not cf.cancelled() else asyncio.CancelledError()
        if isinstance(exc, BrokenProcessPool):
            self._broken(exc, priority)
        if exc is not None:
            outcomes: list[tuple[bool, Any]] = [(False, exc)] * len(futs)
        elif len(futs) == 1:
            outcomes = [(True, cf.result())]
        else:
            outcomes = cf.result()
        for fut, (ok, value) in zip(futs, outcomes, strict=True):
            if fut.done():
                continue
            if ok:
                fut.set_result(value)
            else:
                fut.set_exception(value)
        self._dispatch()

    def _broken(self, exc: BaseException, priority: int = BOT) -> None:
        """A worker died (killed, out of memory): start a fresh pool for the next jobs."""
        log.error("a worker process died (%s); starting new ones", exc)
        if priority == AHEAD:
            executor, self._background = self._background, None
        else:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


def _shut(executor: ProcessPoolExecutor, grace: float = 3.0) -> None:
    """Stop a pool's processes: they finish the job in hand (a search is capped) and leave;
    one that has not left after ``grace`` seconds (stuck, or still starting) is terminated,
    so that stopping the server never hangs on a worker."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + grace
    for proc in processes:
        proc.join(max(0.0, deadline - time.monotonic()))
        if proc.is_alive():
            proc.terminate()
            proc.join(1.0)
