"""The ``expert`` level: determinised Monte-Carlo search over the hard bot's best moves.

1. The hard bot (expectimax over the next draw) ranks the legal moves; the best ``candidates``
   are kept.
2. Each simulation deals one world consistent with the view (the unseen cards shuffled into
   the others' hands and the draw pile: a determinisation) and plays every candidate in that
   same world (common random numbers: the same cards follow every candidate, so their
   difference is measured with far less noise), then plays on (:mod:`sorry.bots.rollouts`):
   on the compiled engine (the ``fast`` extra) every seat plays the compiled ``medium`` bot for
   up to ``depth`` moves; without it, a greedy playout on progress. A finished game scores 1 or
   0, an unfinished one the evaluation squashed into (0, 1) (``evaluation="learned"``, the
   compiled engine only: the learned network's chance of winning instead, computed inside the
   compiled rollout loop, :mod:`sorry.learned._cutoff`).
3. A candidate replaces the hard bot's choice only if its mean advantage over it in the same
   worlds exceeds ``confidence`` standard errors of the paired differences; the largest such
   advantage wins (``ranker="learned"``: the learned evaluation ranks the moves instead of the
   hard bot). On the compiled engine, candidates clearly behind the best (by ``drop``
   standard errors) stop being played out, so the budget goes to the close ones.

The budget is ``simulations`` (worlds; deterministic for a seed; the defaults in
:data:`DEFAULT_SIMULATIONS` per engine and variant) and optionally ``time_limit`` seconds,
after which the search stops with what it has (at least one round of worlds). See
``docs/strength.md`` for the strength and the decision times of both engines.

``search="mcts"`` (the compiled engine only) replaces the flat search by a Monte-Carlo tree
search (:mod:`sorry.fast.mcts`): information-set MCTS over the moves of every seat with chance
nodes for the cards drawn, each iteration in a freshly dealt world, the same compiled rollouts
at the leaves; its candidates are all the hard bot's ranked moves (or the best ``candidates``)
and it plays the most visited. Its budget is ``simulations`` iterations (the defaults in
:data:`MCTS_SIMULATIONS`, about 1 s of processor time a decision) or ``time_limit`` seconds of
processor time. The default stays the flat search.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..moves import DISCARD, Move
from ..rng import Rng
from ..view import PlayerView
from .evaluate import DEFAULT_WEIGHTS, Weights
from .hard import HardBot
from .learned import LearnedBot
from .levels import discard_choice
from .rollouts import Root, engine_name, root_of

if TYPE_CHECKING:
    from .fast_engine import TreeResult

#: Worlds per decision by default, per engine and variant (see docs/strength.md). In the points
#: variant a compiled rollout costs several times more (the medium bot weighs every card of a
#: hand of five) and the candidates are closer, so fewer are dropped: 4,000 worlds took 0.78 s
#: of processor time at the median and 3.2 s at the 95th percentile; 400 take 0.17 / 0.51 s.
DEFAULT_SIMULATIONS = {
    "python": {"standard": 40, "teams": 40, "points": 20},
    "compiled": {"standard": 4000, "teams": 4000, "points": 400},
}
#: Moves played out after the candidate by default, per engine (then the evaluation).
DEFAULT_DEPTH = {"python": 24, "compiled": 30}
#: How many standard errors of the paired differences it takes to overrule the hard bot.
DEFAULT_CONFIDENCE = {"python": 1.5, "compiled": 0.5}
#: Candidates (the hard bot's best moves) by default, per engine.
DEFAULT_CANDIDATES = {"python": 4, "compiled": 6}
#: Iterations of the tree search (``search="mcts"``) by default, per variant: about 1 s of
#: processor time a decision on one core of the project's machine (see docs/strength.md).
MCTS_SIMULATIONS = {"standard": 32_000, "teams": 12_000, "points": 2_400}
#: The tree search's exploration constant (upper confidence bounds on values in [0, 1]).
MCTS_EXPLORATION = 0.7
SEARCHES = ("flat", "mcts")
#: Who ranks the moves (the candidates, and the choice a search must overrule): the ``hard``
#: bot, or the ``learned`` evaluation alone (``sorry.bots.learned``, the fast extra).
RANKERS = ("hard", "learned")
#: What scores a rollout cut off after ``depth`` moves: the hand-tuned evaluation squashed, or
#: the learned network's chance of winning (:mod:`sorry.learned._cutoff`, the fast extra).
EVALUATIONS = ("tuned", "learned")
#: Who plays every seat of the compiled rollouts: the compiled ``medium`` bot, or the learned
#: network greedily (:func:`sorry.learned._cutoff.evaluate_worlds_learned`; its cut-offs are
#: then scored by the network too).
ROLLOUTS = ("medium", "learned")
#: Worlds per round on the compiled engine (between rounds: the time and the dropped moves).
ROUND = 32


class ExpertBot:
    """Determinised flat Monte-Carlo search with common random numbers (see the module doc)."""

    name = "expert"

    def __init__(
        self,
        simulations: int | None = None,
        time_limit: float | None = None,
        candidates: int | None = None,
        depth: int | None = None,
        scale: float = 40.0,
        confidence: float | None = None,
        drop: float = 3.0,
        engine: str = "auto",
        weights: Weights = DEFAULT_WEIGHTS,
        search: str = "flat",
        exploration: float = MCTS_EXPLORATION,
        expand_after: int = 1,
        ranker: str = "hard",
        evaluation: str = "tuned",
        rollout: str = "medium",
    ) -> None:
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        if rollout == "learned":
            evaluation = "learned"  # the network's rollouts are cut off by the network
        if evaluation not in EVALUATIONS:
            raise ValueError(
                f"evaluation must be one of {', '.join(EVALUATIONS)}, not {evaluation!r}"
            )
        if ranker not in RANKERS:
            raise ValueError(f"ranker must be one of {', '.join(RANKERS)}, not {ranker!r}")
        if simulations is not None and simulations < 1:
            raise ValueError("simulations must be at least 1")
        if time_limit is not None and time_limit <= 0:
            raise ValueError("time_limit must be positive")
        if search not in SEARCHES:
            raise ValueError(f"search must be one of {', '.join(SEARCHES)}, not {search!r}")
        if exploration < 0:
            raise ValueError("exploration must not be negative")
        if expand_after < 0:
            raise ValueError("expand_after must not be negative")
        self.engine = engine_name(engine)
        if evaluation == "learned":
            from ..features import compiled_engine

            compiled_engine().require()  # numpy and numba: a one-line error without them
            if self.engine != "compiled":
                from ..errors import SorryError

                raise SorryError("the learned cut-off needs the compiled engine (the fast extra)")
        self.evaluation = evaluation
        self.rollout = rollout
        self.batched = False  # the learned cut-off's forward passes batched (measured slower)
        if search == "mcts" and self.engine != "compiled":
            from ..errors import SorryError

            raise SorryError("the mcts search needs the compiled engine (the fast extra)")
        self.search_kind = search
        self.exploration = exploration
        self.expand_after = expand_after
        self.mcts_candidates = candidates
        self.simulations = simulations
        self.time_limit = time_limit
        self.candidates = max(1, candidates or DEFAULT_CANDIDATES[self.engine])
        self.depth = depth or DEFAULT_DEPTH[self.engine]
        self.scale = scale
        self.confidence = DEFAULT_CONFIDENCE[self.engine] if confidence is None else confidence
        self.drop = drop
        self.hard: HardBot | LearnedBot = HardBot(weights) if ranker == "hard" else LearnedBot()

    def choose(self, view: PlayerView, rng: Rng) -> Move:
        start = time.perf_counter()
        moves = list(view.legal_moves)
        if len(moves) == 1:
            return moves[0]
        if not any(m.kind != DISCARD for m in moves):
            return discard_choice(view, moves, rng)
        ranked = self.hard.ranked(view)
        if self.search_kind == "mcts":
            return self.tree_search(view, [m for m, _s in ranked], rng).move
        cands = [m for m, _s in ranked[: self.candidates]]
        if len(cands) == 1:
            return cands[0]
        values = self.search(view, cands, rng, start)
        return cands[_first_max(values)]

    def tree_search(self, view: PlayerView, ranked: list[Move], rng: Rng) -> TreeChoice:
        """The tree search over ``ranked`` (the hard bot's order, best first; the best
        ``candidates`` of them if that was given): the most visited move and the result."""
        from .fast_engine import tree_search

        cands = ranked[: self.mcts_candidates] if self.mcts_candidates else ranked
        if len(cands) == 1:
            return TreeChoice(cands[0], None)
        index = {m: i for i, m in enumerate(view.legal_moves)}
        tree = tree_search(view, [index[m] for m in cands], self.scale)
        iterations = self.simulations
        if iterations is None and self.time_limit is None:
            iterations = MCTS_SIMULATIONS[view.rules.variant]
        result = tree.run(
            rng.next64(),
            iterations=iterations,
            time_limit=self.time_limit,
            depth=self.depth,
            exploration=self.exploration,
            expand_after=self.expand_after,
        )
        return TreeChoice(cands[result.best], result)

    def search(
        self, view: PlayerView, cands: list[Move], rng: Rng, start: float | None = None
    ) -> list[float]:
        """Each candidate's mean advantage over the first (the hard bot's choice) across the
        simulated worlds, shrunk to 0 unless it exceeds ``confidence`` standard errors of the
        paired differences (or until ``time_limit``): the search overrules the hard bot only
        when the playouts clearly disagree."""
        start = time.perf_counter() if start is None else start
        k = len(cands)
        index = {m: i for i, m in enumerate(view.legal_moves)}
        legal = [index[m] for m in cands]
        root = self._root(view)
        sims = self.simulations or DEFAULT_SIMULATIONS[self.engine][view.rules.variant]
        step = ROUND if root.engine == "compiled" else 1
        sums = [0.0] * k
        squares = [0.0] * k
        counts = [0] * k
        active = list(range(k))
        done = 0
        while done < sims:
            size = min(step, sims - done)
            worlds = [rng.next64() for _ in range(size)]
            table = root.scores([legal[i] for i in active], worlds, self.depth)
            # active[0] is always candidate 0, the hard bot's choice: the differences to it
            if hasattr(table, "shape"):  # a numpy array (compiled engine)
                diff = table[:, 1:] - table[:, :1]
                dsum = diff.sum(axis=0).tolist()
                dsq = (diff * diff).sum(axis=0).tolist()
                for pos in range(1, len(active)):
                    i = active[pos]
                    sums[i] += dsum[pos - 1]
                    squares[i] += dsq[pos - 1]
                    counts[i] += size
            else:
                for row in table:
                    for pos in range(1, len(active)):
                        i = active[pos]
                        d = row[pos] - row[0]
                        sums[i] += d
                        squares[i] += d * d
                        counts[i] += 1
            done += size
            if self.time_limit is not None and time.perf_counter() - start > self.time_limit:
                break
            if root.engine == "compiled":
                active = self._keep(active, sums, squares, counts)
                if len(active) == 1:  # every other candidate is clearly behind
                    break
        out = [0.0] * k
        for i in range(1, k):
            n = counts[i]
            if n == 0:
                continue
            mean = sums[i] / n
            var = max(0.0, squares[i] / n - mean * mean)
            se = math.sqrt(var / max(1, n - 1)) if n > 1 else float("inf")
            out[i] = mean if mean > self.confidence * se else 0.0
        return out

    def _root(self, view: PlayerView) -> Root:
        """The search's root: rollouts cut off by the hand-tuned evaluation, or by the learned
        network of the view's variant (``evaluation="learned"``; the tuned one without it)."""
        if self.evaluation == "learned":
            from .learned import cutoff_root, trained_for

            if trained_for(view):
                root: Root = cutoff_root(view, self.batched, self.rollout)
                return root
        return root_of(view, self.engine, self.scale)

    def _keep(
        self, active: list[int], sums: list[float], squares: list[float], counts: list[int]
    ) -> list[int]:
        """The candidates still worth playing out: every one not clearly behind the best of
        them (by ``drop`` standard errors of its difference to the hard bot's choice, which
        stays while another candidate does: the differences are measured against it)."""
        means = {i: sums[i] / counts[i] if counts[i] else 0.0 for i in active}
        means[0] = 0.0
        ses = {0: 0.0}
        for i in active[1:]:
            n = counts[i]
            var = max(0.0, squares[i] / n - means[i] ** 2) if n else 0.0
            ses[i] = math.sqrt(var / max(1, n - 1)) if n > 1 else math.inf
        best = max(active, key=lambda i: means[i])
        keep = [
            i for i in active[1:] if means[best] - means[i] <= self.drop * max(ses[i], ses[best])
        ]
        if keep == [best] and best != 0:
            return [0, best] if means[best] <= self.drop * ses[best] else [best]
        return [0, *keep]


@dataclass(frozen=True, slots=True)
class TreeChoice:
    """The tree search's move and its result (None when there was nothing to search)."""

    move: Move
    result: TreeResult | None


def _first_max(values: list[float]) -> int:
    best = 0
    for i, v in enumerate(values):
        if v > values[best] + 1e-12:
            best = i
    return best


__all__ = ["DEFAULT_SIMULATIONS", "MCTS_SIMULATIONS", "SEARCHES", "ExpertBot", "TreeChoice"]
