"""Running many games: the per-game seeds, the batches, and the backends (one process, a pool
of processes, or Ray). Every backend plays the same games: game ``i`` of a run uses
``derive_seed(master, i)`` (in a tournament, deal ``i // seats``), and results are put back in
game order, so the totals are identical whatever ran them."""

from __future__ import annotations

import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import IO, TYPE_CHECKING, Any

from ..errors import SorryError
from ..game import Game
from ..i18n import N_, _
from ..playout import UNSUPPORTED as PLAYOUT_UNSUPPORTED, random_bots_game
from ..rng import Rng, derive_seed
from ..rules import Rules

if TYPE_CHECKING:  # the bots are imported when a run needs them (not by the playouts)
    from ..bots.base import Bot

BACKENDS = ("process", "ray")

#: The engines that play a run, fastest first: ``fast`` (the compiled engine, extra ``fast``:
#: random, easy and medium bots), ``playout`` (:func:`sorry.playout.random_bots_game`: random
#: bots only, every variant), ``python`` (the reference :class:`~sorry.game.Game` with bot
#: objects: anything). All three play the same games for the same seed; ``auto`` picks the
#: fastest that can play the run (:func:`choose_engine`).
ENGINES = ("auto", "fast", "playout", "python")

#: How the report names each engine.
ENGINE_NAMES = {
    "fast": N_("the compiled engine"),
    "playout": N_("the playouts (random bots)"),
    "python": N_("the reference engine"),
}

#: The bot specs the compiled engine plays exactly (sorry.sim.fast_report.FAST_BOTS, which needs
#: numpy to import).
FAST_LEVELS = ("random", "easy", "medium")


def fast_installed() -> bool:
    """Whether the compiled engine's extra (numba and numpy) is installed
    (:func:`sorry.features.compiled_engine`)."""
    from ..features import compiled_engine

    return compiled_engine().available


def choose_engine(
    rules: Rules, bots: Sequence[str], engine: str = "auto", fast: bool = True
) -> str:
    """The engine that plays a run of ``bots`` (specs) under ``rules``: ``engine`` itself when
    it can (:class:`SorryError` saying why not otherwise), or for ``auto`` the fastest that
    can: ``fast`` when installed and every bot is one it has, ``playout`` when every bot is
    ``random``, else ``python`` (``fast`` False: not the compiled one)."""
    if engine not in ENGINES:
        raise SorryError(f"unknown engine {engine!r} (expected {', '.join(ENGINES)})")
    levels = set(bots)
    if engine == "fast" or (engine == "auto" and fast):
        reason = None
        if not levels <= set(FAST_LEVELS):
            reason = _("the compiled engine has these bots: {bots} (not {others})").format(
                bots=", ".join(FAST_LEVELS), others=", ".join(sorted(levels - set(FAST_LEVELS)))
            )
        elif not fast_installed():
            reason = _("the compiled engine needs the fast extra: pip install 'sorry-engine[fast]'")
        else:
            from ..fast import UNSUPPORTED as FAST_UNSUPPORTED

            try:
                rules.check_supported(FAST_UNSUPPORTED, "sorry.fast")
            except SorryError as exc:
                reason = str(exc)
        if reason is None:
            return "fast"
        if engine == "fast":
            raise SorryError(reason)
    if engine in ("auto", "playout"):
        reason = None
        if levels != {"random"}:
            reason = _("the playouts play random bots only")
        else:
            try:
                rules.check_supported(PLAYOUT_UNSUPPORTED, "sorry.playout")
            except SorryError as exc:
                reason = str(exc)
        if reason is None:
            return "playout"
        if engine == "playout":
            raise SorryError(reason)
    return "python"


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``level`` or ``level:key=value:key=value`` (numbers are converted), e.g.
    ``expert:simulations=200``."""
    level, *params = spec.strip().split(":")
    kw: dict[str, Any] = {}
    for p in params:
        key, sep, value = p.partition("=")
        if not sep:
            raise SorryError(f"bad bot parameter {p!r} in {spec!r} (expected key=value)")
        kw[key] = _number(value)
    return level, kw


def _number(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def build_bot(spec: str) -> Bot:
    from ..bots import make_bot

    level, kw = parse_bot_spec(spec)
    try:
        return make_bot(level, **kw)
    except SorryError as exc:
        if not kw:
            raise
        raise SorryError(f"bot {spec!r}: {exc}") from None


@dataclass(frozen=True)
class RunSpec:
    """What to play: the rules, the colours, the bots (one spec per entrant), the master
    seed, and whether entrants rotate through the seats on each deal (a tournament)."""

    rules: Rules
    colours: tuple[int, ...]
    bots: tuple[str, ...]
    seed: int = 0
    rotate: bool = False
    timings: bool = False
    #: ``python`` (bot objects on the reference Game), ``playout`` (random bots only) or
    #: ``fast`` (the compiled engine).
    engine: str = "python"
    #: ``not-compiled``: the compiled engine was passed over because its cache was cold.
    note: str = ""

    def game_seed(self, index: int) -> int:
        deal = index // len(self.colours) if self.rotate else index
        return derive_seed(self.seed, deal)

    def seating(self, index: int) -> tuple[int, ...]:
        """The entrant in each seat (seats in colour order) for game ``index``."""
        n = len(self.colours)
        r = index % n if self.rotate else 0
        return tuple((k + r) % n for k in range(n))


@dataclass
class GameRecord:
    index: int
    seed: int
    seats: tuple[int, ...]  # entrant per seat
    winners: tuple[int, ...]  # seats (indices into colours) that won; () if unfinished
    first: int  # seat that moved first
    turns: int
    scores: tuple[int, ...] | None  # points per seat (points variant)
    times: list[list[float]] = field(default_factory=list)  # decision seconds per seat


def play_one(spec: RunSpec, index: int, bots: Sequence[Bot] | None = None) -> GameRecord:
    """Game ``index`` of the run."""
    if spec.engine == "playout":
        return _play_out(spec, index)
    if bots is None:
        bots = [build_bot(b) for b in spec.bots]
    seed = spec.game_seed(index)
    seats = spec.seating(index)
    game = Game(spec.rules, players=spec.colours, seed=seed)
    by_colour = {c: bots[seats[k]] for k, c in enumerate(spec.colours)}
    rngs = {c: Rng(derive_seed(seed, 1000 + c)) for c in spec.colours}
    times: dict[int, list[float]] = {c: [] for c in spec.colours}
    timed = spec.timings
    clock = time.perf_counter
    while not game.is_over():
        if game.is_chance():
            game.draw()
            continue
        c = game.to_move
        view = game.view(c)
        if timed and len(view.legal_moves) > 1:  # time the decisions with a choice
            t0 = clock()
            move = by_colour[c].choose(view, rngs[c])
            times[c].append(clock() - t0)
        else:
            move = by_colour[c].choose(view, rngs[c])
        game.push(move)
    idx = {c: k for k, c in enumerate(spec.colours)}
    return GameRecord(
        index=index,
        seed=seed,
        seats=seats,
        winners=tuple(sorted(idx[c] for c in game.winners)),
        first=idx[game.first],
        turns=game.turn,
        scores=tuple(game.scores.get(c, 0) for c in spec.colours)
        if game.scores is not None
        else None,
        times=[times[c] for c in spec.colours] if timed else [],
    )


def _play_out(spec: RunSpec, index: int) -> GameRecord:
    """Game ``index`` on the playouts: the same game as :func:`play_one` with random bots."""
    seed = spec.game_seed(index)
    played = random_bots_game(spec.rules, spec.colours, seed)
    idx = {c: k for k, c in enumerate(spec.colours)}
    return GameRecord(
        index=index,
        seed=seed,
        seats=spec.seating(index),
        winners=tuple(sorted(idx[c] for c in played.winners)),
        first=idx[played.first],
        turns=played.turns,
        scores=tuple(played.scores.get(c, 0) for c in spec.colours)
        if played.scores is not None
        else None,
    )


def run_batch(spec: RunSpec, indices: Sequence[int]) -> list[GameRecord]:
    """Play the games ``indices`` of the run (one bot object per entrant for the batch)."""
    bots = [] if spec.engine == "playout" else [build_bot(b) for b in spec.bots]
    out = []
    for i in indices:
        if _parent_gone():  # a worker whose run was killed stops at once
            os._exit(1)
        out.append(_play_out(spec, i) if spec.engine == "playout" else play_one(spec, i, bots))
    return out


def batches(n: int, jobs: int, cap: int = 1000) -> list[range]:
    """Split games ``0..n-1`` into batches: about four per worker, at most ``cap`` games."""
    size = max(1, min(cap, math.ceil(n / max(1, 4 * jobs))))
    return [range(i, min(n, i + size)) for i in range(0, n, size)]


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) stopped a run: ``records`` holds the games finished before it, in
    game order; every worker has been stopped."""

    def __init__(self, records: list[GameRecord]) -> None:
        super().__init__()
        self.records = records


class Progress:
    """A one-line progress bar with an estimate of the time left, on stderr (drawn at once,
    then at most five times a second)."""

    def __init__(self, total: int, enabled: bool, stream: IO[str] | None = None) -> None:
        self.total = total
        self.done = 0
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.start = time.perf_counter()
        self.last = 0.0
        self.update(0)

    def update(self, k: int) -> None:
        self.done += k
        if not self.enabled:
            return
        now = time.perf_counter()
        if k and now - self.last < 0.2 and self.done < self.total:
            return
        self.last = now
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = _clock((self.total - self.done) / rate) if rate > 0 else "-:--:--"
        width = 30
        filled = int(width * self.done / max(1, self.total))
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(
            "\r"
            + _("[{bar}] {done}/{total} games  {rate} games/s  ETA {eta} ").format(
                bar=bar, done=self.done, total=self.total, rate=f"{rate:,.1f}", eta=eta
            )
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    return f"{s // 3600:d}:{s // 60 % 60:02d}:{s % 60:02d}"


def run_games(
    spec: RunSpec,
    games: int,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    progress: bool = False,
    on_batch: Callable[[list[GameRecord]], None] | None = None,
) -> list[GameRecord]:
    """Play games ``0..games-1`` of ``spec`` and return their records in game order.

    Ctrl-C (or SIGTERM) stops the run at once: the workers (processes, Ray tasks, the
    compiled engine's next chunk) are ended and :class:`RunInterrupted` carries the games
    finished so far."""
    if games < 1:
        raise SorryError("the number of games must be at least 1")
    if backend not in BACKENDS:
        raise SorryError(f"unknown backend {backend!r} (expected process or ray)")
    if spec.engine == "python":
        for b in spec.bots:  # fail early on a bad bot spec
            build_bot(b)
    records: list[GameRecord] = []
    bar = Progress(games, progress)
    chunks = _run(spec, games, jobs, backend, address)
    try:
        with _sigterm_as_interrupt():
            for chunk in chunks:
                records.extend(chunk)
                bar.update(len(chunk))
                if on_batch is not None:
                    on_batch(chunk)
    except KeyboardInterrupt:
        chunks.close()  # ends the workers
        records.sort(key=lambda r: r.index)
        raise RunInterrupted(records) from None
    finally:
        chunks.close()
        bar.close()
    records.sort(key=lambda r: r.index)
    return records


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM raises KeyboardInterrupt while a run is on (main thread only), so that a
    terminated run ends its workers too."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(
    spec: RunSpec, games: int, jobs: int, backend: str, address: str | None
) -> Generator[list[GameRecord], None, None]:
    if backend == "ray":  # every engine, the compiled one too, as Ray tasks
        from .ray_backend import run_ray

        yield from run_ray(spec, games, jobs, address)
        return
    if spec.engine == "fast":
        yield from _run_fast(spec, games, jobs)
        return
    size = _batch_size(spec, games, jobs)
    parts = (range(i, min(games, i + size)) for i in range(0, games, size))
    if jobs <= 1:
        for b in parts:
            yield run_batch(spec, b)
        return
    yield from _run_pool(spec, parts, jobs)


def _batch_size(spec: RunSpec, games: int, jobs: int) -> int:
    """Games per batch: a share of the run for each worker, small enough for the progress
    bar to move within a second or so (random bots on the playouts: some 1,000 games a
    second; bot objects on the reference: some 50 or far fewer)."""
    cap = 200 if spec.engine == "playout" else 10
    return max(1, min(cap, math.ceil(games / max(1, 4 * jobs))))


def _run_pool(
    spec: RunSpec, parts: Iterator[range], jobs: int
) -> Generator[list[GameRecord], None, None]:
    """The batches on ``jobs`` worker processes, each fed one batch at a time through its own
    pipe (no queue shared between processes: a worker killed mid-way leaves no lock held, so
    stopping the run cannot hang, as ``multiprocessing.Pool.terminate`` can with an idle
    worker). The workers ignore SIGINT (Ctrl-C reaches the terminal's whole process group: the
    parent decides), die with the parent (Linux's parent-death signal, and a check of the
    parent between games), and are terminated when the run ends early."""
    import multiprocessing
    from multiprocessing.connection import Connection, wait

    workers: list[tuple[Any, Connection]] = []
    try:
        for _k in range(jobs):
            mine, theirs = multiprocessing.Pipe()
            proc = multiprocessing.Process(
                target=_worker, args=(theirs, spec, os.getpid()), daemon=True
            )
            with _sigint_ignored():  # the child starts ignoring it (before its first line)
                proc.start()
            theirs.close()
            workers.append((proc, mine))
        busy: list[Connection] = []
        for _proc, conn in workers:
            first = next(parts, None)
            if first is None:
                break
            conn.send(first)
            busy.append(conn)
        while busy:
            for ready in wait(busy):
                assert isinstance(ready, Connection)
                try:
                    result = ready.recv()
                except EOFError:
                    raise SorryError("a worker process ended unexpectedly") from None
                if isinstance(result, str):
                    raise SorryError(result)
                nxt = next(parts, None)
                if nxt is None:
                    ready.send(None)  # no more work: the worker ends
                    busy.remove(ready)
                else:
                    ready.send(nxt)
                yield result
    finally:
        for proc, _conn in workers:
            if proc.is_alive():
                proc.terminate()
        for proc, conn in workers:
            proc.join()
            conn.close()


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _worker(conn: Any, spec: RunSpec, parent: int) -> None:
    """A worker process: plays the batches it is sent until it is sent None (an error goes
    back as its message)."""
    _worker_init(parent)
    while True:
        try:
            batch = conn.recv()
        except (EOFError, OSError):
            return
        if batch is None:
            return
        try:
            conn.send(run_batch(spec, batch))
        except SorryError as exc:
            conn.send(str(exc))


_PARENT: list[int] = []


def _worker_init(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _PARENT.append(parent)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: end with the parent
        except (OSError, AttributeError):  # pragma: no cover - not glibc
            pass
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)


def _parent_gone() -> bool:
    return bool(_PARENT) and os.getppid() != _PARENT[0]


def _run_fast(spec: RunSpec, games: int, threads: int) -> Generator[list[GameRecord], None, None]:
    """The games on the compiled engine, in chunks of about half a second (so that the
    progress bar moves and Ctrl-C stops the run between chunks) (:func:`prepare` loads the
    kernel first)."""
    start, size = 0, 500
    while start < games:
        stop = min(games, start + size)
        t0 = time.perf_counter()
        yield fast_batch(spec, range(start, stop), threads)
        elapsed = time.perf_counter() - t0
        start = stop
        size = max(100, min(200_000, int(size * 0.5 / max(elapsed, 1e-3))))


def fast_batch(spec: RunSpec, indices: Sequence[int], threads: int = 1) -> list[GameRecord]:
    """The games ``indices`` on the compiled engine, each seating's games in one call."""
    from ..fast import simulate as fast_simulate
    from .fast_report import FAST_BOTS

    n = len(spec.colours)
    out: list[GameRecord] = []
    for r in range(n if spec.rotate else 1):
        policy = [FAST_BOTS[spec.bots[spec.seating(r)[k]]] for k in range(n)]
        mine = [i for i in indices if not spec.rotate or i % n == r]
        if not mine:
            continue
        seeds = [spec.game_seed(i) for i in mine]
        res = fast_simulate(
            len(seeds), spec.colours, policy=policy, threads=threads, rules=spec.rules, seeds=seeds
        )
        out.extend(_fast_records(spec, res, mine))
    return out


def prepare(spec: RunSpec, notify: bool = False, may_compile: bool = True) -> tuple[RunSpec, float]:
    """Load what the run's engine needs before the clock starts; return the spec to run and
    the seconds the loading took. The compiled engine's kernel for these bots comes from
    numba's on-disk cache, or is compiled (minutes, the first run only; ``notify``: a line on
    stderr says so when it starts, another how long it took). ``may_compile`` False: a kernel
    missing from the cache is not compiled; the run falls back to the next fastest engine
    (``compiled`` is then False in the spec's ``note``)."""
    if spec.engine != "fast":
        return spec, 0.0
    import contextlib

    from ..fast import simulate as fast_simulate
    from ..fast.cache import CompileNeeded, cache_only, on_compile
    from .fast_report import FAST_BOTS

    t0 = time.perf_counter()
    compiling: list[float] = []

    def say() -> None:
        compiling.append(time.perf_counter())
        if notify:
            sys.stderr.write(
                _("compiling the fast engine: the first run only, it takes minutes…") + "\n"
            )
            sys.stderr.flush()

    guard = on_compile(say) if may_compile else cache_only()
    n = len(spec.colours)
    try:
        with guard:
            for r in range(n if spec.rotate else 1):
                policy = [FAST_BOTS[spec.bots[spec.seating(r)[k]]] for k in range(n)]
                fast_simulate(1, spec.colours, policy=policy, threads=1, rules=spec.rules)
    except CompileNeeded:
        engine = choose_engine(spec.rules, spec.bots, "auto", fast=False)
        return replace(spec, engine=engine, note="not-compiled"), time.perf_counter() - t0
    if compiling and notify:
        with contextlib.suppress(OSError):
            sys.stderr.write(
                _("compiled in {seconds} s (later runs load it in about a second)").format(
                    seconds=f"{time.perf_counter() - compiling[0]:.0f}"
                )
                + "\n"
            )
    return spec, time.perf_counter() - t0


def _fast_records(spec: RunSpec, res: Any, indices: Sequence[int]) -> list[GameRecord]:
    colours = spec.colours
    idx = {c: k for k, c in enumerate(colours)}
    movers = spec.rules.book.movers
    winner = res.winner.tolist()
    turns = res.turns.tolist()
    first = res.first.tolist()
    scores = res.scores.tolist() if spec.rules.points else None
    out = []
    for j, i in enumerate(indices):
        w = winner[j]
        out.append(
            GameRecord(
                index=i,
                seed=spec.game_seed(i),
                seats=spec.seating(i),
                winners=() if w < 0 else tuple(sorted(idx[c] for c in movers[w])),
                first=idx[first[j]],
                turns=turns[j],
                scores=tuple(scores[j][c] for c in colours) if scores is not None else None,
            )
        )
    return out
