"""The frames of a move, for animation, from its effects (:mod:`sorry.effects`): the pawn
step by step, its landing (with whoever it bumps there), then the slide and its bumps.

>>> from sorry import Game
>>> g = Game.from_position("R:S,S,S,5 Y:S,S,S,12 R", card=5)
>>> [(f.pawns[0][3], f.focus) for f in frames(g.state, g.legal_moves[0])]
[(6, (-1, 6)), (7, (-1, 7)), (8, (-1, 8)), (9, (-1, 9)), (10, (-1, 10))]
"""

from __future__ import annotations

from dataclasses import dataclass

from ..board import TRACK_LEN
from ..effects import Effect, EffectKind
from ..moves import Move
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
    return effect_frames(state.pawns, state.effects(move))


def effect_frames(pawns: list[list[int]], effects: list[Effect]) -> list[Frame]:
    """The frames of ``effects`` played from ``pawns`` (not changed): one for every square of
    a path, then one each time a pawn comes to rest, the bumps it makes there included."""
    board = [p[:] for p in pawns]
    out: list[Frame] = []
    focus: tuple[int, int] | None = None
    for e in effects:
        if e.kind == EffectKind.BUMP or (e.kind == EffectKind.SWAP and focus is not None):
            e.apply_to(board)  # shown with the move that caused it
            continue
        if focus is not None:
            out.append(Frame([p[:] for p in board], focus))
        if e.kind in (EffectKind.FORWARD, EffectKind.BACKWARD):
            locs = board[e.colour]
            i = locs.index(e.src)
            for loc in e.path[:-1]:
                locs[i] = loc
                out.append(Frame([p[:] for p in board], _place(e.colour, loc)))
            locs[i] = e.src
        e.apply_to(board)
        focus = _place(e.colour, e.dest)
    if focus is not None:
        out.append(Frame([p[:] for p in board], focus))
    return out
