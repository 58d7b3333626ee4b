"""The end screen's analysis in a real headless Chromium (Playwright, Debian's chromium), against
``sorry serve`` in a subprocess: the graph as wide as its panel on a phone and a desktop,
pointing at a turn shows its card and move, clicking it (or a swing) opens the replay there,
the luck/skill table, and its words in all five languages. Set SORRY_SCREENSHOTS=DIR to keep
screenshots of the panel."""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import CHROMIUM, FLAGS, VIEWPORTS, body, check_sizes, context, watch_errors

from server_helpers import ServerProcess
from sorry.i18n import LANGUAGES, gettext, using

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("analysis") / "e2e.db"
    old = os.environ.get("SORRY_ANALYSIS_ROLLOUTS")
    os.environ["SORRY_ANALYSIS_ROLLOUTS"] = "4"  # the server's analyses: few rollouts
    try:
        s = ServerProcess(f"sqlite:///{db}", "--bot-delay", "0", "--allow-bot-games")
    finally:
        if old is None:
            del os.environ["SORRY_ANALYSIS_ROLLOUTS"]
        else:
            os.environ["SORRY_ANALYSIS_ROLLOUTS"] = old
    try:
        yield s
    finally:
        s.stop()


def _status(url: str) -> tuple[int, Any]:
    """The status and JSON of a GET, waiting out the per-address limit (one a second)."""
    for _attempt in range(30):
        try:
            with urllib.request.urlopen(url, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            if exc.code != 429:
                raise
            time.sleep(1.0)
    raise AssertionError(f"{url} is refused")


@pytest.fixture(scope="module")
def finished(server: ServerProcess) -> dict[str, Any]:
    """A game of two easy bots, over and analysed."""
    seats = [{"colour": "R", "kind": "bot", "level": "easy"}]
    seats.append({"colour": "Y", "kind": "bot", "level": "easy"})
    g = server.api("/api/games", {"name": "analysed", "seats": seats})
    deadline = time.monotonic() + 300
    while server.api(f"/api/games/{g['id']}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    while True:
        status, data = _status(f"{server.base}/api/games/{g['id']}/analysis")
        if status == 200:
            return {"id": g["id"], "data": data}
        assert status == 202 and time.monotonic() < deadline, "the analysis took too long"
        time.sleep(1.0)


def _panel_shot(page: Any, name: str) -> None:
    folder = os.environ.get("SORRY_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}-page.png"), full_page=True)
        page.locator("#analysis-panel").screenshot(path=str(Path(folder) / f"{name}-panel.png"))


GRAPH = "#analysis-graph svg"


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_the_graph_the_table_and_the_replay(
    server: ServerProcess, browser: Any, finished: dict[str, Any], viewport: str
) -> None:
    data = finished["data"]
    turns = data["result"]["turns"]
    ctx = context(browser, viewport)
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/g/{finished['id']}?lang=en")
    page.wait_for_function("() => document.body.dataset.analysis === 'ready'", timeout=60000)
    panel = page.locator("#analysis-panel")
    panel.scroll_into_view_if_needed()
    # the graph: as wide as the panel, tall enough to read, one line per side
    box = page.evaluate(f"document.querySelector('{GRAPH}').getBoundingClientRect().toJSON()")
    inner = page.evaluate("document.getElementById('analysis-graph').clientWidth")
    assert inner > 0 and box["width"] >= 0.98 * inner, (box, inner)
    assert box["height"] >= 150, box
    if viewport == "phone":
        assert box["width"] >= 0.8 * VIEWPORTS["phone"][0], box
    lines = page.locator(f"{GRAPH} polyline")
    assert lines.count() == len(data["sides"])
    assert len(lines.first.get_attribute("points").split()) == len(data["points"])
    assert page.locator(f"{GRAPH} .ag-luck").count() == 2 * len(data["colours"])
    # the table: one row per player, with the account's figures
    rows = page.locator("#analysis-table tbody tr")
    assert rows.count() == len(data["players"])
    assert rows.first.locator("th").inner_text() == data["players"][0]["label"]
    check_sizes(page, viewport)
    _panel_shot(page, f"analysis-{viewport}")
    # pointing at a turn shows its card and move; clicking it opens the replay there
    svg = page.locator(GRAPH)
    svg.scroll_into_view_if_needed()
    gb = svg.bounding_box()
    plot_left, plot_right = gb["x"] + 36 * gb["width"] / box["width"], gb["x"] + gb["width"] - 8
    x = plot_left + (plot_right - plot_left) * (turns // 2 + 0.5) / turns
    y = gb["y"] + gb["height"] / 2
    page.mouse.move(x, y)
    page.wait_for_function("() => !!document.getElementById('analysis-turn').dataset.turn")
    turn = int(page.evaluate("document.getElementById('analysis-turn').dataset.turn"))
    assert abs(turn - (turns // 2 + 1)) <= 1
    shown = page.locator("#analysis-turn").inner_text()
    expected = next(t for t in data["turns"] if t["turn"] == turn - 1)["text"]
    assert f"Turn {turn}: {expected}" in shown and "%" in shown
    page.mouse.click(x, y)
    page.wait_for_function(f"() => document.body.dataset.replayAt === '{turn}'")
    assert page.locator("#replay-panel").is_visible()
    assert page.locator(f"{GRAPH} .ag-replay").get_attribute("visibility") == "visible"
    # a swing opens the replay at its turn
    first = data["swings"][0]
    page.locator(".ag-swing").first.click()
    page.wait_for_function(f"() => document.body.dataset.replayAt === '{first['turn'] + 1}'")
    assert body(page, "analysis") == "ready"
    # the keyboard moves along the graph too
    svg.focus()
    page.keyboard.press("End")
    assert page.locator(GRAPH).get_attribute("aria-valuenow") == str(turns)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.body.dataset.replayAt === '{turns - 1}'")
    check_sizes(page, viewport)
    _panel_shot(page, f"analysis-replay-{viewport}")
    assert not errors
    ctx.close()


def test_the_words_in_every_language(
    server: ServerProcess, browser: Any, finished: dict[str, Any]
) -> None:
    ctx = context(browser, "phone")
    page = ctx.new_page()
    errors = watch_errors(page)
    for lang in LANGUAGES:
        page.goto(f"{server.base}/g/{finished['id']}?lang={lang}")
        page.wait_for_function("() => document.body.dataset.analysis === 'ready'", timeout=60000)
        with using(lang):
            title, head, table = (
                gettext("After the game"),
                gettext("The moves that mattered"),
                gettext("luck"),
            )
        assert page.locator("#analysis-title").inner_text() == title
        assert page.locator("#analysis-panel h3").nth(1).inner_text() == head
        assert page.locator("#analysis-table thead th").nth(1).inner_text() == table
        if lang != "en":
            assert title != "After the game" and head != "The moves that mattered"
        swing = page.locator(".ag-swing").first.inner_text()
        assert (
            swing
            == _status(f"{server.base}/api/games/{finished['id']}/analysis?lang={lang}")[1][
                "swings"
            ][0]["text"]
        )
        _panel_shot(page, f"analysis-{lang}")
    assert not errors
    ctx.close()
