"""Moves in words, for the game log and the choices (no Textual needed).

>>> from sorry import Game
>>> g = Game.from_position("R:S,S,4,s2 Y:12,33,40,H R", card=10)
>>> [describe_move(g.state, m) for m in g.legal_moves]
['Red 4 → 14', 'Red 4 ← 3 (back 1)', 'Red Safety 2 ← Safety 1 (back 1)']
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..board import HOME, SAFE_BASE, START, TRACK_LEN, colour_name
from ..cards import SORRY, Card, card_label
from ..i18n import N_, _
from ..moves import BACKWARD, DISCARD, ENTER, FORWARD, PASS, SPLIT, SWAP, Move
from ..moves import SORRY as SORRY_KIND
from ..state import PawnState


def place_name(loc: int) -> str:
    """A location for people: ``12``, ``Safety 2``, ``HOME``, ``START``."""
    if loc < TRACK_LEN:
        return str(loc)
    if loc == HOME:
        return _("HOME")
    if loc == START:
        return _("START")
    return _("Safety {n}").format(n=loc - SAFE_BASE)


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


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one simple move (or half of a 7) does."""

    colour: int
    src: int
    landing: int  # where the pawn lands, before any slide
    final: int  # where it ends, after a slide
    bumped: tuple[tuple[int, int], ...]  # (colour, location) of every pawn sent to START


def outcome(state: PawnState, part: Move) -> Outcome:
    """Apply ``part`` (not a split) to a copy of ``state`` and report what happened."""
    flat = state.copy()
    flat.slide = tuple((-1,) * TRACK_LEN for _ in range(4))
    after = state.copy()
    after.apply(part, [])
    flat.apply(part, [])
    mover = part.colour
    before = [sorted(p) for p in state.pawns]
    landing = _changed(before[mover], sorted(flat.pawns[mover]))
    final = _changed(before[mover], sorted(after.pawns[mover]))
    bumped: list[tuple[int, int]] = []
    for c, locs in enumerate(state.pawns):
        if c == mover and part.kind != SWAP:
            gone = _removed(before[c], sorted(after.pawns[c]))
            gone = [x for x in gone if x != part.src]
        else:
            gone = _removed(before[c], sorted(after.pawns[c]))
        for x in gone:
            swapped = part.kind == SWAP and c == part.target_colour and x == part.target
            if x != START and after.pawns[c].count(START) > locs.count(START) and not swapped:
                bumped.append((c, x))
    return Outcome(mover, part.src, landing, final, tuple(bumped))


def _changed(before: list[int], after: list[int]) -> int:
    extra = list(after)
    for x in before:
        if x in extra:
            extra.remove(x)
    return extra[0] if extra else -1


def _removed(before: list[int], after: list[int]) -> list[int]:
    left = list(after)
    out = []
    for x in before:
        if x in left:
            left.remove(x)
        else:
            out.append(x)
    return out


def _tail(o: Outcome) -> str:
    words = []
    if o.final != o.landing and o.final >= 0:
        words.append(_("slides to {place}").format(place=place_name(o.final)))
    for c, x in o.bumped:
        words.append(
            _("bumps {colour} from {place}").format(colour=colour_name(c), place=place_name(x))
        )
    return (", " + ", ".join(words)) if words else ""


def describe_part(state: PawnState, part: Move) -> str:
    o = outcome(state, part)
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
    if kind == SORRY_KIND:
        victim = colour_name(part.target_colour)
        bumped = tuple(b for b in o.bumped if b != (part.target_colour, part.target))
        rest = _tail(replace(o, bumped=bumped))
        return (
            _("{colour} from START takes {victim}'s place on {square}").format(
                colour=who, victim=victim, square=part.target
            )
            + rest
        )
    if kind == SWAP:
        other = colour_name(part.target_colour)
        return _("{colour} {square} swaps with {other} on {target}").format(
            colour=who, square=part.src, other=other, target=part.target
        ) + _tail(o)
    return str(part)


def describe_move(state: PawnState, move: Move, card: Card | None = None) -> str:
    """The move in words, judged on ``state`` (the board before it)."""
    if move.kind == PASS:
        if card == 11:
            return _("declines the 11")
        return _("has no legal move: the turn is forfeited")
    if move.kind == DISCARD:
        assert move.card is not None
        return _("discards a {card} (no usable card)").format(card=card_words(move.card))
    if move.kind == SPLIT:
        s = state.copy()
        words = []
        for part in move.parts:
            words.append(describe_part(s, part))
            s.apply(part, [])
        return _("split 7: {moves}").format(moves="; ".join(words))
    return describe_part(state, move)
