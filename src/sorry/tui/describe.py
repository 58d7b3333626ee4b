"""Moves in words, for the game log and the choices (no Textual needed).

>>> from sorry import Game
>>> g = Game.from_position("R:S,S,4,s2 Y:12,33,40,H R", card=10)
>>> [describe_move(g.state, m) for m in g.legal_moves]
['Red 4 → 14', 'Red 4 → 3 (back 1)', 'Red Safety 2 → Safety 1 (back 1)']
"""

from __future__ import annotations

from ..cards import Card, card_label
from ..describe import CARD_HELP, Outcome, card_help, place_name, short
from ..moves import Move
from ..state import PawnState

__all__ = [
    "CARD_HELP",
    "Outcome",
    "card_help",
    "card_words",
    "describe_move",
    "outcome",
    "place_name",
]


def card_words(card: Card) -> str:
    """The card's name in the current language (``Sorry!`` translated, numbers as they are)."""
    return card_label(card)


def outcome(state: PawnState, part: Move) -> Outcome:
    """What ``part`` (not a split) does on ``state``, from its effects."""
    return Outcome.of(state.effects(part))


def describe_move(
    state: PawnState,
    move: Move,
    card: Card | None = None,
    declined: bool | None = None,
    mover: int | None = None,
) -> str:
    """The move in words (the short form of :mod:`sorry.describe`), judged on ``state`` (the
    board before it); ``declined``: whether a pass declines the card (``rulebook.declines``);
    ``mover``: the player, when a sentence around the words names them."""
    return short(move, state.effects(move), card, declined, mover)
