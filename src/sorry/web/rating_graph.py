"""A player's rating over time as an SVG picture (the profile's graph).

One point per rated game, in order (the x axis counts games, not days: a player who plays in
bursts would otherwise see a few lines), the shown rating (60·μ) as a line and its interval
(±2σ, shown scale) as a band around it, a dot on the last game, and a few horizontal rules with
their figures. The picture carries a text alternative (``aria-label``, given by the caller in
the page's language) and draws nothing from outside: it is served as ``image/svg+xml`` and
shown with ``<img>``.

>>> svg = rating_svg([(25.0, 8.3), (26.1, 7.0), (25.4, 6.1)], label="Rating: 1524")
>>> svg.startswith("<svg") and 'aria-label="Rating: 1524"' in svg and svg.count("<circle") == 1
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from .ratings import DISPLAY_SCALE, MU, SIGMA

WIDTH, HEIGHT = 360, 160
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 40, 10, 10, 18
LINE, BAND, RULE, TEXT = "#1d5fa8", "#1d5fa833", "#8884", "#555"


def _nice_step(span: float) -> float:
    raw = span / 4
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    return next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)


def rating_svg(
    points: Sequence[tuple[float, float]],
    label: str,
    width: int = WIDTH,
    height: int = HEIGHT,
) -> str:
    """``points``: (μ, σ) after each game, oldest first; the newcomer's rating is put before
    them. ``label``: the picture's text alternative."""
    series = [(MU, SIGMA), *points]
    ys = [DISPLAY_SCALE * m for m, _s in series]
    lows = [DISPLAY_SCALE * (m - 2 * s) for m, s in series]
    highs = [DISPLAY_SCALE * (m + 2 * s) for m, s in series]
    # the axis follows the line, the band is cut at the edges (it starts ±1000 wide)
    top, bottom = max(ys), min(ys)
    pad = max(50.0, (top - bottom) * 0.25)
    top, bottom = top + pad, bottom - pad
    step = _nice_step(top - bottom)
    n = len(series)
    plot_w = width - PAD_LEFT - PAD_RIGHT
    plot_h = height - PAD_TOP - PAD_BOTTOM

    def x(i: int) -> float:
        return PAD_LEFT + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(v: float) -> float:
        v = min(top, max(bottom, v))
        return PAD_TOP + plot_h * (top - v) / (top - bottom)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(label)}">',
        f"<title>{escape(label)}</title>",
    ]
    v = math.ceil(bottom / step) * step
    while v <= top:
        yy = y(v)
        parts.append(
            f'<line x1="{PAD_LEFT}" x2="{width - PAD_RIGHT}" y1="{yy:.1f}" y2="{yy:.1f}" '
            f'stroke="{RULE}" stroke-width="1"/>'
            f'<text x="{PAD_LEFT - 4}" y="{yy + 4:.1f}" text-anchor="end" font-size="11" '
            f'fill="{TEXT}" font-family="sans-serif">{round(v)}</text>'
        )
        v += step
    band = [f"{x(i):.1f},{y(h):.1f}" for i, h in enumerate(highs)]
    band += [f"{x(i):.1f},{y(lo):.1f}" for i, lo in reversed(list(enumerate(lows)))]
    parts.append(f'<polygon points="{" ".join(band)}" fill="{BAND}" stroke="none"/>')
    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(ys))
    parts.append(
        f'<polyline points="{line}" fill="none" stroke="{LINE}" stroke-width="2" '
        'stroke-linejoin="round"/>'
    )
    parts.append(f'<circle cx="{x(n - 1):.1f}" cy="{y(ys[-1]):.1f}" r="4" fill="{LINE}"/>')
    parts.append(
        f'<text x="{PAD_LEFT}" y="{height - 4}" font-size="11" fill="{TEXT}" '
        f'font-family="sans-serif">0</text>'
        f'<text x="{width - PAD_RIGHT}" y="{height - 4}" text-anchor="end" font-size="11" '
        f'fill="{TEXT}" font-family="sans-serif">{n - 1}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)
