"""A learned evaluation: a small network trained by self-play (TD(lambda)) on the compiled
engine, played with numpy and numba alone (the ``fast`` extra).

The network reads the pawns of every seat (in turn order from the player who chooses), the
threats on them, who moves next and the card-counted probabilities of the next card, and
gives each seat's chance of winning (:mod:`sorry.learned._net` has the inputs). The project
ships the weights that ``sorry train`` produced (:func:`sorry.learned.model.shipped`; the
command and seed are in its ``meta`` and in ``docs/learned.md``).

>>> from sorry import Game
>>> from sorry.learned import evaluator
>>> g = Game.from_position("R:S,S,10,s1 Y:20,30,40,S R", card=5)
>>> ev = evaluator(g.view(0))
>>> p = ev.chance(g.view(0))
>>> 0.0 < p < 1.0
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..board import HOME, START
from ..cards import CARD_INDEX, Card
from ..compiled.arrays import STATE_LEN, rule_arrays
from ..rulebook import PARTNER
from ..state import PawnState
from ..view import PlayerView
from .model import Model, shipped

__all__ = ["Evaluator", "Model", "evaluator", "shipped"]


class Evaluator:
    """The network's values of states of one game as seen by one view (the rules, the seats
    and the card-counted probabilities of the next card)."""

    def __init__(self, view: PlayerView, model: Model) -> None:
        self.rules = view.rules
        self.colours = tuple(view.colours)
        self.cols = np.array(self.colours, dtype=np.int64)
        self.model = model
        self.teams = bool(self.rules.teams)
        self.probs: dict[Card, float] = view.next_card_probabilities()
        self.unseen = {c: n for c, n in view.unseen_counts().items() if n > 0}
        self.draw = int(view.draw_count)
        _P, _slide, self.hitm, _E = rule_arrays(self.rules)

    def _probs(self, drawn: Card | None) -> tuple[np.ndarray, int]:
        """The next card's probabilities by slot (after ``drawn`` has been drawn)."""
        out = np.zeros(11)
        counts = dict(self.unseen)
        draw = self.draw
        if drawn is not None and counts.get(drawn, 0) > 0 and draw > 1:
            counts[drawn] -= 1
            draw -= 1
            total = sum(counts.values())
            for c, n in counts.items():
                out[CARD_INDEX[c]] = n / total
            return out, draw
        for c, p in self.probs.items():
            out[CARD_INDEX[c]] = p
        return out, draw

    def _pos(self, colour: int) -> int:
        return self.colours.index(colour)

    def seat_values(
        self, states: Sequence[PawnState], nexts: Sequence[int], ref: int, drawn: Card | None = None
    ) -> np.ndarray:
        """[states, 4]: each relative seat's chance of winning (seat 0 is colour ``ref``),
        ``nexts[k]`` the colour to move next in ``states[k]``."""
        from . import _net

        S = np.full((len(states), STATE_LEN), -1, dtype=np.int8)
        S[:, :16] = START
        for k, st in enumerate(states):
            for c in self.colours:
                S[k, 4 * c : 4 * c + 4] = st.pawns[c]
        nx = np.array([self._pos(c) for c in nexts], dtype=np.int64)
        probs, draw = self._probs(drawn)
        out = np.zeros((len(states), 4))
        _net.evaluate_states(
            S,
            nx,
            self.cols,
            self._pos(ref),
            self.teams,
            probs,
            draw,
            self.hitm,
            self.model.net,
            out,
        )
        return out

    def value_for(self, seats: np.ndarray, ref: int, me: int) -> float:
        """``me``'s chance of winning (its team's in teams) from a row of :meth:`seat_values`
        seen from ``ref``."""
        n = len(self.colours)
        r = (self._pos(me) - self._pos(ref)) % n
        v = float(seats[r])
        if self.teams and n == 4:
            v += float(seats[(r + 2) % n])
        return v

    def values(
        self,
        states: Sequence[PawnState],
        nexts: Sequence[int],
        me: int,
        drawn: Card | None = None,
    ) -> list[float]:
        """``me``'s chance of winning in each state (``nexts``: who moves next in each)."""
        seats = self.seat_values(states, nexts, me, drawn)
        return [self.value_for(row, me, me) for row in seats]

    def same_team(self, a: int, b: int) -> bool:
        return a == b or (self.teams and PARTNER[a] == b)

    def won(self, state: PawnState, colour: int) -> bool:
        """Whether ``colour`` (with its partner in teams) has all its pawns HOME."""
        done = all(x == HOME for x in state.pawns[colour])
        if self.teams:
            done = done and all(x == HOME for x in state.pawns[PARTNER[colour]])
        return done

    def chance(self, view: PlayerView) -> float:
        """The viewer's chance of winning in the view's position, before its move (the
        viewer to move next)."""
        from ..bots.base import state_of

        return self.values([state_of(view)], [view.viewer], view.viewer)[0]


def evaluator(view: PlayerView, model: Model | None = None) -> Evaluator:
    """The evaluation of states for ``view``'s game (the shipped model by default)."""
    return Evaluator(view, model or shipped())
