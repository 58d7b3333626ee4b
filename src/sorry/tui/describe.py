"""Moves in words, for the game log and the choices (no Textual needed).

>>> from sorry import Game
>>> g = Game.from_position("R:S,S,4,s2 Y:12,33,40,H R", card=10)
>>> [describe_move(g.state, m) for m in g.legal_moves]
['Red 4 → 14', 'Red 4 → 3 (back 1)', 'Red Safety 2 → Safety 1 (back 1)']
"""

from __future__ import annotations

from ..board import colour_name
from ..cards import Card, card_label
from ..describe import CARD_HELP, Outcome, card_help, place_name, short
from ..game import Game
from ..i18n import _
from ..moves import PASS, Move
from ..state import PawnState

__all__ = [
    "CARD_HELP",
    "Outcome",
    "card_help",
    "card_words",
    "describe_move",
    "is_forced_pass",
    "outcome",
    "pass_words",
    "place_name",
]


def card_words(card: Card) -> str:
    """The card's name in the current language (``Sorry!`` translated, numbers as they are)."""
    return card_label(card)


def is_forced_pass(game: Game) -> bool:
    """Whether the player to move has no legal move at all (a pass that declines nothing):
    the turn passes by itself, with no key to press."""
    moves = game.legal_moves
    return not game.is_over() and not game.is_chance() and len(moves) == 1 and moves[0].kind == PASS


def pass_words(game: Game, person: bool) -> str:
    """A turn with no legal move (the player to move's, in ``game``), in words: ``No move
    with the 5: your turn passes.`` to the ``person`` whose turn it is, ``Blue drew 5: no
    move, the turn passed.`` to the others.

    >>> g = Game.from_position("R:S,S,S,S Y:S,S,S,30 R", card=5)
    >>> pass_words(g, True), pass_words(g, False)
    ('No move with the 5: your turn passes.', 'Red drew 5: no move, the turn passed.')
    """
    card = game.card
    who = colour_name(game.to_move)
    if card is None:
        if person:
            return _("No move: your turn passes.")
        return _("{colour} had no move: the turn passed.").format(colour=who)
    again = game.rules.book.plays_again(card)
    if person:
        text = (
            _("No move with the {card}: you draw again.")
            if again
            else _("No move with the {card}: your turn passes.")
        )
        return text.format(card=card_label(card))
    if again:
        text = _("{colour} drew {card}: no move, draws again.")
    else:
        text = _("{colour} drew {card}: no move, the turn passed.")
    return text.format(colour=who, card=card_label(card))


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
