"""Moves in words, for the game log and the choices (no Textual needed).

>>> from sorry import Game
>>> g = Game.from_position("R:S,S,4,s2 Y:12,33,40,H R", card=10)
>>> [describe_move(g.state, m) for m in g.legal_moves]
['Red 4 → 14', 'Red 4 ← 3 (back 1)', 'Red Safety 2 ← Safety 1 (back 1)']
"""

from __future__ import annotations

from ..cards import SORRY, Card, card_label
from ..describe import Outcome, place_name, short
from ..i18n import N_, _
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


#: What each card does, in a few words (fits the middle of the smallest board); English, marked
#: for translation: show ``card_help(card)``.
CARD_HELP = {
    1: N_("start, or 1 forward"),
    2: N_("start or 2; draw again"),
    3: N_("3 forward"),
    4: N_("4 backward"),
    5: N_("5 forward"),
    7: N_("7, or split it in two"),
    8: N_("8 forward"),
    10: N_("10 forward or 1 back"),
    11: N_("11, or swap places"),
    12: N_("12 forward"),
    SORRY: N_("START pawn bumps one"),
}


def card_help(card: Card) -> str:
    """What ``card`` does, in a few words of the current language."""
    return _(CARD_HELP[card])


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
