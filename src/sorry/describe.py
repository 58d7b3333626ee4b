"""Moves described in words, from what they do to the board (for logs and players), in the
current language (:mod:`sorry.i18n`).

>>> from sorry import Game
>>> g = Game.from_position("R:S,S,13,s2 B:S,S,S,18 R", card=3)
>>> describe(g, g.legal_moves[0])
'Red moves a pawn from 13 to 16, slides to 19, bumps Blue (18) to START'
"""

from __future__ import annotations

from .board import HOME, START, colour_name, loc_name
from .cards import card_label
from .game import Game
from .i18n import _
from .moves import DISCARD, ENTER, PASS, SORRY, SWAP, Move
from .state import Change


def where(loc: int) -> str:
    """A location as players read it: ``START``, ``HOME``, a square number or ``s1``–``s5``."""
    if loc == START:
        return _("START")
    if loc == HOME:
        return _("HOME")
    return loc_name(loc)


def describe(game: Game, move: Move) -> str:
    """A sentence for ``move`` played by the player to move in ``game`` (not changed)."""
    who = colour_name(game.to_move)
    card = card_label(move.card) if move.card is not None and move.kind != DISCARD else None
    if move.kind == PASS:
        if card is None:
            return _("{player} cannot or will not move: the turn is forfeited").format(player=who)
        return _("{player} cannot or will not move (card {card}): the turn is forfeited").format(
            player=who, card=card
        )
    if move.kind == DISCARD:
        return _("{player} has no playable card and discards a {card}").format(
            player=who, card=card_label(move.card if move.card is not None else 0)
        )
    state = game.state.copy()
    changes: list[Change] = []
    state.apply(move, changes)
    movers: dict[tuple[int, int], list[int]] = {}
    for c, i, old in changes:
        movers.setdefault((c, i), []).append(old)
    parts: list[str] = []
    bumps: list[str] = []
    for (c, i), olds in movers.items():
        start, end = olds[0], state.pawns[c][i]
        if end == START and start != START:
            bumps.append(
                _("{colour} ({square})").format(colour=colour_name(c), square=where(start))
            )
            continue
        landed = olds[1] if len(olds) > 1 else end
        if c == game.to_move:
            text = _("a pawn from {start} to {end}").format(start=where(start), end=where(landed))
        else:
            text = _("a {colour} pawn from {start} to {end}").format(
                colour=colour_name(c), start=where(start), end=where(landed)
            )
        if len(olds) > 1:
            text = _("{move}, slides to {end}").format(move=text, end=where(end))
        parts.append(text)
    pawns = "; ".join(parts)
    if move.kind == ENTER:
        sentence = _("{player} starts {pawns}")
    elif move.kind == SORRY:
        sentence = _("{player} plays Sorry!: {pawns}")
    elif move.kind == SWAP:
        sentence = _("{player} swaps {pawns}")
    else:
        sentence = _("{player} moves {pawns}")
    text = sentence.format(player=who, pawns=pawns)
    if bumps:
        text = _("{move}, bumps {pawns} to START").format(move=text, pawns=", ".join(bumps))
    if card is not None:
        text = _("{move} (card {card})").format(move=text, card=card)
    return text
