"""Scores of a view's moves in determinised worlds: the common ground of the ``expert`` search
and the move hints, with two engines behind one interface.

``compiled`` (the ``fast`` extra, :mod:`sorry.fast.search`; or the same code compiled ahead of
time by ``sorry compile``, :mod:`sorry.compiled.aot`, which needs no numba at run time): each world
deals the cards the viewer cannot see into the other hands and the draw pile, the move is
played, and every seat then plays the compiled ``medium`` bot to the end of the game (or
``depth`` moves).

``python`` (the fallback, always there): the same worlds, the move, then a greedy playout on
progress (:mod:`sorry.bots.greedy_rollout`) of at most ``depth`` moves.

Either way a world's score is 1 (the viewer's side won), 0 (lost) or, for a playout cut off,
the evaluation squashed into (0, 1); every move is played in the same worlds (common random
numbers), so differences between moves are measured with less noise than their values.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..moves import Move
from ..playout import Table
from ..rng import Rng
from ..view import PlayerView
from . import greedy_rollout
from .base import deck_probabilities, state_of, team_of

ENGINES = ("auto", "compiled", "python")


class Root(Protocol):
    """The moves of one view, scored in worlds (seeds)."""

    engine: str

    def scores(self, cands: Sequence[int], worlds: Sequence[int], depth: int) -> Any:
        """[world][candidate]: the score of ``view.legal_moves[cands[j]]`` in world ``w``."""
        ...


def _ahead_of_time() -> Callable[..., None] | None:
    """The rollouts compiled ahead of time (``sorry compile``) for the present sources, if
    built: they need numpy only, not numba (:mod:`sorry.compiled.aot`)."""
    from ..compiled.aot import load

    return load()


def compiled_ahead_of_time() -> bool:
    """Whether the compiled rollouts are the ones built ahead of time (nothing to load)."""
    return _ahead_of_time() is not None


@functools.cache
def compiled_available() -> bool:
    """Whether the compiled rollouts can be used: built ahead of time, or the compiled engine
    (the ``fast`` extra) to compile them (:mod:`sorry.features` decides)."""
    from ..features import compiled_rollouts

    return compiled_rollouts().available


def engine_name(engine: str = "auto") -> str:
    """``compiled`` or ``python``: what ``engine`` means here (``auto``: compiled if installed)."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if engine == "auto":
        return "compiled" if compiled_available() else "python"
    if engine == "compiled" and not compiled_available():
        from ..features import compiled_rollouts

        compiled_rollouts().require()
    return engine


def root_of(view: PlayerView, engine: str = "auto", scale: float = 40.0) -> Root:
    """The root of a search from ``view`` (the viewer to move) on ``engine``."""
    if engine_name(engine) == "compiled":
        evaluate_worlds = _ahead_of_time()
        if evaluate_worlds is not None:  # the same code compiled ahead of time: same scores
            from ..compiled.arrays import ViewArrays

            return ViewArrays(view, scale=scale, evaluate_worlds=evaluate_worlds)
        from .fast_engine import view_root

        return view_root(view, scale)
    return PythonRoot(view, scale=scale)


def warmup(cached_only: bool = False) -> float:
    """Load the compiled rollouts (numba's on-disk cache, or compile them) now rather than at
    the first search or hint; returns the seconds it took (0 without the ``fast`` extra). A
    server's worker processes call it when they start. ``cached_only``: load from the cache
    only, raising ``sorry.fast.cache.CompileNeeded`` where it would compile (minutes of CPU)."""
    if not compiled_available():
        return 0.0
    import contextlib
    import time

    from ..game import Game
    from ..rules import Rules

    guard: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
    if cached_only and _ahead_of_time() is None:  # (compiled ahead of time: nothing compiles)
        from .fast_engine import cache_only

        guard = cache_only()
    t0 = time.perf_counter()
    with guard:
        for variant in ("standard", "points"):
            g = Game(Rules(variant=variant), 2, seed=1)
            while g.is_chance():
                g.draw()
            root_of(g.view(g.to_move)).scores([0], [1], 8)
    return time.perf_counter() - t0


class PythonRoot:
    """The pure-Python engine: greedy playouts on progress (the fallback)."""

    engine = "python"

    def __init__(self, view: PlayerView, scale: float = 40.0) -> None:
        self.view = view
        self.scale = scale
        self.probs = deck_probabilities(view.rules)

    def scores(self, cands: Sequence[int], worlds: Sequence[int], depth: int) -> list[list[float]]:
        moves = self.view.legal_moves
        return [[self.playout(moves[j], int(w), depth) for j in cands] for w in worlds]

    def playout(self, move: Move, world: int, depth: int) -> float:
        """Score of ``move`` in the determinised world ``world`` (a seed): the move, then at
        most ``depth`` greedy moves."""
        view = self.view
        rules = view.rules
        hands, pile = view.deal(Rng(world))  # the world: as Game.from_view(view, world) deals
        if not rules.points:
            assert view.card is not None
            pile.append(view.card)  # the card in hand, drawn again first
        state = state_of(view)
        discard = list(view.discard_pile)
        reshuffles = Rng(world ^ 0x5DEECE66D)
        table = Table(rules, view.colours, state, view.viewer, pile, discard, hands, reshuffles)
        winner = greedy_rollout.run(table, depth + 1, first=move)
        team = team_of(rules, view.viewer)
        return greedy_rollout.score(table, team, winner, self.probs, self.scale)


__all__ = [
    "ENGINES",
    "PythonRoot",
    "Root",
    "compiled_ahead_of_time",
    "compiled_available",
    "engine_name",
    "root_of",
    "warmup",
]
