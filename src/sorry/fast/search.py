"""Rollouts from a player's view on the compiled engine (the search of the ``expert`` level and
the move hints; :mod:`sorry.bots.estimate` and :mod:`sorry.bots.expert` call it when the
``fast`` extra is installed).

>>> from sorry import Game
>>> from sorry.fast.search import ViewRoot
>>> g = Game.from_position("R:S,S,10,s1 Y:20,30,40,S R", card=5)
>>> root = ViewRoot(g.view(0))
>>> scores = root.scores([0, 1], worlds=[1, 2, 3], depth=10_000)
>>> scores.shape
(3, 2)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..bots.base import deck_probabilities
from ..bots.evaluate import DEFAULT_WEIGHTS, Weights
from ..cards import CARD_INDEX
from ..errors import GameStateError
from ..rules import Rules
from ..view import PlayerView
from . import _policy as PO
from . import _search as SR
from . import _state_of, params

Array = npt.NDArray[Any]


@functools.lru_cache(maxsize=32)
def rule_arrays(
    rules: Rules, weights: Weights = DEFAULT_WEIGHTS
) -> tuple[Array, Array, Array, Array]:
    """P, slide, hitm and the medium bot's E (full-deck probabilities) of a rule set."""
    P, slide = params(rules)
    hitm = PO.hit_masks(rules.slide_on)
    E = PO.eval_params(
        deck_probabilities(rules), weights, hand=weights.points_hand if rules.points else 1
    )
    for a in (P, slide, hitm, E):
        a.setflags(write=False)
    return P, slide, hitm, E


class ViewRoot:
    """The arrays of one view (the viewer to move): the root of a search."""

    engine = "compiled"

    def __init__(
        self, view: PlayerView, weights: Weights = DEFAULT_WEIGHTS, scale: float = 40.0
    ) -> None:
        if not view.my_turn:
            raise GameStateError("a search needs the view of the player to move")
        rules = view.rules
        self.view = view
        self.P, self.slide, self.hitm, self.E = rule_arrays(rules, weights)
        probs = view.next_card_probabilities() or deck_probabilities(rules)
        self.E_leaf = PO.eval_params(probs, weights, hand=5 if rules.points else 1, scale=scale)
        self.cols = np.array(view.colours, dtype=np.int64)
        self.S0 = _state_of(view.position())
        R = np.zeros(SR.R_LEN, dtype=np.int64)
        R[SR.R_VIEWER] = view.viewer
        R[SR.R_TURN] = view.turn
        R[SR.R_DRAW] = view.draw_count
        R[SR.R_CARD] = view.card or 0
        for c in range(4):
            R[SR.R_SIZES + c] = view.hand_sizes[c]
        for card in view.hand:
            R[SR.R_HAND + CARD_INDEX[card]] += 1
        unseen = view.unseen_counts()
        for card, n in unseen.items():
            R[SR.R_UNSEEN + CARD_INDEX[card]] = n
        hidden = sum(view.hand_sizes[c] for c in view.colours if c != view.viewer)
        if sum(unseen.values()) != hidden + view.draw_count:
            raise GameStateError("inconsistent view: the unseen cards do not fill the hidden ones")
        pile = view.discard_pile
        R[SR.R_NDISCARD] = len(pile)
        for k, card in enumerate(pile):
            R[SR.R_DISCARD + k] = card
        self.R = R

    def scores(self, cands: Sequence[int], worlds: Sequence[int] | Array, depth: int) -> Array:
        """[worlds, candidates]: the score of each root move (an index of view.legal_moves)
        in each world (a seed): 1 won, 0 lost, else the leaf evaluation squashed."""
        w = np.asarray(worlds, dtype=np.uint64)
        c = np.asarray(cands, dtype=np.int64)
        out = np.empty((w.shape[0], c.shape[0]), dtype=np.float64)
        SR.evaluate_worlds(
            self.R,
            self.S0,
            self.slide,
            self.P,
            self.cols,
            c,
            w,
            depth,
            self.hitm,
            self.E,
            self.E_leaf,
            out,
        )
        return out
