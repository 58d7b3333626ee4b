"""Moves: tiny immutable values with a readable notation that round-trips.

Notation (pawns are named by colour letter and location):

=================  ===========================================================
``R12+5``          the Red pawn on 12 moves 5 forward (also ``Rs3+2``)
``R12-4``          the Red pawn on 12 moves 4 backward (the 4, or the 10's 1 back)
``RS>4``           a Red pawn leaves START for its START exit (square 4)
``RS>B40``         Sorry!: a Red pawn from START takes the place of Blue's pawn on 40
``R12<>B40``       11 swap: the Red pawn on 12 and the Blue pawn on 40 change places
``R12+3/R40+4``    a split 7, halves played left to right
``pass``           decline the 11 or forfeit a turn with no legal move
``discard:7``      points variant: discard a card from a dead hand
``7:R12+7``        points variant: a move prefixed with the card of the hand it uses
=================  ===========================================================

>>> m = Move.parse("R12+3/R40+4")
>>> m
Move.parse('R12+3/R40+4')
>>> str(m), m.is_split, Move.parse(str(m)) == m
('R12+3/R40+4', True, True)
>>> str(Move.parse("s:RS>B40"))
'S:RS>B40'
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Final, NamedTuple

from .board import COLOUR_LETTERS, START, START_EXIT, TRACK_LEN, loc_name, parse_loc
from .cards import Card, card_name, parse_card
from .errors import NotationError
from .i18n import _


class Kind(IntEnum):
    """The kinds of move (ints, so that tables and the compiled engine can index by them)."""

    FORWARD = 0
    BACKWARD = 1
    ENTER = 2  # leave START for the START exit (cards 1 and 2)
    SORRY = 3
    SWAP = 4
    SPLIT = 5
    PASS = 6
    DISCARD = 7


FORWARD: Final = Kind.FORWARD
BACKWARD: Final = Kind.BACKWARD
ENTER: Final = Kind.ENTER
SORRY: Final = Kind.SORRY
SWAP: Final = Kind.SWAP
SPLIT: Final = Kind.SPLIT
PASS: Final = Kind.PASS
DISCARD: Final = Kind.DISCARD

#: The kinds' names in the notation's words (``start`` for ENTER), by kind.
KIND_NAMES: Final = ("forward", "backward", "start", "sorry", "swap", "split", "pass", "discard")


class Move(NamedTuple):
    """One decision of a player. Build moves with :meth:`parse` or take them from the game."""

    kind: Kind
    colour: int = -1  # colour of the pawn that moves (or is placed)
    src: int = -1  # its location before the move
    steps: int = 0  # forward/backward count
    target_colour: int = -1  # the other pawn of a Sorry! or a swap
    target: int = -1  # its location (for a start: the START exit)
    parts: tuple[Move, ...] = ()  # the halves of a split 7, in playing order
    card: Card | None = None  # the card played (points variant) or discarded

    # -- construction -------------------------------------------------------------------------
    @staticmethod
    def forward(colour: int, src: int, steps: int) -> Move:
        return Move(FORWARD, colour, src, steps)

    @staticmethod
    def backward(colour: int, src: int, steps: int) -> Move:
        return Move(BACKWARD, colour, src, steps)

    @staticmethod
    def enter(colour: int) -> Move:
        return Move(ENTER, colour, START, 0, -1, START_EXIT[colour])

    @staticmethod
    def sorry(colour: int, target_colour: int, target: int) -> Move:
        return Move(SORRY, colour, START, 0, target_colour, target)

    @staticmethod
    def swap(colour: int, src: int, target_colour: int, target: int) -> Move:
        return Move(SWAP, colour, src, 0, target_colour, target)

    @staticmethod
    def split(*parts: Move) -> Move:
        return Move(SPLIT, parts=tuple(parts))

    @staticmethod
    def pass_() -> Move:
        return PASS_MOVE

    @staticmethod
    def discard(card: Card) -> Move:
        return Move(DISCARD, card=card)

    def with_card(self, card: Card | None) -> Move:
        return self._replace(card=card)

    # -- properties ---------------------------------------------------------------------------
    @property
    def is_split(self) -> bool:
        return self.kind == SPLIT

    @property
    def is_pass(self) -> bool:
        return self.kind == PASS

    @property
    def is_discard(self) -> bool:
        return self.kind == DISCARD

    @property
    def kind_name(self) -> str:
        return KIND_NAMES[self.kind]

    # -- notation -----------------------------------------------------------------------------
    def notation(self) -> str:
        """The notation without the card prefix."""
        kind = self.kind
        if kind == PASS:
            return "pass"
        if kind == DISCARD:
            return "discard:" + card_name(self.card if self.card is not None else 0)
        if kind == SPLIT:
            return "/".join(p.notation() for p in self.parts)
        me = COLOUR_LETTERS[self.colour] + loc_name(self.src)
        if kind == FORWARD:
            return f"{me}+{self.steps}"
        if kind == BACKWARD:
            return f"{me}-{self.steps}"
        if kind == ENTER:
            return f"{me}>{self.target}"
        other = COLOUR_LETTERS[self.target_colour] + loc_name(self.target)
        return f"{me}>{other}" if kind == SORRY else f"{me}<>{other}"

    def __str__(self) -> str:
        if self.card is not None and self.kind != DISCARD:
            return f"{card_name(self.card)}:{self.notation()}"
        return self.notation()

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse the notation above; raises :class:`NotationError` with the reason."""
        t = text.strip()
        if not t:
            raise NotationError(_("empty move"))
        low = t.lower()
        if low == "pass":
            return PASS_MOVE
        if low.startswith("discard:"):
            return Move(DISCARD, card=parse_card(t[8:]))
        card: Card | None = None
        head, sep, rest = t.partition(":")
        if sep:
            card = parse_card(head)
            t = rest
        parts = t.split("/")
        if len(parts) > 1:
            halves = tuple(_parse_simple(p, text) for p in parts)
            if any(h.kind != FORWARD for h in halves):
                raise NotationError(
                    _("bad move {move!r}: a split 7 is made of forward moves").format(move=text)
                )
            return Move(SPLIT, parts=halves, card=card)
        return _parse_simple(t, text)._replace(card=card)


PASS_MOVE: Final = Move(PASS)

_PAWN = r"([RBYG])(S|H|s[1-5]|\d{1,2})"
_SIMPLE = re.compile(rf"^{_PAWN}(?:([+-])(\d{{1,2}})|>(\d{{1,2}})|>{_PAWN}|<>{_PAWN})$")


def _parse_simple(t: str, original: str) -> Move:
    m = _SIMPLE.match(t.strip())
    if m is None:
        raise NotationError(
            _(
                "bad move {move!r} (examples: R12+5, R12-4, RS>4, RS>B40, R12<>B40, "
                "R12+3/R40+4, pass)"
            ).format(move=original)
        )
    colour = COLOUR_LETTERS.index(m.group(1))
    try:
        src = parse_loc(m.group(2))
        if m.group(3):
            steps = int(m.group(4))
            if not 1 <= steps <= 12:
                raise NotationError(
                    _("bad move {move!r}: {steps} steps").format(move=original, steps=steps)
                )
            kind = FORWARD if m.group(3) == "+" else BACKWARD
            return Move(kind, colour, src, steps)
        if m.group(5) is not None:
            square = int(m.group(5))
            if src != START or square != START_EXIT[colour]:
                raise NotationError(
                    _("bad move {move!r}: a start goes from S to the START exit {square}").format(
                        move=original, square=START_EXIT[colour]
                    )
                )
            return Move.enter(colour)
        if m.group(6):
            if src != START:
                raise NotationError(
                    _("bad move {move!r}: Sorry! places a pawn from S").format(move=original)
                )
            target = parse_loc(m.group(7))
            _check_track(target, original)
            return Move.sorry(colour, COLOUR_LETTERS.index(m.group(6)), target)
        _check_track(src, original)
        target = parse_loc(m.group(9))
        _check_track(target, original)
        return Move.swap(colour, src, COLOUR_LETTERS.index(m.group(8)), target)
    except ValueError as exc:
        if isinstance(exc, NotationError):
            raise
        raise NotationError(
            _("bad move {move!r}: {error}").format(move=original, error=exc)
        ) from None


def _check_track(loc: int, original: str) -> None:
    if loc >= TRACK_LEN:
        raise NotationError(
            _("bad move {move!r}: swaps and Sorry! are on track squares only").format(move=original)
        )
