"""Draw the browser game's app icons (``src/sorry/web/static/icons/*.png``) from its favicon
(``static/favicon.svg``): the same rounded square and rings, at 192 and 512 pixels, and the
"maskable" ones a phone crops to its own shape (the square to the edges, no rounded corners:
the rings sit well inside the safe circle, 40 % of the size from the centre).

The favicon is a few shapes (``rect`` with ``rx``, ``circle``); they are drawn here with the
standard library only, each pixel covered by the share of it inside the shape, and written
as PNG with fixed settings: the same favicon gives the same bytes on every machine.

    python scripts/make_icons.py           # (re)write the icons
    python scripts/make_icons.py --check   # exit 1 if the icons are not the favicon's
"""

from __future__ import annotations

import math
import struct
import sys
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Callable
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "src" / "sorry" / "web" / "static"
SIZES = (192, 512)

Shape = tuple[Callable[[float, float], float], tuple[int, int, int]]


def colour(text: str) -> tuple[int, int, int]:
    text = {"white": "#fff", "black": "#000"}.get(text, text)
    h = text.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def shapes(svg: str, maskable: bool) -> tuple[float, list[Shape]]:
    """The favicon's view box width and its shapes as signed distances (negative inside)."""
    root = ET.fromstring(svg)
    box = float(root.get("viewBox", "0 0 64 64").split()[2])
    out: list[Shape] = []
    for el in root:
        tag = el.tag.rsplit("}", 1)[-1]
        fill = colour(el.get("fill", "#000"))
        if tag == "rect":
            x, y = float(el.get("x", 0)), float(el.get("y", 0))
            w, h = float(el.get("width", 0)), float(el.get("height", 0))
            r = 0.0 if maskable else float(el.get("rx", 0))

            def rect(px: float, py: float, x=x, y=y, w=w, h=h, r=r) -> float:
                qx = abs(px - (x + w / 2)) - (w / 2 - r)
                qy = abs(py - (y + h / 2)) - (h / 2 - r)
                outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
                return outside + min(max(qx, qy), 0.0) - r

            out.append((rect, fill))
        elif tag == "circle":
            cx, cy, r = (float(el.get(k, 0)) for k in ("cx", "cy", "r"))

            def circle(px: float, py: float, cx=cx, cy=cy, r=r) -> float:
                return math.hypot(px - cx, py - cy) - r

            out.append((circle, fill))
        else:
            raise SystemExit(f"make_icons: the favicon has a <{tag}>, which this script cannot draw")
    return box, out


def draw(svg: str, size: int, maskable: bool) -> bytes:
    """RGBA rows, each with PNG's filter byte (none) first."""
    box, layers = shapes(svg, maskable)
    scale = size / box
    rows = bytearray()
    for j in range(size):
        rows.append(0)
        py = (j + 0.5) / scale
        for i in range(size):
            px = (i + 0.5) / scale
            r = g = b = a = 0.0
            for distance, (cr, cg, cb) in layers:
                cover = min(1.0, max(0.0, 0.5 - distance(px, py) * scale))
                if cover == 0.0:
                    continue
                # "over": the shape on what is under it (straight alpha)
                na = cover + a * (1 - cover)
                r = (cr * cover + r * a * (1 - cover)) / na
                g = (cg * cover + g * a * (1 - cover)) / na
                b = (cb * cover + b * a * (1 - cover)) / na
                a = na
            rows += bytes((round(r), round(g), round(b), round(a * 255)))
    return bytes(rows)


def png(size: int, rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


def icons() -> dict[str, bytes]:
    """File name (in static/icons) -> its PNG."""
    svg = (STATIC / "favicon.svg").read_text(encoding="utf-8")
    out = {}
    for size in SIZES:
        out[f"icon-{size}.png"] = png(size, draw(svg, size, maskable=False))
        out[f"maskable-{size}.png"] = png(size, draw(svg, size, maskable=True))
    return out


def main(argv: list[str]) -> int:
    folder = STATIC / "icons"
    made = icons()
    if "--check" in argv:
        stale = [n for n, data in made.items() if not (folder / n).is_file()
                 or (folder / n).read_bytes() != data]
        if stale:
            print(f"make_icons: not the favicon's: {', '.join(stale)} (run scripts/make_icons.py)")
            return 1
        print("make_icons: the icons are the favicon's")
        return 0
    folder.mkdir(exist_ok=True)
    for name, data in made.items():
        (folder / name).write_bytes(data)
        print(f"wrote {folder / name} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
