"""The tutorial (/learn) in Chromium (Debian's, through Playwright), against ``sorry serve`` in
a subprocess: reached from the lobby, played to the end by tapping on a 390x844 phone in
English and in Greek (dark theme) and by clicking on a 1280x800 desktop; every step's words,
the one move it offers, Yellow's turns shown in between; text 10 CSS px at least, tap targets
44 px, no sideways scrolling; axe-core with no serious or critical violation. Set
SORRY_SCREENSHOTS=DIR to keep a screenshot of each screen."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import (
    PAWNS_STILL,
    axe_violations,
    body,
    check_sizes,
    context,
    shot,
    start_server,
    watch_errors,
)

from server_helpers import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: generous: the machine running the tests may be loaded
WAIT = 60000

#: Every piece of text on screen smaller than 10 CSS px (the board's, scaled to the screen).
SMALL_TEXT = """() => {
  const out = [];
  const svg = document.querySelector('#board svg');
  const scale = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 1;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const e = n.parentElement;
    if (!e || !n.textContent.trim() || e.closest('[hidden], .sr-only, script, option')) continue;
    const r = e.getBoundingClientRect();
    const s = getComputedStyle(e);
    if (!r.width || !r.height || s.visibility === 'hidden' || s.display === 'none') continue;
    const px = parseFloat(s.fontSize) * (e instanceof SVGElement ? scale : 1);
    if (px < 9.95) out.push(`${e.tagName}.${e.getAttribute('class')} `
      + `"${n.textContent.trim().slice(0, 30)}" ${px.toFixed(1)} px`);
  }
  return out;
}"""

#: The words of the tutorial's first step and of its end, in the languages played.
WORDS = {
    "en": ("Leave START", "You know the game!", "Learn to play"),
    "el": ("Βγείτε από την ΑΦΕΤΗΡΙΑ", "Ξέρετε το παιχνίδι!", "Μάθετε να παίζετε"),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = start_server(tmp_path_factory.mktemp("learn"))
    try:
        yield s
    finally:
        s.stop()


def phase(page: Any, name: str, step: int | None = None) -> None:
    cond = f"document.body.dataset.phase === '{name}'"
    if step is not None:
        cond += f" && document.body.dataset.step === '{step}'"
    page.wait_for_function(f"() => {cond}", timeout=WAIT)


def press(page: Any, locator: Any, touch: bool) -> None:
    if touch:
        locator.tap(timeout=WAIT)
    else:
        locator.click(timeout=WAIT)


def check_screen(page: Any, viewport: str, name: str, axe: bool) -> None:
    page.evaluate(PAWNS_STILL)
    check_sizes(page, viewport)
    small = page.evaluate(SMALL_TEXT)
    assert small == [], f"{name}: text under 10 CSS px: {small}"
    if axe:
        assert axe_violations(page) == [], name
    shot(page, name)


def play_to_the_end(page: Any, viewport: str, touch: bool, tag: str) -> list[str]:
    """Play every step by tapping what the board offers; the titles of the steps."""
    titles: list[str] = []
    taps = 0
    began = time.monotonic()
    for n in range(10):
        phase(page, "move", n)
        titles.append(page.inner_text("#lesson-title"))
        text = page.inner_text("#lesson-text")
        assert text and page.inner_text("#prompt"), (n, text)
        # the input's own words: a finger taps, a mouse clicks (the board's labels too)
        words = page.inner_text("#lesson") + " ".join(
            page.eval_on_selector_all("#board [aria-label]", "els => els.map(e => e.ariaLabel)")
        )
        other = {"en": "click" if touch else "tap", "el": "κλικ" if touch else "πατήστε"}
        assert not re.search(rf"\b{other[tag[:2]]}", words, re.I), (n, words)
        # the card drawn, in its sentence of the rules (points: once the card is chosen)
        assert bool(page.inner_text("#card-rule")) == (n < 8), n
        how = page.inner_text("#lesson-how")
        assert bool(how) == (n in (0, 4, 5, 8)), (n, how)
        if how and tag.startswith("en"):
            assert how.startswith("Tap " if touch else "Click "), how
        # one move is offered: every target leads to it
        if n in (0, 5, 8):
            check_screen(page, viewport, f"learn-{tag}-step{n}", axe=n != 5)
        card = page.locator("#hand button:not([disabled])")
        if card.count():  # the points variant: the card first, the only one that can be played
            assert card.count() == 1 and page.locator("#hand button").count() == 5
            press(page, card.first, touch)
            taps += 1
        moves = set(
            page.eval_on_selector_all(
                ".pawn[data-moves], .dest[data-moves]", "els => els.map(e => e.dataset.moves)"
            )
        )
        assert len(moves) == 1 and " " not in next(iter(moves)), (n, moves)
        for _tap in range(4):
            if body(page, "phase") != "move":
                break
            picks = body(page, "picks") or ""
            press(
                page,
                page.locator(".pawn[data-moves], .dest:not(.on-pawn)[data-moves]").first,
                touch,
            )
            taps += 1
            page.wait_for_function(
                f"() => document.body.dataset.phase !== 'move' || "
                f"(document.body.dataset.picks || '') !== '{picks}'",
                timeout=WAIT,
            )
        phase(page, "done", n)
        # the words after the move, what the move did in the line, and Next
        assert page.inner_text("#lesson-text") != text
        line = page.inner_text("#happened")
        assert line
        if tag.startswith("en"):  # the learner's own move, said as theirs
            assert line.startswith("You drew" if n < 8 else "You: "), line
        if n in (3, 9):
            check_screen(page, viewport, f"learn-{tag}-done{n}", axe=False)
        press(page, page.locator("#next-btn"), touch)
        if n in (0, 4):  # Yellow's turn is shown, with its line, before the next step
            page.wait_for_function(
                "() => document.body.dataset.phase === 'replies'"
                " && document.getElementById('happened').textContent !== ''",
                timeout=WAIT,
            )
    phase(page, "end")
    print(f"{tag}: {taps} taps and 10 Next, {time.monotonic() - began:.1f} s (checks included)")
    return titles


@pytest.mark.parametrize(("lang", "scheme"), [("en", "light"), ("el", "dark")])
def test_the_tutorial_played_to_the_end_by_tapping_on_a_phone(
    server: ServerProcess, browser: Any, lang: str, scheme: str
) -> None:
    page = context(
        browser,
        "phone",
        locale=lang,
        extra_http_headers={"Accept-Language": lang},
        color_scheme=scheme,
    ).new_page()
    errors = watch_errors(page)
    first, end, link = WORDS[lang]
    # from the lobby: the link is under Play the computer, on the first screen
    page.goto(server.base + "/")
    page.wait_for_selector("#quick-level option", state="attached")
    learn = page.locator("#learn-link")
    assert learn.inner_text() == link
    box = learn.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844, box
    check_sizes(page, "phone", board=False)
    assert page.evaluate(SMALL_TEXT) == []
    shot(page, f"learn-{lang}-lobby")
    learn.tap()
    page.wait_for_url("**/learn*")
    titles = play_to_the_end(page, "phone", True, f"{lang}-{scheme}-phone")
    assert titles[0] == first and len(set(titles)) == 10
    assert page.inner_text("#learn-end h2") == end
    # the points part's end: Red won with 85 points, Yellow has 5
    points = page.inner_text("#lesson-points")
    assert "85" in points and "5" in points.replace("85", ""), points
    assert page.locator("#hand").is_hidden()  # the game is over: no hand to play
    check_screen(page, "phone", f"learn-{lang}-{scheme}-phone-end", axe=True)
    assert page.url.endswith("#10")
    # start again: the first step, its pawns back in START
    press(page, page.locator("#again-btn"), True)
    phase(page, "move", 0)
    assert page.inner_text("#lesson-title") == first
    assert errors == []


def test_the_tutorial_on_a_desktop_by_mouse_and_from_its_address(
    server: ServerProcess, browser: Any
) -> None:
    page = context(browser, "desktop").new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/learn")
    titles = play_to_the_end(page, "desktop", False, "en-light-desktop")
    assert titles[:3] == ["Leave START", "Slide", "Bump"]
    check_screen(page, "desktop", "learn-en-desktop-end", axe=True)
    # the rules of the game, one click away at the end
    page.click("#end-rules")
    page.wait_for_url("**/rules")
    assert page.inner_text("h1") == "Rules of the game"
    # a step's address opens that step (its pawns where the steps before left them)
    page.goto(server.base + "/learn#6")
    page.reload()
    phase(page, "move", 5)
    assert page.inner_text("#lesson-title") == "Sorry!"
    pawns = page.eval_on_selector_all(".pawn-R", "els => els.map(e => e.dataset.loc).sort()")
    assert pawns == ["25", "S", "S", "S"], pawns
    assert errors == []


@pytest.mark.parametrize("viewport", ["phone-landscape", "tablet"])
def test_the_tutorial_fits_a_landscape_phone_and_a_tablet(
    server: ServerProcess, browser: Any, viewport: str
) -> None:
    page = context(browser, viewport).new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/learn#9")
    phase(page, "move", 8)
    check_screen(page, viewport, f"learn-en-{viewport}-step8", axe=False)
    assert errors == []


def test_the_tutorial_by_keyboard_alone(server: ServerProcess, browser: Any) -> None:
    """Tab to the board, Enter on the ringed pawn, an arrow to its square, Enter: the move is
    played and the focus is on Next; Enter there, and once Yellow's turn has been shown the
    focus is on the board again."""
    page = context(browser, "desktop").new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/learn")
    phase(page, "move", 0)
    for _tab in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('#board .pawn.movable')"):
            break
    for n in range(3):
        phase(page, "move", n)
        assert page.evaluate("!!document.activeElement.closest('#board .pawn.movable')"), n
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.body.dataset.picks")
        # the pawn chosen, the focus is on where it can go (a square, or the pawn it bumps)
        page.keyboard.press("ArrowRight")
        target = "!!document.activeElement.closest('#board .dest, #board .pawn.takeable')"
        assert page.evaluate(target), n
        page.keyboard.press("Enter")
        phase(page, "done", n)
        assert page.evaluate("document.activeElement.id") == "next-btn"
        page.keyboard.press("Enter")
    phase(page, "move", 3)
    assert errors == []
