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
    PAWNS_STILL,
    VIEWPORTS,
    Tapper,
    body,
    check_sizes,
    close_chat,
    context,
    open_chat,
    page_and_server,
    preset_game,
    shot,
    start_server,
    watch_errors,
)

from server_helpers import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = start_server(tmp_path_factory.mktemp("browser"), "--timer-scale", "0.2")
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
    check_sizes(page, viewport, board=False)
    shot(page, f"lobby-{viewport}")
    page.click("#create-form details summary")  # the rule options, in words
    page.wait_for_selector('#options select[data-option="deck"]')
    check_sizes(page, viewport, board=False)
    labels = page.inner_text("#options")
    assert "Deck" in labels and "two_draws_again" not in labels
    # only the options of the variant chosen: the teams' options appear with the teams
    assert page.locator('#options select[data-option="team_seven_split"]').is_hidden()
    page.select_option("#variant", "teams")
    assert page.locator('#options select[data-option="team_seven_split"]').is_visible()
    assert page.locator('#options select[data-option="points_bonus"]').is_hidden()
    page.select_option("#variant", "standard")
    page.select_option("#seat-G", "none")  # the teams had filled every seat
    # the options' words come from the core's table through /api/meta, the default first
    ten = page.locator('#options select[data-option="ten_backward"] option')
    assert [ten.nth(k).get_attribute("value") for k in range(ten.count())] == [
        "choice",
        "fallback",
    ]
    assert ten.nth(1).inner_text() == "only when no pawn can move 10 forward (house rule)"
    deck = page.locator('#options select[data-option="deck"] option')
    assert deck.nth(0).get_attribute("value") == "45"  # not sorted as numbers would be
    page.select_option('#options select[data-option="ten_backward"]', "fallback")
    # the host makes a game: Red is me, Blue invited, Yellow a bot; the waiting room opens
    page.fill("#host-name", "Ann")
    page.fill("#game-name", "Screens")
    page.select_option("#seat-B", "invite")
    page.select_option("#start-mode", "host")  # started by the host, after Blue's bot
    page.click("#create-btn")
    page.wait_for_selector("#room:not([hidden]) .invite-link")
    assert "ten_backward=fallback" in page.inner_text("#subtitle")
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
    # the end of a game (one move from it), then its replay
    g = preset_game(
        server.database,
        "R:H,H,H,s5 Y:S,S,40,48 R",
        base=server.base,
        card="1",
        seats={"R": "invite", "Y": "invite"},
    )
    page = context(browser, viewport).new_page()
    errors += watch_errors(page)
    join(page, g["links"]["R"], "Ann")
    tapper = Tapper(page, touch)
    tapper.tap(page.locator('.pawn[data-loc="s5"]'))
    tapper.tap(page.locator('.dest[data-place="RH"]'))  # HOME, where three pawns are already
    page.wait_for_selector("#over-panel:not([hidden])")
    assert page.inner_text("#result") == "You won!"
    check_sizes(page, viewport)
    shot(page, f"end-{viewport}")
    tapper.tap(page.locator("#replay-btn"))
    page.wait_for_function("() => document.body.dataset.replayAt === '0'", timeout=180000)
    check_sizes(page, viewport)
    shot(page, f"replay-{viewport}")
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
    host.select_option("#start-mode", "host")  # started by the host, after everyone came
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
    open_chat(guest)  # on a phone, a drawer opened from the banner
    open_chat(host)
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
    close_chat(host)  # the drawer covers the players' panel
    host.click('.seat[data-colour="B"] .mute')
    host.wait_for_function("() => !document.querySelector('#chat-log').textContent.includes('hi')")
    guest.click('.phrase[data-phrase="oops"]')
    time.sleep(0.4)
    assert "Oops!" not in host.inner_text("#chat-log")
    host.click('.seat[data-colour="B"] .mute')  # unmute: the lines are back
    host.wait_for_function(
        "() => document.querySelector('#chat-log').textContent.includes('Oops!')"
    )
    # a spectator chats too (under "Spectator"); the host mutes every spectator at once
    watcher = context(browser).new_page()
    errors += watch_errors(watcher)
    watcher.goto(host.url)
    watcher.wait_for_function("() => document.body.dataset.role === 'spectator'")
    open_chat(watcher)
    watcher.click('.phrase[data-phrase="hello"]')
    host.wait_for_function(
        "() => document.querySelector('#chat-log').textContent.includes('Hello!')"
    )
    assert "Spectator" in host.inner_text("#chat-log")
    open_chat(host)
    host.click("#mute-spectators")
    host.wait_for_function(
        "() => !document.querySelector('#chat-log').textContent.includes('Hello!')"
    )
    assert "Oops!" in host.inner_text("#chat-log")  # the players' lines stay
    assert "Hello!" in guest.inner_text("#chat-log")  # muted on Ann's screen only
    # the host switches the chat off for everyone
    host.click("#chat-toggle")
    guest.wait_for_selector("#chat-form", state="hidden")
    guest.wait_for_selector("#chat-off-note:not([hidden])")
    shot(host, "room-chat-phone")
    close_chat(host)
    close_chat(guest)
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


def test_an_open_seat_taken_from_the_lobby_starts_a_full_game(
    server: ServerProcess, browser: Any
) -> None:
    """A game that starts when every seat is taken, with an open seat: listed in the lobby
    with Join; a visitor joins from there, takes the seat under a name, and the game starts
    by itself for both."""
    host = context(browser).new_page()
    errors = watch_errors(host)
    host.goto(server.base + "/")
    host.wait_for_selector("#seat-Y option", state="attached")
    host.fill("#host-name", "Ann")
    host.fill("#game-name", "Open table")
    host.select_option("#seat-B", "open")
    host.select_option("#seat-Y", "none")
    host.select_option("#start-mode", "full")
    host.check("#public")
    host.click("#create-btn")
    host.wait_for_selector("#room:not([hidden])")
    assert body(host, "started") == "no"
    visitor = context(browser).new_page()
    errors += watch_errors(visitor)
    visitor.goto(server.base + "/")
    card = visitor.locator("#open-games .game-card", has_text="Open table")
    card.wait_for()
    assert "open seat" in card.inner_text() and "waiting to start" in card.inner_text()
    card.get_by_role("link", name="Join").tap()
    visitor.wait_for_function("() => document.body.dataset.role === 'spectator'")
    visitor.fill("#name-input", "Bo")
    visitor.locator('.take-seat[data-colour="B"]').tap()
    visitor.wait_for_function("() => document.body.dataset.role === 'player'")
    for p in (host, visitor):
        p.wait_for_function("() => document.body.dataset.started === 'yes'", timeout=15000)
    host.wait_for_function(
        "() => document.querySelector('.seat[data-colour=B]').textContent.includes('Bo')"
    )
    assert not errors


def test_a_finished_game_is_in_the_lobby_to_replay(server: ServerProcess, browser: Any) -> None:
    """A public game, played to its end, leaves the open games for the recently finished,
    with its winner and a Replay button that opens its end screen."""
    g = preset_game(
        server.database,
        "R:H,H,H,s5 Y:S,S,40,48 R",
        base=server.base,
        card="1",
        seats={"R": "invite", "Y": "invite"},
        name="Last move",
        public=True,
    )
    lobby = context(browser).new_page()
    errors = watch_errors(lobby)
    lobby.goto(server.base + "/")
    lobby.locator("#open-games .game-card", has_text="Last move").wait_for()
    red = context(browser).new_page()
    errors += watch_errors(red)
    join(red, g["links"]["R"], "Ann")
    red.locator('.pawn[data-loc="s5"]').tap()
    red.locator('.dest[data-place="RH"]').tap()
    red.wait_for_selector("#over-panel:not([hidden])")
    lobby.reload()
    card = lobby.locator("#finished-games .game-card", has_text="Last move")
    card.wait_for()
    assert "Red won!" in card.inner_text()
    assert lobby.locator("#open-games .game-card", has_text="Last move").count() == 0
    check_sizes(lobby, "phone", board=False)
    card.get_by_role("link", name="Replay").tap()
    lobby.wait_for_selector("#over-panel:not([hidden])")
    assert lobby.inner_text("#result") == "Red won!" and body(lobby, "role") == "spectator"
    lobby.tap("#replay-btn")
    lobby.wait_for_function("() => document.body.dataset.replayAt === '0'", timeout=180000)
    assert not errors


def test_timer_runs_out_away_and_next_game(server: ServerProcess, browser: Any) -> None:
    """A 60-second timer (12 s here, --timer-scale 0.2): when it runs out a bot plays, the
    seat is away until its player is back; the next game of the match starts when both
    players have accepted."""
    g = create(
        server,
        {"R": "invite", "Y": "invite"},
        room={"start": "host", "timer": 60},
    )
    red, yellow = context(browser).new_page(), context(browser).new_page()
    for p in (red, yellow):
        p.set_default_timeout(60000)  # generous: the machine running the tests may be loaded
    errors = watch_errors(red) + watch_errors(yellow)
    join(red, g["links"]["R"], "Ann")
    join(yellow, g["links"]["Y"], "Yan")
    # started once both pages are in: the 12 s of the first turn are not spent opening them
    start = {"host_token": g["host_token"], "action": "start"}
    server.api(f"/api/games/{g['id']}/host", start)
    for p in (red, yellow):
        p.wait_for_function(
            "() => document.body.dataset.started === 'yes' && !!document.body.dataset.toMove"
        )
    mover = red if body(red, "toMove") == "R" else yellow
    seat = "R" if mover is red else "Y"
    mover.wait_for_selector("#clock:not([hidden])")
    first = int(mover.inner_text("#clock").split()[0])
    assert 0 < first <= 12  # 60 s times 0.2
    mover.wait_for_function(
        f"() => parseInt(document.getElementById('clock').textContent) < {first}"
    )  # counting down
    clock = mover.locator("#clock").bounding_box()
    assert clock and clock["height"] < 50  # on one line
    shot(mover, "timer-phone")
    # nobody taps: the bot plays the move and the seat is away
    mover.wait_for_function(
        "() => [...document.querySelectorAll('#log li')]"
        ".some(li => li.textContent.includes('time ran out'))",
        timeout=120000,
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
    finished = red.url
    red.click("#rematch-btn")
    red.wait_for_url(lambda url: "/g/" in url and url != finished)
    red.wait_for_selector("#room:not([hidden])")
    assert body(red, "started") == "no"
    red.wait_for_function(
        "() => document.getElementById('room-seats').textContent.includes('not ready yet')"
    )
    yellow.click("#rematch-btn")
    # both pages showed the finished game as started: wait for Yan's page to reach the next one
    yellow.wait_for_url(red.url)
    for p in (red, yellow):
        p.wait_for_function("() => document.body.dataset.started === 'yes'")
    assert red.url == yellow.url != finished
    assert not errors


def test_pawns_walk_along_the_track(server: ServerProcess, browser: Any) -> None:
    """A move is animated from the server's move effects: a pawn's walk has a keyframe for
    every square it passes, not one straight line. A spectator who asked for reduced motion
    (prefers-reduced-motion) sees nothing move: no walk, no card turning over."""
    g = create(server, {"R": "invite", "Y": "bot:medium"}, room={"start": "now"})
    page = context(browser).new_page()
    errors = watch_errors(page)
    join(page, g["links"]["R"], "Ann")
    still = context(browser, reduced_motion="reduce").new_page()
    errors += watch_errors(still)
    still.goto(f"{server.base}/g/{g['id']}")
    still.wait_for_function("() => document.body.dataset.role === 'spectator'")
    tapper = Tapper(page)
    deadline = time.monotonic() + 90
    walked = False
    moving = []
    while time.monotonic() < deadline and not walked:
        walked = page.evaluate(
            "document.getAnimations().some(a => a.effect && a.effect.target"
            " && a.effect.target.classList.contains('pawn') && a.effect.getKeyframes().length >= 4)"
        )
        moving += still.evaluate("document.getAnimations().map(a => String(a.animationName || a))")
        if not walked and body(page, "myTurn") == "yes":
            tapper.turn()
        time.sleep(0.02)
    assert walked, "no pawn walked square by square"
    # the spectator saw the same moves, and nothing moved on their screen; the player's page
    # paces the bot's moves behind the walk, so both are read again until they agree
    deadline = time.monotonic() + 60
    while body(still, "seq") != body(page, "seq") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert body(still, "seq") == body(page, "seq"), page_and_server(page, server)
    assert int(body(still, "seq") or 0) >= 2
    assert moving == [], moving
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
            open_chat(red)
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


def test_the_hint_shows_on_the_board(server: ServerProcess, browser: Any) -> None:
    """Hint: the suggested move is ringed on the board (its pawn, and a ring where it goes,
    where that pawn's square is marked once tapped), said under the board, and marked in the
    list of every move."""
    g = preset_game(
        server.database,
        "R:S,S,12,33 Y:S,S,40,48 R",
        base=server.base,
        card="5",
        seats={"R": "invite", "Y": "invite"},
    )
    page = context(browser).new_page()
    errors = watch_errors(page)
    join(page, g["links"]["R"], "Ann")
    page.wait_for_function("() => document.body.dataset.myTurn === 'yes'")
    assert page.locator(".pawn.hinted, .hint-to").count() == 0
    page.tap("#hint-btn")
    page.wait_for_selector(".hint-to", timeout=60000)
    move = page.get_attribute("#moves .move.hinted", "data-move") or ""
    assert move in ("R12+5", "R33+5"), move
    hinted = page.locator(".pawn.hinted")
    assert hinted.count() == 1 and hinted.get_attribute("data-loc") == move[1:3]
    assert page.locator(".hint-to").count() == 1
    assert page.inner_text("#hint").startswith("Hint: Red")
    check_sizes(page, "phone")
    shot(page, "hint-phone")
    # the ring is where the hinted pawn goes: on the square marked when the pawn is tapped
    ring = page.evaluate(
        "(() => { const r = document.querySelector('.hint-to').getBoundingClientRect();"
        " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
    )
    hinted.tap()
    dest = page.locator(f'.dest[data-moves~="{move}"] .hit').bounding_box()
    assert dest is not None
    centre = (dest["x"] + dest["width"] / 2, dest["y"] + dest["height"] / 2)
    assert abs(centre[0] - ring[0]) < 2 and abs(centre[1] - ring[1]) < 2, (centre, ring)
    assert not errors


#: Every pawn's walk as the page starts it (recorded at once: a short walk is over before a
#: loaded machine could look at it): colour, where it ends, its keyframes (offset, transform).
RECORD_WALKS = """
window.__walks = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  if (this.classList && this.classList.contains('pawn'))
    window.__walks.push({c: this.dataset.colour, loc: this.dataset.loc,
      frames: frames.map(k => [k.offset, k.transform])});
  return animate.call(this, frames, options);
};
"""

#: A move from a preset position, the taps that make it, and what its pawns must do.
ANIMATED = {
    # a slide: five squares one by one to Blue's slide (16), then its three squares to 19
    "slide": ("R:S,S,S,11 Y:S,S,30,40 R", "5", ['.pawn[data-loc="11"]', '.dest[data-place="19"]']),
    # a Sorry!: Red from START to 30, then (not before) the Yellow pawn from there to START
    "sorry": ("R:S,S,S,S Y:S,S,30,40 R", "S", ['.pawn-Y[data-loc="30"]']),
    # an 11 swap: both pawns at once, crossing
    "swap": (
        "R:S,S,10,20 Y:S,S,30,40 R",
        "11",
        ['.pawn-R[data-loc="10"]', '.pawn-Y[data-loc="30"]'],
    ),
}


@pytest.mark.parametrize("kind", list(ANIMATED))
def test_slides_bumps_and_swaps_are_animated(
    server: ServerProcess, browser: Any, kind: str
) -> None:
    """The walks follow the move's effects from the core: a slide rides its squares after
    the landing, a bumped pawn goes back to START once the mover has arrived, the two pawns
    of a swap cross at the same time."""
    position, card, taps = ANIMATED[kind]
    g = preset_game(
        server.database, position, base=server.base, card=card, seats={"R": "invite", "Y": "invite"}
    )
    ctx = context(browser)
    ctx.add_init_script(RECORD_WALKS)
    page = ctx.new_page()
    errors = watch_errors(page)
    join(page, g["links"]["R"], "Ann")
    page.wait_for_function("() => document.body.dataset.myTurn === 'yes'")
    # the turn banner: large (30% over the page's text) and lit on the player's turn only
    size = "parseFloat(getComputedStyle(document.getElementById('status')).fontSize)"
    assert page.evaluate(size) >= 1.3 * 16 - 0.5
    assert "mine" in (page.get_attribute("#banner", "class") or "")
    for target in taps:
        page.locator(target).tap(timeout=10000)
    page.wait_for_function("() => document.body.dataset.seq === '1'")
    assert "mine" not in (page.get_attribute("#banner", "class") or "")
    assert page.evaluate(size) < 1.3 * 16 - 0.5
    walks = page.evaluate("window.__walks")
    by = {w["c"]: w for w in walks}

    def moves_at(walk: dict[str, Any]) -> float:
        """The offset at which the pawn first leaves where it stood."""
        first = walk["frames"][0][1]
        return float(next(o for o, tr in walk["frames"] if tr != first))

    if kind == "slide":
        assert [w["c"] for w in walks] == ["R"] and by["R"]["loc"] == "19"
        assert len({tr for _o, tr in by["R"]["frames"]}) == 1 + 5 + 3  # every square passed
    elif kind == "sorry":
        assert sorted(by) == ["R", "Y"] and by["R"]["loc"] == "30" and by["Y"]["loc"] == "S"
        assert moves_at(by["R"]) < 0.5 <= moves_at(by["Y"])  # Yellow waits for Red
    else:
        assert sorted(by) == ["R", "Y"] and by["R"]["loc"] == "30" and by["Y"]["loc"] == "10"
        assert moves_at(by["R"]) == moves_at(by["Y"])  # at the same time
        assert by["R"]["frames"][0][1] == by["Y"]["frames"][-1][1]  # crossing
        assert by["Y"]["frames"][0][1] == by["R"]["frames"][-1][1]
    # the move stays marked: a ring where each pawn came from and one where it went
    page.evaluate(PAWNS_STILL)
    marks = page.evaluate(
        """() => [...document.querySelectorAll('.last-from, .last-to')].map(c =>
          [c.getAttribute('class'), Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))])"""
    )
    assert len(marks) == 2 * len(walks), marks
    for w in walks:
        pawn = page.locator(f'.pawn-{w["c"]}[data-loc="{w["loc"]}"]').first
        x, y = float(pawn.get_attribute("data-x") or 0), float(pawn.get_attribute("data-y") or 0)
        if w["loc"] != "S":  # START holds its pawns around its middle
            near = [k for k, cx, cy in marks if abs(cx - x) < 1 and abs(cy - y) < 1]
            assert "last-to" in near, (w, marks)
    time.sleep(1.0)
    assert page.locator(".last-from, .last-to").count() == len(marks)  # until the next move
    assert not errors


#: Is the panel of the turn (the prompt, the hand, the buttons) on screen in the column beside
#: the board?
ACTIONS_IN_VIEW = """() => { const s = document.getElementById('side').getBoundingClientRect();
  const a = document.getElementById('actions').getBoundingClientRect();
  return a.top >= s.top - 1 && a.top + 60 <= s.bottom; }"""


def test_the_hand_comes_into_view_on_a_landscape_phone(server: ServerProcess, browser: Any) -> None:
    """On a landscape phone the panels beside the board scroll by themselves: Red scrolled
    them down to the chat while Yellow played; when the turn comes back the panel with Red's
    hand (points: the card is chosen there first) comes into view, unless Red is typing."""
    g = preset_game(
        server.database,
        "R:S,S,12,33 Y:S,S,40,48 R",
        base=server.base,
        variant="points",
        hands={"R": "3 4 5 8 10", "Y": "3 4 5 8 10"},
        seats={"R": "invite", "Y": "invite"},
    )
    red = context(browser, "phone-landscape").new_page()
    yellow = context(browser).new_page()
    errors = watch_errors(red) + watch_errors(yellow)
    join(red, g["links"]["R"], "Ann")
    join(yellow, g["links"]["Y"], "Yan")
    reds, yellows = Tapper(red), Tapper(yellow)
    for typing in (False, True):
        reds.turn()
        red.wait_for_function("() => document.body.dataset.toMove === 'Y'")
        if typing:
            open_chat(red)
            red.focus("#chat-input")
        red.evaluate(
            "(() => { const s = document.getElementById('side'); s.scrollTop = s.scrollHeight; })()"
        )
        assert not red.evaluate(ACTIONS_IN_VIEW)
        assert red.evaluate(BOARD_IN_VIEW)  # the board stays where it is
        while body(yellow, "toMove") != "R" or body(red, "toMove") != "R":
            if body(yellow, "myTurn") == "yes":
                yellows.turn()
            time.sleep(0.05)
        red.wait_for_function("() => document.body.dataset.myTurn === 'yes'")
        if typing:
            time.sleep(0.5)
            assert not red.evaluate(ACTIONS_IN_VIEW)  # not while typing
        else:
            red.wait_for_function(ACTIONS_IN_VIEW, timeout=5000)
            assert red.locator("#hand .card").first.is_visible()
            shot(red, "hand-in-view-phone-landscape")
    assert not errors


#: The browser's notifications, recorded (Chromium headless has none to show), and a tab
#: that can be hidden.
NOTIFY_STUB = """
window.__notes = []; window.__asked = 0; window.__hidden = false;
class FakeNotification {
  constructor(title, opts) { window.__notes.push([title, (opts || {}).body || '']); }
  static requestPermission() {
    window.__asked++; FakeNotification.permission = 'granted'; return Promise.resolve('granted');
  }
}
FakeNotification.permission = 'default';
window.Notification = FakeNotification;
Object.defineProperty(Document.prototype, 'hidden', {get() { return window.__hidden; }});
"""


def test_your_turn_title_icon_sound_and_notification(server: ServerProcess, browser: Any) -> None:
    """ "Your turn" shows in the title and on the tab's icon; the sound is off until turned on
    and the choice is remembered; permission to notify is asked only from a click, and a
    notification comes only when the tab is hidden."""
    g = preset_game(
        server.database,
        "R:S,S,12,33 Y:S,S,40,48 R",
        base=server.base,
        card="5",
        seats={"R": "invite", "Y": "invite"},
        name="Tuesday",
    )
    red_ctx = context(browser)
    red_ctx.add_init_script(NOTIFY_STUB)
    red, yellow = red_ctx.new_page(), context(browser).new_page()
    errors = watch_errors(red) + watch_errors(yellow)
    join(red, g["links"]["R"], "Ann")
    join(yellow, g["links"]["Y"], "Yan")
    icon = "document.getElementById('favicon').getAttribute('href')"
    red.wait_for_function("() => document.title.startsWith('● Your turn')")
    assert red.evaluate(icon) == "/static/favicon-turn.svg"
    assert "Your turn" not in yellow.title() and yellow.evaluate(icon) == "/static/favicon.svg"
    assert red.evaluate("window.__asked") == 0  # never asked without a click
    # the sound: off by default, remembered once turned on
    red.click("#settings summary")
    assert not red.is_checked("#sound-on")
    red.check("#sound-on")
    assert red.evaluate("localStorage.getItem('sorry:sound')") == "on"
    red.reload()
    red.wait_for_function("() => document.body.dataset.myTurn === 'yes'")
    red.click("#settings summary")
    assert red.is_checked("#sound-on")
    red.click("#notify-btn")
    red.wait_for_function("() => window.__asked === 1")
    assert "on" in red.inner_text("#notify-state")
    reds, yellows = Tapper(red), Tapper(yellow)

    def round_trip() -> None:
        """Red plays; Yellow plays until it is Red's turn again."""
        reds.turn()
        red.wait_for_function("() => !document.title.includes('Your turn')")
        assert red.evaluate(icon) == "/static/favicon.svg"
        while body(yellow, "toMove") != "R" or body(red, "myTurn") != "yes":
            if body(yellow, "myTurn") == "yes":
                yellows.turn()
            time.sleep(0.05)

    round_trip()  # the tab is on screen: no notification
    assert red.evaluate("window.__notes") == []
    red.evaluate("window.__hidden = true")
    round_trip()  # hidden: a notification with the game's name
    red.wait_for_function("() => window.__notes.length === 1")
    assert red.evaluate("window.__notes") == [["Your turn", "Tuesday"]]
    assert not errors


@pytest.mark.parametrize("lang", ["ca", "eo", "el", "sw"])
def test_every_language_fits_a_phone(server: ServerProcess, browser: Any, lang: str) -> None:
    """The longer words of the other languages: the header holds on one line, nothing scrolls
    sideways or sticks out of its panel, every control keeps 44 px, on the lobby (its rule
    options open), the waiting room and a game with a pawn chosen."""
    w, h, _touch = VIEWPORTS["phone"]
    ctx = browser.new_context(
        viewport={"width": w, "height": h},
        has_touch=True,
        is_mobile=True,
        locale=lang,
        extra_http_headers={"Accept-Language": lang},
    )
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(server.base + "/")
    page.wait_for_selector("#seat-Y option", state="attached")
    assert page.evaluate("document.documentElement.lang") == lang
    page.click("#create-form details summary")
    check_sizes(page, "phone", board=False)
    shot(page, f"lobby-phone-{lang}")
    page.fill("#host-name", "Ann")
    page.select_option("#seat-B", "invite")
    page.click("#create-btn")
    page.wait_for_selector("#room:not([hidden]) .invite-link")
    page.click(".show-qr")
    check_sizes(page, "phone")
    shot(page, f"room-phone-{lang}")
    g = preset_game(
        server.database,
        "R:S,S,12,33 Y:S,S,40,48 R",
        base=server.base,
        card="5",
        seats={"R": "invite", "Y": "invite"},
        room={"started": True, "start": "now", "timer": 60},
    )
    page.goto(g["links"]["R"])
    page.wait_for_selector("#join-btn")
    page.tap("#join-btn")
    page.wait_for_function("() => document.body.dataset.myTurn === 'yes'")
    page.wait_for_selector("#clock:not([hidden])")
    page.locator('.pawn[data-loc="12"]').tap()
    page.wait_for_selector(".dest")
    check_sizes(page, "phone")
    banner = page.locator("#banner").bounding_box()
    assert banner and banner["height"] <= 100, banner  # two lines at most
    shot(page, f"game-phone-{lang}")
    # the end of a game and its replay, the move shown in the page's language
    g = preset_game(
        server.database,
        "R:H,H,H,s5 Y:S,S,40,48 R",
        base=server.base,
        card="1",
        seats={"R": "invite", "Y": "invite"},
    )
    page.goto(g["links"]["R"])
    page.wait_for_selector("#join-btn")
    page.tap("#join-btn")
    page.wait_for_function("() => document.body.dataset.myTurn === 'yes'")
    page.locator('.pawn[data-loc="s5"]').tap()
    page.locator('.dest[data-place="RH"]').tap()
    page.wait_for_selector("#over-panel:not([hidden])")
    check_sizes(page, "phone")
    page.tap("#replay-btn")
    page.wait_for_function("() => document.body.dataset.replayAt === '0'", timeout=180000)
    page.tap("#replay-next")
    page.wait_for_function("() => document.body.dataset.replayAt === '1'")
    check_sizes(page, "phone")
    red = {"ca": "Vermell", "eo": "Ruĝa", "el": "Κόκκινο", "sw": "Nyekundu"}[lang]
    assert red in page.inner_text("#replay-move").split(":")[0]  # with its article (ca, el)
    shot(page, f"replay-phone-{lang}")
    assert not errors
