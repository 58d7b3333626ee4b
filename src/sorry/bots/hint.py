"""Move hints: each legal move with its estimated chance of winning (the older interface of
:func:`sorry.bots.estimate.estimate`, which adds the 95% intervals and the ties)."""

from __future__ import annotations

from ..game import Game
from ..moves import Move
from ..view import PlayerView
from .estimate import HINT_SECONDS, estimate


def hint(
    game_or_view: Game | PlayerView,
    rollouts: int = 200,
    seed: int = 0,
    seconds: float | None = HINT_SECONDS,
) -> list[tuple[Move, float]]:
    """Each legal move of the player to move with its estimated win probability, best first,
    from at most ``rollouts`` worlds per move and ``seconds`` (None: no time limit)
    (:func:`sorry.bots.estimate.estimate`).

    >>> from sorry import Game
    >>> g = Game.from_position("R:S,S,10,s1 Y:20,30,40,S R", card=5)
    >>> str(hint(g, rollouts=4000, seconds=None)[0][0])
    'Rs1+5'
    """
    if rollouts < 1:
        raise ValueError("rollouts must be at least 1")
    return estimate(game_or_view, seconds=seconds, max_worlds=rollouts, seed=seed).pairs()
