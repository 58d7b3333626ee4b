"""Undo against a bot and resigning in Chromium (Debian's, through Playwright), against
``sorry serve`` in a subprocess, at 390x844 by touch and 1280x800 by mouse, light and dark:
Undo shows once the person has moved, takes back their move and the bot's (the same card and
pawns as before); Resign asks first (a dismissed question changes nothing), then ends the game
with the result saying who resigned. Both buttons beside Hint, on screen with the board on a
phone; tap targets of 44 px; axe clean. Set SORRY_SCREENSHOTS=DIR to keep the screenshots."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from browser_kit import (
    Tapper,
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

#: Where each pawn stands, and the card on the board.
TABLE = """() => [[...document.querySelectorAll('#board .pawn')]
  .map(p => (p.dataset.colour || p.getAttribute('class')) + ':' + p.dataset.loc).sort().join(' '),
  (document.querySelector('#board .centre-card .card-number') || {}).textContent || '']"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = start_server(tmp_path_factory.mktemp("undo"), "--auto-pass")
    try:
        yield s
    finally:
        s.stop()


def bot_game(server: ServerProcess) -> str:
    """A casual game, Red (a person) against an easy bot; the link to Red's seat."""
    body_ = {
        "variant": "standard",
        "seats": [
            {"colour": "R", "kind": "invite"},
            {"colour": "Y", "kind": "bot", "level": "easy"},
        ],
    }
    r = httpx2.post(server.base + "/api/games", json=body_, timeout=30)
    assert r.status_code == 201, r.text
    link: str = next(s["link"] for s in r.json()["seats"] if s["colour"] == "R")
    return link


@pytest.mark.parametrize(
    ("viewport", "scheme"), [("phone", "light"), ("phone", "dark"), ("desktop", "light")]
)
def test_undo_then_resign(server: ServerProcess, browser: Any, viewport: str, scheme: str) -> None:
    touch = viewport != "desktop"
    page = context(browser, viewport, color_scheme=scheme).new_page()
    errors = watch_errors(page)
    page.goto(bot_game(server))
    page.wait_for_selector("#join-btn")
    page.fill("#name-input", "Ann")
    page.click("#join-btn")
    page.wait_for_function("() => document.body.dataset.role === 'player'")
    player = Tapper(page, touch=touch)
    page.wait_for_function("() => document.body.dataset.myTurn === 'yes'", timeout=60000)
    assert page.is_hidden("#undo-btn")  # nothing of hers to take back yet
    assert page.is_visible("#resign-btn")
    # a turn or two, until one where she had a choice; then the state before her next move
    for _ in range(30):
        page.wait_for_function(
            "() => document.body.dataset.myTurn === 'yes'"
            " && document.querySelector('#moves .move')",
            timeout=60000,
        )
        if len(player.legal()) > 1 and page.is_visible("#undo-btn"):
            break
        player.turn()
    page.wait_for_function("() => document.body.dataset.following !== 'yes'", timeout=60000)
    before, seq = page.evaluate(TABLE), body(page, "seq")
    player.turn()
    page.wait_for_function(
        "() => document.body.dataset.myTurn === 'yes' && document.body.dataset.following !== 'yes'",
        timeout=60000,
    )
    after = page.evaluate(TABLE)
    assert after != before
    check_sizes(page, viewport)
    # Undo and Resign beside Hint, both on screen with the board (a phone: no scrolling away)
    for button in ("#undo-btn", "#resign-btn", "#hint-btn"):
        box = page.locator(button).bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, (button, box)
    board = page.locator("#board svg").bounding_box()
    resign = page.locator("#resign-btn").bounding_box()
    assert board is not None and resign is not None
    assert resign["y"] + resign["height"] - board["y"] <= page.viewport_size["height"], (
        board,
        resign,
    )
    shot(page, f"undo-before-{viewport}-{scheme}")
    assert axe_violations(page) == []
    if touch:
        page.tap("#undo-btn")
    else:
        page.click("#undo-btn")
    page.wait_for_function(f"() => document.body.dataset.seq === '{seq}'", timeout=60000)
    page.wait_for_function("() => document.body.dataset.myTurn === 'yes'", timeout=60000)
    assert page.evaluate(TABLE) == before  # the same pawns, the same card
    shot(page, f"undo-after-{viewport}-{scheme}")
    # Resign: a dismissed question changes nothing; accepted, the game is over
    page.once("dialog", lambda d: d.dismiss())
    page.click("#resign-btn") if not touch else page.tap("#resign-btn")
    page.wait_for_timeout(300)
    assert body(page, "status") == "playing"
    asked: list[str] = []

    def accept(d: Any) -> None:
        asked.append(d.message)
        d.accept()

    page.once("dialog", accept)
    page.click("#resign-btn") if not touch else page.tap("#resign-btn")
    page.wait_for_function("() => document.body.dataset.status === 'over'", timeout=60000)
    assert asked == ["Resign? The game ends and the other side wins."]
    page.wait_for_selector("#over-panel:not([hidden])")
    assert page.inner_text("#result") == "Yellow won!"
    assert page.inner_text("#resigned-note") == "Red resigned."
    assert "Red resigns" in page.inner_text("#log")
    check_sizes(page, viewport)
    shot(page, f"resigned-{viewport}-{scheme}")
    assert axe_violations(page) == []
    assert errors == []


def resigned_game(server: ServerProcess, name: str, bots: str = "Y") -> None:
    """A public game, Red (a person) against easy bots (``bots``' colours), which Red resigns
    on her first turn (through the WebSocket, with her seat's token)."""
    from websockets.sync.client import connect

    bot_seats = [{"colour": c, "kind": "bot", "level": "easy"} for c in bots]
    body_ = {"name": name, "public": True, "seats": [{"colour": "R", "kind": "invite"}, *bot_seats]}
    r = httpx2.post(server.base + "/api/games", json=body_, timeout=30)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    token = next(s["token"] for s in r.json()["seats"] if s["colour"] == "R")
    with connect(f"ws://127.0.0.1:{server.port}/ws/{gid}", open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "seat": "R", "token": token}))
        ws.send(json.dumps({"type": "resign"}))
        while True:
            m = json.loads(ws.recv(timeout=60))
            assert m["type"] not in ("rejected", "error"), m
            if m["type"] == "resigned":
                break
    if len(bots) == 1:  # a game of two ends; in a game of three the bots play on
        assert httpx2.get(f"{server.base}/api/games/{gid}", timeout=30).json()["status"] == "over"


@pytest.mark.parametrize(("viewport", "lang"), [("phone", "en"), ("desktop", "el")])
def test_the_lobby_says_who_resigned(
    server: ServerProcess, browser: Any, viewport: str, lang: str
) -> None:
    """The lobby's recently finished games say who resigned, after the winner, as the game
    page says it ("Yellow won! Red resigned."), in the visitor's language; a game played to
    its end says no such thing."""
    from sorry.board import colour_names
    from sorry.i18n import _, using

    name = f"Resigned {viewport}"
    resigned_game(server, name)
    page = context(browser, viewport, locale=lang).new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    card = page.locator("#finished-games .game-card", has_text=name)
    card.wait_for()
    with using(lang):
        won = _("{names} won!").format(names=colour_names([2]))  # Yellow
        said = _("{names} resigned.").format(names=colour_names([0]))  # Red
    state = card.locator(".game-state").inner_text()
    assert state == f"{won} {said}", state
    for other in page.locator("#finished-games .game-card").all():
        if name[:9] not in other.inner_text():
            assert said not in other.inner_text()
    check_sizes(page, viewport, board=False)
    card.scroll_into_view_if_needed()
    shot(page, f"lobby-resigned-{viewport}-{lang}")
    assert axe_violations(page) == []
    assert errors == []


def test_the_lobby_says_who_resigned_a_game_of_three(server: ServerProcess, browser: Any) -> None:
    """Red resigns a game of three: the bots play on, and the lobby says so after the turn
    (or, once they have finished, after the winner)."""
    resigned_game(server, "Three, one out", bots="BY")
    page = context(browser, "phone").new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    card = page.locator(".game-card", has_text="Three, one out")
    card.wait_for()
    state = card.locator(".game-state").inner_text()
    assert re.fullmatch(r"turn \d+ · Red resigned\.|(Blue|Yellow) won! Red resigned\.", state), (
        state
    )
    assert errors == []
