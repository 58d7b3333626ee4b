"""A forced move (the turn's only legal move, not a pass) in Chromium (Debian's, through
Playwright): by default it is the player's to play (they may want to see it); with "Play my
only move for me" ticked in the settings (remembered), the line by the board says it and the
page plays it after a moment, with no tap."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import check_sizes, context, preset_game, shot, start_server, watch_errors

from server_helpers import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Red's only move with the 5 is the pawn on 20 to 25 (the others wait in START).
POSITION = "R:S,S,S,20 Y:S,S,S,S R"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = start_server(tmp_path_factory.mktemp("only-move"), "--auto-pass")
    try:
        yield s
    finally:
        s.stop()


def red_at(page: Any) -> list[str]:
    """Where Red's pawns stand on the page's board."""
    locs: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('#board .pawn-R')].map(p => p.dataset.loc).sort()"
    )
    return locs


def join(page: Any, link: str) -> None:
    page.goto(link)
    page.wait_for_selector("#join-btn")
    page.fill("#name-input", "Ann")
    page.click("#join-btn")
    page.wait_for_function("() => document.body.dataset.role === 'player'")
    page.wait_for_function("() => document.body.dataset.myTurn === 'yes'", timeout=60000)


def test_a_forced_move_waits_for_the_player_by_default(server: ServerProcess, browser: Any) -> None:
    g = preset_game(server.database, POSITION, base=server.base, card="5")
    page = context(browser, "desktop").new_page()
    errors = watch_errors(page)
    join(page, g["links"]["R"])
    seq = page.evaluate("() => document.body.dataset.seq")
    page.wait_for_timeout(3000)  # twice the time the setting would wait
    assert page.evaluate("() => document.body.dataset.seq") == seq
    assert page.evaluate("() => document.body.dataset.myTurn") == "yes"
    assert "played for you" not in page.inner_text("#prompt")
    assert page.locator(".pawn.movable").count() == 1  # hers to tap
    assert not page.is_checked("#autoplay-on")
    assert errors == []


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_play_my_only_move_for_me(server: ServerProcess, browser: Any, viewport: str) -> None:
    g = preset_game(server.database, POSITION, base=server.base, card="5")
    ctx = context(browser, viewport)
    page = ctx.new_page()
    errors = watch_errors(page)
    join(page, g["links"]["R"])
    before = red_at(page)
    # the setting, in the settings panel: ticked, then the forced move is played by itself
    page.click("#settings summary")
    page.check("#autoplay-on")
    assert page.evaluate("() => localStorage.getItem('sorry:autoplay')") == "on"
    check_sizes(page, viewport)
    page.wait_for_function(
        "() => document.querySelector('#prompt').textContent.includes('played for you')",
        timeout=5000,
    )
    page.locator("#prompt").scroll_into_view_if_needed()
    shot(page, f"only-move-{viewport}")
    assert "25" in page.inner_text("#prompt")  # the move said: 20 → 25
    page.wait_for_function(
        "() => document.body.dataset.sending === 'yes' || document.body.dataset.myTurn === 'no'",
        timeout=10000,
    )
    page.wait_for_function(
        "() => [...document.querySelectorAll('#board .pawn-R')].some(p => p.dataset.loc === '25')",
        timeout=20000,
    )
    assert before == ["20", "RS", "RS", "RS"] or "20" in before
    assert "25" in red_at(page) and "20" not in red_at(page)
    # remembered: a new page of the same browser has it ticked
    again = ctx.new_page()
    again.goto(g["links"]["R"])
    # the box is in the page's HTML before the script ticks it: wait for the tick (fails if not)
    again.wait_for_function("() => document.getElementById('autoplay-on').checked", timeout=10000)
    assert errors == []
