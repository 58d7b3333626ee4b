"""The sound effects in Chromium (Debian's, through Playwright), against ``sorry serve`` in a
subprocess, with the page's Web Audio watched (an init script counts the audio contexts made
and the sources started, and hears the page's ``sorry:sound`` events): by default nothing is
made or played through a bump, a slide and a bot's card; once the player ticks the setting
(remembered after a reload), the same moves play a slide, a bump and the card turned over,
and a pawn reaching HOME plays HOME; a hidden tab plays nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import Tapper, context, preset_game, start_server, watch_errors

from server_helpers import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT = 60000

#: Red's 12 lands on Yellow's slide (16), bumps the Yellow pawn on it and slides on to 19.
SLIDE_AND_BUMP = ("R:4,S,S,S Y:17,S,S,S R", "12", "R4+12")
#: Red's 2 takes its pawn from Safety Zone square 4 HOME.
HOME = ("R:s4,S,S,S Y:30,S,S,S R", "2", "Rs4+2")

LISTEN = """
window.heard = { contexts: 0, started: [], sounds: [] };
for (const name of ['AudioContext', 'webkitAudioContext']) {
  const Real = window[name];
  if (!Real) continue;
  window[name] = class extends Real {
    constructor(...args) { super(...args); window.heard.contexts += 1; }
  };
}
for (const Node of [window.OscillatorNode, window.AudioBufferSourceNode]) {
  if (!Node) continue;
  const start = Node.prototype.start;
  Node.prototype.start = function (...args) {
    window.heard.started.push(this.constructor.name);
    return start.apply(this, args);
  };
}
document.addEventListener('sorry:sound', (e) => window.heard.sounds.push(e.detail.name));
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = start_server(tmp_path_factory.mktemp("sound"))
    try:
        yield s
    finally:
        s.stop()


def heard(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("window.heard")
    return result


def join(browser: Any, server: ServerProcess, preset: tuple[str, str, str]) -> tuple[Any, Any]:
    g = preset_game(server.database, preset[0], base=server.base, card=preset[1])
    ctx = context(browser, "phone")
    ctx.add_init_script(LISTEN)
    page = ctx.new_page()
    page.goto(g["links"]["R"])
    page.wait_for_selector("#join-btn", timeout=WAIT)
    page.tap("#join-btn")
    page.wait_for_function("() => document.body.dataset.myTurn === 'yes'", timeout=WAIT)
    return ctx, page


def effects_on(page: Any) -> None:
    """The player ticks the setting (a tap: the browser lets the page sound after it)."""
    page.locator("#settings > summary").tap()
    page.locator("#effects-on").tap()
    assert page.locator("#effects-on").is_checked()


def play_and_wait_for_the_bot(page: Any, move: str) -> None:
    Tapper(page).play(move)
    # Yellow's bot has played: Red's turn again (its card turned over)
    page.wait_for_function(
        "() => document.body.dataset.myTurn === 'yes' || document.body.dataset.status === 'over'",
        timeout=WAIT,
    )


def test_nothing_sounds_by_default(browser: Any, server: ServerProcess) -> None:
    _ctx, page = join(browser, server, SLIDE_AND_BUMP)
    errors = watch_errors(page)
    assert not page.locator("#effects-on").is_checked()
    play_and_wait_for_the_bot(page, SLIDE_AND_BUMP[2])
    page.wait_for_timeout(1500)  # the walk's sounds would have been scheduled by now
    assert heard(page) == {"contexts": 0, "started": [], "sounds": []}
    assert errors == []


def test_the_sounds_of_a_slide_a_bump_and_a_card(browser: Any, server: ServerProcess) -> None:
    _ctx, page = join(browser, server, SLIDE_AND_BUMP)
    errors = watch_errors(page)
    effects_on(page)
    # remembered: after a reload the setting is still on, and still nothing has played
    page.reload()
    page.wait_for_function("() => document.body.dataset.myTurn === 'yes'", timeout=WAIT)
    assert page.locator("#effects-on").is_checked()
    assert heard(page)["sounds"] == []
    page.locator("#board").tap(position={"x": 5, "y": 5})  # a first tap wakes the sound
    play_and_wait_for_the_bot(page, SLIDE_AND_BUMP[2])
    page.wait_for_function("() => window.heard.sounds.includes('card')", timeout=WAIT)
    got = heard(page)
    assert got["contexts"] == 1, got
    # the slide begins before the bump it causes is heard (the pawn on the slide goes home
    # as the slider reaches it)
    assert got["sounds"][:2] == ["slide", "bump"], got
    assert "card" in got["sounds"][2:], got
    # every sound is made of sources actually started: noise for the card and the slide,
    # tones for the bump
    assert "AudioBufferSourceNode" in got["started"] and "OscillatorNode" in got["started"]
    assert "home" not in got["sounds"]
    assert errors == []


def test_home_sounds_and_a_hidden_tab_is_silent(browser: Any, server: ServerProcess) -> None:
    _ctx, page = join(browser, server, HOME)
    effects_on(page)
    Tapper(page).play(HOME[2])
    page.wait_for_function("() => window.heard.sounds.includes('home')", timeout=WAIT)
    # hidden (another tab in front): the bots' moves go on, silently
    page.wait_for_function("() => document.body.dataset.myTurn === 'yes'", timeout=WAIT)
    page.evaluate("Object.defineProperty(document, 'hidden', { get: () => true })")
    before = len(heard(page)["sounds"])
    moves = Tapper(page).legal()
    Tapper(page).play(moves[0])
    page.wait_for_function(
        "() => document.body.dataset.myTurn === 'yes' || document.body.dataset.status === 'over'",
        timeout=WAIT,
    )
    page.wait_for_timeout(1500)
    assert len(heard(page)["sounds"]) == before, heard(page)
