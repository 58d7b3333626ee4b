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
    START_EXIT,
    TRACK_LEN,
    Colour,
    Location,
    colour_name,
    place_name,
)
from .cards import SORRY as SORRY_CARD, Card, card_label
from .effects import Effect, EffectKind, parts
from .game import Game
from .i18n import N_, _, ngettext
from .moves import BACKWARD, DISCARD, ENTER, FORWARD, PASS, SORRY, SPLIT, SWAP, Move
from .rulebook import DECLINABLE_CARD, declines


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


def with_tail(text: str, o: Outcome, skip: tuple[int, int] | None = None) -> str:
    """``text`` and what else the move does: ``…, slides to 19, bumps Blue from 18`` (``skip``:
    a bump the sentence already says). Each clause is a message that takes the sentence so far,
    so the catalog says how it joins on."""
    if o.final != o.landing and o.final >= 0:
        text = _("{move}, slides to {place}").format(move=text, place=place_name(o.final))
    for c, x in o.bumped:
        if (c, x) != skip:
            text = _("{move}, bumps {colour} from {place}").format(
                move=text, colour=colour_name(c), place=place_name(x)
            )
    return text


def _short_part(part: Move, o: Outcome, mover: int | None = None) -> str:
    """One move (or half of a 7) in a few words; without the colour when it is ``mover``'s
    (the sentence around it names the player)."""
    who = colour_name(part.colour)
    if mover is not None:  # a clause inside the sentence that names the mover
        who = who.inside()
    own = part.colour == mover
    kind = part.kind
    start, end = place_name(part.src), place_name(o.landing)
    if kind == FORWARD:
        text = (
            _("{start} → {end}").format(start=start, end=end)
            if own
            else _("{colour} {start} → {end}").format(colour=who, start=start, end=end)
        )
    elif kind == BACKWARD:
        text = (
            _("{start} → {end} (back {n})").format(start=start, end=end, n=part.steps)
            if own
            else _("{colour} {start} → {end} (back {n})").format(
                colour=who, start=start, end=end, n=part.steps
            )
        )
    elif kind == ENTER:
        text = (
            _("leaves START for {place}").format(place=end)
            if own
            else _("{colour} leaves START for {place}").format(colour=who, place=end)
        )
    elif kind == SORRY:
        victim, square = colour_name(part.target_colour), place_name(part.target)
        text = (
            _("leaves START and takes {victim}'s place on {square}").format(
                victim=victim, square=square
            )
            if own
            else _("{colour} from START takes {victim}'s place on {square}").format(
                colour=who, victim=victim, square=square
            )
        )
        return with_tail(text, o, skip=(part.target_colour, part.target))
    elif kind == SWAP:
        other, target = colour_name(part.target_colour), place_name(part.target)
        text = (
            _("swaps {square} with {other} on {target}").format(
                square=start, other=other, target=target
            )
            if own
            else _("{colour} {square} swaps with {other} on {target}").format(
                colour=who, square=start, other=other, target=target
            )
        )
    else:
        return str(part)
    return with_tail(text, o)


def short(
    move: Move,
    effects: Sequence[Effect] | None = None,
    card: Card | None = None,
    declined: bool | None = None,
    mover: int | None = None,
) -> str:
    """The move in a few words. ``card``: the card played; for a pass, ``declined`` says
    whether it declines the card (:func:`sorry.rulebook.declines`: ``declines the 11``) or
    forfeits the turn; without it a pass of an 11 declines it. ``mover``: the player, when the
    words go into a sentence that names them (``Red draws 3: 13 → 16``): their own pawns'
    moves are then said without their colour."""
    if move.kind == PASS:
        if declined if declined is not None else card == DECLINABLE_CARD:
            return _("declines the 11")
        return _("has no legal move: the turn is forfeited")
    if move.kind == DISCARD:
        return _("discards a {card} (no usable card)").format(card=card_label(move.card or 0))
    outcomes = _outcomes(move, effects)
    if move.kind == SPLIT:
        first, second = (
            _short_part(p, o, mover) for p, o in zip(move.parts, outcomes, strict=True)
        )
        return _("split 7: {first}; {second}").format(first=first, second=second)
    return _short_part(move, outcomes[0], mover)


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
    pawns = [
        with_tail(_pawn_words(player, o.colour, o.src, o.landing), o)
        for o in _outcomes(move, effects)
    ]
    if move.kind == SWAP:  # the other pawn goes to the mover's square
        other = _pawn_words(player, move.target_colour, move.target, move.src)
        text = _("{player} swaps {first}; {second}").format(
            player=who, first=pawns[0], second=other
        )
    elif move.kind == SPLIT:
        text = _("{player} moves {first}; {second}").format(
            player=who, first=pawns[0], second=pawns[1]
        )
    elif move.kind == ENTER:
        text = _("{player} starts {pawns}").format(player=who, pawns=pawns[0])
    elif move.kind == SORRY:
        text = _("{player} plays Sorry!: {pawns}").format(player=who, pawns=pawns[0])
    else:
        text = _("{player} moves {pawns}").format(player=who, pawns=pawns[0])
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


# -- squares as a player sees the board -------------------------------------------------------
def _landmark(square: int) -> tuple[str, int, int]:
    """The landmark nearest a track square: ``("entry" | "exit", colour, steps)``, ``steps``
    from the landmark forward to the square (negative: the square is before it)."""
    side, k = divmod(square, 15)
    if k <= 1:  # the end of the side before: just before this side's Safety Zone
        return "entry", side, k - 2
    if k == 2:
        return "entry", side, 0
    if k <= 10:  # by this side's START exit (b+4), up to 6 squares after it
        return "exit", side, k - 4
    return "entry", (side + 1) % 4, k - 17  # up to 6 squares before the next Safety Zone


def square_words(loc: Location, viewer: Colour | None = None) -> str:
    """A square the way a player sees the board, by the nearest Safety Zone entry or START
    exit: ``4 squares before your Safety Zone``, ``2 squares after Yellow's START``,
    ``outside Blue's START``, ``at the entrance to Red's Safety Zone`` (``your`` for the
    ``viewer``'s colour). START, HOME and Safety Zone squares are said as :func:`place_name`
    says them. The terminal game and the browser name squares with it; the number stays the
    notation's.

    >>> square_words(36), square_words(36, viewer=2)
    ("2 squares after Yellow's START", '2 squares after your START')
    >>> square_words(28, viewer=2), square_words(47)
    ('4 squares before your Safety Zone', "at the entrance to Green's Safety Zone")
    >>> square_words(49), square_words(48, viewer=3), square_words(62)
    ("outside Green's START", '1 square before your START', 'Safety 3')
    """
    if not 0 <= loc < TRACK_LEN:
        return str(place_name(loc))
    kind, side, steps = _landmark(loc)
    mine = side == viewer
    n = abs(steps)
    if kind == "entry" and steps == 0:
        text = (
            _("at the entrance to your Safety Zone")
            if mine
            else _("at the entrance to {colour}'s Safety Zone")
        )
    elif kind == "entry":
        text = (
            ngettext("{n} square before your Safety Zone", "{n} squares before your Safety Zone", n)
            if mine
            else ngettext(
                "{n} square before {colour}'s Safety Zone",
                "{n} squares before {colour}'s Safety Zone",
                n,
            )
        )
    elif steps == 0:
        text = _("outside your START") if mine else _("outside {colour}'s START")
    elif steps < 0:
        text = (
            ngettext("{n} square before your START", "{n} squares before your START", n)
            if mine
            else ngettext(
                "{n} square before {colour}'s START", "{n} squares before {colour}'s START", n
            )
        )
    else:
        text = (
            ngettext("{n} square after your START", "{n} squares after your START", n)
            if mine
            else ngettext(
                "{n} square after {colour}'s START", "{n} squares after {colour}'s START", n
            )
        )
    return text.format(n=n, colour=colour_name(side))


def landings(move: Move, effects: Sequence[Effect] | None = None) -> list[Location]:
    """Where the pawns the player moves end (after any slide), in playing order: one square,
    two for a split 7, none for a pass or a discard (a pawn bumped by its own slide: START)."""
    if move.kind in (PASS, DISCARD):
        return []
    return [o.final if o.final >= 0 else o.landing for o in _outcomes(move, effects)]


def where_words(
    move: Move, effects: Sequence[Effect] | None = None, viewer: Colour | None = None
) -> str:
    """Where a move takes the player's pawns, as a player sees the board
    (:func:`square_words`): ``4 squares before your Safety Zone``; both squares of a split
    7; empty when no pawn ends on the track (a pass, a pawn going HOME or into its Safety
    Zone: the move's words say so already).

    >>> from sorry import Game
    >>> g = Game.from_position("R:S,S,13,s2 B:S,S,S,18 R", card=3)
    >>> m = g.legal_moves[0]
    >>> where_words(m, g.effects(m)), where_words(m, g.effects(m), viewer=1)
    ("outside Blue's START", 'outside your START')
    """
    said = [square_words(x, viewer) for x in landings(move, effects) if 0 <= x < TRACK_LEN]
    if len(said) == 2:
        return _("{first}; {second}").format(first=said[0], second=said[1])
    return said[0] if said else ""


#: What each card does, in a few words (fits the middle of the smallest board); English, marked
#: for translation: show ``card_help(card)``. The terminal game and the browser say these.
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
    SORRY_CARD: N_("START pawn bumps one"),
}


def card_help(card: Card) -> str:
    """What ``card`` does, in a few words of the current language."""
    return _(CARD_HELP[card])


__all__ = [
    "CARD_HELP",
    "Outcome",
    "card_help",
    "describe",
    "landings",
    "long",
    "place_name",
    "short",
    "square_words",
    "where_words",
    "with_tail",
]
