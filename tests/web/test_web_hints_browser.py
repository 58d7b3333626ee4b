"""In the browser, on a 390x844 phone, in two languages: the hint in a player's words (the
best move's chance of winning in tenths, which moves are as good as it), its figures (chances
and 95% intervals) under Details, and each bot level's sentence under the chosen level on the
new-game form and in the waiting room; all of it on screen, inside the viewport, in the page's
language. Set SORRY_SCREENSHOTS=DIR to keep the
screenshots."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import VIEWPORTS, check_sizes, preset_game, shot, watch_errors

from server_helpers import ServerProcess
from sorry.bots import LEVEL_TABLE
from sorry.i18n import translation

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SENTENCE = {info.level: info.strength for info in LEVEL_TABLE}
#: Red's pawn in Safety 1 goes HOME with the 5 (three are there): far better than the 50.
SEPARATED = ("R:H,H,50,s1 Y:H,H,H,40 R", "5")
#: A 1 moves one of Red's two pawns a square: 3,000 worlds a move cannot tell which is better
#: (45.6% and 44.8% of them won, the difference within its own noise).
TIED = ("R:4,51,H,H Y:27,49,H,H R", "1")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    from sorry.bots.rollouts import warmup

    warmup()  # the compiled rollouts in numba's cache: the workers load them at their start
    db = tmp_path_factory.mktemp("hints") / "e2e.db"
    s = ServerProcess(f"sqlite:///{db}", "--bot-delay", "0.02", "--takeover-after", "3600")
    try:
        wait_for_estimates(s)
        yield s
    finally:
        s.stop()


def wait_for_estimates(server: ServerProcess, seconds: float = 300) -> None:
    """Until the workers have loaded the estimator (a hint asked before has no estimates)."""
    import json

    from websockets.sync.client import connect

    deadline = time.monotonic() + seconds
    while True:
        g = preset_game(server.database, SEPARATED[0], base=server.base, card=SEPARATED[1])
        ws_url = server.base.replace("http", "ws") + f"/ws/{g['id']}"
        with connect(ws_url, origin=server.base) as ws:
            ws.send(json.dumps({"type": "hello", "seat": "R", "token": g["tokens"]["R"]}))
            seq = None
            while True:
                m = json.loads(ws.recv(timeout=30))
                if m["type"] == "state" and seq is None:
                    seq = m["seq"]
                    ws.send(json.dumps({"type": "hint", "seq": seq}))
                elif m["type"] == "hint":
                    break
        if m["moves"]:
            return
        assert time.monotonic() < deadline, "the workers did not load the estimator"
        time.sleep(1)


def phone(browser: Any, lang: str) -> Any:
    w, h, _touch = VIEWPORTS["phone"]
    ctx = browser.new_context(
        viewport={"width": w, "height": h},
        has_touch=True,
        is_mobile=True,
        locale=lang,
        extra_http_headers={"Accept-Language": lang},
    )
    return ctx.new_page()


def on_screen(page: Any, selector: str) -> dict[str, float]:
    """``selector`` scrolled into view: visible, and its box inside the 390x844 viewport."""
    loc = page.locator(selector)
    loc.scroll_into_view_if_needed()
    assert loc.is_visible(), selector
    box = loc.bounding_box()
    w, h, _touch = VIEWPORTS["phone"]
    assert box is not None and box["width"] > 0 and box["height"] > 0, (selector, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= w, (selector, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= h + 1, (selector, box)  # subpixels
    return dict(box)


@pytest.mark.parametrize("lang", ["en", "el"])
def test_each_level_says_how_strong_it_is(server: ServerProcess, browser: Any, lang: str) -> None:
    tr = translation(lang)
    page = phone(browser, lang)
    errors = watch_errors(page)
    page.goto(server.base + "/")
    page.wait_for_selector("#seat-Y option", state="attached")
    # Yellow is a medium bot by default: its sentence under it; Blue's appears when chosen
    assert page.inner_text("#level-note-Y") == tr.gettext(SENTENCE["medium"])
    assert page.locator("#level-note-B").is_hidden()
    # every level is offered, weakest first, the learned one too (the server has the fast extra)
    seat_bots = page.eval_on_selector_all("#seat-B option", "os => os.map(o => o.value)")
    assert [v for v in seat_bots if v.startswith("bot:")] == [f"bot:{lv}" for lv in SENTENCE]
    quick = page.eval_on_selector_all("#quick-level option", "os => os.map(o => o.value)")
    assert quick == list(SENTENCE)
    page.select_option("#seat-B", "bot:learned")
    assert page.inner_text("#level-note-B") == tr.gettext(SENTENCE["learned"])
    on_screen(page, "#level-note-B")
    page.select_option("#quick-level", "learned")
    assert page.inner_text("#quick-level-note") == tr.gettext(SENTENCE["learned"])
    on_screen(page, "#quick-level-note")
    page.select_option("#seat-B", "bot:expert")
    assert page.inner_text("#level-note-B") == tr.gettext(SENTENCE["expert"])
    on_screen(page, "#level-note-B")
    page.select_option("#seat-Y", "bot:easy")
    assert page.inner_text("#level-note-Y") == tr.gettext(SENTENCE["easy"])
    on_screen(page, "#level-note-Y")
    check_sizes(page, "phone", board=False)
    shot(page, f"levels-lobby-{lang}")
    # the waiting room: a bot's seat says it; the host's level choice for an invited seat too
    page.fill("#host-name", "Ann")
    page.select_option("#seat-B", "invite")
    page.select_option("#seat-Y", "bot:hard")
    page.click("#create-btn")
    page.wait_for_selector("#room:not([hidden]) .invite-link")
    bot_note = '.room-seat[data-colour="Y"] .level-note'
    assert page.inner_text(bot_note) == tr.gettext(SENTENCE["hard"])
    on_screen(page, bot_note)
    choice_note = '.room-seat[data-colour="B"] .level-note'
    assert page.inner_text(choice_note) == tr.gettext(SENTENCE["medium"])
    page.select_option('.room-seat[data-colour="B"] .bot-level', "random")
    assert page.inner_text(choice_note) == tr.gettext(SENTENCE["random"])
    on_screen(page, choice_note)
    check_sizes(page, "phone")
    shot(page, f"levels-room-{lang}")
    assert not errors


def hint_page(server: ServerProcess, browser: Any, lang: str, position: str, card: str) -> Any:
    g = preset_game(
        server.database, position, base=server.base, card=card, seats={"R": "invite", "Y": "invite"}
    )
    page = phone(browser, lang)
    page.goto(g["links"]["R"])
    page.wait_for_selector("#join-btn")
    page.tap("#join-btn")
    page.wait_for_function("() => document.body.dataset.myTurn === 'yes'")
    page.tap("#hint-btn")
    page.wait_for_selector("#hint-list li", timeout=60000)
    return page


def rows(page: Any) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = page.evaluate(
        """() => [...document.querySelectorAll('#hint-list .hint-moves li')].map((li) => ({
          move: li.dataset.move, cls: li.className,
          tag: li.querySelector('.tag').textContent,
          words: li.querySelector('.words').textContent,
          chance: document.querySelector(
            `#hint-list .hint-figures li[data-move="${li.dataset.move}"] .chance`).textContent,
          listed: document.querySelector(`#moves .move[data-move="${li.dataset.move}"]`)
            .textContent }))"""
    )
    return rows


def chance_phrases(tr: Any) -> set[str]:
    """Every way the page says a chance of winning in a player's words."""
    said = {tr.gettext("less than 1 chance in 10 to win"), tr.gettext("almost sure to win")}
    for n in range(1, 10):
        one, other = "about {n} chance in 10 to win", "about {n} chances in 10 to win"
        said.add(tr.ngettext(one, other, n).format(n=n))
    return said


def said_with_a_chance(text: str, template: str, tr: Any) -> bool:
    head, _, tail = template.partition("{chance}")
    middle = text[len(head) : len(text) - len(tail)]
    return text.startswith(head) and text.endswith(tail) and middle in chance_phrases(tr)


@pytest.mark.parametrize("lang", ["en", "el"])
def test_the_hint_says_the_moves_in_a_players_words_with_the_figures_on_demand(
    server: ServerProcess, browser: Any, lang: str
) -> None:
    tr = translation(lang)
    page = hint_page(server, browser, lang, *SEPARATED)
    errors = watch_errors(page)
    # the best move ringed on the board, said, and first in the list
    assert page.get_attribute("#moves .move.hinted", "data-move") == "Rs1+5"
    best, other = rows(page)
    assert (best["move"], other["move"]) == ("Rs1+5", "R50+5")
    assert "best" in best["cls"].split() and "best" not in other["cls"].split()
    assert (best["tag"], other["tag"]) == (tr.gettext("best"), tr.gettext("not as good"))
    # the line above the list and the list say the same move in the same words
    assert page.inner_text("#hint") == tr.gettext("Hint: {text}").format(text=best["words"])
    say = page.inner_text("#hint-list .hint-say")
    assert said_with_a_chance(say, tr.gettext("Best: {chance}, better than the others."), tr)
    # the figures: under Details, closed until asked for
    assert page.locator("#hint-list .hint-figures").is_hidden()
    page.tap("#hint-list .hint-details summary")
    for r in (best, other):
        win, low, high = (
            int(x)
            for x in r["chance"]
            .replace("%", " ")
            .replace("[", " ")
            .replace("–", " ")
            .replace("]", " ")
            .split()
        )
        assert 0 <= low <= win <= high <= 100, r
        assert r["words"] == r["listed"]  # the move's words, in the page's language
    assert int(best["chance"].split("%")[0]) > int(other["chance"].split("%")[0])
    head = page.inner_text("#hint-list .hint-head")
    assert head == tr.gettext("Chance of winning [interval at 95%]")
    assert page.locator("#hint-list .hint-note").count() == 0
    on_screen(page, "#hint-list .hint-figures")
    check_sizes(page, "phone")
    shot(page, f"hint-list-{lang}")
    # two moves the hint cannot tell apart: said so, in words
    page = hint_page(server, browser, lang, *TIED)
    errors += watch_errors(page)
    listed = rows(page)
    assert len(listed) == 2
    assert (listed[0]["tag"], listed[1]["tag"]) == (tr.gettext("best"), tr.gettext("as good"))
    say = page.inner_text("#hint-list .hint-say")
    two = tr.gettext("Best: {chance}; these two are about as good as each other.")
    assert said_with_a_chance(say, two, tr)
    page.tap("#hint-list .hint-details summary")
    note = page.inner_text("#hint-list .hint-note")
    assert note == tr.gettext(
        "Moves marked as good cannot be told apart from the best: the difference is within "
        "the estimates' noise."
    )
    on_screen(page, "#hint-list")
    check_sizes(page, "phone")
    shot(page, f"hint-tied-{lang}")
    assert not errors
