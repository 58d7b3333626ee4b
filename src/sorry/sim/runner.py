"""Running many games: the per-game seeds, the batches, and the backends (one process, a pool
of processes, or Ray). Every backend plays the same games: game ``i`` of a run uses
``derive_seed(master, i)`` (in a tournament, deal ``i // seats``), and results are put back in
game order, so the totals are identical whatever ran them."""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from ..bots import make_bot
from ..bots.base import Bot
from ..errors import SorryError
from ..game import Game
from ..rng import Rng, derive_seed
from ..rules import Rules

BACKENDS = ("process", "ray")


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


def run_batch(spec: RunSpec, indices: Sequence[int]) -> list[GameRecord]:
    """Play the games ``indices`` of the run (one bot object per entrant for the batch)."""
    bots = [build_bot(b) for b in spec.bots]
    return [play_one(spec, i, bots) for i in indices]


def batches(n: int, jobs: int, cap: int = 1000) -> list[range]:
    """Split games ``0..n-1`` into batches: about four per worker, at most ``cap`` games."""
    size = max(1, min(cap, math.ceil(n / max(1, 4 * jobs))))
    return [range(i, min(n, i + size)) for i in range(0, n, size)]


class Progress:
    """A one-line progress bar with an estimate of the time left, on stderr."""

    def __init__(self, total: int, enabled: bool, stream: IO[str] | None = None) -> None:
        self.total = total
        self.done = 0
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.start = time.perf_counter()
        self.last = 0.0

    def update(self, k: int) -> None:
        self.done += k
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.last < 0.2 and self.done < self.total:
            return
        self.last = now
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        width = 30
        filled = int(width * self.done / max(1, self.total))
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(
            f"\r[{bar}] {self.done}/{self.total} games  {rate:,.1f} games/s  ETA {_clock(eta)} "
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
    """Play games ``0..games-1`` of ``spec`` and return their records in game order."""
    if games < 1:
        raise SorryError("the number of games must be at least 1")
    if backend not in BACKENDS:
        raise SorryError(f"unknown backend {backend!r} (expected process or ray)")
    for b in spec.bots:  # fail early on a bad bot spec
        build_bot(b)
    bar = Progress(games, progress)
    records: list[GameRecord] = []
    try:
        for chunk in _run(spec, games, jobs, backend, address):
            records.extend(chunk)
            bar.update(len(chunk))
            if on_batch is not None:
                on_batch(chunk)
    finally:
        bar.close()
    records.sort(key=lambda r: r.index)
    return records


def _run(
    spec: RunSpec, games: int, jobs: int, backend: str, address: str | None
) -> Iterator[list[GameRecord]]:
    if backend == "ray":
        yield from _run_ray(spec, games, jobs, address)
        return
    if jobs <= 1:
        for b in batches(games, 1, cap=max(1, min(50, games // 20 or 1))):
            yield run_batch(spec, b)
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_batch, spec, b) for b in batches(games, jobs)]
        for f in as_completed(futures):
            yield f.result()


def _run_ray(
    spec: RunSpec, games: int, jobs: int, address: str | None
) -> Iterator[list[GameRecord]]:
    try:
        import ray
    except ImportError:
        raise SorryError("the ray backend needs Ray: pip install 'sorry-engine[sim]'") from None
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, jobs), log_to_driver=False, include_dashboard=False)
        started = True
    try:
        remote = ray.remote(run_batch)
        workers = int(ray.cluster_resources().get("CPU", jobs)) or 1  # type: ignore[no-untyped-call]
        pending = [remote.remote(spec, list(b)) for b in batches(games, workers)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()
