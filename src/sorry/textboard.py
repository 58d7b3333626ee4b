"""The board as text for terminals: a 16x16 square loop, with optional ANSI colours.

Every pawn is drawn with its colour's letter, so the picture never relies on colour alone.
Squares 0-14 run along the top row left to right, 15-29 down the right column, 30-44 along the
bottom right to left and 45-59 up the left column. Each Safety Zone runs inward from its
colour's entry square to HOME (``H`` and the number of pawns there); START (``S`` and a count)
sits inward of the START exit. Slides: ``>`` triangle, ``=`` body, ``o`` end.

>>> lines = render("R:S,S,4,s2 Y:12,33,40,H R", colour=False).splitlines()
>>> len(lines), lines[0].split()[:5]
(16, ['.', '>', '=', '=', 'Ro'])
"""

from __future__ import annotations

from .board import (
    COLOUR_LETTERS,
    HOME,
    SAFE_BASE,
    SAFETY_ENTRY,
    SLIDES,
    START,
    START_EXIT,
    TRACK_LEN,
)
from .i18n import _
from .position import Position

SIZE = 16
_INWARD = ((1, 0), (0, -1), (-1, 0), (0, 1))  # per side: row, column step towards the centre
_ANSI = {0: "\x1b[31m", 1: "\x1b[34m", 2: "\x1b[33m", 3: "\x1b[32m"}
_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"


def square_cell(sq: int) -> tuple[int, int]:
    """Grid (row, column) of a track square."""
    side, k = divmod(sq, 15)
    if side == 0:
        return 0, k
    if side == 1:
        return k, 15
    if side == 2:
        return 15, 15 - k
    return 15 - k, 0


def safety_cell(colour: int, k: int) -> tuple[int, int]:
    """Grid cell of ``s k`` (k = 1..5) or HOME (k = 6) of a colour."""
    r, c = square_cell(SAFETY_ENTRY[colour])
    dr, dc = _INWARD[colour]
    return r + dr * k, c + dc * k


def start_cell(colour: int) -> tuple[int, int]:
    r, c = square_cell(START_EXIT[colour])
    dr, dc = _INWARD[colour]
    return r + dr, c + dc


def render(
    position: Position | str, colour: bool = True, highlight: frozenset[int] = frozenset()
) -> str:
    """The board as lines of text (3 characters per cell). ``highlight``: track squares to mark."""
    pos = Position.parse(position) if isinstance(position, str) else position
    grid = [["   "] * SIZE for _ in range(SIZE)]
    tint: list[list[int | None]] = [[None] * SIZE for _ in range(SIZE)]
    for sq in range(TRACK_LEN):
        r, c = square_cell(sq)
        grid[r][c] = " . "
    for triangle, end, owner in SLIDES:
        for sq in range(triangle, end + 1):
            r, c = square_cell(sq)
            grid[r][c] = " > " if sq == triangle else (" o " if sq == end else " = ")
            tint[r][c] = owner
    for colour_ in pos.colours:
        for k in range(1, 6):
            r, c = safety_cell(colour_, k)
            grid[r][c] = " : "
            tint[r][c] = colour_
    for colour_, locs in enumerate(pos.pawns):
        if locs is None:
            continue
        letter = COLOUR_LETTERS[colour_]
        r, c = start_cell(colour_)
        grid[r][c] = f"S{locs.count(START)}{letter.lower()}"
        tint[r][c] = colour_
        r, c = safety_cell(colour_, 6)
        grid[r][c] = f"H{locs.count(HOME)}{letter.lower()}"
        tint[r][c] = colour_
        for loc in locs:
            if loc < TRACK_LEN:
                r, c = square_cell(loc)
                mark = grid[r][c].strip()
                grid[r][c] = f"{letter}{mark if mark in '>=o' else ' '} "
                tint[r][c] = colour_
            elif SAFE_BASE < loc < HOME:
                r, c = safety_cell(colour_, loc - SAFE_BASE)
                grid[r][c] = f"{letter}s{loc - SAFE_BASE}"
                tint[r][c] = colour_
    for sq in highlight:
        r, c = square_cell(sq)
        grid[r][c] = "[" + grid[r][c][1] + "]"
    lines = []
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            text = grid[r][c]
            tinted = tint[r][c]
            if colour and tinted is not None:
                bold = _BOLD if text[0] in COLOUR_LETTERS else ""
                text = f"{bold}{_ANSI[tinted]}{text}{_RESET}"
            cells.append(text)
        lines.append("".join(cells).rstrip())
    return "\n".join(lines)


def legend(width: int = 80) -> str:
    """The key to :func:`render`'s picture, in the current language, in lines of at most
    ``width`` characters (its entries, three spaces apart, are never split).

    >>> for line in legend().splitlines(): print(line)
    R/B/Y/G: pawns   > slide triangle  = slide  o slide end   : Safety Zone
    S<n>: pawns in START   H<n>: pawns HOME
    """
    text = _(
        "R/B/Y/G: pawns   > slide triangle  = slide  o slide end   : Safety Zone   "
        "S<n>: pawns in START   H<n>: pawns HOME"
    )
    lines: list[str] = []
    for entry in text.split("   "):
        if lines and len(lines[-1]) + 3 + len(entry) <= width:
            lines[-1] += "   " + entry
        else:
            lines.append(entry)
    return "\n".join(lines)
