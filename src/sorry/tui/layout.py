"""Where everything sits on the drawn board: a 16x16 grid of cells, no Textual needed.

The track runs round the edge clockwise: squares 0-14 along the top row left to right, 15-29
down the right column, 30-44 along the bottom right to left, 45-59 up the left column. Each
side is Red's side turned a quarter turn clockwise per seat, so every colour's Safety Zone goes
inward from its entry square (b+2), its HOME sits at the end of it, and its START area is beside
its START exit (b+4), as on the real board.

>>> track_cell(0), track_cell(15), track_cell(30), track_cell(45)
((0, 0), (0, 15), (15, 15), (15, 0))
>>> safety_cell(0, 1), safety_cell(1, 1)
((1, 2), (2, 14))
>>> cell_of(0, START) in START_BOX[0]
True

The board's cells grow with the terminal (:func:`board_scale`); the side panel takes the rest of
the width:

>>> [board_scale(*size) for size in ((80, 24), (100, 30), (120, 40), (160, 50), (200, 60))]
[(3, 1), (4, 1), (5, 2), (7, 2), (8, 3)]
"""

from __future__ import annotations

from typing import Final

from ..board import COLOURS, HOME, SAFE_BASE, SLIDES, START, TRACK_LEN

GRID: Final = 16
Cell = tuple[int, int]  # (row, column)

#: The smallest terminal the game is drawn in (columns, rows): the board at 3x1 characters a
#: cell, the side panel, a few lines of log and the footer.
MIN_SIZE: Final = (80, 24)
#: The side panel's least width (its border included); it takes all the width the board leaves.
SIDE_MIN: Final = 32
#: Rows under the board kept for the log (its border included) and the footer.
BELOW_BOARD: Final = 8


def board_scale(columns: int, rows: int) -> tuple[int, int]:
    """Characters a cell (wide, high) for a terminal of ``columns`` x ``rows``: 3x1 at
    :data:`MIN_SIZE`, up to 8x3, cells never more than about twice as wide as high."""
    w = max(3, min((columns - SIDE_MIN) // GRID, 8))
    h = max(1, min((rows - BELOW_BOARD) // GRID, 3))
    h = min(h, max(1, (w - 1) // 2))
    w = min(w, 2 * h + 3)
    return w, h


def rotate(cell: Cell, turns: int) -> Cell:
    """``cell`` turned ``turns`` quarter turns clockwise about the board's centre."""
    r, c = cell
    for _ in range(turns % 4):
        r, c = c, GRID - 1 - r
    return r, c


def track_cell(square: int) -> Cell:
    side, off = divmod(square % TRACK_LEN, 15)
    return rotate((0, off), side)


def safety_cell(colour: int, k: int) -> Cell:
    """The cell of square ``s k`` (1-5) of ``colour``'s Safety Zone."""
    return rotate((k, 2), colour)


def _box(rows: range, cols: range, colour: int) -> tuple[Cell, ...]:
    return tuple(sorted(rotate((r, c), colour) for r in rows for c in cols))


#: The cells of each colour's START area (beside its START exit) and HOME (after s5).
START_BOX: Final = tuple(_box(range(1, 3), range(3, 6), c) for c in COLOURS)
HOME_BOX: Final = tuple(_box(range(6, 8), range(1, 4), c) for c in COLOURS)
#: The free middle of the board, where the card and the turn are shown.
CENTRE: Final = (range(4, 12), range(4, 12))

#: For each track square: ("triangle" | "body" | "end", slide colour) if it is on a slide.
SLIDE_PART: Final[dict[int, tuple[str, int]]] = {}
for _tri, _end, _owner in SLIDES:
    SLIDE_PART[_tri] = ("triangle", _owner)
    for _sq in range(_tri + 1, _end):
        SLIDE_PART[_sq] = ("body", _owner)
    SLIDE_PART[_end] = ("end", _owner)


def side_of(square: int) -> int:
    return (square % TRACK_LEN) // 15


def cell_of(colour: int, loc: int) -> Cell:
    """The cell where a ``colour`` pawn at ``loc`` is drawn (the box's first cell for START
    and HOME)."""
    if loc < TRACK_LEN:
        return track_cell(loc)
    if loc == START:
        return START_BOX[colour][0]
    if loc == HOME:
        return HOME_BOX[colour][0]
    return safety_cell(colour, loc - SAFE_BASE)


def places_at(cell: Cell) -> list[tuple[int, int]]:
    """(colour, location) of every place drawn on ``cell`` (colour -1 for track squares)."""
    out: list[tuple[int, int]] = []
    for sq in range(TRACK_LEN):
        if track_cell(sq) == cell:
            out.append((-1, sq))
    for c in COLOURS:
        for k in range(1, 6):
            if safety_cell(c, k) == cell:
                out.append((c, SAFE_BASE + k))
        if cell in START_BOX[c]:
            out.append((c, START))
        if cell in HOME_BOX[c]:
            out.append((c, HOME))
    return out


def cells_of(colour: int, loc: int) -> tuple[Cell, ...]:
    """Every cell of a place: one for a square, the whole box for START and HOME."""
    if loc == START:
        return START_BOX[colour]
    if loc == HOME:
        return HOME_BOX[colour]
    return (cell_of(colour, loc),)
