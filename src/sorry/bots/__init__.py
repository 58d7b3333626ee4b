"""Computer players: the :class:`Bot` protocol and five levels.

===========  ===================================================================================
``random``   a uniformly random legal move
``easy``     greedy one-ply on progress
``medium``   greedy one-ply on a hand-tuned evaluation (progress, safety, threats, START, slides)
``hard``     expectimax over the next draw with the exact remaining-deck probabilities
``expert``   determinised Monte-Carlo search with rollouts over the hard bot's best moves
===========  ===================================================================================

Every bot sees only a :class:`~sorry.view.PlayerView` and is deterministic given the generator
it is handed:

>>> from sorry import Rules
>>> from sorry.bots import make_bot, play_game
>>> g = play_game(Rules(), [make_bot("easy"), make_bot("random")], seed=5)
>>> g.is_over(), g.winner in (0, 2)
(True, True)
"""

from __future__ import annotations

from typing import Any

from .base import Bot
from .estimate import Estimate, MoveEstimate, estimate
from .expert import ExpertBot
from .hard import HardBot
from .hint import hint
from .levels import EasyBot, MediumBot, RandomBot
from .play import play_game
from .table import LEVEL_TABLE, LevelInfo, level_info, level_label, level_strength

#: The levels, weakest first (each with its name and strength sentence in :data:`LEVEL_TABLE`).
LEVELS = tuple(info.level for info in LEVEL_TABLE)


def make_bot(level: str, **kw: Any) -> Bot:
    """A bot of the named level; keyword arguments go to its constructor (e.g. the expert's
    ``simulations`` or ``time_limit``)."""
    if level == "random":
        return RandomBot(**kw)
    if level == "easy":
        return EasyBot(**kw)
    if level == "medium":
        return MediumBot(**kw)
    if level == "hard":
        return HardBot(**kw)
    if level == "expert":
        return ExpertBot(**kw)
    from ..errors import SorryError

    raise SorryError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")


__all__ = [
    "LEVELS",
    "LEVEL_TABLE",
    "Bot",
    "EasyBot",
    "Estimate",
    "ExpertBot",
    "HardBot",
    "LevelInfo",
    "MediumBot",
    "MoveEstimate",
    "RandomBot",
    "estimate",
    "hint",
    "level_info",
    "level_label",
    "level_strength",
    "make_bot",
    "play_game",
]
