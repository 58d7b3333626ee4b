"""Move hints: each legal move with its estimated chance of winning, from playouts.

Every move is played in the same ``rollouts`` determinised worlds (common random numbers), each
followed by a greedy playout to the end of the game (:mod:`sorry.bots.rollout`); the estimate
is the share of worlds won. The terminal and web games call :func:`hint`.
"""

from __future__ import annotations

from ..errors import GameStateError
from ..game import Game
from ..moves import Move
from ..rng import Rng
from ..view import PlayerView
from .expert import ExpertBot


def hint(
    game_or_view: Game | PlayerView, rollouts: int = 200, seed: int = 0
) -> list[tuple[Move, float]]:
    """Each legal move of the player to move with its estimated win probability, best first.

    >>> from sorry import Game
    >>> g = Game.from_position("R:S,S,10,s1 Y:20,30,40,S R", card=5)
    >>> [(str(m), round(p, 2)) for m, p in hint(g, rollouts=20)][0]
    ('Rs1+5', 0.65)
    """
    if isinstance(game_or_view, Game):
        if game_or_view.is_over() or game_or_view.is_chance():
            raise GameStateError("hints need a player to move (draw the card first)")
        view = game_or_view.view(game_or_view.to_move)
    else:
        view = game_or_view
    moves = list(view.legal_moves)
    if not moves:
        raise GameStateError("hints need the view of the player to move")
    if rollouts < 1:
        raise ValueError("rollouts must be at least 1")
    bot = ExpertBot(simulations=rollouts, depth=10_000)
    rng = Rng(seed)
    worlds = [rng.next64() for _ in range(rollouts)]
    scored = []
    for i, m in enumerate(moves):
        total = sum(bot.playout(view, m, w) for w in worlds)
        scored.append((i, m, total / rollouts))
    scored.sort(key=lambda t: (-t[2], t[0]))
    return [(m, p) for _i, m, p in scored]
