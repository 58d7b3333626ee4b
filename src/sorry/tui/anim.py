"""The frames of a move, for animation: the pawn step by step, its landing, then the slide
and the bumps.

>>> from sorry import Game
>>> g = Game.from_position("R:S,S,S,5 Y:S,S,S,12 R", card=5)
>>> [(f.pawns[0][3], f.focus) for f in frames(g.state, g.legal_moves[0])]
[(6, (-1, 6)), (7, (-1, 7)), (8, (-1, 8)), (9, (-1, 9)), (10, (-1, 10))]
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import BACKWARD as BWD
from ..board import FORWARD as FWD
from ..board import TRACK_LEN
from ..moves import BACKWARD, ENTER, FORWARD, SORRY, SPLIT, SWAP, Move
from ..state import PawnState


@dataclass(frozen=True, slots=True)
class Frame:
    pawns: list[list[int]]
    focus: tuple[int, int] | None  # the place to emphasise (as board marks key it)


def _place(colour: int, loc: int) -> tuple[int, int]:
    return (-1, loc) if loc < TRACK_LEN else (colour, loc)


def frames(state: PawnState, move: Move) -> list[Frame]:
    """Frames from the board before ``move`` to the board after it (the last frame is the
    position after the move)."""
    s = state.copy()
    out: list[Frame] = []
    parts = move.parts if move.kind == SPLIT else (move,)
    for part in parts:
        if part.kind not in (FORWARD, BACKWARD, ENTER, SORRY, SWAP):
            continue
        c = part.colour
        if part.kind in (FORWARD, BACKWARD):
            i = s.pawns[c].index(part.src)
            table = FWD if part.kind == FORWARD else BWD
            for k in range(1, part.steps):
                loc = table[c][part.src][k]
                pawns = [p[:] for p in s.pawns]
                pawns[c][i] = loc
                out.append(Frame(pawns, _place(c, loc)))
        flat = s.copy()
        flat.slide = tuple((-1,) * TRACK_LEN for _ in range(4))
        before = sorted(s.pawns[c])
        flat.apply(part, [])
        landing = _new(before, flat.pawns[c])
        out.append(Frame([p[:] for p in flat.pawns], _place(c, landing)))
        s.apply(part, [])
        final = _new(before, s.pawns[c])
        if final != landing:
            out.append(Frame([p[:] for p in s.pawns], _place(c, final)))
    return out


def _new(before: list[int], after: list[int]) -> int:
    left = list(after)
    for x in before:
        if x in left:
            left.remove(x)
    return left[0] if left else -1
