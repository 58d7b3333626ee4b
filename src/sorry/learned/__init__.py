"""A learned evaluation: a small network trained by self-play (TD(lambda)) on the compiled
engine, played with numpy and numba alone (the ``fast`` extra).

The network reads the pawns of every seat (in turn order from the player who chooses), the
threats on them, who moves next and the card-counted probabilities of the next card, and
gives each seat's chance of winning (:mod:`sorry.learned._net` has the inputs); in the
points variant it also reads the cards the chooser keeps in its hand. The project ships one
network per variant (standard, teams, points), the weights that ``sorry train`` produced
(:func:`sorry.learned.model.shipped`; the command and seed are in its ``meta`` and in
``docs/learned.md``).

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
from ..errors import SorryError
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
        self.points = bool(self.rules.points)
        if model.variant != self.rules.variant:
            raise SorryError(
                f"a network of the {model.variant} game cannot value the {self.rules.variant} game"
            )
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
        self,
        states: Sequence[PawnState],
        nexts: Sequence[int],
        ref: int,
        drawn: Card | Sequence[Card | None] | None = None,
        kept: Sequence[Sequence[Card]] | None = None,
    ) -> np.ndarray:
        """[states, 4]: each relative seat's chance of winning (seat 0 is colour ``ref``),
        ``nexts[k]`` the colour to move next in ``states[k]``, after the card ``drawn`` has
        been drawn (one card for all, or one per state); in points ``kept[k]`` the cards
        ``ref`` keeps in its hand (none when not given)."""
        from . import _net

        S = np.full((len(states), STATE_LEN), -1, dtype=np.int8)
        S[:, :16] = START
        for k, st in enumerate(states):
            for c in self.colours:
                S[k, 4 * c : 4 * c + 4] = st.pawns[c]
        nx = np.array([self._pos(c) for c in nexts], dtype=np.int64)
        probs = np.empty((len(states), 11))
        draws = np.empty(len(states), dtype=np.int64)
        if drawn is None or isinstance(drawn, int):
            probs[:], draws[:] = self._probs(drawn)
        else:
            cache: dict[Card | None, tuple[np.ndarray, int]] = {}
            for k, d in enumerate(drawn):
                if d not in cache:
                    cache[d] = self._probs(d)
                probs[k], draws[k] = cache[d]
        hands = np.zeros((len(states), 11), dtype=np.int64)
        if kept is not None:
            for k, cards in enumerate(kept):
                for c in cards:
                    hands[k, CARD_INDEX[c]] += 1
        out = np.zeros((len(states), 4))
        _net.evaluate_states(
            S,
            nx,
            self.cols,
            self._pos(ref),
            self.teams,
            probs,
            draws,
            self.hitm,
            self.model.net,
            hands,
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
        kept: Sequence[Sequence[Card]] | None = None,
    ) -> list[float]:
        """``me``'s chance of winning (its team's in teams) in each state (``nexts``: who
        moves next in each; ``kept``: in points, the cards ``me`` keeps in each)."""
        seats = self.seat_values(states, nexts, me, drawn, kept)
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
        viewer to move next; in points, with the hand it holds)."""
        from ..bots.base import state_of

        kept = [list(view.hand)] if self.points else None
        return self.values([state_of(view)], [view.viewer], view.viewer, kept=kept)[0]


def evaluator(view: PlayerView, model: Model | None = None) -> Evaluator:
    """The evaluation of states for ``view``'s game (by default the model shipped for its
    variant)."""
    return Evaluator(view, model or shipped(view.rules.variant))
