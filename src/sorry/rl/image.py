"""The board as an RGB picture (numpy only): what the environments' ``rgb_array`` mode returns.

It is the board of :mod:`sorry.svg` drawn with the same geometry and colours (the track round
the 16 x 16 grid, the slides, the Safety Zones, START and HOME, the pawns in their colour with
their letter, the name across the middle), rasterised here with anti-aliased edges so that no
drawing library is needed; the small square numbers and captions of the SVG are left out. When
a card is in play it is shown in the middle, framed in the colour of the player to move.

>>> from sorry import Game
>>> image = board_rgb(Game.from_position("R:S,S,4,s2 Y:12,33,40,H R", card=7))
>>> image.shape, image.dtype.name
((640, 640, 3), 'uint8')
>>> [tuple(int(v) for v in image[30, x]) for x in (60, 180)]  # track squares 1 and 4
[(255, 253, 245), (214, 69, 65)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ..board import COLOUR_LETTERS, SLIDES, TRACK_LEN
from ..cards import SORRY, Card, card_name
from ..game import Game
from ..position import Position
from ..svg import CELL, DARK, FILL, LIGHT, SIZE, board_geometry, pawn_xy

Image = npt.NDArray[np.uint8]
Colour = tuple[float, float, float]
_Plane = npt.NDArray[np.float64]

#: The picture's side in pixels by default: the SVG's own size.
DEFAULT_SIZE = SIZE

# A 5 x 7 font for the few characters the picture writes (pawn letters, card names, the name).
_GLYPHS = {
    "R": ("1111.", "1...1", "1...1", "1111.", "1.1..", "1..1.", "1...1"),
    "B": ("1111.", "1...1", "1...1", "1111.", "1...1", "1...1", "1111."),
    "Y": ("1...1", "1...1", ".1.1.", "..1..", "..1..", "..1..", "..1.."),
    "G": (".111.", "1...1", "1....", "1.111", "1...1", "1...1", ".111."),
    "S": (".1111", "1....", "1....", ".111.", "....1", "....1", "1111."),
    "O": (".111.", "1...1", "1...1", "1...1", "1...1", "1...1", ".111."),
    "!": ("..1..", "..1..", "..1..", "..1..", "..1..", ".....", "..1.."),
    "0": (".111.", "1...1", "1..11", "1.1.1", "11..1", "1...1", ".111."),
    "1": ("..1..", ".11..", "..1..", "..1..", "..1..", "..1..", ".111."),
    "2": (".111.", "1...1", "....1", "...1.", "..1..", ".1...", "11111"),
    "3": ("11111", "...1.", "..1..", "...1.", "....1", "1...1", ".111."),
    "4": ("...1.", "..11.", ".1.1.", "1..1.", "11111", "...1.", "...1."),
    "5": ("11111", "1....", "1111.", "....1", "....1", "1...1", ".111."),
    "7": ("11111", "....1", "...1.", "..1..", ".1...", ".1...", ".1..."),
    "8": (".111.", "1...1", "1...1", ".111.", "1...1", "1...1", ".111."),
}
_FONT = {c: np.array([[ch == "1" for ch in row] for row in rows]) for c, rows in _GLYPHS.items()}


def _colour(hex_colour: str) -> Colour:
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255)


#: One painting of a shape: the rows and columns it covers, its coverage (``alpha[h, w, 1]``)
#: and its colour (0-255).
_Paint = tuple[slice, slice, npt.NDArray[np.float32], npt.NDArray[np.float32]]


def _blend(rgb: Image, paint: _Paint) -> None:
    rows, cols, alpha, colour = paint
    region = rgb[rows, cols].astype(np.float32)
    rgb[rows, cols] = (region + alpha * (colour - region) + 0.5).astype(np.uint8)


class _Canvas:
    """An RGB picture drawn in the SVG's units (``SIZE`` across), ``scale`` pixels each; with
    ``record``, the paintings are kept (to be applied later, many times) instead of applied."""

    def __init__(self, size: int, record: bool = False) -> None:
        self.size = size
        self.scale = size / SIZE
        self.rgb: Image = np.full((size, size, 3), 255, np.uint8)
        self.paints: list[_Paint] | None = [] if record else None

    def _box(
        self, x0: float, y0: float, x1: float, y1: float
    ) -> tuple[_Plane, _Plane, slice, slice]:
        """Pixel-centre coordinates (in SVG units) of the pixels a shape may touch."""
        s = self.scale
        c0, c1 = max(int(x0 * s) - 1, 0), min(math.ceil(x1 * s) + 1, self.size)
        r0, r1 = max(int(y0 * s) - 1, 0), min(math.ceil(y1 * s) + 1, self.size)
        xs = (np.arange(c0, c1) + 0.5) / s
        ys = (np.arange(r0, r1) + 0.5) / s
        gx, gy = np.meshgrid(xs, ys)
        return gx, gy, slice(r0, r1), slice(c0, c1)

    def _paint(
        self, rows: slice, cols: slice, alpha: _Plane, colour: Colour, opacity: float = 1.0
    ) -> None:
        paint = (
            rows,
            cols,
            (alpha * opacity).astype(np.float32)[..., None],
            np.asarray(colour, np.float32) * 255,
        )
        if self.paints is not None:
            self.paints.append(paint)
        else:
            _blend(self.rgb, paint)

    def _coverage(self, distance_inside: _Plane) -> _Plane:
        """Anti-aliased coverage from a signed distance (SVG units, positive inside)."""
        return np.clip(distance_inside * self.scale + 0.5, 0.0, 1.0)

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str,
        stroke: str | None = None,
        width: float = 1.0,
    ) -> None:
        e = width / 2 if stroke else 0.0
        gx, gy, rows, cols = self._box(x - e, y - e, x + w + e, y + h + e)
        inside = np.minimum(np.minimum(gx - x, x + w - gx), np.minimum(gy - y, y + h - gy))
        if stroke:
            self._paint(rows, cols, self._coverage(inside + e), _colour(stroke))
        self._paint(rows, cols, self._coverage(inside - e), _colour(fill))

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        fill: str,
        stroke: str | None = None,
        width: float = 1.0,
    ) -> None:
        e = width / 2 if stroke else 0.0
        gx, gy, rows, cols = self._box(cx - r - e, cy - r - e, cx + r + e, cy + r + e)
        inside = r - np.hypot(gx - cx, gy - cy)
        if stroke:
            self._paint(rows, cols, self._coverage(inside + e), _colour(stroke))
        self._paint(rows, cols, self._coverage(inside - e), _colour(fill))

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        width: float,
        colour: str,
        opacity: float = 1.0,
    ) -> None:
        """A segment with round ends."""
        e = width / 2
        gx, gy, rows, cols = self._box(
            min(x1, x2) - e, min(y1, y2) - e, max(x1, x2) + e, max(y1, y2) + e
        )
        dx, dy = x2 - x1, y2 - y1
        t = np.clip(((gx - x1) * dx + (gy - y1) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
        distance = np.hypot(gx - (x1 + t * dx), gy - (y1 + t * dy))
        self._paint(rows, cols, self._coverage(e - distance), _colour(colour), opacity)

    def polygon(self, points: Sequence[tuple[float, float]], fill: str, stroke: str) -> None:
        """A convex polygon, its outline one unit wide."""
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        gx, gy, rows, cols = self._box(min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1)
        area = sum(
            x0 * y1 - x1 * y0
            for (x0, y0), (x1, y1) in zip(points, [*points[1:], points[0]], strict=True)
        )
        sign = 1.0 if area > 0 else -1.0
        inside = np.full(gx.shape, np.inf)
        for (x0, y0), (x1, y1) in zip(points, [*points[1:], points[0]], strict=True):
            length = math.hypot(x1 - x0, y1 - y0)
            # distance to the edge's line, positive on the polygon's side
            d = sign * ((x1 - x0) * (gy - y0) - (y1 - y0) * (gx - x0)) / length
            inside = np.minimum(inside, d)
        self._paint(rows, cols, self._coverage(inside + 0.5), _colour(stroke))
        self._paint(rows, cols, self._coverage(inside - 0.5), _colour(fill))

    def text(
        self,
        text: str,
        cx: float,
        cy: float,
        height: float,
        colour: str,
        angle: float = 0.0,
        weight: float = 1.4,
    ) -> None:
        """``text`` centred on (cx, cy), capitals ``height`` units tall, turned by ``angle``
        degrees (clockwise, as SVG's rotate). Each dot of the font is a square ``weight`` dots
        wide (more than 1: bold strokes), their union drawn with anti-aliased edges."""
        unit = height / 7  # one dot of the font
        width = (6 * len(text) - 1) * unit
        reach = math.hypot(width, height) / 2 + unit * weight
        gx, gy, rows, cols = self._box(cx - reach, cy - reach, cx + reach, cy + reach)
        cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        px, py = gx - cx, gy - cy
        u = (cos * px + sin * py + width / 2) / unit  # in font dots, from the text's left edge
        v = (-sin * px + cos * py + height / 2) / unit
        half = weight / 2
        inside = np.full(gx.shape, -np.inf)
        for k, char in enumerate(text):
            for row, col in zip(*np.nonzero(_FONT[char]), strict=True):
                du = np.abs(u - (6 * k + col + 0.5))
                dv = np.abs(v - (row + 0.5))
                inside = np.maximum(inside, half - np.maximum(du, dv))
        self._paint(rows, cols, self._coverage(inside * unit), _colour(colour))


@lru_cache(maxsize=4)
def _empty_board(size: int) -> Image:
    """The board without pawns (drawn once per size)."""
    canvas = _Canvas(size)
    geo = board_geometry()
    canvas.rect(0, 0, SIZE, SIZE, "#fbf7ea", "#333333")
    canvas.text("SORRY!", SIZE / 2, SIZE / 2, 48, "#c0392b", angle=-35)
    h = CELL / 2
    for s in range(TRACK_LEN):
        x, y = geo["track"][s]
        canvas.rect(x - h, y - h, CELL, CELL, "#fffdf5", "#999999")
    for triangle, end, owner in SLIDES:
        (x1, y1), (x2, y2) = geo["track"][triangle], geo["track"][end]
        canvas.line(x1, y1, x2, y2, 10, FILL[owner], opacity=0.8)
        step = max(abs(x2 - x1), abs(y2 - y1))
        dx, dy = (x2 - x1) / step, (y2 - y1) / step
        px, py = -dy, dx
        tip = (x1 + dx * 12, y1 + dy * 12)
        b1 = (x1 - dx * 8 + px * 11, y1 - dy * 8 + py * 11)
        b2 = (x1 - dx * 8 - px * 11, y1 - dy * 8 - py * 11)
        canvas.polygon((tip, b1, b2), FILL[owner], DARK[owner])
        canvas.circle(x2, y2, 9, FILL[owner], DARK[owner])
    for c, letter in enumerate(COLOUR_LETTERS):
        for x, y in geo["safety"][letter]:
            canvas.rect(x - h, y - h, CELL, CELL, LIGHT[c], FILL[c])
        for kind in ("home", "start"):
            x, y = geo[f"{kind}_circle"][letter]
            canvas.circle(x, y, CELL * 1.05, LIGHT[c], FILL[c], width=3)
    canvas.rgb.flags.writeable = False
    return canvas.rgb


def board_rgb(
    game: Game | Position | str | None = None, size: int = DEFAULT_SIZE, card: Card | None = None
) -> Image:
    """The board as ``uint8[size, size, 3]``, with the pawns of ``game`` (a game, a position or
    a position string) and, when a card is in play (``game.card`` or ``card``), that card."""
    if size < 64:
        raise ValueError(f"size must be at least 64 pixels, not {size}")
    image = _empty_board(size).copy()
    position: Position | None
    if isinstance(game, Game):
        position = game.position()
        if card is None and not game.is_over():
            card = game.card
    elif isinstance(game, str):
        position = Position.parse(game)
    else:
        position = game
    if position is None:
        return image
    geo: dict[str, Any] = board_geometry()
    for c, locs in enumerate(position.pawns):
        if locs is None:
            continue
        slots: dict[int, int] = {}
        for loc in locs:
            slot = slots.get(loc, 0)
            slots[loc] = slot + 1
            x, y = pawn_xy(geo, c, loc, slot)
            for paint in _pawn(c, x, y, size):
                _blend(image, paint)
    if card is not None:
        for paint in _card(card, position.to_move, size):
            _blend(image, paint)
    return image


@lru_cache(maxsize=2048)
def _pawn(colour: int, x: float, y: float, size: int) -> tuple[_Paint, ...]:
    """A pawn's paintings at (x, y): the places a pawn can stand are few, so each is drawn once."""
    canvas = _Canvas(size, record=True)
    canvas.circle(x, y, 13, FILL[colour], DARK[colour], width=2)
    canvas.text(COLOUR_LETTERS[colour], x, y, 12, "#ffffff", weight=1.3)
    assert canvas.paints is not None
    return tuple(canvas.paints)


@lru_cache(maxsize=256)
def _card(card: Card, mover: int, size: int) -> tuple[_Paint, ...]:
    """The card in play, in the middle's lower right (clear of the name across the middle),
    framed in the mover's colour."""
    canvas = _Canvas(size, record=True)
    name = "SORRY!" if card == SORRY else card_name(card)
    w, h = (92.0, 60.0) if card == SORRY else (52.0, 72.0)
    cx, cy = SIZE / 2 + 88, SIZE / 2 + 88
    canvas.rect(cx - w / 2, cy - h / 2, w, h, "#ffffff", FILL[mover], width=6)
    canvas.text(name, cx, cy, 14 if card == SORRY else 30, DARK[mover])
    assert canvas.paints is not None
    return tuple(canvas.paints)


__all__ = ["DEFAULT_SIZE", "board_rgb"]
