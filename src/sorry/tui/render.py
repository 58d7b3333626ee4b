"""The board as Rich text: cells of ``w`` x ``h`` characters on the 16x16 grid of
:mod:`sorry.tui.layout`. Pawns are letters (R B Y G) on their colour, so the board reads without
colour too; slides are a triangle, a line and a dot in their colour.

>>> from sorry.board import START
>>> text = board_text([[START] * 4, [], [START] * 4, []], (0, 2), 3, 1)
>>> len(text.plain.splitlines()), len(text.plain.splitlines()[0])
(16, 48)
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Final

from rich.style import Style
from rich.text import Text

from ..board import COLOUR_LETTERS, HOME, SAFE_BASE, START, TRACK_LEN
from .describe import place_name
from .layout import CENTRE, GRID, HOME_BOX, SLIDE_PART, START_BOX, safety_cell, track_cell

#: Colours chosen to stay apart for common colour-vision deficiencies, with letters as well.
COLOUR_HEX: Final = ("#e03c31", "#3d7be0", "#f2c12e", "#2ea05a")
TINT_HEX: Final = ("#3c1412", "#132440", "#3d3310", "#10301c")
PAWN_FG: Final = ("#ffffff", "#ffffff", "#000000", "#000000")
TRACK_BG: Final = "#262626"
MARK_BG: Final = {
    "option": "#00707a",
    "preview": "#6a4a9c",
    "cursor": "#7ff5ff",
    "focus": "#ffffff",
    "last": "#5a5a5a",
}
TRIANGLES: Final = "▶▼◀▲"

Marks = Mapping[tuple[int, int], tuple[str, str]]  # (colour or -1, location) -> (kind, label)
Line = tuple[str, Style]  # a line of the board's middle and its style


def pawn_style(colour: int) -> Style:
    return Style(color=PAWN_FG[colour], bgcolor=COLOUR_HEX[colour], bold=True)


def colour_style(colour: int) -> Style:
    return Style(color=COLOUR_HEX[colour], bold=True)


class _Canvas:
    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        self.chars = [[" "] * cols for _ in range(rows)]
        self.styles: list[list[Style]] = [[Style()] * cols for _ in range(rows)]

    def put(self, row: int, col: int, text: str, style: Style) -> None:
        if not 0 <= row < self.rows:
            return
        for i, ch in enumerate(text):
            if 0 <= col + i < self.cols:
                self.chars[row][col + i] = ch
                self.styles[row][col + i] = style

    def text(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        for r in range(self.rows):
            row_chars = self.chars[r]
            row_styles = self.styles[r]
            start = 0
            for i in range(1, self.cols + 1):
                if i == self.cols or row_styles[i] != row_styles[start]:
                    out.append("".join(row_chars[start:i]), row_styles[start])
                    start = i
            if r < self.rows - 1:
                out.append("\n")
        return out


def _mark_style(base: Style, kind: str | None) -> Style:
    if kind is None:
        return base
    if kind == "cursor":
        return base + Style(color="#000000", bgcolor=MARK_BG[kind], bold=True)
    if kind == "focus":
        return base + Style(reverse=True, bold=True)
    return base + Style(bgcolor=MARK_BG[kind], bold=True)


def _fill_cell(
    canvas: _Canvas,
    cell: tuple[int, int],
    w: int,
    h: int,
    text: str,
    style: Style,
    fill: str = " ",
    fill_rows: str = " ",
) -> None:
    r, c = cell
    row0 = r * h
    col0 = c * w
    mid = h // 2
    pad = (w - len(text)) // 2
    for dy in range(h):
        if dy == mid:
            canvas.put(row0 + dy, col0, fill * w, style)
        else:
            canvas.put(row0 + dy, col0, " " * w, style)
            canvas.put(row0 + dy, col0 + (w - 1) // 2, fill_rows, style)
    canvas.put(row0 + mid, col0 + max(0, pad), text[:w], style)


def _fill_box(
    canvas: _Canvas,
    cells: Sequence[tuple[int, int]],
    w: int,
    h: int,
    lines: Sequence[tuple[str, Style]],
    style: Style,
) -> None:
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    top, left = min(rows) * h, min(cols) * w
    height = (max(rows) - min(rows) + 1) * h
    width = (max(cols) - min(cols) + 1) * w
    for dy in range(height):
        canvas.put(top + dy, left, " " * width, style)
    first = top + max(0, (height - len(lines)) // 2)
    for i, (line, line_style) in enumerate(lines[:height]):
        shown = line[:width]
        canvas.put(first + i, left + (width - len(shown)) // 2, shown, style + line_style)


def _letters(colour: int, count: int, width: int) -> str:
    letter = COLOUR_LETTERS[colour]
    if count == 0:
        return "-"
    spaced = " ".join(letter * count)
    return spaced if len(spaced) <= width else letter * count


def board_text(
    pawns: Sequence[Sequence[int]],
    colours: Sequence[int],
    w: int = 3,
    h: int = 1,
    marks: Marks | None = None,
    centre: Sequence[tuple[str, Style]] = (),
) -> Text:
    """The board with ``pawns[c]`` the locations of colour ``c``'s pawns (empty if not in
    play), ``marks`` highlighting places, and ``centre`` lines written in the middle."""
    marks = marks or {}
    canvas = _Canvas(GRID * h, GRID * w)
    occupant: dict[int, int] = {}
    for c in colours:
        for loc in pawns[c]:
            if loc < TRACK_LEN:
                occupant[loc] = c
    track = Style(bgcolor=TRACK_BG)
    for sq in range(TRACK_LEN):
        cell = track_cell(sq)
        mark = marks.get((-1, sq))
        kind, label = mark if mark else (None, "")
        side = sq // 15
        fill = fill_rows = " "
        if sq in occupant:
            c = occupant[sq]
            style = _mark_style(pawn_style(c), kind)
            text = COLOUR_LETTERS[c]
        elif sq in SLIDE_PART:
            part, owner = SLIDE_PART[sq]
            style = _mark_style(track + Style(color=COLOUR_HEX[owner], bold=True), kind)
            if part == "triangle":
                text = TRIANGLES[side]
            elif part == "end":
                text = "●"
            elif side % 2 == 0:
                text, fill = "─", "─"
            else:
                text, fill_rows = "│", "│"
            if label:
                text = label
        else:
            style = _mark_style(track + Style(color="#8a8a8a"), kind)
            text = label or "·"
        _fill_cell(canvas, cell, w, h, text, style, fill, fill_rows)
    for c in colours:
        tint = Style(bgcolor=TINT_HEX[c], color=COLOUR_HEX[c])
        for k in range(1, 6):
            loc = SAFE_BASE + k
            mark = marks.get((c, loc))
            kind, label = mark if mark else (None, "")
            if loc in pawns[c]:
                _fill_cell(
                    canvas,
                    safety_cell(c, k),
                    w,
                    h,
                    COLOUR_LETTERS[c],
                    _mark_style(pawn_style(c), kind),
                )
            else:
                _fill_cell(canvas, safety_cell(c, k), w, h, label or "·", _mark_style(tint, kind))
        for loc, boxes in ((START, START_BOX), (HOME, HOME_BOX)):
            mark = marks.get((c, loc))
            kind, label = mark if mark else (None, "")
            style = _mark_style(tint, kind)
            count = list(pawns[c]).count(loc)
            width = 3 * w if loc == HOME or c % 2 == 0 else 2 * w
            name: str = place_name(loc)  # START or HOME in the current language
            if len(name) > width - (len(label) + 1 if label else 0):
                name = name[: max(1, width - (len(label) + 1 if label else 0) - 1)] + "."
            head = f"{label} {name}" if label else name
            lines = [(head, Style()), (_letters(c, count, width), Style(bold=True))]
            _fill_box(canvas, boxes[c], w, h, lines, style)
    if centre:
        rows, cols = CENTRE
        cells = [(r, c) for r in rows for c in cols]
        _fill_box(canvas, cells, w, h, centre, Style())
    return canvas.text()


def centre_with_card(
    lines: Sequence[Line],
    card: str,
    sentence: str,
    words: str,
    key: str,
    width: int,
    rows: int,
) -> tuple[list[Line], bool]:
    """The board's middle: ``lines`` (whose turn it is), then the ``card`` in play and its
    whole ``sentence`` of the rules wrapped to ``width``, if that fits in ``rows`` (blank
    lines given up first); else the card's few ``words`` and, room permitting, the ``key``
    that shows the sentence (none if ``key`` is empty). Returns the lines and whether the
    sentence is among them.

    >>> turn = [("Turn 3", Style()), ("Red to play", Style()), ("", Style())]
    >>> rule, words = "4: move a pawn 4 squares backward.", "4 backward"
    >>> def shown(rows):
    ...     out, whole = centre_with_card(turn, "Card: 4", rule, words, "c: rule", 18, rows)
    ...     return whole, [text for text, _style in out]
    >>> shown(6)
    (True, ['Turn 3', 'Red to play', '', 'Card: 4', '4: move a pawn 4', 'squares backward.'])
    >>> shown(5)
    (True, ['Turn 3', 'Red to play', 'Card: 4', '4: move a pawn 4', 'squares backward.'])
    >>> shown(4)
    (False, ['Turn 3', 'Red to play', 'Card: 4', '4 backward'])
    """
    name = (card, Style(bold=True, reverse=True))
    full = [(part, Style()) for part in textwrap.wrap(sentence, max(1, width))]
    kept = [line for line in lines if line[0]]
    for head in (list(lines), kept):
        if len(head) + 1 + len(full) <= rows:
            return [*head, name, *full], True
    short = [name, (words, Style())]
    hint = (key, Style(dim=True))
    for head in (list(lines), kept):
        if key and len(head) + len(short) + 1 <= rows:
            return [*head, *short, hint], False
    head = list(lines) if len(lines) + len(short) <= rows else kept
    return [*head, *short], False


def cell_at(x: int, y: int, w: int, h: int) -> tuple[int, int] | None:
    """The grid cell under the character at column ``x``, row ``y`` (None if off the grid)."""
    if x < 0 or y < 0 or w <= 0 or h <= 0:
        return None
    r, c = y // h, x // w
    if r >= GRID or c >= GRID:
        return None
    return r, c


__all__ = [
    "COLOUR_HEX",
    "HOME",
    "Line",
    "board_text",
    "cell_at",
    "centre_with_card",
    "colour_style",
    "pawn_style",
]
