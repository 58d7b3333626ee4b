"""The board's START and HOME labels in Chromium on a phone (390x844 and 844x390), in the five
languages: each is 10 CSS px at least and its box runs into no track square, no Safety Zone
square and no other label (Greek's "ΑΦΕΤΗΡΙΑ του Κόκκινου" is much wider than its circle:
board.js moves such a label into the nearest free stretch of its row, or sets it on two lines,
or above its circle). Set SORRY_SCREENSHOTS=DIR to keep a screenshot of each board."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import context, preset_game, shot, start_server, watch_errors

from server_helpers import ServerProcess
from sorry.i18n import LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT = 60000

#: Each label's text, its size on screen, and the squares its box runs into.
LABELS = """() => {
  const svg = document.querySelector('#board svg');
  const squares = [...svg.querySelectorAll('rect.sq, rect.safety')]
    .map(e => [e.getAttribute('aria-label'), e.getBoundingClientRect()]);
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('circle.home + text, circle.start + text')].map(label => {
    const r = label.getBoundingClientRect();
    const hits = squares.filter(([, s]) =>
      Math.min(r.right, s.right) - Math.max(r.left, s.left) > 0.5
      && Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top) > 0.5).map(([name]) => name);
    const px = parseFloat(getComputedStyle(label).fontSize) * scale;
    const others = [...svg.querySelectorAll('circle.home + text, circle.start + text')]
      .filter(o => o !== label).map(o => [o.textContent, o.getBoundingClientRect()])
      .filter(([, s]) => Math.min(r.right, s.right) - Math.max(r.left, s.left) > 0.5
        && Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top) > 0.5).map(([name]) => name);
    hits.push(...others);
    return {text: label.textContent, px, hits, lines: label.querySelectorAll('tspan').length || 1,
            board: svg.getBoundingClientRect().toJSON(), box: r.toJSON()};
  });
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = start_server(tmp_path_factory.mktemp("labels"))
    try:
        yield s
    finally:
        s.stop()


def labels_fit(page: Any, name: str) -> list[dict[str, Any]]:
    page.wait_for_selector("#board svg circle.home + text", state="attached", timeout=WAIT)
    page.evaluate("document.fonts.ready")
    labels: list[dict[str, Any]] = page.evaluate(LABELS)
    assert len(labels) == 8, labels
    for a in labels:
        assert a["px"] >= 9.95, f"{name}: {a['text']!r} at {a['px']:.1f} CSS px"
        assert a["hits"] == [], f"{name}: {a['text']!r} runs into {a['hits']}"
        board, box = a["board"], a["box"]  # on the board
        assert board["left"] <= box["left"] and box["right"] <= board["right"], (name, a)
    shot(page, name)
    return labels


@pytest.mark.parametrize("viewport", ["phone", "phone-landscape"])
def test_start_and_home_labels_fit_on_a_phone_in_every_language(
    server: ServerProcess, browser: Any, viewport: str
) -> None:
    wrapped = {}
    for lang in LANGUAGES:
        page = context(
            browser, viewport, locale=lang, extra_http_headers={"Accept-Language": lang}
        ).new_page()
        errors = watch_errors(page)
        page.goto(f"{server.base}/learn?lang={lang}")
        labels = labels_fit(page, f"labels-{lang}-{viewport}")
        wrapped[lang] = sum(a["lines"] > 1 for a in labels)
        assert errors == []
        page.context.close()
    assert wrapped["en"] == 0  # short labels stay on one line


def test_labels_fit_on_a_game_s_page_and_after_turning_the_phone(
    server: ServerProcess, browser: Any
) -> None:
    """The game's page (main.js builds the same board), and the labels fitted anew when the
    board's size changes."""
    g = preset_game(server.database, "R:S,S,S,4 Y:S,S,S,34 R", base=server.base, card="5")
    page = context(
        browser, "phone", locale="el", extra_http_headers={"Accept-Language": "el"}
    ).new_page()
    errors = watch_errors(page)
    page.goto(g["links"]["R"])
    labels_fit(page, "labels-el-phone-game")
    page.set_viewport_size({"width": 844, "height": 390})
    page.wait_for_timeout(300)  # the ResizeObserver's turn
    labels_fit(page, "labels-el-phone-game-turned")
    assert errors == []
