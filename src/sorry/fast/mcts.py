"""Monte-Carlo tree search from a player's view on the compiled engine (the ``mcts`` search of
the ``expert`` level; the tree and its iterations are :mod:`sorry.fast._mcts`).

>>> from sorry import Game
>>> from sorry.fast.mcts import TreeSearch
>>> g = Game.from_position("R:S,S,10,s1 Y:20,30,40,S R", card=5)
>>> res = TreeSearch(g.view(0), [0, 1]).run(seed=1, iterations=200)
>>> res.iterations, sum(res.visits)
(200, 200)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import GameStateError
from ..tuning import DEFAULT_WEIGHTS, Weights
from ..view import PlayerView
from . import _mcts as MC, _search as SR
from .search import ViewRoot

Array = npt.NDArray[Any]

#: Iterations per call into the compiled search when a time limit is set (between calls: the
#: clock).
CHUNK = 64
#: Nodes of a tree searched under a time limit alone (each iteration adds at most two).
TIME_NODES = 400_000


@dataclass(frozen=True, slots=True)
class TreeResult:
    """The root's candidates (indices of ``view.legal_moves``, in the order given) with their
    visits and mean values (the viewer's side's share of wins, the cut-off rollouts counted
    by their squashed evaluation); the iterations, the tree's nodes and its deepest path."""

    cands: tuple[int, ...]
    visits: tuple[int, ...]
    values: tuple[float, ...]
    iterations: int
    nodes: int
    depth: int

    @property
    def best(self) -> int:
        """The position (in ``cands``) of the most visited candidate; ties go to the first."""
        top = 0
        for j, n in enumerate(self.visits):
            if n > self.visits[top]:
                top = j
        return top


class TreeSearch:
    """The tree search of one view (the viewer to move) over the candidate moves ``cands``
    (indices of ``view.legal_moves``, best first by some prior: ties of visits go to the
    earlier one)."""

    def __init__(
        self,
        view: PlayerView,
        cands: Sequence[int],
        weights: Weights = DEFAULT_WEIGHTS,
        scale: float = 40.0,
    ) -> None:
        if not cands:
            raise ValueError("a tree search needs at least one candidate move")
        n = len(view.legal_moves)
        if any(not 0 <= j < n for j in cands) or len(set(cands)) != len(cands):
            raise GameStateError("the candidates must be distinct indices of the legal moves")
        self.root = ViewRoot(view, weights, scale)
        self.cands = tuple(int(j) for j in cands)
        #: the last run's tree: T, V, KEYS and info (see :mod:`sorry.fast._mcts`)
        self.tree: tuple[Array, Array, Array, Array] | None = None

    def run(
        self,
        seed: int,
        iterations: int | None = None,
        time_limit: float | None = None,
        depth: int = 30,
        exploration: float = 0.7,
        expand_after: int = 1,
    ) -> TreeResult:
        """Search for ``iterations`` iterations and/or ``time_limit`` seconds (processor
        time; checked every :data:`CHUNK` iterations, at least one chunk). The result depends
        only on the seed and the iterations done."""
        if iterations is None and time_limit is None:
            raise ValueError("give iterations or time_limit")
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        cap = TIME_NODES if iterations is None else 2 * iterations + len(self.cands) + 2
        T = np.empty((cap, MC.T_COLS), dtype=np.int64)
        V = np.empty(cap, dtype=np.float64)
        KEYS = np.empty((cap, MC.KEY_LEN), dtype=np.int16)
        info = np.zeros(MC.I_LEN, dtype=np.int64)
        r = self.root
        mv0 = np.empty((512, 13), dtype=np.int16)
        _fill_root_moves(r, mv0)
        MC.init_root(mv0, np.array(self.cands, dtype=np.int64), r.view.viewer, T, V, KEYS, info)
        seed64 = np.uint64(seed & 0xFFFFFFFFFFFFFFFF)
        t0 = time.process_time()
        done = 0
        while True:
            step = CHUNK if time_limit is not None else (iterations or 0)
            if iterations is not None:
                step = min(step, iterations - done)
            MC.run(
                r.R,
                r.S0,
                r.slide,
                r.P,
                r.cols,
                r.hitm,
                r.E,
                r.E_leaf,
                (seed64, step, depth, exploration, expand_after),
                MC.Tree(T, V, KEYS, info),
            )
            done += step
            if iterations is not None and done >= iterations:
                break
            if time_limit is not None and time.process_time() - t0 >= time_limit:
                break
        self.tree = (T, V, KEYS, info)
        k = len(self.cands)
        visits = tuple(int(T[1 + j, MC.T_VISITS]) for j in range(k))
        values = tuple(
            float(V[1 + j] / T[1 + j, MC.T_VISITS]) if T[1 + j, MC.T_VISITS] else 0.0
            for j in range(k)
        )
        return TreeResult(
            self.cands,
            visits,
            values,
            int(info[MC.I_ITERS]),
            int(info[MC.I_NODES]),
            int(info[MC.I_DEPTH]),
        )


def _fill_root_moves(root: ViewRoot, mv0: Array) -> None:
    from . import _kernel as K

    SR.root_moves(root.S0, root.slide, root.P, root.R, K.new_work()._replace(mv=mv0))


__all__ = ["CHUNK", "TreeResult", "TreeSearch"]
