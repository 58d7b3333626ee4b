"""A newcomer's first game in Chromium (Debian's, through Playwright), against ``sorry
serve`` in a subprocess: playing the computer in one tap from the lobby, and an invited seat
nobody opened given to a bot by the host at once. Set SORRY_SCREENSHOTS=DIR to keep a
screenshot of each screen."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import body, check_sizes, context, shot, start_server, watch_errors

from server_helpers import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = start_server(tmp_path_factory.mktemp("first"))
    try:
        yield s
    finally:
        s.stop()


@pytest.mark.parametrize("viewport", ["phone", "phone-landscape", "desktop"])
def test_play_the_computer_in_one_tap(server: ServerProcess, browser: Any, viewport: str) -> None:
    """The lobby's first panel plays the computer: its button on screen without scrolling, one
    tap, and the first card is on the board; the name, the number of opponents and their
    level are remembered for the next time."""
    page = context(browser, viewport).new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    page.wait_for_selector("#quick-level option", state="attached")
    check_sizes(page, viewport, board=False)
    shot(page, f"lobby-{viewport}")
    button = page.locator("#quick-btn").bounding_box()
    height = page.viewport_size["height"]
    assert button is not None and button["y"] + button["height"] <= height, button
    assert page.input_value("#quick-level") == "medium"
    assert "casual" in page.inner_text("#quick-level-note")  # the level in one sentence
    page.fill("#host-name", "Ann")
    page.select_option("#quick-count", "2")
    page.select_option("#quick-level", "easy")
    began = time.monotonic()
    if viewport == "desktop":
        page.click("#quick-btn")
    else:
        page.tap("#quick-btn")
    # the game is on: a card turned over in the middle of the board
    page.wait_for_selector("#board .centre-card .card-number", timeout=30000)
    first_card = time.monotonic() - began
    seats = page.eval_on_selector_all(
        "#seats .seat", "els => els.map(e => e.dataset.colour + ' ' + e.textContent)"
    )
    assert len(seats) == 3 and seats[0].startswith("R Ann"), seats
    assert all("bot: easy" in s for s in seats[1:]), seats
    assert body(page, "started") == "yes"
    shot(page, f"first-turn-{viewport}")
    # the choices are kept
    page.goto(server.base + "/")
    page.wait_for_selector("#quick-level option", state="attached")
    assert page.input_value("#host-name") == "Ann"
    assert page.input_value("#quick-count") == "2" and page.input_value("#quick-level") == "easy"
    assert errors == []
    print(f"{viewport}: first card {first_card:.2f} s after the tap")


def test_an_invited_seat_nobody_opened_goes_to_a_bot(server: ServerProcess, browser: Any) -> None:
    """The host starts without the friend invited to play Blue: the page says who the game
    waits for, and one tap gives the seat to a bot, which plays Blue's turns at once."""
    page = context(browser, "phone").new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    page.wait_for_selector("#seat-Y option", state="attached")
    page.fill("#host-name", "Ann")
    page.select_option("#seat-B", "invite")
    page.select_option("#seat-Y", "none")
    page.click("#create-btn")
    page.wait_for_selector("#start-btn:not([hidden])")
    page.click("#start-btn")
    page.wait_for_selector("#absent:not([hidden]) .make-bot-now")
    assert "Blue" in page.inner_text("#absent-note")
    check_sizes(page, "phone")
    shot(page, "absent-phone")
    page.tap('.make-bot-now[data-colour="B"]')
    page.wait_for_selector("#absent", state="hidden")
    # Red plays; Blue's turns are the bot's
    for _ in range(40):
        page.wait_for_function(
            "() => document.body.dataset.myTurn === 'yes'"
            " || [...document.querySelectorAll('#log li.c-B')].length > 0",
            timeout=30000,
        )
        if page.locator("#log li.c-B").count():
            break
        move = page.get_attribute("#moves .move", "data-move")
        seq = body(page, "seq")
        page.evaluate('m => document.querySelector(`#moves .move[data-move="${m}"]`).click()', move)
        page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'", timeout=30000)
    assert "(bot)" in page.inner_text("#log li.c-B")
    assert errors == []
