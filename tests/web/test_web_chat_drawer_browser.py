"""The chat next to the board in Chromium (Debian's, through Playwright), against ``sorry
serve`` in a subprocess: on a phone (upright or on its side) and an upright tablet the chat
is a drawer opened from the turn banner, whose button counts the others' messages that came
while it was closed (not the player's own), cleared when it opens; the drawer lies within the
screen, takes the focus to the message field, closes with its button or Escape (the focus
back on the button); on a desktop the chat stays in its place and there is no button. Sizes
(tap targets of 44 px, no sideways scroll) and axe (light and dark) with the drawer closed
and open. Set SORRY_SCREENSHOTS=DIR to keep a screenshot of each."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import (
    VIEWPORTS,
    axe_violations,
    body,
    check_sizes,
    context,
    preset_game,
    shot,
    start_server,
    watch_errors,
)

from server_helpers import ServerProcess
from sorry.web.limits import LimitSettings

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WAIT = 60000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    s = start_server(tmp_path_factory.mktemp("chat"))
    try:
        yield s
    finally:
        s.stop()


#: When the last test on this module's server ended (monotonic seconds).
_LAST_END = [float("-inf")]


@pytest.fixture(autouse=True)
def full_chat_allowance() -> Iterator[None]:
    """Every page of these tests writes from 127.0.0.1, whose chat lines the server lets
    through at ``chat_rate`` a second in bursts of ``chat_burst`` (limits.LimitSettings): a
    test starts once the lines of the one before are paid back, as they would be between
    two people's games, so that its lines are not refused (the drawer's test writes six)."""
    settings = LimitSettings()
    refill = settings.chat_burst / settings.chat_rate
    time.sleep(max(0.0, refill - (time.monotonic() - _LAST_END[0])))
    try:
        yield
    finally:
        _LAST_END[0] = time.monotonic()


def join(page: Any, link: str, name: str) -> None:
    page.goto(link)
    page.wait_for_selector("#join-btn", timeout=WAIT)
    page.fill("#name-input", name)
    page.click("#join-btn")
    page.wait_for_function("() => document.body.dataset.role === 'player'", timeout=WAIT)


def two_people(server: ServerProcess) -> dict[str, Any]:
    """A game of Red and Yellow, both invited, Red to play a 5."""
    game: dict[str, Any] = preset_game(
        server.database,
        "R:S,S,S,10 Y:S,S,S,40 R",
        base=server.base,
        card="5",
        seats={"R": "invite", "Y": "invite"},
    )
    return game


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")


def seen(page: Any, text: str, writer: Any = None) -> None:
    """``text`` arrives in ``page``'s chat; if not, what the writer's page says (a refusal
    puts the words back in its field with a notice)."""
    try:
        page.wait_for_function(
            f"() => document.querySelector('#chat-log').textContent.includes({text!r})",
            timeout=WAIT,
        )
    except Exception:
        if writer is None:
            raise
        said = writer.evaluate(
            "({notice: document.getElementById('notice').textContent,"
            " field: document.getElementById('chat-input').value,"
            " log: document.getElementById('chat-log').textContent})"
        )
        raise AssertionError(f"{text!r} never arrived; the writer's page: {said}") from None


OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth"
#: The drawer's controls under 44 CSS px, or sticking out of it.
SMALL_IN_DRAWER = """() => {
  const panel = document.getElementById('chat-panel').getBoundingClientRect();
  const out = [];
  for (const e of document.querySelectorAll('#chat-panel button, #chat-panel input')) {
    const r = e.getBoundingClientRect();
    if (!r.width || e.closest('[hidden]')) continue;
    if (r.width < 44 || r.height < 44) out.push(`${e.id || e.className} ${r.width}x${r.height}`);
    if (r.left < panel.left - 0.5 || r.right > panel.right + 0.5)
      out.push(`${e.id || e.className} outside`);
  }
  return out;
}"""

CASES = [
    ("phone", "light"),
    ("phone", "dark"),
    ("phone-landscape", "light"),
    ("phone-landscape", "dark"),
    ("tablet", "light"),
    ("desktop", "light"),
    ("desktop", "dark"),
]


@pytest.mark.parametrize(("viewport", "scheme"), CASES)
def test_the_chat_next_to_the_board(
    browser: Any, server: ServerProcess, viewport: str, scheme: str
) -> None:
    w, h, touch = VIEWPORTS[viewport]
    g = two_people(server)
    red = context(browser, viewport, color_scheme=scheme).new_page()
    yellow = context(browser, "desktop").new_page()
    errors = watch_errors(red) + watch_errors(yellow)
    join(red, g["links"]["R"], "Ann")
    join(yellow, g["links"]["Y"], "Yan")
    press = red.tap if touch else red.click
    red.wait_for_selector("#board .centre-card", timeout=WAIT)
    drawer = viewport != "desktop"
    if not drawer:
        # the chat in its place beside the board, no button for it
        assert not red.locator("#chat-open").is_visible()
        assert red.locator("#chat-panel").is_visible()
        say(yellow, "hello Ann")
        seen(red, "hello Ann")
        assert red.locator("#chat-badge").is_hidden()
        check_sizes(red, viewport)
        assert axe_violations(red) == []
        shot(red, f"chat-{viewport}-{scheme}")
        assert errors == []
        return
    # closed: the chat is not on the page; the button beside the board counts the messages
    assert red.locator("#chat-open").is_visible() and not red.locator("#chat-panel").is_visible()
    button = red.locator("#chat-open").bounding_box()
    board = red.locator("#board svg").bounding_box()
    assert button and board and button["y"] + button["height"] <= h  # in view with the board
    say(yellow, "hello Ann")
    red.wait_for_function("() => document.body.dataset.chatUnread === '1'", timeout=WAIT)
    say(yellow, "your move")
    red.wait_for_function("() => document.body.dataset.chatUnread === '2'", timeout=WAIT)
    assert red.inner_text("#chat-badge") == "2"
    assert red.get_by_role("button", name="Chat: 2 new messages").count() == 1
    # a reaction shows its emoji on the button a moment, while the drawer is closed
    yellow.click('.reaction[data-emoji="🎉"]')
    red.wait_for_function(
        "() => document.getElementById('chat-peek').textContent === '🎉'", timeout=WAIT
    )
    check_sizes(red, viewport)
    assert axe_violations(red) == []
    shot(red, f"chat-{viewport}-{scheme}-closed")
    # open: over the page, within the screen, the messages in it, the number gone
    press("#chat-open")
    red.wait_for_selector("#chat-panel.open", timeout=WAIT)
    assert red.locator("#chat-badge").is_hidden() and body(red, "chatUnread") == "0"
    red.wait_for_function("() => !document.getElementById('chat-peek').textContent", timeout=WAIT)
    assert red.get_attribute("#chat-open", "aria-expanded") == "true"
    box = red.locator("#chat-panel").bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= w + 0.5, box
    assert box["y"] >= 0 and box["y"] + box["height"] <= h + 0.5, box
    if viewport == "phone-landscape":  # from the right, the board left in view
        assert box["height"] >= h - 1 and box["x"] >= 0.4 * w, box
    else:  # from the bottom, the banner left in view
        assert box["width"] >= w - 1 and box["y"] > 0, box
    assert "your move" in red.inner_text("#chat-log")
    assert red.evaluate("document.activeElement.id") == "chat-input"
    assert red.locator("#chat-panel .chat-close").is_visible()
    # (the board's targets are under the drawer: what it covers is measured when closed)
    assert red.evaluate(OVERFLOW) <= 0
    assert red.evaluate(SMALL_IN_DRAWER) == []
    assert axe_violations(red) == []
    shot(red, f"chat-{viewport}-{scheme}-open")
    # the player's own message is not counted, nor anything while it is open
    say(red, "thanks")
    seen(yellow, "thanks")
    say(yellow, "welcome")
    seen(red, "welcome", yellow)
    assert body(red, "chatUnread") == "0"
    # closed by its button: the focus back on the chat button; a new message counts again
    press("#chat-panel .chat-close")
    red.wait_for_function("() => document.body.dataset.chatOpen === 'no'", timeout=WAIT)
    assert not red.locator("#chat-panel").is_visible()
    if not touch:
        assert red.evaluate("document.activeElement.id") == "chat-open"
    # Yellow's fifth line: a connection may send 4 at once, then one every 2 s (chat.RATE)
    yellow.wait_for_timeout(2100)
    say(yellow, "again")
    red.wait_for_function("() => document.body.dataset.chatUnread === '1'", timeout=WAIT)
    # Escape closes it too, and gives the focus back to the button
    red.focus("#chat-open")
    red.keyboard.press("Enter")
    red.wait_for_selector("#chat-panel.open", timeout=WAIT)
    red.keyboard.press("Escape")
    red.wait_for_function("() => document.body.dataset.chatOpen === 'no'", timeout=WAIT)
    assert red.evaluate("document.activeElement.id") == "chat-open"
    # the board is the player's again: a tap on a pawn is not taken by the drawer's backdrop
    assert red.locator("#chat-backdrop").is_hidden()
    assert errors == []


#: The page's WebSocket, made breakable by the test: ``__blocked`` sends new connections to a
#: path that refuses them, and ``__sockets`` are the page's sockets (to close them).
BREAKABLE_SOCKETS = """
(() => {
  const Real = window.WebSocket;
  window.__sockets = [];
  window.__blocked = false;
  window.WebSocket = class extends Real {
    constructor(url, protocols) {
      super(window.__blocked ? String(url).replace(/\\/ws\\/.*/, "/ws-refused") : url, protocols);
      window.__sockets.push(this);
    }
  };
})();
"""


def test_a_line_written_offline_is_sent_once_back_and_a_refused_one_is_kept(
    browser: Any, server: ServerProcess
) -> None:
    """A chat line written while the connection is down goes when it is back (the field
    emptied as for any line sent); a line the server refuses (too many too fast) is put back
    in the field with the reason, the writer's words not lost."""
    import json

    g = two_people(server)
    red_context = context(browser, "desktop")
    red_context.add_init_script(BREAKABLE_SOCKETS)
    red = red_context.new_page()
    yellow = context(browser, "desktop").new_page()
    errors = watch_errors(red) + watch_errors(yellow)

    def refuse_one(ws: Any) -> None:
        """Yellow's line "too fast" is answered as the server answers a line over the limit."""
        upstream = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "chat" and data.get("text") == "too fast":
                ws.send(json.dumps({"type": "error", "code": "chat_rate", "error": "x"}))
            else:
                upstream.send(message)

        ws.on_message(from_page)
        upstream.on_message(lambda message: ws.send(message))

    yellow.route_web_socket("**/ws/**", refuse_one)
    join(red, g["links"]["R"], "Ann")
    join(yellow, g["links"]["Y"], "Yan")
    red.evaluate("() => { window.__blocked = true; for (const s of window.__sockets) s.close(); }")
    red.wait_for_function(
        "() => document.getElementById('status').textContent.includes('reconnecting')",
        timeout=WAIT,
    )
    say(red, "are you there")
    assert red.input_value("#chat-input") == ""
    red.wait_for_timeout(500)  # still down: the line waits in the page
    assert "are you there" not in yellow.inner_text("#chat-log")
    red.evaluate("() => { window.__blocked = false; }")
    seen(yellow, "are you there")
    seen(red, "are you there")
    assert red.inner_text("#chat-log").count("are you there") == 1  # sent once
    say(yellow, "too fast")
    yellow.wait_for_function(
        "() => document.getElementById('notice').textContent.includes('one chat message')",
        timeout=WAIT,
    )
    assert yellow.input_value("#chat-input") == "too fast"
    say(yellow, "slower")  # the next line goes, and the field is emptied again
    seen(red, "slower")
    assert yellow.input_value("#chat-input") == ""
    assert "too fast" not in red.inner_text("#chat-log")
    assert errors == []
