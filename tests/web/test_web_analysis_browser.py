"""The end screen's analysis in a real headless Chromium (Playwright, Debian's chromium), against
``sorry serve`` in a subprocess: the graph as wide as its panel on a phone and a desktop,
pointing at a turn shows its card and move, clicking it (or a swing) opens the replay there,
the luck/skill table, and its words in all five languages; for a spectator and for the seated
player at the end of their own game (axe-core too: no serious violation). Set
SORRY_SCREENSHOTS=DIR to keep screenshots of the panel."""

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
from browser_kit import VIEWPORTS, axe_violations, body, check_sizes, context, watch_errors

from server_helpers import ServerProcess
from sorry.i18n import LANGUAGES, gettext, using

pytestmark = [pytest.mark.browser, pytest.mark.slow]


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


def _play_red(server: ServerProcess, gid: str, token: str) -> None:
    """Red's moves over a WebSocket, the first legal move each time, until the game is over."""
    from websockets.sync.client import connect

    from server_helpers import track

    class Client:
        sorry_state: dict[str, Any]

    client = Client()
    deadline = time.monotonic() + 300
    sent = -1  # the sequence number of the last move sent
    with connect(f"ws://127.0.0.1:{server.port}/ws/{gid}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "seat": "R", "token": token}))
        while time.monotonic() < deadline:
            msg = track(client, json.loads(ws.recv(timeout=30)))
            if msg["type"] == "error":  # e.g. rate_limited: the state again, a moment later
                time.sleep(1.0)
                ws.send(json.dumps({"type": "resync"}))
            if msg["type"] not in ("state", "delta"):
                continue
            state = client.sorry_state
            if state["status"] == "over":
                return
            view = state["view"]
            if view["to_move"] == "R" and view.get("legal_moves") and state["seq"] > sent:
                sent = state["seq"]
                time.sleep(0.15)  # under the connection's 10 messages a second
                move = view["legal_moves"][0]["move"]
                ws.send(json.dumps({"type": "move", "seq": sent, "move": move}))
    raise AssertionError("the game did not finish")


@pytest.fixture(scope="module")
def finished(server: ServerProcess, chromium: Any) -> dict[str, Any]:
    """A game of a person (Red, seated on a phone's page all along; the moves are sent over
    a WebSocket of the same seat, quicker than tapping) and an easy bot, over and analysed."""
    seats = [{"colour": "R", "kind": "invite"}, {"colour": "Y", "kind": "bot", "level": "easy"}]
    g = server.api("/api/games", {"name": "analysed", "seats": seats})
    red = next(s for s in g["seats"] if s["colour"] == "R")
    link = red["link"].replace("http://testserver", server.base)
    page = context(chromium, "phone", reduced_motion="reduce").new_page()
    errors = watch_errors(page)
    asks: list[str] = []  # the page's asks for the analysis
    page.on("request", lambda r: asks.append(r.url) if "/analysis?" in r.url else None)
    page.goto(link)
    page.wait_for_selector("#join-btn")
    page.fill("#name-input", "Ann")
    page.tap("#join-btn")
    page.wait_for_function("() => document.body.dataset.role === 'player'")
    _play_red(server, g["id"], red["token"])
    deadline = time.monotonic() + 300
    while True:
        status, data = _status(f"{server.base}/api/games/{g['id']}/analysis")
        if status == 200:
            return {
                "id": g["id"],
                "data": data,
                "link": link,
                "page": page,
                "errors": errors,
                "asks": asks,
            }
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
    # under the decisions, what their points are measured against (the table's mistakes are
    # measured against the best move)
    note = page.locator("#analysis-swings-note")
    assert note.is_visible()
    policy = data["estimator"].get("reference") or data["estimator"]["policy"]
    assert note.inner_text() == (
        f"Each against the move the {policy} bot would have made; mistakes and blunders"
        " count what a move lost against the best move."
    )
    # a decision that mattered opens the replay at its turn
    first = data["key_decisions"][0]
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


#: The words of the table's names drawn on two lines (cut inside the word).
WORDS_CUT = """() => [...document.querySelectorAll('#analysis-table .ag-who')].flatMap(th => {
  const out = [];
  const walk = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    for (const m of n.data.matchAll(/\\S+/g)) {
      const r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      if (new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1) out.push(m[0]);
    }
  }
  return out; })"""


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_the_analysis_as_a_seated_player(
    server: ServerProcess, browser: Any, finished: dict[str, Any], viewport: str
) -> None:
    """Red at the end of their own game: the phone's page was seated all along and saw the
    game end; on the desktop Red opens the game again with their link. Both show the end
    (the result, the next game of the match), then the analysis under it, as wide as its
    panel, with one row of the table per player; a tap (a click) on a turn opens the replay
    there; sizes, and no serious axe violation."""
    data = finished["data"]
    turns = data["result"]["turns"]
    if viewport == "phone":
        page, errors = finished["page"], finished["errors"]
    else:
        page = context(browser, viewport).new_page()
        errors = watch_errors(page)
        page.goto(finished["link"])
        page.wait_for_selector("#join-btn")
        page.fill("#name-input", "Ann")
        page.click("#join-btn")
    page.wait_for_function("() => document.body.dataset.role === 'player'")
    page.wait_for_selector("#over-panel:not([hidden])")
    assert body(page, "status") == "over"
    result = page.inner_text("#result")
    assert result in ("You won!", "Yellow won!"), result
    assert page.locator("#rematch-btn").is_visible()  # a player's end: the next game
    # the analysis comes under the end of the game, above the players
    order = page.evaluate(
        "[...document.querySelectorAll('#side > .panel:not([hidden])')].map(e => e.id)"
    )
    assert order.index("over-panel") < order.index("analysis-panel") < order.index("seats-panel")
    page.locator("#analysis-panel").scroll_into_view_if_needed()
    page.wait_for_function("() => document.body.dataset.analysis === 'ready'", timeout=60000)
    if viewport == "phone":  # the page's asks are held by the server until it is ready
        asks = finished["asks"]
        assert asks and all("wait=5" in url for url in asks), asks
    box = page.evaluate(f"document.querySelector('{GRAPH}').getBoundingClientRect().toJSON()")
    inner = page.evaluate("document.getElementById('analysis-graph').clientWidth")
    assert inner > 0 and box["width"] >= 0.98 * inner, (box, inner)
    assert box["height"] >= 150, box
    if viewport == "phone":
        assert box["width"] >= 0.8 * VIEWPORTS["phone"][0], box
    assert page.locator(f"{GRAPH} polyline").count() == len(data["sides"])
    # every mark is drawn whole inside the graph (a luckiest draw's ▲ at 100% too)
    outside = page.evaluate(
        f"""() => {{ const r = document.querySelector('{GRAPH}').getBoundingClientRect();
        return [...document.querySelectorAll('{GRAPH} .ag-mark')]
          .map(e => e.getBoundingClientRect())
          .filter(b => b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5
            || b.left < r.left - 0.5 || b.right > r.right + 0.5).length; }}"""
    )
    assert page.locator(f"{GRAPH} .ag-mark").count() > 0 and outside == 0, outside
    # the moves that mattered: their words start at the same place, one line or several
    starts = page.evaluate(
        """() => [...document.querySelectorAll('.ag-swing')].map(b => {
          const r = document.createRange(); r.selectNodeContents(b);
          return Math.round(r.getClientRects()[0].left - b.getBoundingClientRect().left); })"""
    )
    shown = min(3, len(data["key_decisions"])) + min(2, len(data["luckiest_draws"]))
    shown += min(2, len(data["unluckiest_draws"]))
    assert len(starts) == shown and len(set(starts)) == 1, starts
    # each player's totals in words, and the table's intervals
    assert page.locator("#analysis-words li").count() >= 2 * len(data["players"])
    assert "±" in page.inner_text("#analysis-table")
    rows = page.locator("#analysis-table tbody tr")
    assert rows.count() == len(data["players"]) == 2
    labels = [rows.nth(i).locator("th").inner_text() for i in range(rows.count())]
    assert labels == [p["label"] for p in data["players"]]
    check_sizes(page, viewport)
    axe = axe_violations(page)
    assert axe == [], axe
    _panel_shot(page, f"analysis-seated-{viewport}")
    # a tap on the graph (a click on the desktop) opens the replay at that turn
    svg = page.locator(GRAPH)
    svg.scroll_into_view_if_needed()
    gb = svg.bounding_box()
    plot_left, plot_right = gb["x"] + 36 * gb["width"] / box["width"], gb["x"] + gb["width"] - 8
    x = plot_left + (plot_right - plot_left) * (turns // 3 + 0.5) / turns
    y = gb["y"] + gb["height"] / 2
    if VIEWPORTS[viewport][2]:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)
    page.wait_for_function("() => Number(document.body.dataset.replayAt) > 0")
    at = int(body(page, "replayAt") or 0)
    assert abs(at - (turns // 3 + 1)) <= 1, (at, turns)
    assert page.locator("#replay-panel").is_visible()
    assert page.locator("#log li").count() == at  # the game's log follows the replay
    check_sizes(page, viewport)
    _panel_shot(page, f"analysis-seated-replay-{viewport}")
    assert not errors


#: The table's figures replaced by the widest a game can give: luck and moves of three
#: digits with intervals of two, 100% and two-digit counts of errors.
WIDEST = """(() => {
  for (const row of document.querySelectorAll('#analysis-table tbody tr')) {
    const cells = row.querySelectorAll('td');
    for (const k of [0, 1, 2]) {
      cells[k].querySelector('.ag-num').textContent = k ? '+888.8' : '−888.8';
      let se = cells[k].querySelector('.ag-se');
      if (!se) { cells[k].append(document.createElement('br')); se = document.createElement('span');
        se.className = 'ag-se'; cells[k].append(se); }
      se.textContent = '±88.8';
    }
    cells[3].textContent = '100%';
    cells[4].textContent = '88 · 88 · 88';
  }
})()"""


def test_the_words_in_every_language(
    server: ServerProcess, browser: Any, finished: dict[str, Any]
) -> None:
    """The analysis's words in every language (as the server says them), and axe-core finds
    no serious violation on its page, light or dark."""
    ctx = context(browser, "phone")
    page = ctx.new_page()
    errors = watch_errors(page)
    for lang in LANGUAGES:
        page.goto(f"{server.base}/g/{finished['id']}?lang={lang}")
        page.wait_for_function("() => document.body.dataset.analysis === 'ready'", timeout=60000)
        with using(lang):
            title, head, table = (
                gettext("After the game"),
                gettext("Decisions that mattered"),
                gettext("luck"),
            )
        assert page.locator("#analysis-title").inner_text() == title
        assert page.locator("#analysis-panel h3").nth(1).inner_text() == head
        assert page.locator("#analysis-table thead th").nth(1).inner_text() == table
        if lang != "en":
            assert title != "After the game" and head != "Decisions that mattered"
        note = page.locator("#analysis-swings-note").inner_text()
        assert note and "{" not in note and "[" not in note, (lang, note)
        if lang != "en":
            assert not note.startswith("Each against"), (lang, note)
        swing = page.locator(".ag-swing").first.inner_text()
        assert (
            swing
            == _status(f"{server.base}/api/games/{finished['id']}/analysis?lang={lang}")[1][
                "key_decisions"
            ][0]["short"]
        )
        # the table fits the phone, and no name is cut inside a word (Κόκκι|νο)
        page.locator("#analysis-table").scroll_into_view_if_needed()
        fits = (
            "(() => { const w = document.querySelector('.ag-table-wrap');"
            " return w.scrollWidth <= w.clientWidth; })()"
        )
        assert page.evaluate(fits)
        assert page.evaluate(WORDS_CUT) == [], lang
        if lang != "en":  # a bot by its level, in the language of the page
            assert "bot)" not in page.inner_text("#analysis-table"), lang
        _panel_shot(page, f"analysis-{lang}")
        # no serious axe violation in any language, in the light and the dark theme
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            axe = axe_violations(page)
            assert axe == [], (lang, scheme, axe)
        _panel_shot(page, f"analysis-{lang}-dark")
        page.emulate_media(color_scheme="light")
        # and with the widest figures a game can give (the game above is a random one)
        page.evaluate(WIDEST)
        assert page.evaluate(fits), (lang, page.inner_text("#analysis-table"))
    assert not errors
    ctx.close()
