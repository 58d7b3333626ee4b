"""The move hints' estimator: each legal move with its chance of winning and a 95% interval,
sampled until the best move is told apart from the second or the budget is spent.

One estimator for every face (``sorry hint``, the terminal game, the server). Each move is
played in the same determinised worlds (:mod:`sorry.bots.rollouts`: the unseen cards dealt at
random, then every seat plays the compiled ``medium`` bot to the end of the game; greedy
playouts without the ``fast`` extra), in rounds of fresh worlds:

- when every move has :data:`MIN_DROP_WORLDS` worlds, then twice, four times as many and so
  on, a move whose paired difference with the best move is below zero by more than ``drop_z``
  standard errors stops being sampled (it keeps its estimate);
- sampling stops when one move is left (the best, separated from every other), when every
  move has ``max_worlds`` worlds, when ``max_rollouts`` moves have been played out in all, or
  when the time (``seconds``, wall clock) or the processor time (``cpu_seconds``) is spent.

Without a time budget the estimate depends only on the position, the seed and the budgets:
the same numbers on every machine, run to run. That is how the faces ask for a hint
(:func:`hint_estimate`: the terminal game, the browser and ``sorry hint --seed``): a fixed
number of rollouts, :data:`HINT_ROLLOUTS`, about 0.2 s of one core with the compiled engine.
A forced move (a single legal move, a pass included) is not estimated: it is the only move
(:attr:`Estimate.forced`), shown with no chance of winning.

A move is ``tied`` with the best when the 95% interval of their paired difference still
contains zero: the estimator cannot say which is better. Results are cached per view, seed and
budget (a server asked twice for the same position computes once).

>>> from sorry import Game
>>> g = Game.from_position("R:S,S,10,s1 Y:20,30,40,S R", card=5)
>>> est = estimate(g, max_worlds=4000, seconds=None)
>>> str(est.best.move), est.separated, est.best.low < est.best.win < est.best.high
('Rs1+5', True, True)
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

from ..errors import GameStateError
from ..game import Game
from ..moves import Move
from ..rng import derive_seed
from ..view import PlayerView
from .rollouts import engine_name, root_of

#: Worlds per round without a time budget (every move still sampled is played in each); with
#: one, the first round has FIRST_ROUND worlds (one compiled world of every move of a points
#: hand costs up to 7 ms: 8 of them took twice the server's 20 ms) and each later one what
#: fits in half the time left.
ROUND = 16
FIRST_ROUND = {"compiled": 1, "python": 1}
#: The interactive hints' time (the terminal game, ``sorry hint``): the issue's 0.3 s, less
#: the time to show them.
HINT_SECONDS = 0.25
#: The rollouts (worlds times moves) of a hint the faces show (:func:`hint_estimate`), by
#: engine and by kind of game (``points``: a hand of five cards; ``teams``: four players):
#: about 0.2 s of one core, whatever the machine's load (``benchmarks/bench_hints.py``).
HINT_ROLLOUTS: Final = {
    ("compiled", "standard"): 6000,
    ("compiled", "teams"): 3000,
    ("compiled", "points"): 2800,
    ("python", "standard"): 240,
    ("python", "teams"): 120,
    ("python", "points"): 100,
}
#: A points hand's hint plays 12 moves of each world, then squashes the position's evaluation
#: into a chance of winning with this scale. Against games played to the end (300 worlds a
#: move, 60 positions; ``benchmarks/bench_hints.py --compare``), 2,800 rollouts cut at 12
#: moves told the best move apart in 37 positions of 60 (24 moves and 1,600 rollouts, in the
#: same processor time: 24), none of the moves told apart better in truth, and the move picked
#: lost 0.95 points of the best's chance (1.25): a move's estimate is 4.4 points from the full
#: games' (root mean square; 2.6 at 24 moves), but two moves' scores in one world differ about
#: three times less, and a world costs half as much. (The standard game's rollouts are cheap:
#: played to the end.)
HINT_DEPTHS: Final = {"standard": 100_000, "teams": 100_000, "points": 12}
HINT_SCALE: Final = 80.0
#: Full games: a hint's value is a chance of winning, not an evaluation.
HINT_DEPTH = 100_000
#: A move stops being sampled when it is this many standard errors below the best, looked at
#: when every move has MIN_DROP_WORLDS worlds, then at each doubling (6 looks in 3,000 worlds).
#: Looked at after every round of 16 worlds at 3 standard errors (190 looks), two moves of equal
#: worth were cut after as few as 49 worlds and shown 26.5 points apart; at 3.7 after every
#: round from 64 worlds, 1 in 200 (10 points apart); at the doublings, none in 200
#: (``benchmarks/bench_hints.py --equal``).
DROP_Z = 3.7
MIN_DROP_WORLDS = 64
LOOK_GROWTH = 2
_Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class MoveEstimate:
    """One move's chance of winning (``win``), its 95% interval and how many worlds it had."""

    move: Move
    win: float
    low: float
    high: float
    worlds: int
    tied: bool  # the estimator cannot tell it from the best move (the best: a tie exists)

    def __str__(self) -> str:
        return f"{self.move} {100 * self.win:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}]"


@dataclass(frozen=True, slots=True)
class Estimate:
    """Every legal move, best first (a forced move: the only one, not estimated)."""

    moves: tuple[MoveEstimate, ...]
    worlds: int  # worlds dealt in all
    rollouts: int  # moves played out in all
    seconds: float
    engine: str  # compiled or python

    @property
    def best(self) -> MoveEstimate:
        return self.moves[0]

    @property
    def forced(self) -> bool:
        """A single legal move (a pass included): nothing to choose, nothing estimated (its
        ``win`` means nothing: show it as the only move, with no chance of winning)."""
        return len(self.moves) == 1

    @property
    def separated(self) -> bool:
        """Whether the best move is told apart from every other one."""
        return not self.moves[0].tied

    def pairs(self) -> list[tuple[Move, float]]:
        """(move, chance of winning), best first: the older ``hint`` result."""
        return [(m.move, m.win) for m in self.moves]


def interval(mean: float, n: int, z: float = _Z95) -> tuple[float, float]:
    """Wilson's score interval of a share ``mean`` of ``n`` trials."""
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(max(0.0, mean * (1 - mean)) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _interval_of(xs: list[float]) -> tuple[float, float]:
    """The 95% interval of the mean of a move's scores: Wilson's for wins and losses, from
    their own spread when some worlds were cut off and scored by the evaluation."""
    n = len(xs)
    mean = sum(xs) / n if n else 0.0
    if n < 2 or all(x in (0.0, 1.0) for x in xs):
        return interval(mean, n)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    half = _Z95 * sd / math.sqrt(n)
    return max(0.0, mean - half), min(1.0, mean + half)


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean and standard error of a[w] - b[w] over the worlds both have."""
    n = min(len(a), len(b))
    if n == 0:
        return 0.0, math.inf
    d = [a[w] - b[w] for w in range(n)]
    mean = sum(d) / n
    if n < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean, math.sqrt(var / n)


_cache: OrderedDict[tuple[object, ...], Estimate] = OrderedDict()
CACHE_SIZE = 256


def game_kind(view: PlayerView) -> str:
    """``points``, ``teams`` or ``standard``: what sets the cost of a rollout."""
    if view.rules.points:
        return "points"
    return "teams" if view.rules.teams else "standard"


def hint_estimate(game_or_view: Game | PlayerView, seed: int = 0, engine: str = "auto") -> Estimate:
    """The hint the faces show (the terminal game, the browser, ``sorry hint --seed``): a
    fixed number of rollouts (:data:`HINT_ROLLOUTS`) and no time budget, so one position gives
    the same estimate everywhere, run to run; cached.

    >>> from sorry import Game
    >>> g = Game.from_position("R:S,S,10,s1 Y:20,30,40,S R", card=5)
    >>> hint_estimate(g, seed=1) == hint_estimate(g.view(0), seed=1)
    True
    >>> hint_estimate(Game.from_position("R:S,S,S,S Y:20,30,40,S R", card=5)).forced
    True
    """
    view = _view_of(game_or_view)
    eng = engine_name(engine)
    kind = game_kind(view)
    return estimate(
        view,
        seconds=None,
        max_rollouts=HINT_ROLLOUTS[(eng, kind)],
        seed=seed,
        engine=eng,
        depth=HINT_DEPTHS[kind],
        scale=HINT_SCALE,
    )


def estimate(
    game_or_view: Game | PlayerView,
    seconds: float | None = HINT_SECONDS,
    cpu_seconds: float | None = None,
    max_worlds: int = 4000,
    seed: int = 0,
    engine: str = "auto",
    drop_z: float = DROP_Z,
    cache: bool = True,
    max_rollouts: int | None = None,
    depth: int = HINT_DEPTH,
    scale: float = 40.0,
) -> Estimate:
    """Each legal move of the player to move with its chance of winning (see the module doc).

    ``seconds``/``cpu_seconds`` bound the time (None: no bound; at least one round is
    played); ``max_worlds`` bounds the worlds per move and ``max_rollouts`` the moves played
    out in all; ``seed`` chooses the worlds; a world is played ``depth`` moves, then its
    position's evaluation is squashed into a chance of winning with ``scale``. A single legal
    move is not estimated (:attr:`Estimate.forced`)."""
    view = _view_of(game_or_view)
    if max_worlds < 1:
        raise ValueError("max_worlds must be at least 1")
    if max_rollouts is not None and max_rollouts < 1:
        raise ValueError("max_rollouts must be at least 1")
    eng = engine_name(engine)
    if len(view.legal_moves) == 1:
        only = MoveEstimate(view.legal_moves[0], 0.0, 0.0, 1.0, 0, False)
        return Estimate((only,), 0, 0, 0.0, eng)
    key = (view, seconds, cpu_seconds, max_worlds, seed, eng, drop_z, max_rollouts, depth, scale)
    if cache and key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    result = _estimate(
        view, seconds, cpu_seconds, max_worlds, seed, eng, drop_z, max_rollouts, depth, scale
    )
    if cache:
        _cache[key] = result
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return result


def _view_of(game_or_view: Game | PlayerView) -> PlayerView:
    if isinstance(game_or_view, Game):
        g = game_or_view
        if g.is_over() or g.is_chance():
            raise GameStateError("hints need a player to move (draw the card first)")
        return g.view(g.to_move)
    if not game_or_view.my_turn or not game_or_view.legal_moves:
        raise GameStateError("hints need the view of the player to move")
    return game_or_view


def _estimate(
    view: PlayerView,
    seconds: float | None,
    cpu_seconds: float | None,
    max_worlds: int,
    seed: int,
    engine: str,
    drop_z: float,
    max_rollouts: int | None = None,
    depth: int = HINT_DEPTH,
    scale: float = 40.0,
) -> Estimate:
    t0 = time.perf_counter()
    c0 = time.process_time()
    moves = view.legal_moves
    k = len(moves)
    root = root_of(view, engine, scale=scale)
    scores: list[list[float]] = [[] for _ in range(k)]
    active = list(range(k))
    dealt = 0
    rollouts = 0
    size = FIRST_ROUND[engine]
    # the rounds' cost per rollout, on the clock of the budget (processor time if that is
    # the only one): each later round takes half of the time left at that cost, so a few
    # long games in a round cannot run far past the budget
    clock = time.process_time if seconds is None and cpu_seconds is not None else time.perf_counter
    spent = 0.0
    budget = max_worlds * k if max_rollouts is None else max_rollouts
    look = MIN_DROP_WORLDS
    while True:
        size = max(1, min(size, max_worlds - dealt, (budget - rollouts) // len(active)))
        worlds = [derive_seed(seed, dealt + w) for w in range(size)]
        r0 = clock()
        table = root.scores(active, worlds, depth)
        spent += clock() - r0
        for row in table:
            for j, x in zip(active, row, strict=True):
                scores[j].append(float(x))
        dealt += size
        rollouts += size * len(active)
        if len(active) > 1 and dealt >= look:
            look = LOOK_GROWTH * dealt
            best = max(active, key=lambda j: sum(scores[j]) / len(scores[j]))
            keep = []
            for j in active:
                if j == best:
                    keep.append(j)
                    continue
                mean, se = _paired(scores[j], scores[best])
                if not (mean + drop_z * se < 0):
                    keep.append(j)
            active = keep
        if len(active) == 1 or dealt >= max_worlds or budget - rollouts < len(active):
            break
        left = math.inf
        if seconds is not None:
            left = seconds - (time.perf_counter() - t0)
        if cpu_seconds is not None:
            left = min(left, cpu_seconds - (time.process_time() - c0))
        if left <= 0:
            break
        if left == math.inf:
            size = ROUND
        else:
            per_rollout = max(spent / rollouts, 1e-7)
            size = min(4 * ROUND, int(0.5 * left / (per_rollout * len(active))))
        if size < 1:
            break
    means = [sum(s) / len(s) for s in scores]
    order = sorted(range(k), key=lambda j: (-means[j], j))
    top = order[0]
    out = []
    any_tie = False
    for j in order:
        tied = False
        if j != top:
            mean, se = _paired(scores[top], scores[j])
            tied = not (mean - _Z95 * se > 0)
            any_tie = any_tie or tied
        lo, hi = _interval_of(scores[j])
        out.append(MoveEstimate(moves[j], means[j], lo, hi, len(scores[j]), tied))
    if any_tie:
        out[0] = MoveEstimate(out[0].move, out[0].win, out[0].low, out[0].high, out[0].worlds, True)
    return Estimate(tuple(out), dealt, rollouts, time.perf_counter() - t0, engine)


__all__ = [
    "CACHE_SIZE",
    "DROP_Z",
    "HINT_DEPTHS",
    "HINT_ROLLOUTS",
    "HINT_SCALE",
    "HINT_SECONDS",
    "MIN_DROP_WORLDS",
    "Estimate",
    "MoveEstimate",
    "estimate",
    "game_kind",
    "hint_estimate",
    "interval",
]
