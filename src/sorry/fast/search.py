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

from collections.abc import Callable
from pathlib import Path

from ..compiled import aot
from ..compiled.arrays import ViewArrays, rule_arrays
from ..tuning import DEFAULT_WEIGHTS, Weights
from ..view import PlayerView
from . import _search as SR


class ViewRoot(ViewArrays):
    """The arrays of one view (the viewer to move), scored by the rollouts compiled just in
    time (:func:`sorry.fast._search.evaluate_worlds`)."""

    def __init__(
        self, view: PlayerView, weights: Weights = DEFAULT_WEIGHTS, scale: float = 40.0
    ) -> None:
        super().__init__(view, weights, scale, SR.evaluate_worlds)


def build_ahead(say: Callable[[str], None] | None = None) -> Path:
    """Compile these rollouts ahead of time (``sorry compile``: :func:`sorry.compiled.aot.build`)
    and return the module's path."""
    return aot.build(SR.evaluate_worlds, say)


__all__ = ["ViewRoot", "build_ahead", "rule_arrays"]
