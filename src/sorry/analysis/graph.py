"""The win-probability graph of an analysed game: SVG (standard library only) or PNG
(matplotlib, the ``sim`` extra).

Both draw from the JSON form of an analysis (:func:`sorry.analysis.report.to_dict`): one line
per side over the turns (each turn has three points: before the draw, after the draw, after
the move), the mistakes and blunders marked on the mover's line, and each player's luckiest
(▲) and unluckiest (▼) draw. The SVG carries, for every turn, an invisible strip with the
turn's number, step and text (``data-turn``, ``data-step``, ``data-text`` and a ``<title>``),
so a page can show the card and move under the pointer and jump its replay there.
"""

from __future__ import annotations

import os
from html import escape
from typing import Any, Final

from ..board import COLOUR_LETTERS, colour_name
from ..errors import SorryError
from ..i18n import _
from ..svg import DARK, FILL

WIDTH: Final = 760
HEIGHT: Final = 340
#: Line colours: the board's, with a darker yellow that reads on white.
LINE: Final = (FILL[0], FILL[1], "#c9a000", FILL[3])
MISTAKE: Final = "#e67e22"
BLUNDER: Final = "#b03a2e"


def side_label(data: dict[str, Any], side: list[str]) -> str:
    names = [colour_name(COLOUR_LETTERS.index(c)) for c in side]
    if len(names) == 1:
        return names[0]
    return _("{a} and {b}").format(a=names[0], b=names[1])


def _x_of(point: dict[str, Any]) -> float:
    """Turn t's chance node at x = t, its decision node at t + 0.5."""
    return float(point["turn"]) + (0.5 if point["kind"] == "draw" else 0.0)


def series(data: dict[str, Any]) -> list[tuple[str, list[tuple[float, float]]]]:
    """For each side (its first colour's letter): the (x, win probability) points."""
    out = []
    for side in data["sides"]:
        c = side[0]
        out.append((c, [(_x_of(p), float(p["values"][c])) for p in data["points"]]))
    return out


def marks(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The marked events: mistakes and blunders (at the point after the move, on the mover's
    side) and each player's luckiest and unluckiest draw (at the point after the draw)."""
    side_of = {c: side[0] for side in data["sides"] for c in side}
    out: list[dict[str, Any]] = []
    for d in data["decisions"]:
        if d["label"] in ("mistake", "blunder"):
            c = side_of[d["colour"]]
            out.append(
                {
                    "kind": d["label"],
                    "x": d["turn"] + 1.0,
                    "y": float(d["after"][c]),
                    "colour": c,
                    "step": d["step"],
                    "turn": d["turn"],
                    "text": d.get("text") or d["move"],
                }
            )
    for colour in data["colours"]:
        own = [d for d in data["draws"] if d["colour"] == colour]
        if not own:
            continue
        c = side_of[colour]
        best = max(own, key=lambda d: d["luck"][c])
        worst = min(own, key=lambda d: d["luck"][c])
        for kind, d in (("luckiest", best), ("unluckiest", worst)):
            out.append(
                {
                    "kind": kind,
                    "x": d["turn"] + 0.5,
                    "y": float(d["after"][c]),
                    "colour": c,
                    "step": d["step"],
                    "turn": d["turn"],
                    "text": d.get("text") or d["card"],
                    "luck": float(d["luck"][c]),
                }
            )
    return out


def turn_texts(data: dict[str, Any]) -> dict[int, tuple[int, str]]:
    """Each turn (0-based) -> (the record step of its move, what happened: card and move)."""
    out: dict[int, tuple[int, str]] = {}
    draws = {d["turn"]: d for d in data["draws"]}
    for d in data["decisions"]:
        parts = []
        dr = draws.get(d["turn"])
        if dr is not None and dr["colour"] is not None and dr.get("text"):
            parts.append(dr["text"])
        parts.append(d.get("text") or d["move"])
        out[d["turn"]] = (d["step"], "; ".join(parts))
    return out


def svg(data: dict[str, Any], width: int = WIDTH, height: int = HEIGHT) -> str:
    """The graph as an SVG document (see the module doc)."""
    left, right, top, bottom = 46.0, 14.0, 34.0, 34.0
    turns = max(1, int(data["result"]["turns"]))
    pw, ph = width - left - right, height - top - bottom

    def X(x: float) -> float:
        return left + pw * x / turns

    def Y(p: float) -> float:
        return top + ph * (1.0 - p)

    title = _("Win probability over the game")
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" class="analysis-graph" '
        f'aria-label="{escape(title)}" font-family="sans-serif" font-size="12">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    for q in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = Y(q)
        dash = "" if q in (0.0, 1.0) else ' stroke-dasharray="3 3"'
        out.append(
            f'<line x1="{left:.1f}" y1="{y:.1f}" x2="{width - right:.1f}" y2="{y:.1f}" '
            f'stroke="#bbbbbb" stroke-width="1"{dash}/>'
        )
        out.append(
            f'<text x="{left - 6:.1f}" y="{y + 4:.1f}" text-anchor="end" fill="#444">'
            f"{round(q * 100)}%</text>"
        )
    step = _tick_step(turns)
    for t in range(0, turns + 1, step):
        x = X(t)
        out.append(
            f'<line x1="{x:.1f}" y1="{top + ph:.1f}" x2="{x:.1f}" y2="{top + ph + 4:.1f}" '
            f'stroke="#888"/>'
        )
        out.append(
            f'<text x="{x:.1f}" y="{top + ph + 16:.1f}" text-anchor="middle" fill="#444">{t}</text>'
        )
    out.append(
        f'<text x="{left + pw / 2:.1f}" y="{height - 4:.1f}" text-anchor="middle" '
        f'fill="#444">{escape(_("turn"))}</text>'
    )
    # one strip per turn, for the pointer (drawn first: under the lines)
    for turn, (stp, what) in sorted(turn_texts(data).items()):
        x0, x1 = X(turn), X(turn + 1)
        label = _("turn {turn}: {what}").format(turn=turn + 1, what=what)
        out.append(
            f'<rect class="turn" x="{x0:.2f}" y="{top:.1f}" width="{max(x1 - x0, 0.5):.2f}" '
            f'height="{ph:.1f}" fill="transparent" data-turn="{turn + 1}" data-step="{stp}" '
            f'data-text="{escape(label)}"><title>{escape(label)}</title></rect>'
        )
    for c, pts in series(data):
        k = COLOUR_LETTERS.index(c)
        coords = " ".join(f"{X(x):.1f},{Y(p):.1f}" for x, p in pts)
        out.append(
            f'<polyline points="{coords}" fill="none" stroke="{LINE[k]}" stroke-width="2" '
            f'stroke-linejoin="round" data-side="{c}"/>'
        )
    for m in marks(data):
        x, y = X(m["x"]), Y(m["y"])
        k = COLOUR_LETTERS.index(m["colour"])
        tip = escape(_("turn {turn}: {what}").format(turn=m["turn"] + 1, what=m["text"]))
        if m["kind"] in ("mistake", "blunder"):
            fill = BLUNDER if m["kind"] == "blunder" else MISTAKE
            r = 5.5 if m["kind"] == "blunder" else 4.5
            out.append(
                f'<circle class="mark {m["kind"]}" cx="{x:.1f}" cy="{y:.1f}" r="{r}" '
                f'fill="{fill}" stroke="#ffffff" stroke-width="1.5" data-step="{m["step"]}">'
                f"<title>{tip}</title></circle>"
            )
        else:
            up = m["kind"] == "luckiest"
            # a triangle pointing up (luckiest) above the line, or down (unluckiest) below
            s = 1 if up else -1
            cy = y - 9 * s
            corners = (
                f"{x:.1f},{cy - 6 * s:.1f} {x - 6:.1f},{cy + 5 * s:.1f} "
                f"{x + 6:.1f},{cy + 5 * s:.1f}"
            )
            out.append(
                f'<polygon class="mark {m["kind"]}" points="{corners}" fill="{LINE[k]}" '
                f'stroke="{DARK[k]}" stroke-width="1" data-step="{m["step"]}">'
                f"<title>{tip}</title></polygon>"
            )
    # the legend: sides, then the marks
    x = left
    for side in data["sides"]:
        k = COLOUR_LETTERS.index(side[0])
        name = escape(side_label(data, side))
        out.append(
            f'<line x1="{x:.1f}" y1="14" x2="{x + 18:.1f}" y2="14" stroke="{LINE[k]}" '
            f'stroke-width="3"/><text x="{x + 22:.1f}" y="18" fill="#222">{name}</text>'
        )
        x += 30 + 7.2 * len(side_label(data, side))
    for fill, label in ((MISTAKE, _("mistake")), (BLUNDER, _("blunder"))):
        out.append(
            f'<circle cx="{x + 5:.1f}" cy="14" r="4.5" fill="{fill}"/>'
            f'<text x="{x + 13:.1f}" y="18" fill="#222">{escape(label)}</text>'
        )
        x += 22 + 7.2 * len(label)
    for glyph, label in (("▲", _("luckiest draw")), ("▼", _("unluckiest draw"))):
        out.append(f'<text x="{x:.1f}" y="18" fill="#222">{glyph} {escape(label)}</text>')
        x += 22 + 7.2 * len(label)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _tick_step(turns: int) -> int:
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500):
        if turns / step <= 10:
            return step
    return 1000


#: The PNG's vertical range, in percent: room above 100% for a luckiest draw's ▲ and below
#: 0% for an unluckiest draw's ▼ (each is drawn 4 points off the line), so that every marker
#: is inside the plot.
PNG_YLIM: Final = (-10.0, 110.0)
#: How far (points of win probability) a luck marker is drawn off the line.
LUCK_OFFSET: Final = 4.0


def png_figure(data: dict[str, Any]) -> Any:
    """The graph as a matplotlib figure (:func:`png` saves it; a test measures it)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SorryError(
            _("a PNG plot needs matplotlib: pip install 'sorry-engine[sim]' (or write an .svg)")
        ) from None
    fig, ax = plt.subplots(figsize=(10, 4.4))
    for c, pts in series(data):
        k = COLOUR_LETTERS.index(c)
        side = next(s for s in data["sides"] if s[0] == c)
        ax.plot(
            [x for x, _p in pts],
            [100 * p for _x, p in pts],
            color=LINE[k],
            linewidth=1.8,
            label=side_label(data, side),
        )
    for m in marks(data):
        k = COLOUR_LETTERS.index(m["colour"])
        kind = m["kind"]
        y = 100 * m["y"]
        if kind in ("mistake", "blunder"):
            ax.scatter(
                [m["x"]],
                [y],
                s=60 if kind == "blunder" else 40,
                color=BLUNDER if kind == "blunder" else MISTAKE,
                edgecolors="white",
                zorder=5,
                gid=f"mark-{kind}",
            )
        else:
            up = kind == "luckiest"
            ax.scatter(
                [m["x"]],
                [y + (LUCK_OFFSET if up else -LUCK_OFFSET)],
                marker="^" if up else "v",
                s=70,
                color=LINE[k],
                edgecolors=DARK[k],
                zorder=6,
                gid=f"mark-{kind}",
            )
    # the legend's marks in neutral colours (each side's marks are in its own colour)
    for marker, colour, size, label in (
        ("o", MISTAKE, 40, _("mistake")),
        ("o", BLUNDER, 60, _("blunder")),
        ("^", "#999999", 70, _("luckiest draw")),
        ("v", "#999999", 70, _("unluckiest draw")),
    ):
        ax.scatter([], [], marker=marker, s=size, color=colour, label=label)
    ax.set_ylim(*PNG_YLIM)
    turns = max(1, data["result"]["turns"])
    ax.set_xlim(-0.01 * turns, 1.01 * turns)
    ax.set_yticks([0, 25, 50, 75, 100], ["0%", "25%", "50%", "75%", "100%"])
    ax.grid(axis="y", linestyle=":", color="#bbbbbb")
    ax.set_xlabel(_("turn"))
    ax.set_ylabel(_("win probability"))
    ax.set_title(_("Win probability over the game"))
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), fontsize=8, ncol=6, frameon=False)
    fig.tight_layout()
    return fig


def png(data: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """The graph as a PNG (matplotlib; :class:`SorryError` when it is not installed)."""
    fig = png_figure(data)
    import matplotlib.pyplot as plt

    fig.savefig(os.fspath(path), dpi=110)
    plt.close(fig)


def write_plot(data: dict[str, Any], path: str) -> None:
    """``.svg`` (standard library) or ``.png`` (matplotlib), by the file's extension."""
    low = path.lower()
    if low.endswith(".svg"):
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(svg(data))
    elif low.endswith(".png"):
        png(data, path)
    else:
        raise SorryError(_("the plot is written as .png or .svg, not {path}").format(path=path))


__all__ = ["marks", "png", "png_figure", "series", "svg", "turn_texts", "write_plot"]
