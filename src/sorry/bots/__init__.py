"""Computer players: the :class:`Bot` protocol and six levels.

===========  ===================================================================================
``random``   a uniformly random legal move
``easy``     greedy one-ply on progress
``medium``   greedy one-ply on a hand-tuned evaluation (progress, safety, threats, START, slides)
``hard``     expectimax over the next draw with the exact remaining-deck probabilities
``learned``  greedy one-ply on an evaluation learned by self-play (:mod:`sorry.bots.learned`;
             it needs the ``fast`` extra, :data:`COMPILED_LEVELS`)
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

import inspect
import typing
from typing import Any

from .base import Bot
from .estimate import Estimate, MoveEstimate, estimate, hint_estimate
from .expert import ExpertBot
from .hard import HardBot
from .hint import hint
from .learned import LearnedBot
from .levels import EasyBot, MediumBot, RandomBot
from .play import play_game
from .table import LEVEL_TABLE, LevelInfo, level_info, level_label, level_strength

#: The levels, weakest first (each with its name and strength sentence in :data:`LEVEL_TABLE`).
LEVELS = tuple(info.level for info in LEVEL_TABLE)


#: The class of each level.
BOT_CLASSES: dict[str, type[Bot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
    "expert": ExpertBot,
    "learned": LearnedBot,
}

#: Levels that need the compiled engine (the ``fast`` extra: numpy and numba); without it
#: :func:`make_bot` refuses them with a one-line error and the new-game screens leave them out.
COMPILED_LEVELS = frozenset({"learned"})

#: The kinds of value a parameter given as text can have, as an error names them.
_KINDS = {int: "a whole number", float: "a number", str: "a word", bool: "true or false"}


def bot_parameters(level: str) -> dict[str, tuple[type, ...]]:
    """The parameters a bot of ``level`` takes that can be given as text
    (``expert:simulations=200``), each with the types it accepts, in the constructor's
    order (the evaluation weights are left out: they are not one number)."""
    init = BOT_CLASSES[level].__init__
    hints = typing.get_type_hints(init)
    out: dict[str, tuple[type, ...]] = {}
    for name, param in inspect.signature(init).parameters.items():
        if name == "self" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        hint = hints.get(name)
        kinds = tuple(t for t in (typing.get_args(hint) or (hint,)) if t in _KINDS)
        if kinds:
            out[name] = kinds
    return out


def make_bot(level: str, **kw: Any) -> Bot:
    """A bot of the named level; keyword arguments go to its constructor (e.g. the expert's
    ``simulations`` or ``time_limit``). :class:`~sorry.errors.SorryError` names an unknown
    level, an unknown parameter (listing the valid ones) or a bad value."""
    from ..errors import SorryError

    if level not in BOT_CLASSES:
        known = ", ".join(LEVELS)
        raise SorryError(f"unknown bot level {level!r} (levels: {known})")
    params = bot_parameters(level)
    for key, value in kw.items():
        if key not in params:
            valid = f"its parameters: {', '.join(params)}" if params else "it takes none"
            raise SorryError(f"the {level} bot has no parameter {key!r} ({valid})")
        kinds = params[key]
        if isinstance(value, int) and not isinstance(value, bool) and float in kinds:
            value = kw[key] = value if int in kinds else float(value)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            wanted = " or ".join(_KINDS[t] for t in kinds)
            raise SorryError(f"{key} is {wanted}, not {value!r}")
    try:
        return BOT_CLASSES[level](**kw)
    except ValueError as exc:
        raise SorryError(str(exc)) from None


__all__ = [
    "BOT_CLASSES",
    "COMPILED_LEVELS",
    "LEVELS",
    "LEVEL_TABLE",
    "Bot",
    "EasyBot",
    "Estimate",
    "ExpertBot",
    "HardBot",
    "LearnedBot",
    "LevelInfo",
    "MediumBot",
    "MoveEstimate",
    "RandomBot",
    "bot_parameters",
    "estimate",
    "hint",
    "hint_estimate",
    "level_info",
    "level_label",
    "level_strength",
    "make_bot",
    "play_game",
]
