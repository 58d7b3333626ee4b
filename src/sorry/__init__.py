"""Sorry!: a complete, exact and fast rules engine for the card-driven race board game.

The core is standard library only. Typical use:

>>> import sorry
>>> g = sorry.Game.from_position("R:S,S,4,s2 Y:12,33,40,H R", card=10)
>>> [str(m) for m in g.legal_moves]
['R4+10', 'R4-1', 'Rs2-1']
>>> g.push("R4+10")
>>> g.position_string()
'R:S,S,14,s2 Y:12,33,40,H Y'
>>> g.pop()
Move.parse('R4+10')
"""

from .board import BLUE, COLOUR_LETTERS, COLOUR_NAMES, GREEN, HOME, RED, START, YELLOW
from .cards import CARDS, SORRY, card_name, parse_card
from .effects import Effect, EffectKind
from .errors import (
    GameStateError,
    IllegalMoveError,
    NotationError,
    PositionError,
    RulesError,
    SorryError,
)
from .game import Game
from .match import Match
from .moves import Kind, Move
from .position import Position
from .rules import Rules
from .view import Phase, PlayerView

#: The package's version: the one source (pyproject.toml reads it; ``sorry --version`` prints
#: it; records name it). Changes are listed in CHANGELOG.md.
__version__ = "0.1.0"

__all__ = [
    "BLUE",
    "CARDS",
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "GREEN",
    "HOME",
    "RED",
    "SORRY",
    "START",
    "YELLOW",
    "Effect",
    "EffectKind",
    "Game",
    "GameStateError",
    "IllegalMoveError",
    "Kind",
    "Match",
    "Move",
    "NotationError",
    "Phase",
    "PlayerView",
    "Position",
    "PositionError",
    "Rules",
    "RulesError",
    "SorryError",
    "card_name",
    "parse_card",
]
