"""The ``expert`` level: determinised Monte-Carlo search over the hard bot's best moves.

1. The hard bot (expectimax over the next draw) ranks the legal moves; the best ``candidates``
   are kept.
2. Each simulation deals one world consistent with the view (the unseen cards shuffled into
   the others' hands and the draw pile: a determinisation) and plays every candidate in that
   same world (common random numbers: the same cards follow every candidate, so their
   difference is measured with far less noise), then a fast greedy playout of up to ``depth``
   moves (:mod:`sorry.bots.rollout`). A finished playout scores 1 or 0, an unfinished one the
   evaluation squashed into (0, 1).
3. A candidate replaces the hard bot's choice only if its mean advantage over it in the same
   worlds exceeds ``confidence`` standard errors of the paired differences; the largest such
   advantage wins.

The budget is ``simulations`` (worlds; deterministic for a seed; by default 40, or 20 in the
points variant) and optionally ``time_limit`` seconds, after which the search stops with what
it has (at least one world). The default budget takes about 0.1-0.2 s per decision with
several candidates on one core of this machine (see ``docs/strength.md``).
"""

from __future__ import annotations

import math
import time

from ..cards import Card
from ..moves import DISCARD, Move
from ..rng import Rng
from ..view import PlayerView
from .base import deck_probabilities, next_colour, state_of, team_of
from .evaluate import DEFAULT_WEIGHTS, Weights
from .hard import HardBot
from .levels import discard_choice
from .rollout import Playout

#: Worlds per decision by default: about 0.1-0.2 s for a decision with several candidates on
#: one unloaded core of this machine (a points playout, with five cards a turn, costs more).
DEFAULT_SIMULATIONS = {"standard": 40, "teams": 40, "points": 20}


class ExpertBot:
    """Determinised flat Monte-Carlo search with common random numbers (see the module doc)."""

    name = "expert"

    def __init__(
        self,
        simulations: int | None = None,
        time_limit: float | None = None,
        candidates: int = 4,
        depth: int = 24,
        scale: float = 40.0,
        confidence: float = 1.5,
        weights: Weights = DEFAULT_WEIGHTS,
    ) -> None:
        if simulations is not None and simulations < 1:
            raise ValueError("simulations must be at least 1")
        if time_limit is not None and time_limit <= 0:
            raise ValueError("time_limit must be positive")
        self.simulations = simulations
        self.time_limit = time_limit
        self.candidates = max(1, candidates)
        self.depth = depth
        self.scale = scale
        self.confidence = confidence
        self.hard = HardBot(weights)

    def choose(self, view: PlayerView, rng: Rng) -> Move:
        start = time.perf_counter()
        moves = list(view.legal_moves)
        if len(moves) == 1:
            return moves[0]
        if not any(m.kind != DISCARD for m in moves):
            return discard_choice(view, moves, rng)
        ranked = self.hard.ranked(view)
        cands = [m for m, _s in ranked[: self.candidates]]
        if len(cands) == 1:
            return cands[0]
        values = self.search(view, cands, rng, start)
        return cands[_first_max(values)]

    def search(
        self, view: PlayerView, cands: list[Move], rng: Rng, start: float | None = None
    ) -> list[float]:
        """Each candidate's mean advantage over the first (the hard bot's choice) across the
        simulated worlds, shrunk to 0 unless it exceeds ``confidence`` standard errors of the
        paired differences (or until ``time_limit``): the search overrules the hard bot only
        when the playouts clearly disagree."""
        start = time.perf_counter() if start is None else start
        k = len(cands)
        sums = [0.0] * k
        squares = [0.0] * k
        done = 0
        sims = self.simulations or DEFAULT_SIMULATIONS[view.rules.variant]
        for _ in range(sims):
            world = rng.next64()
            base = self.playout(view, cands[0], world)
            for i in range(1, k):
                d = self.playout(view, cands[i], world) - base
                sums[i] += d
                squares[i] += d * d
            done += 1
            if self.time_limit is not None and time.perf_counter() - start > self.time_limit:
                break
        out = [0.0] * k
        for i in range(1, k):
            mean = sums[i] / done
            var = max(0.0, squares[i] / done - mean * mean)
            se = math.sqrt(var / max(1, done - 1)) if done > 1 else float("inf")
            out[i] = mean if mean > self.confidence * se else 0.0
        return out

    def playout(self, view: PlayerView, move: Move, world: int) -> float:
        """Score of ``move`` in the determinised world ``world`` (a seed)."""
        rules = view.rules
        team = team_of(rules, view.viewer)
        r = Rng(world)
        unseen = [c for c, n in view.unseen_counts().items() for _ in range(n)]
        r.shuffle(unseen)
        hands: list[list[Card]] = [[], [], [], []]
        for c in view.colours:
            if c == view.viewer:
                hands[c] = list(view.hand)
            elif rules.points:
                k = view.hand_sizes[c]
                hands[c], unseen = unseen[:k], unseen[k:]
        pile = unseen
        discard = list(view.discard_pile)
        state = state_of(view)
        state.apply(move, [])
        played = move.card if rules.points else view.card
        assert played is not None
        me = view.viewer
        if all(state.all_home(c) for c in team):
            return 1.0
        discard.append(played)
        world_rng = Rng(world ^ 0x5DEECE66D)
        if rules.points:
            hands[me].remove(played)
        sim = Playout(rules, view.colours, state, me, pile, discard, hands, world_rng)
        if rules.points:
            new = sim._draw()
            if new is not None:
                hands[me].append(new)
        if not rules.book.plays_again(played, discarded=move.kind == DISCARD):
            sim.mover = next_colour(view.colours, me)
        winner = sim.run(self.depth)
        return sim.score(team, winner, deck_probabilities(rules), self.scale)


def _first_max(values: list[float]) -> int:
    best = 0
    for i, v in enumerate(values):
        if v > values[best] + 1e-12:
            best = i
    return best


__all__ = ["DEFAULT_SIMULATIONS", "ExpertBot"]
