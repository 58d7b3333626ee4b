"""What a move does: ordered, typed events, recorded by the code that makes the move.

:meth:`sorry.game.Game.effects` (and :meth:`sorry.state.PawnState.effects`, for bots and
playouts) returns a list of :class:`Effect` values in the order things happen on the board:

=============  ==================================================================================
``forward``    a pawn moves forward; ``path`` is every location it enters, square by square
               (through its safety entry into the Safety Zone, and HOME)
``backward``   a pawn moves backward, square by square (out of the Safety Zone too)
``start``      a pawn leaves START for its START exit (``path`` is that one square)
``sorry``      a pawn from START takes the square of the pawn it sends back (``path``: the square)
``swap``       an 11's swap: two events, the mover's pawn first, each going to the other's square
``slide``      a pawn slides from the triangle it landed on (``src``) to the end of the slide
``bump``       a pawn is sent back to its START (``src``: where it stood; ``path``: START)
=============  ==================================================================================

A pawn's own move comes first, then the bump on its landing square, then its slide and the
bumps along the slide. ``part`` numbers the halves of a split 7 (0 and 1; 0 for other moves).
Effects are plain values: ``to_dict()`` gives JSON in the notation of positions (colour
letters, ``S``, ``0``-``59``, ``s1``-``s5``, ``H``) and :meth:`Effect.from_dict` reads it back.

>>> from sorry import Game
>>> g = Game.from_position("R:S,S,13,s2 B:S,S,S,18 R", card=3)
>>> for effect in g.effects("R13+3"):
...     print(effect)
R 13 forward 14 15 16
R 16 slide 17 18 19
B 18 bump S
>>> g.effects("R13+3")[0].to_dict()
{'kind': 'forward', 'colour': 'R', 'from': '13', 'to': '16', 'path': ['14', '15', '16'], 'part': 0}
>>> net_moves(g.effects("R13+3"))
[(0, 13, 19), (1, 18, 66)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, NamedTuple

from .board import COLOUR_LETTERS, START, loc_name, parse_loc


class EffectKind(StrEnum):
    """What happened to a pawn (the values are the JSON names)."""

    FORWARD = "forward"
    BACKWARD = "backward"
    START = "start"
    SORRY = "sorry"
    SWAP = "swap"
    SLIDE = "slide"
    BUMP = "bump"


#: The kinds that begin a pawn's own move (one a move, one per half of a split 7; a swap's
#: first event); slides and bumps follow them, and a swap's second event is the other pawn.
MOVING = frozenset((EffectKind.FORWARD, EffectKind.BACKWARD, EffectKind.START, EffectKind.SORRY))


class Effect(NamedTuple):
    """One event of a move: the ``colour`` pawn that stood on ``src`` went along ``path``."""

    kind: EffectKind
    colour: int
    src: int
    path: tuple[int, ...]  # every location entered, in order; the last is where it ends
    part: int = 0  # which half of a split 7 (0 for every other move)

    @property
    def dest(self) -> int:
        """Where the pawn is after this event."""
        return self.path[-1]

    def apply_to(self, pawns: list[list[int]]) -> None:
        """Move the pawn in ``pawns`` (locations per colour, as ``PawnState.pawns``): the
        colour's pawn on ``src`` goes to ``dest``. Playing every effect of a move in order
        gives the board after it."""
        locs = pawns[self.colour]
        locs[locs.index(self.src)] = self.dest

    def to_dict(self) -> dict[str, Any]:
        """The effect as JSON-able data (locations in position notation)."""
        return {
            "kind": self.kind.value,
            "colour": COLOUR_LETTERS[self.colour],
            "from": loc_name(self.src),
            "to": loc_name(self.dest),
            "path": [loc_name(loc) for loc in self.path],
            "part": self.part,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Effect:
        """The inverse of :meth:`to_dict` (``ValueError`` for data it did not write)."""
        return cls(
            EffectKind(data["kind"]),
            COLOUR_LETTERS.index(data["colour"]),
            parse_loc(data["from"]),
            tuple(parse_loc(x) for x in data["path"]),
            int(data.get("part", 0)),
        )

    def __str__(self) -> str:
        squares = " ".join(loc_name(loc) for loc in self.path)
        return f"{COLOUR_LETTERS[self.colour]} {loc_name(self.src)} {self.kind.value} {squares}"


def effects_json(effects: Iterable[Effect]) -> list[dict[str, Any]]:
    """``[effect.to_dict(), ...]``: what a server sends."""
    return [e.to_dict() for e in effects]


def net_moves(effects: Iterable[Effect]) -> list[tuple[int, int, int]]:
    """``(colour, from, to)`` of every pawn the effects moved, in the order each first moved,
    leaving out pawns that ended where they began (a 4 back onto a slide that slides it back).
    Pawns are followed by colour and location (pawns of a colour in START are alike)."""
    chains: list[list[int]] = []  # [colour, from, now]
    for e in effects:
        for chain in chains:
            if chain[0] == e.colour and chain[2] == e.src and e.src != START:
                chain[2] = e.dest
                break
        else:
            chains.append([e.colour, e.src, e.dest])
    return [(c, src, now) for c, src, now in chains if src != now]


def parts(effects: Iterable[Effect]) -> list[list[Effect]]:
    """The effects grouped by ``part``: one group a move, two for a split 7."""
    out: list[list[Effect]] = []
    for e in effects:
        while len(out) <= e.part:
            out.append([])
        out[e.part].append(e)
    return out


__all__ = ["MOVING", "Effect", "EffectKind", "effects_json", "net_moves", "parts"]
