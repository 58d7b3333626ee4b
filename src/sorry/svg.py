"""The board as an SVG picture (standard library only): for the web page, docs and notebooks.

The 60-square track runs clockwise round a 16 x 16 grid: Red's side (squares 0-14) along the
top from the left corner, Blue's down the right, Yellow's along the bottom, Green's up the left.
Each side has its two coloured slides, its START circle next to its START exit (b+4) and its
Safety Zone turning in at its entry (b+2), ending in its HOME circle. Pawns are drawn in their
colour with their letter, so the picture reads without colour too. Every square, START, HOME
and pawn has a text alternative (``aria-label``) in the language asked for, for screen readers;
the decoration (slides, square numbers, the name in the middle) is hidden from them.

>>> svg = board_svg("R:S,S,4,s2 Y:12,33,40,H R")
>>> svg.startswith("<svg") and svg.count('class="pawn') == 8
True
>>> geo = board_geometry()
>>> len(geo["track"]), len(geo["safety"]["R"]), len(geo["start"]["Y"])
(60, 5, 4)
"""

from __future__ import annotations

from html import escape
from typing import Any

from .board import (
    COLOUR_LETTERS,
    HOME,
    SAFE_BASE,
    SAFETY_ENTRY,
    SLIDES,
    START,
    START_EXIT,
    TRACK_LEN,
    colour_name,
    place_name,
)
from .i18n import _, enumeration, get_language, using
from .position import Position

CELL = 40
GRID = 16
SIZE = CELL * GRID
#: Fill colours of the four sides, and a darker shade for outlines and text.
FILL = ("#d64541", "#3b7dd8", "#e8c12e", "#3aa655")
DARK = ("#7a1f1c", "#1b3f73", "#7a6200", "#1a5a2a")
LIGHT = ("#f6d2d1", "#d3e3f8", "#faf0c4", "#d2ecd8")

Point = tuple[float, float]


def _rotate(x: float, y: float, side: int) -> Point:
    """Grid coordinates of Red's side turned clockwise by ``side`` quarter turns."""
    for _turn in range(side):
        x, y = GRID - 1 - y, x
    return x, y


def _px(p: Point) -> Point:
    return (round((p[0] + 0.5) * CELL, 1), round((p[1] + 0.5) * CELL, 1))


def track_cell(square: int) -> Point:
    side, k = divmod(square, 15)
    return _rotate(k, 0, side)


def _slots(centre: Point, spread: float) -> list[Point]:
    cx, cy = centre
    d = spread * CELL
    return [(cx - d, cy - d), (cx + d, cy - d), (cx - d, cy + d), (cx + d, cy + d)]


def board_geometry() -> dict[str, Any]:
    """Pixel centres of every place a pawn can stand: ``track`` (60), per colour letter
    ``safety`` (s1-s5), ``home`` and ``start`` (four slots each), plus the circles."""
    geo: dict[str, Any] = {
        "size": SIZE,
        "cell": CELL,
        "track": [_px(track_cell(s)) for s in range(TRACK_LEN)],
        "safety": {},
        "home": {},
        "start": {},
        "home_circle": {},
        "start_circle": {},
    }
    for c, letter in enumerate(COLOUR_LETTERS):
        geo["safety"][letter] = [_px(_rotate(2, k, c)) for k in range(1, 6)]
        home = _px(_rotate(2, 6.9, c))
        start = _px(_rotate(4.6, 2.3, c))
        geo["home_circle"][letter] = home
        geo["start_circle"][letter] = start
        geo["home"][letter] = _slots(home, 0.42)
        geo["start"][letter] = _slots(start, 0.42)
    return geo


def pawn_xy(geo: dict[str, Any], colour: int, loc: int, slot: int = 0) -> Point:
    letter = COLOUR_LETTERS[colour]
    if loc < TRACK_LEN:
        x, y = geo["track"][loc]
    elif loc == HOME:
        x, y = geo["home"][letter][slot % 4]
    elif loc == START:
        x, y = geo["start"][letter][slot % 4]
    else:
        x, y = geo["safety"][letter][loc - SAFE_BASE - 1]
    return float(x), float(y)


def square_label(square: int) -> str:
    """A track square in words, in the current language: its number and what is on it
    (slides, entries, START exits)."""
    words = [_("Square {n}").format(n=square)]
    for triangle, end, owner in SLIDES:
        colour = colour_name(owner)
        if square == triangle:
            words.append(_("start of the {colour} slide").format(colour=colour))
        elif square == end:
            words.append(_("end of the {colour} slide").format(colour=colour))
        elif triangle < square < end:
            words.append(_("on the {colour} slide").format(colour=colour))
    for c in range(4):
        colour = colour_name(c)
        if square == SAFETY_ENTRY[c]:
            words.append(_("{colour} Safety Zone entry").format(colour=colour))
        if square == START_EXIT[c]:
            words.append(_("{colour} START exit").format(colour=colour))
    return enumeration(words)


def _board_parts(geo: dict[str, Any]) -> list[str]:
    out = [
        f'<rect x="0" y="0" width="{SIZE}" height="{SIZE}" fill="#fbf7ea" stroke="#333" '
        'aria-hidden="true"/>',
        f'<text x="{SIZE / 2}" y="{SIZE / 2}" text-anchor="middle" dominant-baseline="middle" '
        f'font-size="64" font-weight="bold" fill="#c0392b" font-family="sans-serif" '
        f'transform="rotate(-35 {SIZE / 2} {SIZE / 2})" aria-hidden="true">'
        f"{escape(_('Sorry!').upper())}</text>",
    ]
    h = CELL / 2
    for s in range(TRACK_LEN):
        x, y = geo["track"][s]
        out.append(
            f'<rect class="sq" data-sq="{s}" x="{x - h}" y="{y - h}" width="{CELL}" '
            f'height="{CELL}" fill="#fffdf5" stroke="#999" role="img" '
            f'aria-label="{escape(square_label(s))}"/>'
        )
        out.append(
            f'<text x="{x}" y="{y + h - 3}" text-anchor="middle" font-size="8" '
            f'fill="#aaa" font-family="sans-serif" aria-hidden="true">{s}</text>'
        )
    for triangle, end, owner in SLIDES:
        (x1, y1), (x2, y2) = geo["track"][triangle], geo["track"][end]
        out.append(
            f'<line class="slide" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
            f'stroke="{FILL[owner]}" stroke-width="10" stroke-linecap="round" opacity="0.8" '
            'aria-hidden="true"/>'
        )
        dx, dy = (
            (x2 - x1) / max(abs(x2 - x1), abs(y2 - y1)),
            (y2 - y1) / max(abs(x2 - x1), abs(y2 - y1)),
        )
        px, py = -dy, dx
        tip = (x1 + dx * 12, y1 + dy * 12)
        b1 = (x1 - dx * 8 + px * 11, y1 - dy * 8 + py * 11)
        b2 = (x1 - dx * 8 - px * 11, y1 - dy * 8 - py * 11)
        out.append(
            f'<polygon points="{tip[0]:.1f},{tip[1]:.1f} {b1[0]:.1f},{b1[1]:.1f} '
            f'{b2[0]:.1f},{b2[1]:.1f}" fill="{FILL[owner]}" stroke="{DARK[owner]}" '
            'aria-hidden="true"/>'
        )
        out.append(
            f'<circle cx="{x2}" cy="{y2}" r="9" fill="{FILL[owner]}" stroke="{DARK[owner]}" '
            'aria-hidden="true"/>'
        )
    for c, letter in enumerate(COLOUR_LETTERS):
        colour = colour_name(c)
        for k, (x, y) in enumerate(geo["safety"][letter], start=1):
            label = _("{colour} Safety Zone, square {k}").format(colour=colour, k=k)
            out.append(
                f'<rect class="safety" data-colour="{letter}" data-k="{k}" x="{x - h}" '
                f'y="{y - h}" width="{CELL}" height="{CELL}" fill="{LIGHT[c]}" '
                f'stroke="{FILL[c]}" role="img" aria-label="{escape(label)}"/>'
            )
        for kind, loc in (("home", HOME), ("start", START)):
            x, y = geo[f"{kind}_circle"][letter]
            label = _("{colour} {place}").format(colour=colour, place=place_name(loc))
            out.append(
                f'<circle class="{kind}" data-colour="{letter}" cx="{x}" cy="{y}" '
                f'r="{CELL * 1.05}" fill="{LIGHT[c]}" stroke="{FILL[c]}" stroke-width="3" '
                f'role="img" aria-label="{escape(label)}"/>'
            )
            out.append(
                f'<text x="{x}" y="{y + CELL * 1.05 + 11}" text-anchor="middle" font-size="10" '
                f'fill="{DARK[c]}" font-family="sans-serif" aria-hidden="true">'
                f"{escape(label)}</text>"
            )
    return out


def pawn_label(colour: int, loc: int) -> str:
    """A pawn in words, e.g. ``Red pawn on square 12``, in the current language."""
    name = colour_name(colour)
    if loc == START:
        return _("{colour} pawn in START").format(colour=name)
    if loc == HOME:
        return _("{colour} pawn at HOME").format(colour=name)
    if loc > SAFE_BASE:
        return _("{colour} pawn on Safety Zone square {k}").format(colour=name, k=loc - SAFE_BASE)
    return _("{colour} pawn on square {square}").format(colour=name, square=loc)


def pawn_svg(colour: int, x: float, y: float, extra: str = "", label: str = "") -> str:
    letter = COLOUR_LETTERS[colour]
    named = f' role="img" aria-label="{escape(label)}"' if label else ""
    return (
        f'<g class="pawn pawn-{letter}" transform="translate({x:.1f} {y:.1f})"{named}{extra}>'
        f'<circle r="13" fill="{FILL[colour]}" stroke="{DARK[colour]}" stroke-width="2"/>'
        f'<text text-anchor="middle" dominant-baseline="central" font-size="14" '
        f'font-weight="bold" font-family="sans-serif" fill="#fff">{letter}</text></g>'
    )


def board_svg(
    position: Position | str | None = None, title: str | None = None, lang: str | None = None
) -> str:
    """The whole board as an SVG document, with the pawns of ``position`` if given; the text
    alternatives are in ``lang`` (default: the current language)."""
    with using(lang or get_language()):
        return _board_svg(position, title)


def _board_svg(position: Position | str | None, title: str | None) -> str:
    geo = board_geometry()
    parts = _board_parts(geo)
    if position is not None:
        pos = Position.parse(position) if isinstance(position, str) else position
        for c, locs in enumerate(pos.pawns):
            if locs is None:
                continue
            slots: dict[int, int] = {}
            for loc in locs:
                slot = slots.get(loc, 0)
                slots[loc] = slot + 1
                x, y = pawn_xy(geo, c, loc, slot)
                parts.append(pawn_svg(c, x, y, label=pawn_label(c, loc)))
    board_name = _("{game} board").format(game=_("Sorry!"))
    label = escape(title) if title else escape(board_name)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" '
        f'width="{SIZE}" height="{SIZE}" role="group" aria-label="{label}">'
        f"<title>{label}</title>" + "".join(parts) + "</svg>"
    )
