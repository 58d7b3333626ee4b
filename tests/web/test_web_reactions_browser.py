"""Reactions in the browser (the protocol's newest message type, react): a player taps one,
the other player and a spectator see who reacted for a moment (above the chat); the buttons
are labelled in the page's language (Greek here) and fit a phone's screen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import context, open_chat, shot, start_server, watch_errors

from server_helpers import ServerProcess

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = start_server(tmp_path_factory.mktemp("reactions"))
    try:
        yield s
    finally:
        s.stop()


def join(page: Any, link: str, name: str) -> None:
    page.goto(link)
    page.wait_for_selector("#join-btn")
    page.fill("#name-input", name)
    page.click("#join-btn")
    page.wait_for_function("() => document.body.dataset.role === 'player'")


def notice(page: Any, text: str, timeout: int = 10000) -> None:
    page.wait_for_function(
        "t => document.querySelector('#reaction').textContent === t", arg=text, timeout=timeout
    )


def test_a_reaction_is_seen_by_everyone(server: ServerProcess, browser: Any) -> None:
    g = server.api(
        "/api/games",
        {"seats": [{"colour": "R", "kind": "invite"}, {"colour": "Y", "kind": "invite"}]},
    )
    links = {s["colour"]: s["link"] for s in g["seats"]}
    red = context(browser).new_page()
    errors = watch_errors(red)
    join(red, links["R"], "Ann")
    yellow = context(browser, locale="el-GR").new_page()
    errors += watch_errors(yellow)
    join(yellow, links["Y"], "Bo")
    watcher = context(browser).new_page()
    watcher.goto(server.base + f"/g/{g['id']}")
    watcher.wait_for_function("() => document.body.dataset.role === 'spectator'")
    for page in (red, yellow, watcher):
        open_chat(page)  # on a phone, the chat (and its reactions) is a drawer
    button = red.locator('.reaction[data-emoji="🎉"]')
    assert button.get_attribute("aria-label") == "React with 🎉"
    assert yellow.get_attribute('.reaction[data-emoji="🎉"]', "aria-label") == "Αντίδραση με 🎉"
    box = button.bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44
    assert box["x"] + box["width"] <= 390
    button.click()
    for page in (red, yellow, watcher):
        notice(page, "Ann 🎉")
    shot(yellow, "reaction-phone")
    watcher.click('.reaction[data-emoji="👍"]')
    notice(red, "A spectator 👍")
    notice(yellow, "Ένας θεατής 👍")
    notice(red, "", timeout=6000)  # a moment, then it goes
    assert not errors
