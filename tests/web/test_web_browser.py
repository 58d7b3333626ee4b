"""End-to-end in a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright)
against ``sorry serve`` in a subprocess: the sizes of every screen on a phone (portrait and
landscape), a tablet and a desktop; the waiting room, its invitations and the start; chat,
mute and chat off; a turn timer running out, the away seat, and the next game of the match.
Set SORRY_SCREENSHOTS=DIR to keep a screenshot of each screen."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import (
    BOARD_IN_VIEW,
    CHROMIUM,
    FLAGS,
    VIEWPORTS,
    Tapper,
    body,
    check_sizes,
    context,
    preset_game,
    shot,
    watch_errors,
)

from conftest import ServerProcess

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
    db = tmp_path_factory.mktemp("browser") / "e2e.db"
    s = ServerProcess(
        f"sqlite:///{db}",
        "--bot-delay",
        "0.02",
        "--takeover-after",
        "3600",
        "--timer-scale",
        "0.2",
    )
    try:
        yield s
    finally:
        s.stop()


def create(server: ServerProcess, seats: dict[str, str], **extra: Any) -> dict[str, Any]:
    body_: dict[str, Any] = {"name": extra.pop("name", "e2e"), "seats": [], **extra}
    for colour, kind in seats.items():
        k, _, level = kind.partition(":")
        seat: dict[str, Any] = {"colour": colour, "kind": k}
        if level:
            seat["level"] = level
        body_["seats"].append(seat)
    g: dict[str, Any] = server.api("/api/games", body_)
    g["links"] = {
        s["colour"]: s["link"].replace("http://testserver", server.base)
        for s in g["seats"]
        if "link" in s
    }
    return g


def join(page: Any, link: str, name: str) -> None:
    page.goto(link)
    page.wait_for_selector("#join-btn")
    page.fill("#name-input", name)
    page.click("#join-btn")
    page.wait_for_function("() => document.body.dataset.role === 'player'")


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_every_screen_fits(server: ServerProcess, browser: Any, viewport: str) -> None:
    """The lobby, the waiting room and a game on the player's turn (a pawn chosen): no
    sideways scrolling, tap targets of 44 px, the board as large as it should be."""
    ctx = context(browser, viewport)
    page = ctx.new_page()
    errors = watch_errors(page)
    touch = VIEWPORTS[viewport][2]
    page.goto(server.base + "/")
    page.wait_for_selector("#seat-Y option", state="attached")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    shot(page, f"lobby-{viewport}")
    # the host makes a game: Red is me, Blue invited, Yellow a bot; the waiting room opens
    page.fill("#host-name", "Ann")
    page.fill("#game-name", "Screens")
    page.select_option("#seat-B", "invite")
    page.click("#create-btn")
    page.wait_for_selector("#room:not([hidden]) .invite-link")
    page.click(".show-qr")
    page.wait_for_selector(".qr-box svg.qr")
    check_sizes(page, viewport)
    shot(page, f"room-{viewport}")
    # before the start the deck lies face down in the middle: no card is drawn yet
    assert page.locator(".centre-card.deck").count() == 1
    assert page.locator(".centre-card .card-number").count() == 0
    page.click(".make-bot")  # Blue is played by a bot after all
    page.wait_for_function(
        "() => !document.querySelector('.room-seat[data-colour=B] .invite-link')", timeout=10000
    )
    page.locator("#start-btn").scroll_into_view_if_needed()
    if viewport == "phone":
        assert not page.evaluate(BOARD_IN_VIEW)  # the room's panels are under the board
    page.click("#start-btn")
    page.wait_for_function("() => document.body.dataset.started === 'yes'")
    # the banner and the board come into view; the first card turns over
    page.wait_for_function(BOARD_IN_VIEW, timeout=5000)
    page.wait_for_selector(".centre-card .card-number")
    assert page.locator(".centre-card.deck").count() == 0
    tapper = Tapper(page, touch)
    for _ in range(60):  # until Red can move a pawn on the board
        page.wait_for_function(
            "() => document.body.dataset.myTurn === 'yes'"
            " || document.body.dataset.status === 'over'"
        )
        if page.locator(".pawn.movable").count():
            break
        tapper.turn()
    movable = page.locator(".pawn.movable")
    assert movable.count()
    tapper.tap(movable.first)
    page.wait_for_selector(".dest")
    check_sizes(page, viewport)
    shot(page, f"game-{viewport}")
    assert not errors


def test_waiting_room_invitations_chat_and_start(server: ServerProcess, browser: Any) -> None:
    host = context(browser).new_page()
    errors = watch_errors(host)
    host.goto(server.base + "/")
    host.wait_for_selector("#seat-Y option", state="attached")
    host.fill("#host-name", "Ann")
    host.select_option("#seat-B", "invite")
    host.select_option("#seat-Y", "bot:random")
    host.select_option("#seat-G", "invite")
    host.check("#public")
    host.click("#create-btn")
    host.wait_for_selector("#room:not([hidden])")
    assert "#" not in host.url  # the tokens stay off the address bar
    links = {c: host.get_attribute(f'.invite-link[data-colour="{c}"]', "value") or "" for c in "BG"}
    assert all("#seat=" in link and "&token=" in link for link in links.values())
    host.click('.show-qr[data-colour="B"]')
    assert host.locator('.qr-box:not([hidden]) svg.qr path[d^="M"]').count() == 1
    # the waiting room is in the lobby; nobody moves before the start, not even the bot
    lobby = context(browser).new_page()
    lobby.goto(server.base + "/")
    lobby.wait_for_selector("#open-games .game-card")
    assert "waiting to start" in lobby.inner_text("#open-games")
    time.sleep(0.5)
    assert body(host, "seq") == "0" and body(host, "started") == "no"
    # Blue opens the link; Green becomes a bot
    guest = context(browser).new_page()
    errors += watch_errors(guest)
    join(guest, links["B"], "Bo")
    host.wait_for_function(
        "() => document.querySelector('.room-seat[data-colour=B]').textContent.includes('Bo')"
    )
    host.select_option('.room-seat[data-colour="G"] .bot-level', "easy")
    host.click('.make-bot[data-colour="G"]')
    host.wait_for_function(
        "() => !document.querySelector('.room-seat[data-colour=G] .invite-link')", timeout=10000
    )
    assert body(guest, "started") == "no" and guest.locator("#start-btn:not([hidden])").count() == 0
    # chat in the waiting room: text stays text, a quick phrase in the reader's language
    guest.fill("#chat-input", '<img src=x id="evil"> hi')
    guest.click("#chat-send")
    host.wait_for_function("() => document.querySelector('#chat-log').textContent.includes('hi')")
    assert host.locator("#chat-log img, #evil").count() == 0
    assert '<img src=x id="evil"> hi' in host.inner_text("#chat-log")
    host.click('.phrase[data-phrase="good_luck"]')
    guest.wait_for_function(
        "() => document.querySelector('#chat-log').textContent.includes('Good luck!')"
    )
    # mute: Ann no longer sees Bo's lines
    host.click('.seat[data-colour="B"] .mute')
    host.wait_for_function("() => !document.querySelector('#chat-log').textContent.includes('hi')")
    guest.click('.phrase[data-phrase="oops"]')
    time.sleep(0.4)
    assert "Oops!" not in host.inner_text("#chat-log")
    host.click('.seat[data-colour="B"] .mute')  # unmute: the lines are back
    host.wait_for_function(
        "() => document.querySelector('#chat-log').textContent.includes('Oops!')"
    )
    # the host switches the chat off for everyone
    host.click("#chat-toggle")
    guest.wait_for_selector("#chat-form", state="hidden")
    guest.wait_for_selector("#chat-off-note:not([hidden])")
    shot(host, "room-chat-phone")
    # the start: the game begins for everyone, and the player to move is told in the title
    host.click("#start-btn")
    for p in (host, guest):
        p.wait_for_function("() => document.body.dataset.started === 'yes'")
        p.wait_for_selector("#room", state="hidden")
    deadline = time.monotonic() + 30
    seen_title = False
    while time.monotonic() < deadline and not seen_title:
        for p, colour in ((host, "R"), (guest, "B")):
            if body(p, "toMove") == colour and body(p, "status") == "playing":
                p.wait_for_function("() => document.title.includes('Your turn')")
                other = guest if p is host else host
                assert "Your turn" not in other.title()
                seen_title = True
                break
        time.sleep(0.05)
    assert seen_title
    assert not errors


def test_timer_runs_out_away_and_next_game(server: ServerProcess, browser: Any) -> None:
    """A 30-second timer (6 s here, --timer-scale 0.2): when it runs out a bot plays, the
    seat is away until its player is back; the next game of the match starts when both
    players have accepted."""
    g = create(
        server,
        {"R": "invite", "Y": "invite"},
        room={"start": "now", "timer": 30},
    )
    red, yellow = context(browser).new_page(), context(browser).new_page()
    errors = watch_errors(red) + watch_errors(yellow)
    join(red, g["links"]["R"], "Ann")
    join(yellow, g["links"]["Y"], "Yan")
    mover = red if body(red, "toMove") == "R" else yellow
    seat = "R" if mover is red else "Y"
    mover.wait_for_selector("#clock:not([hidden])")
    assert "s" in mover.inner_text("#clock")
    shot(mover, "timer-phone")
    # nobody taps: the bot plays the move and the seat is away
    mover.wait_for_function(
        "() => [...document.querySelectorAll('#log li')]"
        ".some(li => li.textContent.includes('time ran out'))",
        timeout=15000,
    )
    mover.wait_for_selector(f'.seat[data-colour="{seat}"] >> text=away')
    mover.wait_for_selector("#back-btn:not([hidden])")
    mover.click("#back-btn")
    mover.wait_for_selector("#back-btn", state="hidden")
    # both go away: bots finish the game
    for p in (red, yellow):
        p.wait_for_function("() => document.body.dataset.status === 'over'", timeout=240000)
    for p in (red, yellow):
        p.wait_for_selector("#over-panel:not([hidden])")
        assert "won" in p.inner_text("#result")
    shot(red, "end-phone")
    # Ann asks for the next game: she waits in its room until Yan accepts too
    red.click("#rematch-btn")
    red.wait_for_url("**/g/*")
    red.wait_for_selector("#room:not([hidden])")
    assert body(red, "started") == "no"
    assert "not ready yet" in red.inner_text("#room-seats")
    yellow.click("#rematch-btn")
    for p in (red, yellow):
        p.wait_for_function("() => document.body.dataset.started === 'yes'", timeout=15000)
    assert red.url == yellow.url
    assert not errors


def test_pawns_walk_along_the_track(server: ServerProcess, browser: Any) -> None:
    """A move is animated from the server's move effects: a pawn's walk has a keyframe for
    every square it passes, not one straight line."""
    g = create(server, {"R": "invite", "Y": "bot:medium"}, room={"start": "now"})
    page = context(browser).new_page()
    errors = watch_errors(page)
    join(page, g["links"]["R"], "Ann")
    tapper = Tapper(page)
    deadline = time.monotonic() + 90
    walked = False
    while time.monotonic() < deadline and not walked:
        walked = page.evaluate(
            "document.getAnimations().some(a => a.effect && a.effect.target"
            " && a.effect.target.classList.contains('pawn') && a.effect.getKeyframes().length >= 4)"
        )
        if not walked and body(page, "myTurn") == "yes":
            tapper.turn()
        time.sleep(0.02)
    assert walked, "no pawn walked square by square"
    assert not errors


def test_the_board_comes_into_view_on_your_turn(server: ServerProcess, browser: Any) -> None:
    """Red scrolled down to the chat while Yellow played: when the turn comes back to Red the
    page brings the board into view, unless Red is typing in the chat."""
    g = preset_game(
        server.database,
        "R:S,S,S,10 Y:S,S,S,40 R",
        base=server.base,
        card="5",
        seats={"R": "invite", "Y": "invite"},
    )
    red, yellow = context(browser).new_page(), context(browser).new_page()
    errors = watch_errors(red) + watch_errors(yellow)
    join(red, g["links"]["R"], "Ann")
    join(yellow, g["links"]["Y"], "Yan")
    reds, yellows = Tapper(red), Tapper(yellow)
    for typing in (False, True):
        reds.turn()
        red.wait_for_function("() => document.body.dataset.toMove === 'Y'")
        if typing:
            red.focus("#chat-input")
        red.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        assert not red.evaluate(BOARD_IN_VIEW)
        while body(yellow, "toMove") != "R" or body(red, "toMove") != "R":
            if body(yellow, "myTurn") == "yes":
                yellows.turn()
            time.sleep(0.05)
        red.wait_for_function("() => document.body.dataset.myTurn === 'yes'")
        if typing:
            time.sleep(0.5)
            assert not red.evaluate(BOARD_IN_VIEW)  # not while typing
        else:
            red.wait_for_function(BOARD_IN_VIEW, timeout=5000)
    assert not errors
