"""Moves in words, from their effects (:mod:`sorry.effects`), in the current language
(:mod:`sorry.i18n`): the one describer of every face, with one set of strings.

* the **short** form (:func:`short`) is what the terminal game's log and the browser's move
  buttons and log show: ``Red 13 → 16, slides to 19, bumps Blue from 18``;
* the **long** form (:func:`long`) is a sentence, for the command line:
  ``Red moves a pawn from 13 to 16, slides to 19, bumps Blue from 18``.

Both take a move and its effects (``game.effects(move)``, judged on the board before the
move); without effects the short form says what the move itself says (no slides or bumps).

>>> from sorry import Game
>>> g = Game.from_position("R:S,S,13,s2 B:S,S,S,18 R", card=3)
>>> describe(g, g.legal_moves[0])
'Red moves a pawn from 13 to 16, slides to 19, bumps Blue from 18'
>>> describe(g, g.legal_moves[0], short_form=True)
'Red 13 → 16, slides to 19, bumps Blue from 18'
>>> short(g.legal_moves[0])
'Red 13 → 16'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .board import (
    BACKWARD as BWD,
    FORWARD as FWD,
    HOME,
    SAFE_BASE,
    START,
    START_EXIT,
    TRACK_LEN,
    colour_name,
)
from .cards import Card, card_label
from .effects import Effect, EffectKind, parts
from .game import Game
from .i18n import _
from .moves import BACKWARD, DISCARD, ENTER, FORWARD, PASS, SORRY, SPLIT, SWAP, Move
from .rulebook import DECLINABLE_CARD, declines


def place_name(loc: int) -> str:
    """A location for people: ``12``, ``Safety 2``, ``HOME``, ``START``."""
    if loc < TRACK_LEN:
        return str(loc)
    if loc == HOME:
        return _("HOME")
    if loc == START:
        return _("START")
    return _("Safety {n}").format(n=loc - SAFE_BASE)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one simple move (or half of a 7) does, read from its effects."""

    colour: int
    src: int
    landing: int  # where the pawn lands, before any slide
    final: int  # where it ends, after a slide
    bumped: tuple[tuple[int, int], ...]  # (colour, location) of every pawn sent to START

    @classmethod
    def of(cls, effects: Sequence[Effect]) -> Outcome:
        """The outcome of the effects of one part (``effects.parts(...)[k]``)."""
        head = effects[0]
        final = head.dest
        for e in effects:
            if e.kind == EffectKind.SLIDE and e.colour == head.colour and e.src == final:
                final = e.dest
        bumped = tuple((e.colour, e.src) for e in effects if e.kind == EffectKind.BUMP)
        return cls(head.colour, head.src, head.dest, final, bumped)


def _landing(part: Move) -> int:
    """Where a move's pawn lands by the move alone (no board: no slide known)."""
    kind = part.kind
    if kind == FORWARD:
        return FWD[part.colour][part.src][part.steps]
    if kind == BACKWARD:
        return BWD[part.colour][part.src][part.steps]
    if kind == ENTER:
        return START_EXIT[part.colour]
    return part.target


def _outcomes(move: Move, effects: Sequence[Effect] | None) -> list[Outcome]:
    halves = move.parts if move.kind == SPLIT else (move,)
    if effects:
        return [Outcome.of(p) for p in parts(effects)]
    return [Outcome(h.colour, h.src, _landing(h), _landing(h), ()) for h in halves]


def _tail(o: Outcome, skip: tuple[int, int] | None = None) -> str:
    """``, slides to 19, bumps Blue from 18`` (``skip``: a bump the sentence already says)."""
    words = []
    if o.final != o.landing and o.final >= 0:
        words.append(_("slides to {place}").format(place=place_name(o.final)))
    for c, x in o.bumped:
        if (c, x) != skip:
            words.append(
                _("bumps {colour} from {place}").format(colour=colour_name(c), place=place_name(x))
            )
    return (", " + ", ".join(words)) if words else ""


def _short_part(part: Move, o: Outcome) -> str:
    who = colour_name(part.colour)
    kind = part.kind
    if kind == FORWARD:
        return f"{who} {place_name(part.src)} → {place_name(o.landing)}{_tail(o)}"
    if kind == BACKWARD:
        back = _("(back {n})").format(n=part.steps)
        return f"{who} {place_name(part.src)} ← {place_name(o.landing)} {back}{_tail(o)}"
    if kind == ENTER:
        return _("{colour} leaves START for {place}").format(
            colour=who, place=place_name(o.landing)
        ) + _tail(o)
    if kind == SORRY:
        victim = colour_name(part.target_colour)
        return _("{colour} from START takes {victim}'s place on {square}").format(
            colour=who, victim=victim, square=part.target
        ) + _tail(o, skip=(part.target_colour, part.target))
    if kind == SWAP:
        other = colour_name(part.target_colour)
        return _("{colour} {square} swaps with {other} on {target}").format(
            colour=who, square=part.src, other=other, target=part.target
        ) + _tail(o)
    return str(part)


def short(
    move: Move,
    effects: Sequence[Effect] | None = None,
    card: Card | None = None,
    declined: bool | None = None,
) -> str:
    """The move in a few words. ``card``: the card played; for a pass, ``declined`` says
    whether it declines the card (:func:`sorry.rulebook.declines`: ``declines the 11``) or
    forfeits the turn; without it a pass of an 11 declines it."""
    if move.kind == PASS:
        if declined if declined is not None else card == DECLINABLE_CARD:
            return _("declines the 11")
        return _("has no legal move: the turn is forfeited")
    if move.kind == DISCARD:
        return _("discards a {card} (no usable card)").format(card=card_label(move.card or 0))
    outcomes = _outcomes(move, effects)
    if move.kind == SPLIT:
        words = [_short_part(p, o) for p, o in zip(move.parts, outcomes, strict=True)]
        return _("split 7: {moves}").format(moves="; ".join(words))
    return _short_part(move, outcomes[0])


def _pawn_words(player: int, colour: int, src: int, dest: int) -> str:
    if colour == player:
        text = _("a pawn from {start} to {end}")
    else:
        text = _("a {colour} pawn from {start} to {end}")
    return text.format(colour=colour_name(colour), start=place_name(src), end=place_name(dest))


def long(move: Move, effects: Sequence[Effect], player: int) -> str:
    """The move as a sentence: ``player`` (the colour to move) and what each pawn does."""
    who = colour_name(player)
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
    words: list[str] = []
    for o in _outcomes(move, effects):
        words.append(_pawn_words(player, o.colour, o.src, o.landing) + _tail(o))
    if move.kind == SWAP:  # the other pawn goes to the mover's square
        words.append(_pawn_words(player, move.target_colour, move.target, move.src))
    pawns = "; ".join(words)
    if move.kind == ENTER:
        sentence = _("{player} starts {pawns}")
    elif move.kind == SORRY:
        sentence = _("{player} plays Sorry!: {pawns}")
    elif move.kind == SWAP:
        sentence = _("{player} swaps {pawns}")
    else:
        sentence = _("{player} moves {pawns}")
    text = sentence.format(player=who, pawns=pawns)
    if card is not None:
        text = _("{move} (card {card})").format(move=text, card=card)
    return text


def describe(game: Game, move: Move, short_form: bool = False) -> str:
    """``move`` (legal for the player to move in ``game``, which is not changed) in words:
    the long form, or the short one."""
    effects = game.effects(move) if move.kind not in (PASS, DISCARD) else []
    if short_form:
        card = game.card if move.card is None else move.card
        return short(move, effects, card, declines(game.card, game.legal_moves))
    return long(move, effects, game.to_move)


__all__ = ["Outcome", "describe", "long", "place_name", "short"]
