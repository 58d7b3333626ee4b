"""The profile's rating graph (sorry.web.rating_graph): well-formed SVG, the line following
the ratings (higher is drawn higher), the band around it, a text alternative that cannot
carry markup, and every point inside the picture."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from sorry.web.rating_graph import HEIGHT, WIDTH, rating_svg

NS = {"s": "http://www.w3.org/2000/svg"}


def points_of(svg: str, tag: str) -> list[tuple[float, float]]:
    root = ET.fromstring(svg)
    el = root.find(f"s:{tag}", NS)
    assert el is not None
    return [(float(a), float(b)) for a, b in (p.split(",") for p in el.attrib["points"].split())]


def test_the_line_follows_the_ratings_inside_the_picture() -> None:
    games = [(26.0, 7.5), (27.5, 6.8), (25.0, 6.2), (24.0, 5.9), (28.0, 5.5)]
    svg = rating_svg(games, label="Rating over 5 games: 1680")
    root = ET.fromstring(svg)
    assert root.attrib["role"] == "img" and root.attrib["aria-label"].endswith("1680")
    line = points_of(svg, "polyline")
    assert len(line) == len(games) + 1  # the newcomer's 1500 first
    xs = [p[0] for p in line]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)
    ys = [p[1] for p in line]
    ratings = [25.0] + [m for m, _s in games]
    # a higher rating is drawn higher (a smaller y)
    for i in range(len(ys) - 1):
        assert (ratings[i + 1] > ratings[i]) == (ys[i + 1] < ys[i])
    band = points_of(svg, "polygon")
    assert len(band) == 2 * len(line)
    assert all(0 <= x <= WIDTH and 0 <= y <= HEIGHT for x, y in line + band)


def test_the_label_is_text_only_and_one_game_draws() -> None:
    svg = rating_svg([(25.5, 8.0)], label='<script>alert("x")</script>')
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    ET.fromstring(svg)
    assert len(points_of(svg, "polyline")) == 2
